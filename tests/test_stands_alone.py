"""The repository stands alone: no tracked file points outside it to the design contract,
the rules digests or the seed texts (they live in docs/DESIGN.md and docs/rules/), and
every game in the registry has its rules reference and its game doc."""

from __future__ import annotations

import subprocess
from pathlib import Path

from projections.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = "../" + "shared/"  # spelled in two pieces so this file does not match itself


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_cites_a_path_outside_the_repository():
    offenders = []
    for path in tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if OUTSIDE in text or "shared/" + "rules/" in text or "shared/" + "seeds/" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"these files cite {OUTSIDE}: {offenders}"


def missing_docs(packages) -> list[str]:
    """The docs check: every registered game has a rules reference and a game doc."""
    wanted = [f"docs/{kind}/{package}.md" for package in packages for kind in ("rules", "games")]
    return [name for name in wanted if not (ROOT / name).is_file()]


def test_the_design_and_a_rules_reference_per_game_are_in_docs():
    assert (ROOT / "docs" / "DESIGN.md").is_file()
    assert missing_docs(GAME_PACKAGES) == []
