"""The JSON Schemas: valid draft 2020-12, strict about keys, named by every rule file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from venedig_rules.data import schema
from venedig_rules.data.resources import rules_root, schemas_root

SCHEMAS = sorted(schemas_root().glob("*.schema.json"))
RULE_FILES = sorted(rules_root().rglob("*.yaml"))


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path: Path):
    Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_there_is_one_schema_per_file_kind_plus_defs():
    assert {p.name for p in SCHEMAS} == {f"{k}.schema.json" for k in schema.KINDS} | {"defs.schema.json"}


def _objects(node, ptr=""):
    if isinstance(node, dict):
        if "properties" in node:
            yield ptr, node
        for key, value in node.items():
            yield from _objects(value, f"{ptr}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{ptr}/{i}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_object_with_named_keys_refuses_unknown_keys(path: Path):
    for ptr, node in _objects(json.loads(path.read_text())):
        assert node.get("additionalProperties") is False, f"{path.name}{ptr} lets a misspelt key through"


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_rule_file_names_its_schema_for_editors(path: Path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, f"{path} does not start with a yaml-language-server modeline"
    target = (path.parent / match.group(1)).resolve()
    kind = "variant" if path.parent.name == "variants" else path.stem
    assert target == (schemas_root() / f"{kind}.schema.json").resolve()


def test_every_datum_kind_may_carry_provenance():
    for path in SCHEMAS:
        if path.name == "defs.schema.json":
            continue
        for ptr, node in _objects(json.loads(path.read_text())):
            if "id" in node["properties"]:
                assert {"provenance", "source"} <= set(node["properties"]), f"{path.name}{ptr}"


def _kind_of(path: Path) -> str | None:
    if "variants" in path.parts:
        return "variant"
    stem = path.stem
    return stem if stem in schema.KINDS else None


def _mutations(data):
    """The data, then copies with one wrong value each: errors for both validators to find."""
    yield data
    if isinstance(data, dict):
        for key in list(data)[:6]:
            for wrong in (None, 7, "x", [], {"nmae": 1}):
                yield {**data, key: wrong}
        yield {**data, "unknown_key": 1}


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: "/".join(p.parts[-2:]))
def test_the_schemas_with_their_refs_written_out_find_exactly_the_errors_of_the_originals(path: Path):
    import yaml
    from referencing import Registry, Resource

    kind = _kind_of(path)
    if kind is None:
        pytest.skip("not a rule file kind")
    registry = Registry().with_resources((n, Resource.from_contents(s)) for n, s in schema.schemas().items())
    original = Draft202012Validator(schema.schemas()[f"{kind}.schema.json"], registry=registry)
    inlined = schema.validator(kind)

    def found(validator, data):
        return sorted((list(e.absolute_path), e.validator, e.message) for e in validator.iter_errors(data))

    for data in _mutations(yaml.safe_load(path.read_text(encoding="utf-8"))):
        assert found(inlined, data) == found(original, data)
