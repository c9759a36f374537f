"""The push's patches (service/http/json_patch.py): applied to the old document, by the
server's Python and by the pages' own module (static/js/json_patch.js, run by Node),
they give the new one exactly, JSON types included; a list that grows at an end costs
what was added, not the list."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.http import json_patch

MODULE = Path(__file__).resolve().parents[2] / "service" / "static" / "js" / "json_patch.js"

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, 1.0]), st.sampled_from(["", "a", "b/c", "~d"])
)
documents = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "b", "c/d", "e~f", "0"]), inner, max_size=4)
    ),
    max_leaves=12,
)


def exact(value: object) -> str:
    return json.dumps(value, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(documents, documents)
def test_a_patch_turns_the_old_document_into_the_new(old, new):
    assert exact(json_patch.apply(old, json_patch.diff(old, new))) == exact(new)


@settings(max_examples=200, deadline=None)
@given(st.lists(documents, max_size=6), st.lists(documents, min_size=1, max_size=3))
def test_a_list_grown_at_an_end_is_patched_with_what_was_added(old, added):
    for new in ({"moves": old + added}, {"moves": added + old}):
        ops = json_patch.diff({"moves": old}, new)
        assert len(ops) == len(added) and all(op["op"] == "add" for op in ops)
        assert exact(json_patch.apply({"moves": old}, ops)) == exact(new)


def test_json_types_are_told_apart():
    assert json_patch.diff({"a": [1]}, {"a": [True]}) == [{"op": "replace", "path": "/a/0", "value": True}]
    assert json_patch.diff(1, 1.0) == [{"op": "replace", "path": "", "value": 1.0}]


def test_a_patch_longer_than_the_document_is_not_offered():
    every_value_changed = {"a": [str(i) for i in range(100)]}, {"a": [str(-i) for i in range(1, 101)]}
    assert json_patch.smaller(*every_value_changed) is None
    assert json_patch.smaller({"a": 1, "b": 2}, {"a": 3, "b": 4}) is not None, "a small patch is not weighed"
    assert json_patch.smaller({"moves": list(range(100))}, {"moves": list(range(101))}) is not None


def mutated(doc: object, rand: random.Random) -> object:
    """``doc`` with a few of the changes a game's meta or view goes through."""
    if isinstance(doc, list):
        doc = [mutated(x, rand) if rand.random() < 0.3 else x for x in doc]
        roll = rand.random()
        if roll < 0.3:
            return doc + [rand.choice([1, "x", {"s": 2}, [True]])]
        if roll < 0.4 and doc:
            return doc[: rand.randrange(len(doc))]
        if roll < 0.5:
            return [0, *doc]
        return doc
    if isinstance(doc, dict):
        out = {k: (mutated(v, rand) if rand.random() < 0.4 else v) for k, v in doc.items() if rand.random() > 0.1}
        if rand.random() < 0.3:
            out[rand.choice(["n", "a/b", "c~d"])] = rand.choice([None, 2, "y"])
        return out
    return rand.choice([doc, 7, False, "z", None, 0.25])


def sample(rand: random.Random, depth: int = 0) -> object:
    roll = rand.random()
    if depth > 2 or roll < 0.3:
        return rand.choice([0, 1, True, False, None, "a", "b/c", 1.5])
    if roll < 0.65:
        return [sample(rand, depth + 1) for _ in range(rand.randrange(5))]
    return {k: sample(rand, depth + 1) for k in rand.sample(["a", "b", "c/d", "e~f", "0", "seq"], rand.randrange(5))}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node runs the pages' module")
def test_the_pages_module_applies_the_same_patches():
    rand = random.Random(32)
    cases = []
    for _ in range(400):
        old = {"seq": 1, "view": sample(rand), "moves": [{"seq": 1, "seat": 0}]}
        new = mutated(old, rand)
        cases.append({"old": old, "ops": json_patch.diff(old, new), "new": new})
    script = (
        f"import {{ patched }} from {json.dumps(MODULE.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const cases = JSON.parse(readFileSync(0, 'utf8'));\n"
        "const out = cases.map(({ old, ops }) => {\n"
        "  const before = JSON.stringify(old);\n"
        "  const got = patched(old, ops);\n"
        "  if (JSON.stringify(old) !== before) throw new Error('the old document changed');\n"
        "  return got;\n"
        "});\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for case, got in zip(cases, json.loads(done.stdout)):
        assert exact(got) == exact(case["new"]), case
