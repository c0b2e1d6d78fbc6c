"""YAML with positions: locations by JSON pointer, safe loading, duplicate keys, bounded aliases."""

from __future__ import annotations

import re
import time

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from venedig_rules import YamlError
from venedig_rules.data.resources import rules_root
from venedig_rules.data.yamlsource import MAX_NODES, load, loads, pointer, split_pointer
from venedig_rules.limits import MAX_INT

TEXT = """\
game:
  id: venedig        # a comment
  players: {min: 2, max: 5}
  list:
    - one
    - "two"
    - {id: three, n: 3}
effect: |
  if in_play(pitch_dipper) {
    score(self, 6)
  }
"""


def test_every_value_is_located_by_pointer():
    src = loads(TEXT, "x.yaml")
    where = {p: (line, column) for p, (_, line, column) in src.positions.values.items()}
    assert where["/game/id"] == (2, 7)
    assert where["/game/players/max"] == (3, 26)
    assert where["/game/list/1"] == (6, 7)
    assert where["/game/list/2/n"] == (7, 22)
    assert src.positions.key_at("/game/players").line == 3
    assert src.positions.key_at("/game/players").column == 3


def test_location_of_a_missing_pointer_falls_back_to_its_parent():
    src = loads(TEXT, "x.yaml")
    assert src.positions.at("/game/players/nothing/here") == src.positions.at("/game/players")


def test_offsets_inside_a_block_scalar_map_to_file_lines():
    src = loads(TEXT, "x.yaml")
    text = src.data["effect"]
    loc = src.positions.in_scalar("/effect", text.index("score"))
    assert (loc.line, loc.column) == (10, 5)
    loc = src.positions.in_scalar("/effect", text.index("pitch_dipper"))
    assert (loc.line, loc.column) == (9, 14)


def test_offsets_inside_plain_and_quoted_scalars():
    src = loads('a: count(x) + 1\nb: "score(self, 6)"\n', "x.yaml")
    assert src.positions.in_scalar("/a", 6).column == 10
    assert src.positions.in_scalar("/b", 6).column == 11


def _scalars(value, ptr=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _scalars(v, pointer(ptr, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _scalars(v, pointer(ptr, i))
    else:
        yield ptr, value


@pytest.mark.parametrize("path", sorted(rules_root().rglob("*.yaml")), ids=lambda p: p.parent.name + "/" + p.name)
def test_position_map_round_trips_on_bundled_files(path):
    """Every scalar's recorded location is where the file spells that value."""
    src = load(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    for ptr, value in _scalars(src.data):
        assert ptr in src.positions.values, ptr
        loc = src.positions.at(ptr)
        rest = re.sub(r"^&\w+\s+", "", lines[loc.line - 1][loc.column - 1 :])  # an anchor comes first
        if rest[:1] in "|>":
            continue  # a block scalar's text starts on the next line
        spelt = rest.lstrip("'\"").lower()
        if value is None:
            assert spelt.startswith(("null", "~")) or spelt.strip() in ("", "#"), (ptr, rest)
            continue
        expected = (str(value).splitlines() or [""])[0][:12].lower()
        assert spelt.startswith(expected), (ptr, value, rest)


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.one_of(st.integers(-MAX_INT, MAX_INT), st.text("abcxyz _-", min_size=1), st.booleans()),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text("abcdef", min_size=1), inner, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_loads_agrees_with_pyyaml_and_locates_everything(value):
    text = yaml.safe_dump({"root": value})
    src = loads(text, "gen.yaml")
    assert src.data == yaml.safe_load(text)
    for ptr, _ in _scalars(src.data):
        assert ptr in src.positions.values


@settings(deadline=None)
@given(st.one_of(st.integers(min_value=MAX_INT + 1), st.integers(max_value=-MAX_INT - 1)))
def test_a_number_past_the_largest_is_refused_where_it_stands(value):
    with pytest.raises(YamlError, match="too large") as info:
        loads(f"a:\n  b: {value}\n", "n.yaml")
    assert (info.value.location.line, info.value.location.column) == (2, 6)


def test_pointer_escapes_round_trip():
    ptr = pointer(pointer("", "a/b"), "c~d")
    assert ptr == "/a~1b/c~0d"
    assert split_pointer(ptr) == ["a/b", "c~d"]


def test_duplicate_key_is_an_error_with_both_places():
    with pytest.raises(YamlError, match=r"duplicate key 'id' \(first given at line 1, column 1") as info:
        loads("id: a\nname: b\nid: c\n", "d.yaml")
    assert (info.value.location.line, info.value.location.column) == (3, 1)


def test_duplicate_keys_can_be_collected_keeping_the_first_value():
    problems: list = []
    src = loads("id: a\nid: c\nx: {k: 1, k: 2}\n", "d.yaml", problems)
    assert src.data == {"id": "a", "x": {"k": 1}}
    assert [p.location.line for p in problems] == [2, 3]


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object/apply:os.system ['true']\n",
        "a: !!python/name:os.system\n",
        "a: !custom 3\n",
        "a: !!binary aGk=\n",
    ],
)
def test_only_plain_values_are_allowed(text):
    with pytest.raises(YamlError, match="is not allowed"):
        loads(text, "t.yaml")


def test_billion_laughs_is_refused_quickly():
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    start = time.perf_counter()
    with pytest.raises(YamlError, match=f"more than {MAX_NODES}"):
        loads("\n".join(lines), "bomb.yaml")
    assert time.perf_counter() - start < 1.0


def test_recursive_alias_is_refused():
    with pytest.raises(YamlError, match="recursive alias"):
        loads("a: &a [*a]\n", "r.yaml")


def test_modest_aliases_and_merge_keys_work():
    src = loads("base: &b {count: 2, name: x}\nitem: {<<: *b, name: y}\n", "m.yaml")
    assert src.data["item"] == {"count": 2, "name": "y"}


def test_syntax_error_names_line_column_and_what_was_expected():
    with pytest.raises(YamlError, match=r"expected ',' or '\]'") as info:
        loads("a: [1, 2\nb: 3\n", "s.yaml")
    assert info.value.location.line == 2


def test_dates_stay_strings_and_non_finite_numbers_are_refused():
    assert loads("d: 2006-01-01\n").data == {"d": "2006-01-01"}
    with pytest.raises(YamlError, match="not a finite number"):
        loads("n: .inf\n")


def test_empty_document_is_none():
    assert loads("# nothing\n").data is None
