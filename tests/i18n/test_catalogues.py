"""Both languages complete: every text the modules ask for (_("...") in static/js,
static/games, static/tournaments) and every gettext message of the templates and the
API has a zh-Hant translation with the same {slots}; the compiled .mo is the .po."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).parents[2]
STATIC = ROOT / "service" / "static"
CATALOGUE = STATIC / "i18n" / "zh-Hant.json"
PO = ROOT / "service" / "translations" / "zh_Hant" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
CALL = re.compile(r'(?<![\w.$])_\(\s*"((?:[^"\\]|\\.)*)"')


def module_texts() -> dict[str, str]:
    texts = {}
    for path in sorted([*STATIC.glob("js/*.js"), *STATIC.glob("games/*.js"), *STATIC.glob("tournaments/*.js")]):
        for m in CALL.finditer(path.read_text(encoding="utf-8")):
            texts.setdefault(json.loads(f'"{m.group(1)}"'), path.name)
    return texts


def slots(s: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", s))


def test_every_module_text_has_a_translation():
    catalogue = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    texts = module_texts()
    assert len(texts) > 500
    missing = sorted(f"{where}: {t!r}" for t, where in texts.items() if not catalogue.get(t, "").strip())
    assert not missing, f"{len(missing)} texts without a zh-Hant entry:\n" + "\n".join(missing[:40])
    # a translation may leave a slot out (an English plural ending) but never invent one
    invented = [(k, v) for k, v in catalogue.items() if slots(v) - slots(k)]
    assert not invented, invented[:5]


def test_every_template_and_api_message_has_a_translation():
    catalogue = read_po(PO.open("rb"))
    untranslated = [m.id for m in catalogue if m.id and not m.string]
    assert not untranslated, untranslated[:20]
    compiled = read_mo(io.BytesIO(MO.read_bytes()))
    assert {m.id: m.string for m in compiled if m.id} == {m.id: m.string for m in catalogue if m.id}, (
        "messages.mo is older than messages.po: run `make translations`"
    )


def test_every_error_template_is_in_the_catalogue():
    from service.http.error_messages import TEMPLATES

    ids = {m.id for m in read_po(PO.open("rb"))}
    assert set(TEMPLATES) <= ids


def raised_messages() -> list[tuple[str, int, str]]:
    """The message of every refusal (``NotFound(code, message, ...)`` and its kin) the
    server itself raises (the games' rule messages keep their English words by design),
    with each f-string value replaced by a sample."""
    import ast

    from service.services import errors

    kinds = set(errors.__all__) - {"not_found"}
    found = []
    for path in sorted([*(ROOT / "service").rglob("*.py"), *(ROOT / "events").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in kinds and len(node.args) >= 2):
                continue
            message = node.args[1]
            if isinstance(message, ast.Constant) and isinstance(message.value, str):
                found.append((path.name, node.lineno, message.value))
            elif isinstance(message, ast.JoinedStr):
                text = "".join(v.value if isinstance(v, ast.Constant) else "x" for v in message.values)
                found.append((path.name, node.lineno, text))
    return found


def test_every_error_the_server_raises_has_a_template():
    """Else a zh-Hant client reads the English message behind a generic lead."""
    from service.http.i18n import _COMPILED

    messages = raised_messages()
    assert len(messages) > 50
    untemplated = [
        f"{where}:{line}: {text!r}" for where, line, text in messages if not any(rx.match(text) for rx, _ in _COMPILED)
    ]
    assert not untemplated, "\n".join(untemplated)
