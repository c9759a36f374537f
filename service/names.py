"""Names people choose (tournament players, annotation authors): normalised, and
compared by how they look rather than by their code points.

- ``normalise``: Unicode NFKC (full-width and styled letters become plain ones), format
  characters removed (zero-width spaces and joiners, bidi controls: category Cf), runs
  of white space made one space; control characters refused.
- ``skeletons``: keys under which look-alike names collide ("Alice", "Аlice" with a
  Cyrillic А, "AIice" with a capital I, "ALICE"). Built from the Unicode confusables
  table as packaged by ``confusable-homoglyphs`` (pinned): every character is replaced
  by the smallest code point of its group of mutually confusable characters (the groups
  are the connected components of the table, computed once). Case folding both before
  and after that mapping gives two keys (a capital I looks like an l, its small form
  does not); two names collide when any key is shared.
- ``is_deceptive``: one word written in two of the scripts whose letters imitate each
  other (Latin, Cyrillic, Greek, Armenian, Cherokee), e.g. a Latin name with one
  Cyrillic letter. Words in different scripts ("李 Smith") are fine.

The checks run at the edge, before anything is appended: a log already written never
depends on this table, so an update of the library cannot change a refold.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

from .errors import ApiError

_SPACES = re.compile(r"\s+")


def normalise(name: str, max_length: int = 60) -> str:
    """The name as stored and shown; 400 ``bad_name`` when nothing printable is left."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in text):
        raise ApiError(400, "bad_name", "a name may not contain control characters")
    text = _SPACES.sub(" ", text).strip()
    if not text:
        raise ApiError(400, "bad_name", "a name needs at least one visible character")
    if len(text) > max_length:
        raise ApiError(400, "bad_name", f"a name has at most {max_length} characters")
    return text


@lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """char -> the smallest character of its confusable group (union-find over the table)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = glyph["c"]
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def _map(text: str) -> str:
    table = _representatives()
    return "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))


def skeletons(name: str) -> set[str]:
    clean = normalise(name)
    return {_map(_map(clean).casefold()), _map(clean.casefold())}


_LOOKALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE")


def _script(char: str) -> str | None:
    label = unicodedata.name(char, "")
    return next((s for s in _LOOKALIKE_SCRIPTS if label.startswith(s)), None)


def is_deceptive(name: str) -> bool:
    for word in name.split():
        scripts = {_script(c) for c in word if c.isalpha()} - {None}
        if len(scripts) > 1:
            return True
    return False


def check_new(name: str, taken: list[str], what: str = "name", code: str = "name_taken") -> str:
    """The normalised ``name``, refused (400) if it imitates another script, or (409,
    ``code``) if it looks like one of ``taken``."""
    clean = normalise(name)
    if is_deceptive(clean):
        raise ApiError(400, "confusable_name", f"this {what} mixes look-alike letters of different scripts",
                       {"name": clean})
    keys = skeletons(clean)
    for other in taken:
        if keys & skeletons(other):
            raise ApiError(409, code, f"this {what} looks the same as {other!r}", {"name": clean, "taken": other})
    return clean
