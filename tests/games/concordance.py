"""The rulebook concordance: every sentence of a game's rulebook that grants a choice or a
moment ("may", "can", "at any time"), and what the engine does with it.

Nine rules corrections in a row had one cause: a rulebook's 可 / 能 ("may") read as
"must" through an English reference text. The concordance in ``docs/rules/<game>.md``
lists each such sentence, quoted exactly, and says for each either which test shows the
engine offering the choice and its decline (``Test:``), or why the engine reads it as a
permission with nothing to decide, citing the rulebook's context (``Reading:``).

The section is headed ``## Concordance`` and holds one entry per sentence::

    > 玩家可移動1名軍團。
    - Says: a player may move one legion.
    - Engine: `move_legion` is offered beside `pass_military`.
    - Test: tests/games/age_of_rome/test_x.py::test_military_may_be_declined

``Test:`` may name several tests, separated by commas. ``Reading:`` takes the place of
``Test:`` where no decision exists. A ``## Silent readings`` section after it names the
engine's readings where the rulebook says nothing (free text, not checked here).

Completeness is checked against the rulebook text itself, which the repository does not
carry (it is the user's): ``python -m tests.games.concordance <rulebook.txt> <game>``
prints every modal sentence of the text that the concordance does not list.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MODAL = re.compile(
    r"可(?!能)"  # 可, 可以, 可選擇 (可能 is "possibly", not a permission)
    r"|(?<![功效可才])能"  # 能 (not 功能/效能 "effect", 可能, 才能)
    r"|(?<![獲取贏值記使覺所懂])得(?![到分])"  # 得 "must/may" (not 獲得 "gain", 得分 "score", ...)
    r"|隨時|任何時刻|任何時候"
)
"""A sentence that grants a choice or a moment. The exclusions are words that merely
contain the character (獲得 "gain", 效能 "a building's effect")."""

SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|\n")


def sentences(text: str) -> list[str]:
    """The text cut into sentences at 。！？； and line ends, stripped, empty ones dropped."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def modal_sentences(text: str) -> list[str]:
    """Every sentence of ``text`` the concordance must list, in order, each once."""
    seen: dict[str, None] = {}
    for sentence in sentences(text):
        if MODAL.search(sentence):
            seen.setdefault(sentence, None)
    return list(seen)


@dataclass
class Entry:
    sentence: str
    line: int
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def tests(self) -> list[str]:
        return [t.strip().strip("`") for t in self.fields.get("Test", "").split(",") if t.strip()]


FIELD = re.compile(r"^- (Says|Engine|Test|Reading):\s*(.*)$")


def entries(markdown: str) -> list[Entry]:
    """The entries of the ``## Concordance`` section, in order."""
    found: list[Entry] = []
    inside = False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("## "):
            inside = line.startswith("## Concordance")
            continue
        if not inside:
            continue
        if line.startswith("> "):
            found.append(Entry(line[2:].strip(), number))
        elif found and (match := FIELD.match(line)):
            found[-1].fields[match.group(1)] = match.group(2).strip()
        elif found and line.startswith("  ") and found[-1].fields:  # a field's continuation line
            last = list(found[-1].fields)[-1]
            found[-1].fields[last] += " " + line.strip()
    return found


def concordance_path(game: str) -> Path:
    return ROOT / "docs" / "rules" / f"{game}.md"


def names_a_test(reference: str) -> bool:
    """Whether ``path::name`` names a test function defined in that file."""
    path, _, name = reference.partition("::")
    name = name.split("[")[0]
    file = ROOT / path
    if not name or not file.is_file():
        return False
    return re.search(rf"^\s*(async )?def {re.escape(name)}\(", file.read_text(encoding="utf-8"), re.M) is not None


def problems(game: str) -> list[str]:
    """What is wrong with a game's concordance: an entry with neither a test nor a reason,
    a test that does not exist, a sentence listed twice or one that grants nothing."""
    listed = entries(concordance_path(game).read_text(encoding="utf-8"))
    found: list[str] = []
    if not listed:
        found.append(f"{game}: no ## Concordance entries")
    seen: set[str] = set()
    for entry in listed:
        where = f"docs/rules/{game}.md:{entry.line}"
        if entry.sentence in seen:
            found.append(f"{where}: listed twice")
        seen.add(entry.sentence)
        if not MODAL.search(entry.sentence):
            found.append(f"{where}: grants no choice by the concordance's own pattern")
        if not entry.fields.get("Engine"):
            found.append(f"{where}: says nothing of what the engine does")
        if not entry.tests and len(entry.fields.get("Reading", "")) < 20:
            found.append(f"{where}: neither a test nor a reason")
        found.extend(f"{where}: no test {t}" for t in entry.tests if not names_a_test(t))
    return found


def missing(rulebook: str, game: str) -> list[str]:
    """The modal sentences of the rulebook text that the game's concordance does not list."""
    listed = {e.sentence for e in entries(concordance_path(game).read_text(encoding="utf-8"))}
    return [s for s in modal_sentences(rulebook) if s not in listed]


if __name__ == "__main__":
    text_path, game_name = sys.argv[1], sys.argv[2]
    absent = missing(Path(text_path).read_text(encoding="utf-8"), game_name)
    for sentence in absent:
        print(sentence)
    print(f"{len(absent)} of {len(modal_sentences(Path(text_path).read_text(encoding='utf-8')))} not listed")
    sys.exit(1 if absent else 0)
