"""The fast start: what a new process reads instead of computing (the DSL parser's tables, the
manifest of validated bundled data, the bundled texts' parses) is current, gives what
computing gives, and is ignored, never trusted, once what it was made from changes."""

from __future__ import annotations

import gc
import importlib
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data import validated
from venedig_rules.data.reading import read, rules_hash
from venedig_rules.effects import _dsl_sources, parser_tables
from venedig_rules.effects.compile import Place
from venedig_rules.effects.parse import DslParseError, _Build, _parse_error, encode, parse, parse_text
from venedig_rules.engine import startup
from venedig_rules.errors import Location

ROOT = Path(__file__).resolve().parent.parent
PARSE = importlib.import_module("venedig_rules.effects.parse")
#: Texts that do not parse, each for another reason.
BROKEN = ("score(self 6)", "let x = ;", "x / 2", "if x { ", "choose(self, [1])", "a = choose self from [1]", "'open")


def test_the_shipped_files_are_current():
    assert startup.stale() == [], "run: python -m venedig_rules.engine.startup"


@cache
def _bundled_texts() -> tuple[str, ...]:
    """Every DSL text of the bundled configurations."""
    raws = [read(name, variants) for name, variants in validated.configurations()]
    return tuple(sorted({text for raw in raws for _, text, _ in _dsl_sources(raw.data)}))


def _texts() -> list[str]:
    """Every DSL text of the bundled configurations and of the test ruleset."""
    lagoon = read(ROOT / "tests" / "rulesets" / "lagoon")
    return sorted({*_bundled_texts(), *(text for _, text, _ in _dsl_sources(lagoon.data))})


def _outcome(parser, text: str) -> object:
    """What a parser makes of ``text``: its AST, or the error it reports."""
    from lark.exceptions import UnexpectedInput

    try:
        return encode(tuple(parser.parse(text)))
    except UnexpectedInput as exc:
        return str(_parse_error(exc, text))
    except DslParseError as exc:
        return str(exc)


def test_the_parser_from_the_stored_tables_parses_as_the_one_built_from_the_grammar():
    stored = parser_tables.load_parser(_Build())
    assert stored.source_path == "<deserialized>"  # read from the tables, not built
    built = parser_tables.build(_Build())
    for text in [*_texts(), *BROKEN]:
        assert _outcome(stored, text) == _outcome(built, text), text


def test_tables_of_another_grammar_or_lark_are_not_used(monkeypatch):
    tables = parser_tables._stored()
    assert tables is not None and parser_tables.fits(tables)
    assert not parser_tables.fits({**tables, "grammar_sha256": "0" * 64})
    assert not parser_tables.fits({**tables, "lark": "0.1.0"})
    monkeypatch.setattr(parser_tables, "_stored", lambda: {**tables, "grammar_sha256": "0" * 64})
    parser = parser_tables.load_parser(_Build())
    assert parser.source_path != "<deserialized>"  # built from the grammar
    assert encode(tuple(parser.parse("let x = 1; x"))) == encode(parse("let x = 1; x").body)


def test_the_shipped_parses_are_the_parses():
    shipped = PARSE._shipped()
    bundled = [
        text for name, variants in validated.configurations() for _, text, _ in _dsl_sources(read(name, variants).data)
    ]
    assert set(bundled) <= set(shipped)
    for text in bundled:
        assert parse.__wrapped__(text) == parse_text(text)  # (__wrapped__: without the per-process cache)


@pytest.mark.parametrize("damaged", ['{"Name": [', '{"NoSuchNode": []}', "[1, {}]", '{"Name": 5}'])
def test_a_damaged_shipped_parse_is_parsed_again(monkeypatch, damaged: str):
    text = next(iter(PARSE._shipped()))
    monkeypatch.setattr(PARSE, "_shipped", lambda: {text: damaged})
    assert parse.__wrapped__(text) == parse_text(text)


def test_shipped_parses_of_another_grammar_or_parser_are_ignored(monkeypatch):
    text = next(iter(PARSE._shipped()))
    PARSE._shipped.cache_clear()
    monkeypatch.setattr(PARSE, "fingerprint", lambda: "another grammar")
    try:
        assert PARSE._shipped() == {}
        assert parse.__wrapped__(text) == parse_text(text)
    finally:
        PARSE._shipped.cache_clear()


def test_bundled_data_as_shipped_is_known_valid_and_load_skips_the_data_checks(monkeypatch):
    for name, variants in validated.configurations():
        assert validated.is_validated(rules_hash(read(name, variants).data)), (name, variants)
    calls: list[str] = []
    from venedig_rules.data import reading

    real = reading.RawRules.data_errors
    monkeypatch.setattr(
        reading.RawRules,
        "data_errors",
        lambda self, dsl_checker=None: calls.append("checked") or real(self, dsl_checker),
    )
    vr.load("venedig", ["no_imaginary_player"])
    assert calls == []
    assert vr.validate("venedig") == [] and calls == ["checked"]  # validate always checks


def test_a_load_of_known_valid_data_skips_the_dsl_checks_that_only_find_mistakes(monkeypatch):
    from venedig_rules.effects import declared, flow, fold, reads
    from venedig_rules.engine.loading import finish

    full = finish(read("saeulen"), trust_validated=False)
    ran: list[str] = []
    checks = [
        (declared, "check_declarations"),
        (declared, "check_contexts"),
        (fold, "constant_problems"),
        (reads, "unread"),
        (flow, "ruleset_flow"),
    ]
    for module, check in checks:
        real = getattr(module, check)
        monkeypatch.setattr(module, check, lambda *a, real=real, name=check: ran.append(name) or real(*a))
    trusted = finish(read("saeulen"))
    assert ran == []
    assert trusted.compiled.programs.keys() == full.compiled.programs.keys()
    assert trusted.compiled.revealed_decisions == full.compiled.revealed_decisions  # found on first use
    assert ran == ["ruleset_flow"]
    assert vr.validate("saeulen") == [] and set(ran) == {name for _, name in checks}  # validate runs every check


def test_the_manifest_vouches_only_for_data_whose_dsl_passes_every_check():
    assert '"rulesets": {}' in validated.render(lambda raw: False)
    assert startup.render_validated() == validated.MANIFEST.read_text(encoding="utf-8")


def test_a_changed_bundled_file_is_checked_again(tmp_path):
    copy = tmp_path / "venedig"
    shutil.copytree(ROOT / "rules" / "venedig", copy)
    assert validated.is_validated(rules_hash(read(copy).data))  # the same data: known valid wherever it lies
    cards = copy / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("count: ", "count: -", 1), encoding="utf-8")
    assert not validated.is_validated(rules_hash(read(copy).data))
    with pytest.raises(vr.InvalidRulesError) as info:
        vr.load(copy)
    assert any(err.code == "rules/schema" for err in info.value.errors)


def test_changed_schemas_trust_nothing(monkeypatch):
    digest = rules_hash(read("venedig").data)
    monkeypatch.setattr(validated, "schemas_sha256", lambda: "another schema")  # (a changed schema file)
    assert not validated.is_validated(digest)


def test_a_missing_or_broken_manifest_trusts_nothing(monkeypatch, tmp_path):
    digest = rules_hash(read("venedig").data)
    for text in (None, "{not json", '{"rulesets": []}'):
        manifest = tmp_path / "validated.json"
        if text is not None:
            manifest.write_text(text, encoding="utf-8")
        monkeypatch.setattr(validated, "MANIFEST", manifest)
        validated._stored.cache_clear()
        try:
            assert not validated.is_validated(digest)
        finally:
            validated._stored.cache_clear()


def test_importing_and_loading_a_bundled_ruleset_needs_no_graph_schema_yaml_or_parser_library():
    unneeded = (
        "networkx",
        "jsonschema",
        "referencing",
        "lark",
        "yaml",
        "venedig_rules.effects.flow",  # (the checks that only find mistakes)
        "venedig_rules.engine.research.sampling",  # (what playing does not need)
        "venedig_rules.engine.seat.wording",
    )
    code = f"import sys, venedig_rules as vr; vr.load('venedig'); print([m for m in {unneeded} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def test_the_shipped_parses_of_the_bundled_rule_files_are_what_their_yaml_gives():
    from venedig_rules.data.parsed_files import shipped_source
    from venedig_rules.data.resources import rules_root
    from venedig_rules.data.yamlsource import loads

    paths = sorted(rules_root().rglob("*.yaml"))
    assert len(paths) > 20
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert shipped_source(text, path.name, "/x") == loads(text, path.name, at="/x"), path
    assert shipped_source(text + "# an edit\n", path.name) is None  # an edited file is read from its YAML


def test_shipped_parses_of_another_reader_are_ignored(monkeypatch):
    from venedig_rules.data import parsed_files

    text = (ROOT / "rules" / "venedig" / "game.yaml").read_text(encoding="utf-8")
    monkeypatch.setattr(parsed_files, "readers_sha256", lambda: "another reader")
    parsed_files._shipped.cache_clear()
    try:
        assert parsed_files.shipped_source(text, "game.yaml") is None
    finally:
        monkeypatch.undo()
        parsed_files._shipped.cache_clear()


def test_a_loaded_ruleset_leaves_its_places_and_parses_out_of_the_collectors_walks():
    """A ruleset keeps a place for every value and key of its files, every string's extent
    and a DSL place for each generated line: plain tuples, which the cyclic garbage collector
    stops walking once it has seen them (a named tuple it walks every time). The shipped
    parses are kept as text, decoded per program when it is first parsed."""
    rules = vr.load("rialto")
    lines = rules.generated.lines
    gc.collect()
    places = rules.positions
    for stored in (places.values, places.keys, places.spans):
        assert stored and not any(map(gc.is_tracked, stored.values()))
    assert any(lines) and not any(gc.is_tracked(line) for line in lines)
    shipped = PARSE._shipped()
    assert shipped and all(isinstance(body, str) for body in shipped.values()) and not gc.is_tracked(shipped)
    # asked, they are named again
    pointer = next(iter(places.values))
    assert type(places.at(pointer)) is Location and places.at(pointer) == places.values[pointer]
    line = next(n for n, place in enumerate(lines, 1) if place is not None)
    located = rules.generated.locate(_traceback_at(rules.generated.filename, line))
    assert type(located) is Place and located == lines[line - 1]


def _traceback_at(filename: str, line: int):
    """A traceback whose innermost frame runs ``filename`` at ``line``."""
    code = compile("\n" * (line - 1) + "raise ValueError", filename, "exec")
    try:
        exec(code, {})
    except ValueError as exc:
        return exc.__traceback__
    raise AssertionError("not raised")
