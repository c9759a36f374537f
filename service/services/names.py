"""Names people choose (game seats, tournament players, annotation authors): one
normaliser for all three, and names compared by how they look rather than by their code
points.

- ``normalise``: Unicode NFKC (full-width and styled letters become plain ones), then
  every character that shows nothing removed: format characters (zero-width spaces and
  joiners, bidi controls: category Cf) and all other default-ignorable code points
  (Hangul fillers, variation selectors, the combining grapheme joiner; the Unicode
  property, as the ``regex`` library knows it for its Unicode version) and blank-looking
  letters (the blank Braille pattern); runs of white space made one space; control
  characters refused; a name needs one visible letter, digit, punctuation or symbol (a
  name of combining marks alone shows nothing).
- ``skeletons``: keys under which look-alike names collide ("Alice", "Аlice" with a
  Cyrillic А, "AIice" with a capital I, "ALICE", "rn" and "m"). Each is the Unicode
  confusables skeleton (UTS #39, section 4) as ICU computes it (PyICU's
  ``SpoofChecker.getSkeleton``: the reference implementation, over the confusables
  table of the ICU the machine has), of the name with its faint marks removed first
  (``_faint``: marks under a letter, the dot and the small commas above, which a reader does not see at a
  name's size: "bọb" is "bob"). Case folding both before and after the skeleton gives
  two keys (a capital I looks like an l, its small form does not); two names collide
  when any key is shared.
- ``check_new``: the whole check of a new name: normalised, not mixing look-alike
  scripts, not looking like a reserved role word (``ROLE_WORDS``: a name must not pass
  for the referee or the director), not looking like a name already taken.
- ``is_deceptive``: one word written in two of the scripts whose letters imitate each
  other (Latin, Cyrillic, Greek, Armenian, Cherokee), e.g. a Latin name with one
  Cyrillic letter. Words in different scripts ("李 Smith") are fine.

The checks run at the edge, before anything is appended: a log already written never
depends on this table, so an update of the library cannot change a refold.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import icu
import regex

from service.services.errors import Conflict, Forbidden, Invalid, Refusal

_SPACES = re.compile(r"\s+")
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]")
_VISIBLE = regex.compile(r"[\p{L}\p{N}\p{P}\p{S}]")
# Words a name must not pass for: the roles a token proves (compared by look).
ROLE_WORDS = ("referee", "director", "system", "tournament director", "arbiter", "judge", "admin", "moderator")


def _visible_text(name: str) -> str:
    return _SPACES.sub(" ", _INVISIBLE.sub("", unicodedata.normalize("NFKC", name))).strip()


def shows(text: str) -> bool:
    """Whether the text shows something once normalised (a letter, digit, punctuation or symbol)."""
    return bool(_VISIBLE.search(_visible_text(text)))


def normalise(name: str, max_length: int = 60) -> str:
    """The name as stored and shown; 400 ``bad_name`` when nothing visible is left."""
    if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in name):
        raise Invalid("bad_name", "a name may not contain control characters")
    text = _visible_text(name)
    if not _VISIBLE.search(text):
        raise Invalid("bad_name", "a name needs at least one visible character")
    if len(text) > max_length:
        raise Invalid("bad_name", f"a name has at most {max_length} characters")
    return text


# The skeletons' source: stored look-alike keys name it, so a new ICU re-indexes them.
SKELETON_SOURCE = f"uts39 icu {icu.ICU_VERSION} unicode {icu.UNICODE_VERSION}"
_CHECKER = icu.SpoofChecker()  # getSkeleton is const in ICU: safe to share between threads
# Marks a reader does not see at a name's size: every mark drawn under its letter
# (canonical combining classes 202 "attached below" and 220 "below": dot, comma, ring,
# cedilla, line below...) and the dot above ("ṅ", the dot of an "i̇").
FAINT_ABOVE = frozenset("\u0307\u0358\u0312\u0313\u0314\u0315")  # dots and small commas above
# Canonical combining classes of marks drawn under a letter: attached below, below left,
# below, below right, double below, iota subscript.
FAINT_BELOW = frozenset((202, 218, 220, 222, 233, 240))


def _faint(char: str) -> bool:
    return unicodedata.combining(char) in FAINT_BELOW or char in FAINT_ABOVE


def _skeleton(text: str) -> str:
    return str(_CHECKER.getSkeleton(0, text))


@lru_cache(maxsize=1)
def _small_capitals() -> dict[int, str]:
    """Small capital letters (ᴀ, ʀ, ꜱ...) -> the letter they read as. NFKC leaves them, and
    the confusables table lists only some; their Unicode names say which letter each is."""
    blocks = (range(0x0250, 0x02B0), range(0x1D00, 0x1D80), range(0xA700, 0xA800))
    out: dict[int, str] = {}
    for block in blocks:
        for code in block:
            found = _SMALL_CAPITAL.fullmatch(unicodedata.name(chr(code), ""))
            if found:
                out[code] = found.group(1).lower()
    return out


_SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")


def _plain(text: str) -> str:
    """``text`` without faint marks, small capitals read as their letters."""
    decomposed = unicodedata.normalize("NFD", text).translate(_small_capitals())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not _faint(c)))


@lru_cache(maxsize=4096)
def skeletons(name: str) -> frozenset[str]:
    clean = _plain(_visible_text(name))  # never refuses: names stored by an older normaliser are compared too
    return frozenset({_skeleton(_skeleton(clean).casefold()), _skeleton(clean.casefold())})


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


def check_new(
    name: str,
    taken: Iterable[str] = (),
    what: str = "name",
    code: str = "name_taken",
    max_length: int = 60,
    reserved: Iterable[str] = ROLE_WORDS,
    refused_as: type[Refusal] = Conflict,
) -> str:
    """The normalised ``name``, refused (400) if it imitates another script, (403
    ``reserved_name``) if it looks like one of ``reserved``, or (409, ``code``) if it
    looks like one of ``taken``."""
    clean = normalise(name, max_length)
    if is_deceptive(clean):
        raise Invalid("confusable_name", f"this {what} mixes look-alike letters of different scripts", {"name": clean})
    keys = skeletons(clean)
    for word in reserved:
        if keys & skeletons(word):
            raise Forbidden(
                "reserved_name",
                f"{clean!r} is reserved: seats, the referee and the director are named by their token",
                {"name": clean},
            )
    for other in taken:
        if keys & skeletons(other):
            raise refused_as(code, f"this {what} looks the same as {other!r}", {"name": clean, "taken": other})
    return clean


def check_seats(seat_names: list[str]) -> list[str]:
    """The seat names of one new game, each checked as a new name; two that look the
    same are one request contradicting itself (400 ``same_seat_names``)."""
    out: list[str] = []
    for name in seat_names:
        out.append(check_new(name, out, "seat name", code="same_seat_names", refused_as=Invalid))
    return out
