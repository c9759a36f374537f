"""axe-core, the accessibility engine of the browsers' own audits, run in the page.

It comes from npm, pinned in tests/browser/axe/package.json, installed by `make test` (or
by the first test that needs it) into tests/browser/axe/node_modules/ (ignored by git);
nothing is fetched from a CDN while the tests run. The script is evaluated through the DevTools protocol, so a page's
Content-Security-Policy does not stand in its way.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PREFIX = Path(__file__).parent / "axe"
SCRIPT = PREFIX / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 / 2.1, levels A and AA
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("critical", "serious")


def axe_script() -> str:
    if not SCRIPT.exists():
        npm = shutil.which("npm")
        if not npm:
            pytest.skip("npm is not installed (apt-get install npm); it installs axe-core for the accessibility tests")
        subprocess.run(
            [npm, "install", "--prefix", str(PREFIX), "--no-audit", "--no-fund", "--no-package-lock", "--silent"],
            check=True,
            timeout=300,
        )
    return SCRIPT.read_text(encoding="utf-8")


def audit(page, script: str, *, include_moderate: bool = False) -> list[dict]:
    """The page's WCAG 2.1 A/AA violations (critical and serious unless asked for all),
    each as {id, impact, help, nodes: [html, target, summary]}."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(script + "\n;void 0")
    found = page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({ html: n.html.slice(0, 200), target: n.target.join(' '),
                                                     summary: (n.failureSummary || '').slice(0, 300) })) }));
        }""",
        TAGS,
    )
    return [v for v in found if include_moderate or v["impact"] in BLOCKING]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']} {v['id']}: {v['help']}")
        for n in v["nodes"]:
            lines.append(f"    {n['target']}  {n['html'][:140]}  {n['summary'][:160]}")
    return "\n".join(lines)
