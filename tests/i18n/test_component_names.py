"""Every component a game's data names has a zh-Hant entry, whether or not a played game
happens to show it: the renderers pass these names through the catalogue (`tn`), and a
rare one (a solo title reached only with 75 glory) would otherwise stay English until
some game met it. The random-game sweeps find the composed texts; this finds the names."""

from __future__ import annotations

import json
from pathlib import Path

from projections.games.age_of_rome import view as age_of_rome_view

ROOT = Path(__file__).parents[2]
CATALOGUE = json.loads((ROOT / "service" / "static" / "i18n" / "zh-Hant.json").read_text(encoding="utf-8"))
NAMING_KEYS = {"name", "title", "titles"}


def names(obj, key=None, out=None) -> set[str]:
    out = set() if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            names(v, k, out)
    elif isinstance(obj, list):
        for v in obj:
            names(v, key, out)
    elif isinstance(obj, str) and key in NAMING_KEYS and any(c.isalpha() for c in obj) and not obj.isupper():
        out.add(obj)
    return out


def test_every_name_in_the_games_data_has_a_chinese_entry():
    files = sorted((ROOT / "projections" / "games").glob("*/data/*.json"))
    assert files
    missing = [
        (f.relative_to(ROOT).as_posix(), n)
        for f in files
        for n in sorted(names(json.loads(f.read_text(encoding="utf-8"))))
        if n not in CATALOGUE
    ]
    assert not missing, missing[:20]


def test_every_age_of_rome_card_text_has_a_chinese_entry():
    """The view's catalogue words each card's effect ("extra draws 1"); the board shows them."""
    catalogue = age_of_rome_view._catalogue()
    texts = {c["text"] for c in catalogue["commerce"].values()}
    texts |= {e[k] for e in catalogue["events"].values() for k in ("bonus", "fallback")}
    missing = sorted(t for t in texts if t and t not in CATALOGUE)
    assert not missing, missing
