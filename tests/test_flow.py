"""Information flow (issue 10, "Make the leak class impossible"): a copy of each game with
one of the audit's leaks put back is refused with a located dsl/leak naming the flow; the
runtime probe of the test kit catches what a secret decision shows the other seats."""

from __future__ import annotations

import ast
import importlib
import inspect
import random
import shutil
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
from venedig_rules.testing import _Failed, probe_secret_decision

RULES = Path(vr.__file__).parent.parent / "rules"
GAMES = ("venedig", "saeulen", "rialto")


def _copy(game: str, tmp_path: Path) -> Path:
    root = tmp_path / game
    shutil.copytree(RULES / game, root)
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def _leaks(root: Path) -> list[vr.RulesError]:
    errors = vr.validate(root)
    assert errors, "the seeded leak was not refused"
    assert all(e.code == "dsl/leak" for e in errors), [str(e) for e in errors]
    return errors


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("game", GAMES)
def test_bundled_games_and_variants_pass_the_flow_check(game: str):
    assert vr.validate(game) == []
    for variant in sorted((RULES / game / "variants").glob("*.yaml")):
        assert vr.validate(game, [variant.stem]) == []


def test_rialto_held_public_again_is_a_leak(tmp_path: Path):
    """Issue 10, 8: "The state variable held is public and is written at every stage"."""
    root = _copy("rialto", tmp_path)
    game = root / "game.yaml"
    _edit(game, "  turn_queue: {", "  held: {per: player, type: int, start: 0}\n  turn_queue: {")
    _edit(
        game,
        "        current_stage = t;\n",
        "        current_stage = t;\n        for p in players { held[p] = cards_of_type(p, t) };\n",
    )
    [error] = _leaks(root)
    assert error.location.line == _line_of(game, "held[p] = cards_of_type")
    assert error.message.startswith(
        "the value of hand[p] (secret to all but seat p) reaches held[p], which every seat sees"
    )
    assert "read at game.yaml:" in error.message and "escapes at game.yaml:" in error.message


def test_rialto_hand_reduction_choice_public_again_is_a_leak(tmp_path: Path):
    """Issue 10, 9: "the choice event names the card in every view. The discard pile is face down"."""
    root = _copy("rialto", tmp_path)
    game = root / "game.yaml"
    _edit(game, 'choose p from hand[p] as "discard" secretly;', 'choose p from hand[p] as "discard";')
    [error] = _leaks(root)
    assert error.location.line == _line_of(game, 'as "discard"')
    assert 'reaches the options of the decision "discard" (not secretly), which every seat sees' in error.message


def test_venedig_exchange_offered_only_to_five_gold_is_a_leak(tmp_path: Path):
    """Issue 10, 1: "the optional exchange decision is offered only to a player holding at least 5 gold"."""
    root = _copy("venedig", tmp_path)
    game = root / "game.yaml"
    _edit(
        game,
        "        if not ending {\n          let most = div(gold_of(gold_tiles[p]), gold_per_step);",
        "        if not ending and div(gold_of(gold_tiles[p]), gold_per_step) > 0 {\n"
        "          let most = div(gold_of(gold_tiles[p]), gold_per_step);",
    )
    errors = _leaks(root)
    asked = [e for e in errors if 'whether the decision "exchange" is asked' in e.message]
    assert asked and asked[0].location.line == _line_of(game, 'as "exchange" or pass secretly')
    assert asked[0].message.startswith("the value of gold_tiles[p] (secret to all but seat ")
    assert "the condition at game.yaml:" in asked[0].message


def test_saeulen_give_in_the_open_is_a_leak(tmp_path: Path):
    """Rulebook 000: the Start Player "must give him a card from his own hand": only the two see it."""
    root = _copy("saeulen", tmp_path)
    cards = root / "cards.yaml"
    _edit(cards, 'as "give" secretly;', 'as "give";')
    [error] = _leaks(root)
    assert error.location.file.endswith("cards.yaml") and error.location.line == _line_of(cards, 'as "give"')
    assert "the value of hand[self] (secret to all but seat self)" in error.message


def test_a_declassification_quotes_its_sentence(tmp_path: Path):
    root = _copy("rialto", tmp_path)
    _edit(
        root / "game.yaml",
        'bridge_top = declassify(first(bridge_stack), "Put this stack face-up on the bridge space such that '
        'only the topmost tile is visible");\n        # 5:',
        'bridge_top = declassify(first(bridge_stack), "");\n        # 5:',
    )
    [error] = _leaks(root)
    assert "declassify() needs the rulebook sentence" in error.message


def test_without_its_declassification_the_top_bridge_tile_is_a_leak(tmp_path: Path):
    root = _copy("rialto", tmp_path)
    game = root / "game.yaml"
    text = game.read_text()
    quote = '"Put this stack face-up on the bridge space such that only the topmost tile is visible"'
    game.write_text(text.replace(f"declassify(first(bridge_stack), {quote})", "first(bridge_stack)"))
    errors = _leaks(root)
    assert len(errors) == 2 and all("the value of bridge_stack (secret to every seat)" in e.message for e in errors)


@pytest.mark.parametrize("game", GAMES)
def test_game_module_declares_the_secret_state_its_primitives_read(game: str):
    """A primitive whose source names a state variable some seat may not see declares it
    (every function registered as a primitive, decorated or registered after its def)."""
    module = importlib.import_module(f"venedig_rules.games.{game}")
    data = yaml.safe_load((RULES / game / "game.yaml").read_text())
    secret = {name for name, decl in data["state"].items() if decl.get("visible", "all") != "all"}
    tree = ast.parse(inspect.getsource(module))
    found: dict[str, tuple[str, ...]] = {}
    for fn in tree.body:
        prim = module.PRIMITIVES.get(fn.name.rstrip("_")) if isinstance(fn, ast.FunctionDef) else None
        if prim is not None and prim.fn is getattr(module, fn.name):
            named = {n.value for n in ast.walk(fn) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if named & secret:
                found[fn.name.rstrip("_")] = tuple(sorted(named & secret))
    assert {k: tuple(sorted(v)) for k, v in module.PRIMITIVES.secret_reads.items()} == found


def test_runtime_probe_catches_a_secret_decision_that_shows():
    """Lagoon's "keep" is secret, and its value is shown by a declassified scoring rule. With
    that declassification forgotten, the probe sees the other seats' views differ."""
    rules = vr.load(Path(__file__).parent / "rulesets" / "lagoon")
    assert rules.compiled is not None and "keep" in rules.compiled.revealed_decisions
    declared = rules.compiled.revealed_decisions
    caught = 0
    try:
        for seed in range(30):
            chooser = random.Random(seed)
            game = rules.new_game(2 + seed % 2, seed)
            while not game.is_over:
                pending = game.position.state.pending
                if pending is not None and pending.label == "keep":
                    rules.compiled.revealed_decisions = declared
                    probe_secret_decision(game)  # declared: passes
                    rules.compiled.revealed_decisions = frozenset()
                    try:
                        probe_secret_decision(game)
                    except _Failed as exc:
                        assert 'at the secret decision "keep"' in exc.message
                        caught += 1
                game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    finally:
        rules.compiled.revealed_decisions = declared
    assert caught > 0


def test_a_refusal_to_another_seat_names_none_of_the_acting_seats_options():
    from venedig_rules.engine.seat.refusal import why_illegal

    game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")
    legal = [str(a) for a in game.legal_actions(0)]
    for text in ("p0 play([casa_card])", "p0 drain(f11)", "p0 pass(1)"):
        message = why_illegal(game, vr.parse_action(text), seat=1)
        assert "p1 may act only as p1" in message
        assert not any(option in message for option in legal if option not in text), message
    # the acting seat itself is told its options
    assert "legal: " in why_illegal(game, vr.parse_action("p0 drain(f11)"), seat=0)


def test_a_break_under_a_secret_condition_is_a_flow():
    """Issue 32: a loop that stops at a secret card counts the cards before it in secret."""
    from venedig_rules.effects.check import Scope, VarInfo
    from venedig_rules.effects.flow import leaks
    from venedig_rules.effects.parse import parse

    scope = Scope(
        locals={"players": "list", "p": "player"},
        state={"hand": VarInfo("list", "player"), "shown": VarInfo("any", "player")},
    )
    visibility = {"hand": "owner", "shown": "all"}
    secret_break = 'let n = 0; for c in hand[p] { if c == "x" { break }; n += 1 }; shown[p] = n'
    (leak,) = leaks(parse(secret_break), scope, visibility)
    assert "reaches shown[p]" in leak.message and "the break at" in leak.message
    # the same loop without the break shows only the hand's size, which every view shows
    assert leaks(parse("let n = 0; for c in hand[p] { n += 1 }; shown[p] = n"), scope, visibility) == []
    # a break a public value decides is no flow
    public = "let n = 0; for c in hand[p] { if n == 3 { break }; n += 1 }; shown[p] = n"
    assert leaks(parse(public), scope, visibility) == []
    # a later round of the loop runs only if the secret break did not end it before
    later = 'let n = 0; for c in hand[p] { n += 1; if c == "x" { break } }; shown[p] = n'
    assert len(leaks(parse(later), scope, visibility)) == 1


def test_a_loop_count_a_secret_decides_is_a_flow():
    """Issue 32: a ``repeat`` whose count is secret tells the count by what its rounds do
    (a counter, a change each round, an event each round); a public count tells nothing."""
    from venedig_rules.effects.check import Scope, VarInfo
    from venedig_rules.effects.flow import leaks
    from venedig_rules.effects.parse import parse

    scope = Scope(
        locals={"players": "list", "p": "player"},
        state={"gold": VarInfo("int", "player"), "shown": VarInfo("any", "player")},
    )
    visibility = {"gold": "owner", "shown": "all"}
    for counted in (
        "let n = 0; repeat gold[p] { n += 1 }; shown[p] = n",
        "repeat gold[p] { shown[p] += 1 }",
        'repeat gold[p] { event("tick", player: p) }',
    ):
        (leak,) = leaks(parse(counted), scope, visibility)
        assert "the value of gold[p]" in leak.message and "the repeat count at 1:" in leak.message, counted
    assert leaks(parse("let n = 0; repeat 3 { n += 1 }; shown[p] = n"), scope, visibility) == []
