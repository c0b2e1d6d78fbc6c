"""The fuzz suite that keeps issue 11's class of defects closed: hostile rule files and
variants, DSL programs, actions, saves and view arguments, each asserting "a typed, located
error or a correct result, the state unchanged, within a time bound".

It runs in CI in a few minutes. For a long campaign, scale every test's number of examples:

    VENEDIG_FUZZ_SCALE=50 python -m pytest tests/test_fuzz.py -q --hypothesis-show-statistics

The one-defect-per-test regressions are in tests/test_reliability.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules.data.resources import rules_root
from venedig_rules.engine.game import _checksum
from venedig_rules.limits import MAX_INT

TESTS = Path(__file__).parent
LAGOON = TESTS / "rulesets" / "lagoon"
#: How many times more examples than in CI (a long campaign sets it in the environment).
SCALE = max(1, int(os.environ.get("VENEDIG_FUZZ_SCALE", "1") or 1))
#: Longest any one call may take before it counts as a hang (seconds; the machine is shared).
TIME_BOUND = float(os.environ.get("VENEDIG_FUZZ_TIME_BOUND", "30"))
T = TypeVar("T")


def fuzz(examples: int) -> Callable[[T], T]:
    """Hypothesis settings for a fuzz test of ``examples`` examples in CI (times SCALE)."""
    return settings(  # type: ignore[return-value]
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found
    )


class Hang(Exception):
    """A call ran past TIME_BOUND."""


@contextmanager
def time_bound(seconds: float = TIME_BOUND) -> Iterator[None]:
    """Fail the example (not the suite) when the block runs longer than ``seconds``."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def assert_located(error: vr.InvalidRulesError, *, foreign: tuple[str, ...] = ()) -> None:
    """Every problem is a RulesError naming its file (never ``<unknown>``), in a message of
    bounded size that echoes none of ``foreign`` (what lies outside the caller's files)."""
    assert error.errors, "an InvalidRulesError lists its problems"
    for problem in error.errors:
        assert isinstance(problem, vr.RulesError) and problem.code.count("/") == 1
        assert problem.location.file and "<unknown>" not in problem.location.file, problem
        assert len(problem.message) < 2000, problem.message[:200]
        assert "Traceback" not in problem.message
        for secret in foreign:
            assert secret not in str(problem), problem


def validate_typed(path: Path, *, foreign: tuple[str, ...] = ()) -> list[vr.RulesError]:
    """Load ``path``: a Ruleset or an InvalidRulesError of located problems, in time."""
    with time_bound():
        try:
            vr.load(path)
        except vr.InvalidRulesError as exc:
            assert_located(exc, foreign=foreign)
            return exc.errors
    return []


# -- values a hostile file may hold --------------------------------------------------------------
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-MAX_INT, MAX_INT),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["", "-1", "../../etc/passwd", "/proc/self/environ", "saeulen", "a" * 300, "ünï", "id"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(["id", "name", "count", "type", "x", "remove", "add", "extends"]), inner, max_size=4
        ),
    ),
    max_leaves=12,
)
RULESETS = [rules_root() / name for name in vr.bundled()] + [LAGOON]


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*at, i))


def _replace(data: Any, path: tuple[Any, ...], new: Any, how: str) -> Any:
    if not path:
        return new
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "rename" and isinstance(parent, dict):
        parent[f"{last}_x"] = parent.pop(last)
    else:
        parent[last] = new
    return data


@contextmanager
def ruleset_copy(source: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / source.name
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("variants"))
        yield copy


# -- rule files ----------------------------------------------------------------------------------
@fuzz(25)
@given(st.data())
def test_a_bundled_rule_file_changed_anywhere_loads_or_gives_located_errors(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(RULESETS), "ruleset")
    with ruleset_copy(source) as copy:
        file = data.draw(st.sampled_from(sorted(copy.glob("*.yaml"))), "file")
        content = yaml.safe_load(file.read_text(encoding="utf-8"))
        path = data.draw(st.sampled_from(list(_paths(content))), "path")
        how = data.draw(st.sampled_from(["replace", "replace", "delete", "rename"]) if path else st.just("replace"))
        new = data.draw(VALUES, "new value")
        changed = _replace(content, path, new, how)
        file.write_text(yaml.safe_dump(changed, sort_keys=False, allow_unicode=True), encoding="utf-8")
        validate_typed(copy)


@pytest.mark.parametrize("relation", [[], {}, ["equal"]])
def test_a_board_spaces_relation_that_is_no_word_is_a_located_schema_error(relation: Any) -> None:
    """Found by the test above: the count check looked a list up as a relation's name."""
    with ruleset_copy(LAGOON) as copy:
        file = copy / "components.yaml"
        content = yaml.safe_load(file.read_text(encoding="utf-8"))
        found = [c for c in content["components"] if isinstance(c.get("board_spaces"), dict)]
        assert found, "lagoon has a component counted on the board"
        found[0]["board_spaces"]["relation"] = relation
        file.write_text(yaml.safe_dump(content, sort_keys=False, allow_unicode=True), encoding="utf-8")
        errors = validate_typed(copy)
    assert any(e.code == "rules/schema" and "relation" in str(e.location) + e.message for e in errors), errors


def _tag_first_value(text: str) -> str:
    """The text with an unsafe tag on the value of its first key that is not in a comment."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if ": " in line and not line.lstrip().startswith("#"):
            lines[i] = line.replace(": ", ": !!python/name:os.system ", 1)
            break
    return "\n".join(lines)


TEXT_ATTACKS = {
    "tag on a key": lambda text, at: text[:at] + "!!python/object/apply:os.system " + text[at:],
    "tag on a value": lambda text, at: _tag_first_value(text),
    "long number": lambda text, at: text[:at] + "9" * 5000 + text[at:],
    "truncated": lambda text, at: text[:at],
    "empty": lambda text, at: "",
    "comment only": lambda text, at: "# nothing\n",
    "deep nesting": lambda text, at: text + "\nzz: " + "[" * 200 + "]" * 200 + "\n",
    "alias bomb": lambda text, at: (
        "a: &a [1,1,1,1,1,1,1,1,1]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n"
            for i in range(9)
        )
        + text
    ),
    "tab": lambda text, at: text[:at] + "\t" + text[at:],
    "not utf-8": lambda text, at: None,
    "a list at the top": lambda text, at: "- 1\n- 2\n",
    "a scalar at the top": lambda text, at: "5\n",
    "duplicate key": lambda text, at: text + "\n" + text.split("\n", 1)[0] + "\n",
}


@fuzz(30)
@given(st.data())
def test_a_bundled_rule_file_damaged_as_text_gives_located_errors(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(RULESETS), "ruleset")
    attack = data.draw(st.sampled_from(sorted(TEXT_ATTACKS)), "attack")
    with ruleset_copy(source) as copy:
        file = data.draw(st.sampled_from(sorted(copy.glob("*.yaml"))), "file")
        text = file.read_text(encoding="utf-8")
        at = data.draw(st.integers(0, len(text)), "offset")
        at = text.rfind("\n", 0, at) + 1  # a line's start
        damaged = TEXT_ATTACKS[attack](text, at)
        if damaged is None:
            file.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
        else:
            file.write_text(damaged, encoding="utf-8")
        errors = validate_typed(copy)
        if attack in ("tag on a key", "tag on a value", "long number", "empty", "not utf-8", "alias bomb"):
            assert errors, f"{attack} in {file.name} went unnoticed"


# -- variants ------------------------------------------------------------------------------------
SECRET = "FUZZ_SECRET_KEY_4711"
EXTENDS = st.sampled_from(
    [
        "saeulen",
        "rialto",
        "venedig",
        "base",
        "./base",
        "base/",
        "..",
        "../outside",
        "../outside/game.yaml",
        "../../etc/passwd",
        "/etc/passwd",
        "/proc/self/environ",
        "/dev/zero",
        "self.yaml",
        "other.yaml",
        "nope",
        "",
        "Saeulen",
        "saeulen/../rialto",
    ]
)
OVERLAYS = st.one_of(
    VALUES,
    st.dictionaries(
        st.sampled_from(["cards", "tiles", "game", "board", "components", "scoring", "nope"]),
        st.one_of(
            VALUES,
            st.dictionaries(
                st.sampled_from(["cards", "types", "constants", "tiles", "id"]),
                st.lists(
                    st.one_of(
                        VALUES,
                        st.fixed_dictionaries({"remove": VALUES}),
                        st.fixed_dictionaries({"add": VALUES}),
                        st.fixed_dictionaries({"id": VALUES}, optional={"count": VALUES, "name": VALUES}),
                    ),
                    max_size=3,
                ),
                max_size=2,
            ),
        ),
        max_size=3,
    ),
)


@fuzz(40)
@given(extends=EXTENDS, other=EXTENDS, overlay=OVERLAYS, ident=st.sampled_from(["self", "v", 5, None]))
def test_a_hostile_variant_is_refused_with_located_errors_and_echoes_nothing_foreign(
    extends: str, other: str, overlay: Any, ident: Any
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home = root / "uploads"
        home.mkdir()
        (root / "outside").mkdir()
        (root / "outside" / "game.yaml").write_text(f"{SECRET}: 1\nid: outside\n")
        shutil.copytree(LAGOON, home / "base", ignore=shutil.ignore_patterns("variants"))
        head = {"extends": extends, "id": ident, "title": "Fuzz", "overlay": overlay}
        (home / "self.yaml").write_text(yaml.safe_dump(head, sort_keys=False))
        (home / "other.yaml").write_text(yaml.safe_dump({"extends": other, "id": "other", "title": "O"}))
        validate_typed(home / "self.yaml", foreign=(SECRET, str(root / "outside"), "root:"))


# -- DSL programs --------------------------------------------------------------------------------
def _expressions(small: bool) -> st.SearchStrategy[str]:
    number = st.integers(-5, 12) if small else st.one_of(st.integers(-5, 12), st.integers(-(10**30), 10**30))
    leaf = st.one_of(
        number.map(str),
        st.sampled_from(["round", "hand_size", "max_rounds", "players", "none", "true", "[]", '"a"', "nope"]),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "==", "<", "and", "or", "in"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            st.tuples(st.sampled_from(["range", "div", "len", "max", "sum"]), st.lists(inner, max_size=2)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
            st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
            inner.map(lambda e: f"-{e}"),
        )

    return st.recursive(leaf, grow, max_leaves=6)


def _programs(small: bool) -> st.SearchStrategy[str]:
    expr = _expressions(small)
    count = st.integers(0, 4).map(str) if small else st.one_of(expr, st.sampled_from(["1000000", "100000"]))

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(count, inner).map(lambda t: f"repeat {t[0]} {{ {t[1]} }}"),
            st.tuples(expr, inner, inner).map(lambda t: f"if {t[0]} {{ {t[1]} }} else {{ {t[2]} }}"),
            st.tuples(
                st.sampled_from(["[1, 2]", "range(0, 3)", "players"] if small else ["range(0, 10**8)", "x"]), inner
            ).map(lambda t: f"for i in {t[0]} {{ {t[1]} }}"),
            st.lists(inner, min_size=1, max_size=3).map("; ".join),
        )

    statement = st.one_of(expr.map(lambda e: f"let fz = {e}"), expr.map(lambda e: f"round = {e}"))
    return st.recursive(statement, grow, max_leaves=5)


def _lagoon_with(folder: Path, program: str) -> Path:
    copy = folder / "lagoon"
    shutil.copytree(LAGOON, copy, ignore=shutil.ignore_patterns("variants"))
    text = (copy / "game.yaml").read_text()
    block = "".join(f"    {line}\n" for line in (program + ";").splitlines())
    (copy / "game.yaml").write_text(text.replace("main: |\n", "main: |\n" + block + "    round = 0;\n", 1))
    return copy


@fuzz(40)
@given(_programs(small=False))
def test_a_generated_dsl_program_validates_or_gives_located_dsl_errors(program: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for problem in validate_typed(_lagoon_with(Path(tmp), program)):
            assert problem.code.startswith("dsl/") and Path(problem.location.file).name == "game.yaml", problem


@fuzz(20)
@given(_programs(small=True), st.integers(0, 2**64))
def test_a_generated_dsl_program_that_validates_plays_or_stops_with_a_located_rule_error(
    program: str, seed: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _lagoon_with(Path(tmp), program)
        if validate_typed(path):
            return
        with time_bound():
            try:
                game = vr.load(path).new_game(2, seed=seed)
                rnd = random.Random(seed)
                for _ in range(30):
                    if not game.to_move:
                        break
                    game.apply(rnd.choice(game.legal_actions(game.to_move[0])))
            except vr.RuleRuntimeError as exc:
                assert exc.code == "play/rule" and exc.location is not None and exc.location.line > 0, exc


# -- actions, saves, views -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def games() -> dict[str, dict[str, Any]]:
    """A save of a game in progress of each bundled game and lagoon (a new game each example)."""
    saves: dict[str, dict[str, Any]] = {}
    for source in RULESETS:
        rules = vr.load(source)
        game = rules.new_game(3, seed=11)
        rnd = random.Random(11)
        for _ in range(12):
            if game.to_move:
                game.apply(rnd.choice(game.legal_actions(game.to_move[0])))
        saves[rules.name] = {"rules": rules, "save": game.to_json()}
    return saves


ANYTHING = st.one_of(
    VALUES,
    st.integers(),
    st.floats(),
    st.binary(max_size=8),
    st.tuples(st.integers(-2, 4), st.text(max_size=3)),
    st.builds(object),
)
ACTION_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.floats(-2, 3), st.text(max_size=12), st.integers()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner)),
    max_leaves=8,
)


def _snapshot(game: vr.Game) -> str:
    return json.dumps([game.to_json(), game.to_move], sort_keys=True)


@fuzz(60)
@given(st.data())
def test_any_action_applies_when_legal_or_is_refused_with_nothing_changed(
    games: dict[str, dict[str, Any]], data: st.DataObject
) -> None:
    entry = games[data.draw(st.sampled_from(sorted(games)), "game")]
    game = entry["rules"].game_from_json(entry["save"])
    legal = [a for p in game.to_move for a in game.legal_actions(p)]
    names = sorted({a.name for a in legal} | {"pass", "x"})
    kind = data.draw(st.sampled_from(["action", "text", "legal text changed", "legal action changed"]), "kind")
    if kind == "action":
        action: Any = vr.Action(
            data.draw(st.one_of(st.integers(-2, 5), ANYTHING)),
            data.draw(st.one_of(st.sampled_from(names), ANYTHING)),
            data.draw(ACTION_VALUES),
        )
    elif kind == "text":
        action = data.draw(st.one_of(st.text(max_size=60), st.sampled_from([str(a) for a in legal] or ["p0 pass"])))
    elif kind == "legal text changed" and legal:
        text = str(data.draw(st.sampled_from(legal)))
        at = data.draw(st.integers(0, len(text)))
        action = (
            text[:at]
            + data.draw(st.sampled_from(["9" * 5000, "[", "]", ",", "true", "0.0", " ", '"', "\x00"]))
            + text[at:]
        )
    elif legal:
        base = data.draw(st.sampled_from(legal))
        action = base._replace(**{data.draw(st.sampled_from(["player", "name", "value"])): data.draw(ANYTHING)})
    else:
        return
    before = _snapshot(game)
    with time_bound():
        try:
            game.apply(action)
        except (vr.IllegalActionError, vr.ActionSyntaxError) as exc:
            assert _snapshot(game) == before, "a refused action changed the game"
            assert len(str(exc)) < 2000
            return
    # applied: it was a legal action, to the kinds of its parts, and it is recorded as such
    applied = vr.parse_action(action) if isinstance(action, str) else action
    assert any(_same(applied, a) for a in legal), f"{action!r} was applied but is not legal"
    reloaded = entry["rules"].game_from_json(game.to_json())
    assert _snapshot(reloaded) == _snapshot(game)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@fuzz(40)
@given(st.data())
def test_a_tampered_save_is_refused_or_is_exactly_the_game_it_claims(
    games: dict[str, dict[str, Any]], data: st.DataObject
) -> None:
    entry = games[data.draw(st.sampled_from(sorted(games)), "game")]
    save = json.loads(json.dumps(entry["save"]))
    path = data.draw(st.sampled_from([p for p in _paths(save) if p and p[0] != "checksum"]), "path")
    how = data.draw(st.sampled_from(["replace", "delete"]))
    new = data.draw(st.one_of(VALUES, st.integers(), st.sampled_from([10**5000, 2**300, True, -1, 1.0])), "new")
    tampered = _replace(save, path, new, how)
    if data.draw(st.booleans(), "checksum forged"):
        with contextlib.suppress(ValueError):  # a number JSON cannot write: the old checksum stays
            tampered["checksum"] = _checksum({k: v for k, v in tampered.items() if k != "checksum"})
    with time_bound():
        try:
            game = entry["rules"].game_from_json(tampered)
        except vr.SaveFileError as exc:
            assert len(str(exc)) < 2000
            return
    assert game.to_json() == tampered, "a save was accepted that differs from the game it gives"


@fuzz(60)
@given(st.data())
def test_every_view_argument_gives_a_view_or_a_typed_error(
    games: dict[str, dict[str, Any]], data: st.DataObject
) -> None:
    entry = games[data.draw(st.sampled_from(sorted(games)), "game")]
    game = entry["rules"].game_from_json(entry["save"])
    seat = data.draw(st.one_of(st.integers(-3, 5), st.none(), ANYTHING), "seat")
    since = data.draw(st.one_of(st.integers(-2, 500), ANYTHING), "since")
    spectator = data.draw(st.booleans(), "spectator")
    before = _snapshot(game)
    is_seat = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.players
    cursor = game.view(seat if is_seat else None)["cursor"]  # the events that seat has received
    good_since = isinstance(since, int) and not isinstance(since, bool) and 0 <= since <= cursor
    with time_bound():
        try:
            view = game.view(seat, since, spectator=spectator)
        except vr.GameArgumentError:
            assert not (is_seat and good_since and not spectator) and not (seat is None and good_since)
            assert _snapshot(game) == before
            return
    assert ((is_seat and not spectator) or seat is None) and good_since
    assert view["player"] == (seat if is_seat else None)
    json.dumps(view)  # JSON-safe
    if seat is None:  # a spectator: no seat's hidden values
        for name, value in view["state"].items():
            if game.rules.state_visibility(name) != "all":
                assert "?" in json.dumps(value) or "hidden" in json.dumps(value) or value in (None, [], 0), name
    assert _snapshot(game) == before


@fuzz(30)
@given(seed=st.one_of(st.integers(), st.sampled_from([10**5000, -(10**5000), 2**256, 2**256 - 1]), ANYTHING))
def test_any_seed_starts_a_game_or_is_a_typed_error(games: dict[str, dict[str, Any]], seed: Any) -> None:
    rules = games["lagoon"]["rules"]
    with time_bound():
        try:
            game = rules.new_game(2, seed=seed)
        except vr.GameArgumentError as exc:
            assert len(str(exc)) < 300
            assert not (isinstance(seed, int) and not isinstance(seed, bool) and seed.bit_length() <= 256)
            return
    if seed is None:  # none given: a secret seed of the generator's width was drawn
        assert 0 <= game.seed < 2**64
    else:
        assert game.seed == seed
    assert rules.game_from_json(game.to_json()).seed == game.seed
