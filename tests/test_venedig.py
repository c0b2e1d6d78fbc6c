"""Venedig (ruleset ``venedig``): every rule sentence of the rulebooks that can be tested on
its own, and every worked example of rulebook 002 with its own numbers.

Scenario states are built from a seeded game: ``arrange`` writes state variables into the
game at its current decision (through the engine internals ``game.played.state``) and asks the
pending decision again, so its options follow from the new state; then the rule is driven
through the public API (``legal_actions``, ``apply``, ``value``, ``events``). Players are
seats: Klaus is p0, Jürgen p1, as in the rulebook's examples.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.effects.compile import freeze
from venedig_rules.engine.run.machine import Machine, State
from venedig_rules.engine.run.notation import IllegalActionError, parse_action

RULES = vr.load("venedig")
PLAIN_TWO = vr.load("venedig", variants=["no_imaginary_player"])
SHORT = vr.load("venedig", variants=["short_rules_end"])
KLAUS, JUERGEN, THIRD = 0, 1, 2

#: Every building space of the board left free and empty (no swamp, no building).
EMPTY = {s: None for s in RULES.space_ids}


# -- helpers ------------------------------------------------------------------------------------
def arrange(game: vr.Game, **values) -> vr.Game:
    """Write state variables into ``game`` and ask its pending decision again.

    A per-space variable may be given as a mapping {space: value} (other spaces keep their
    value); everything else as its whole value. Test-only: it uses the engine internals.
    """
    rules = game.rules
    state = game.played.state
    new = dict(state.vars)
    for name, value in values.items():
        info = rules.compiled.state.get(name)
        if info is not None and info.per == "space" and isinstance(value, dict):
            old = list(new[name])
            for space, v in value.items():
                old[rules.space_index(space)] = v
            value = old
        new[name] = freeze(value)
    # a waiting frame stands at its decision: running it again asks the decision again
    run = Machine(
        rules, game.players, State(new, state.frames, None, state.rng, state.over, state.winners), game.played.events
    )
    top = state.frames[-1]
    game.played.state = run.run()
    after = game.played.state.frames[-1] if game.played.state.frames else None
    assert after is not None and (after.code, after.pc) == (top.code, top.pc), (
        "the arranged state leaves nothing to decide here"
    )
    game.played.legal = None
    return game


#: Optional decisions the scenarios pass on the way: the secret gold exchange, and in a
#: two-player game the reveal for the imaginary player before and after a turn.
ASIDES = ("exchange", "imaginary")


def play(game: vr.Game, *actions: str, settle: bool = True) -> vr.Game:
    """Apply actions; the asides offered on the way are passed unless the action answers
    one, and (with ``settle``) those offered after the last action too."""
    for action in actions:
        if parse_action(action).name not in (*ASIDES, "hand_in"):
            pass_while(game, *ASIDES)
        game.apply(action)
    if settle:
        pass_while(game, *ASIDES)
    return game


def texts(game: vr.Game, player: int | None = None) -> list[str]:
    """The legal actions of the next decision that is not a gold exchange (those are passed)."""
    pass_while(game, "exchange")
    return sorted(str(a) for a in game.legal_actions(player))


def offered(game: vr.Game) -> list[str]:
    """The legal actions of the pending decision, whatever it is."""
    return sorted(str(a) for a in game.legal_actions())


def pass_while(game: vr.Game, *labels: str) -> None:
    """Pass every pending decision of these labels (e.g. the optional gold exchanges)."""
    while not game.is_over and game.played.state.pending.label in labels:
        game.apply(f"p{game.to_move[0]} pass")


def events_of(game: vr.Game, kind: str, since: int = 0) -> list[dict]:
    return [e for e in game.events[since:] if e["type"] == kind]


def fresh(players: int = 3, rules: vr.Ruleset = RULES, seed: int = 1) -> vr.Game:
    """A new game at p0's first decision (playing cards), with no swamp tile anywhere near
    the scenarios unless a test puts one there."""
    game = rules.new_game(players, seed)
    pass_while(game, *ASIDES)  # the secret gold exchange (and the imaginary player's reveal)
    assert game.played.state.pending.label == "play"
    return game


def with_constants(tmp_path: Path, **values) -> vr.Ruleset:
    """The venedig ruleset with some constants changed, through a variant file."""
    overlay = {name: {"value": value} for name, value in values.items()}
    text = "extends: venedig\nid: changed\ntitle: Changed\ndescription: Constants changed by a test.\n"
    text += "overlay:\n  game:\n    constants: " + json.dumps(overlay) + "\n"
    path = tmp_path / "changed.yaml"
    path.write_text(text, encoding="utf-8")
    return vr.load(path)


def empty_hands(players: int) -> list[list[str]]:
    return [[] for _ in range(players)]


def laid(players: int, **by_seat) -> list[list[str]]:
    out = empty_hands(players)
    for seat, cards in by_seat.items():
        out[int(seat[1:])] = list(cards)
    return out


def pieces(**holders) -> list[list]:
    out = []
    for b in ("palazzo", "campo", "basilica", "ponte"):
        out.append([b, holders.get(b)])
    return out


# -- setup ----------------------------------------------------------------------------------------
def test_setup_places_one_building_of_each_type_and_keeps_the_rest_in_the_supply():
    game = fresh()
    built = dict(zip(RULES.space_ids, game.value("built")))
    assert {b for b in built.values() if b} == {"casa", "palazzo", "campo", "basilica", "ponte"}
    supply = game.value("pieces")
    assert {b: supply.count(b) for b in set(supply)} == {
        "casa": 18,
        "palazzo": 5,
        "campo": 5,
        "basilica": 4,
        "ponte": 5,
    }


def test_setup_puts_the_master_builder_pieces_on_their_spaces():
    assert fresh().value("master_piece") == (("palazzo", None), ("campo", None), ("basilica", None), ("ponte", None))


def test_setup_deals_three_cards_each_and_the_rest_is_the_draw_pile():
    game = fresh(4)
    assert [len(h) for h in game.value("hand")] == [3, 3, 3, 3]
    assert len(game.value("draw_pile")) == 42 - 12


def test_setup_swamp_tiles_lie_face_down_on_every_swamp_space_and_their_gold_is_hidden():
    game = fresh()
    tiles = [t for t in game.value("swamp_gold") if t is not None]
    assert len(tiles) == 86 and len(RULES.board.spaces_where(start="swamp")) == 86
    view = game.view(0)["state"]["swamp_gold"]
    assert set(view.values()) == {"?", None}
    assert sum(v == "?" for v in view.values()) == 86
    assert {view[s] for s in RULES.board.spaces_where(start="free")} == {None}


def test_setup_treasures_are_shuffled_face_down_and_gondolas_start_on_the_start():
    game = fresh()
    assert len(game.value("treasure_supply")) == 18
    assert game.view(1)["state"]["treasure_supply"] == {"hidden": 18}
    assert game.value("gondola") == (0, 0, 0)
    assert fresh(seed=2).value("treasure_supply") != game.value("treasure_supply")


# -- action 1: playing cards --------------------------------------------------------------------
def test_a_player_may_play_any_number_of_cards_of_any_types_or_none():
    game = arrange(fresh(), hand=[["casa_card", "palazzo_card", "campo_card", "ponte_card", "basilica_card"], [], []])
    options = texts(game)
    assert "p0 pass" in options
    assert "p0 play([basilica_card,campo_card,casa_card,palazzo_card,ponte_card])" in options
    assert len(options) == 2**5  # every subset; pass for the empty one


def test_rule_basilica_cannot_play_three_cards_when_two_are_out_elsewhere():
    # Rulebook example: not three Basilica cards when two lie in front of another player.
    game = arrange(
        fresh(),
        hand=[["basilica_card"] * 3, [], []],
        laid_out=laid(3, p1=["basilica_card"] * 2),
        master_piece=pieces(basilica=JUERGEN),
    )
    assert texts(game) == ["p0 pass", "p0 play([basilica_card,basilica_card])", "p0 play([basilica_card])"]
    with pytest.raises(IllegalActionError):
        game.apply("p0 play([basilica_card,basilica_card,basilica_card])")


def test_a_complete_set_in_one_turn_may_be_played_even_when_others_have_that_type_out():
    game = arrange(
        fresh(),
        hand=[["basilica_card"] * 4, [], []],
        laid_out=laid(3, p1=["basilica_card"] * 2),
        master_piece=pieces(basilica=JUERGEN),
    )
    assert "p0 play([basilica_card,basilica_card,basilica_card,basilica_card])" in texts(game)


def test_rule_begin_a_building_takes_the_master_builder_piece():
    game = arrange(fresh(), hand=[["ponte_card", "casa_card"], [], []])
    play(game, "p0 play([ponte_card])")
    assert dict(game.value("master_piece"))["ponte"] == KLAUS
    assert game.value("laid_out")[KLAUS] == ("ponte_card",)


def test_rule_juergen_plays_two_basilica_cards_and_takes_the_master_piece_from_klaus():
    game = arrange(fresh(), hand=[["casa_card"], ["campo_card"], []])
    play(game, "p0 pass", "p0 pass", "p0 draw([pile])")  # Klaus's turn: nothing but a draw
    pass_while(game, "exchange")
    assert game.to_move == (JUERGEN,)
    arrange(
        game,
        hand=[[], ["basilica_card"] * 2, []],
        laid_out=laid(3, p0=["basilica_card"]),
        master_piece=pieces(basilica=KLAUS),
    )
    play(game, "p1 play([basilica_card,basilica_card])")
    assert dict(game.value("master_piece"))["basilica"] == JUERGEN


def test_rule_a_tie_keeps_the_master_piece_where_it_is():
    game = arrange(
        fresh(),
        hand=[["basilica_card"], [], []],
        laid_out=laid(3, p1=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
    )
    play(game, "p0 play([basilica_card])")
    assert dict(game.value("master_piece"))["basilica"] == JUERGEN


def test_rule_a_complete_set_builds_alone_and_others_cards_and_the_piece_stay():
    game = arrange(
        fresh(),
        hand=[["ponte_card"] * 3, [], []],
        swamp_gold=EMPTY,
        laid_out=laid(3, p1=["ponte_card"]),
        master_piece=pieces(ponte=JUERGEN),
    )
    play(game, "p0 play([ponte_card,ponte_card,ponte_card])")
    assert game.played.state.pending.label == "site" and game.to_move == (KLAUS,)
    site = texts(game)[0]
    play(game, site)
    play(game, texts(game)[0])  # Klaus, building alone, chooses the district
    pass_while(game, "exchange")
    assert dict(game.value("master_piece"))["ponte"] == JUERGEN
    assert game.value("laid_out")[JUERGEN] == ("ponte_card",)
    assert game.value("discard_pile").count("ponte_card") == 3


def test_a_player_building_alone_over_several_turns_uses_the_master_piece():
    game = arrange(
        fresh(),
        hand=[["ponte_card"] * 2, [], []],
        swamp_gold=EMPTY,
        laid_out=laid(3, p0=["ponte_card"]),
        master_piece=pieces(ponte=KLAUS),
    )
    play(game, "p0 play([ponte_card,ponte_card])")
    play(game, texts(game)[0])
    play(game, texts(game)[0])  # district
    pass_while(game, "exchange")
    assert dict(game.value("master_piece"))["ponte"] is None  # returned after the build
    moved = events_of(game, "gondola")
    assert [e["player"] for e in moved] == [KLAUS]


def test_rule_the_same_building_twice_in_a_turn_once_alone_once_together():
    game = arrange(
        fresh(),
        hand=[["ponte_card"] * 4, [], []],
        swamp_gold=EMPTY,
        laid_out=laid(3, p1=["ponte_card"] * 2),
        master_piece=pieces(ponte=JUERGEN),
    )
    play(game, "p0 play([ponte_card,ponte_card,ponte_card,ponte_card])")
    assert texts(game) == ["p0 build([ponte,alone])", "p0 build([ponte,joint])"]


def test_rule_the_acting_player_chooses_the_order_of_the_buildings():
    game = arrange(
        fresh(),
        hand=[["casa_card", "ponte_card"], [], []],
        swamp_gold=EMPTY,
        laid_out=laid(3, p1=["ponte_card"] * 2),
        master_piece=pieces(ponte=JUERGEN),
    )
    play(game, "p0 play([casa_card,ponte_card])")
    assert texts(game) == ["p0 build([casa,alone])", "p0 build([ponte,joint])"]
    play(game, "p0 build([ponte,joint])")
    assert game.to_move == (JUERGEN,)  # the master builder chooses the site


def test_rule_houses_have_no_master_builder_and_several_are_built_one_after_another():
    game = arrange(fresh(), hand=[["casa_card"] * 3, [], []], swamp_gold=EMPTY)
    play(game, "p0 play([casa_card,casa_card,casa_card])")
    for _ in range(3):
        play(game, texts(game)[0])  # site
        pass_while(game, "exchange")
    assert len(events_of(game, "built")) == 3
    assert game.value("gondola")[KLAUS] == 3
    assert game.value("discard_pile").count("casa_card") == 3


def test_rule_only_when_all_required_cards_lie_out_is_a_building_built():
    game = arrange(fresh(), hand=[["campo_card"] * 2, [], []], swamp_gold=EMPTY)
    play(game, "p0 play([campo_card,campo_card])")
    assert not events_of(game, "built")
    assert game.value("laid_out")[KLAUS] == ("campo_card", "campo_card")


# -- placing a building -------------------------------------------------------------------------
def test_rule_building_only_on_free_spaces_and_printed_illustrations_are_free():
    game = arrange(fresh(), hand=[["casa_card"], [], []])
    play(game, "p0 play([casa_card])")
    sites = {a.value for a in game.legal_actions()}
    assert sites == {(s,) for s in RULES.board.spaces_where(start="free")}


def test_rule_the_whole_site_must_be_free_else_the_cards_are_discarded_without_effect():
    no_space = {s: "swamp_1" for s in RULES.space_ids}
    no_space.update({s: None for s in RULES.board.spaces_where(start="built")})
    game = arrange(
        fresh(),
        hand=[["campo_card"], [], []],
        swamp_gold=no_space,
        laid_out=laid(3, p1=["campo_card"] * 2),
        master_piece=pieces(campo=JUERGEN),
    )
    play(game, "p0 play([campo_card])")
    assert events_of(game, "no_site")
    assert game.value("discard_pile").count("campo_card") == 3
    assert dict(game.value("master_piece"))["campo"] is None
    assert game.value("gondola") == (0, 0, 0) and not events_of(game, "built")


def test_rule_ponte_only_on_a_bridge_spot():
    game = arrange(fresh(), hand=[["ponte_card"] * 3, [], []], swamp_gold=EMPTY)
    play(game, "p0 play([ponte_card,ponte_card,ponte_card])")
    spots = {tuple(sorted(c.spaces)) for c in RULES.board.connections.values() if "bridge_spot" in c.tags}
    spots.discard(("h6", "j6"))  # the pre-printed Ponte stands there
    assert {a.value for a in game.legal_actions()} == spots


def test_rule_palazzo_and_basilica_take_adjacent_spaces_in_their_shape():
    game = arrange(fresh(), hand=[["basilica_card"] * 4, [], []])
    play(game, "p0 play([basilica_card,basilica_card,basilica_card,basilica_card])")
    assert texts(game) == ["p0 site([g10,h10,h11])"]


def test_rule_a_space_drained_this_turn_is_not_free_for_the_drainer():
    # In the two-player variant a building may happen after draining (a card revealed for the
    # imaginary player after the turn): the spaces drained this turn are not free for it.
    from venedig_rules.games import venedig as module

    class Ctx:
        rules = RULES

    board_built = [None] * len(RULES.space_ids)
    swamp = [None] * len(RULES.space_ids)
    all_sites = module.building_sites(Ctx, "casa", board_built, swamp, [])
    assert ("c2",) in all_sites
    assert ("c2",) not in module.building_sites(Ctx, "casa", board_built, swamp, ["c2"])


# -- points ---------------------------------------------------------------------------------------
PALAZZO_SITE = ("c3", "c4")  # around it: b2 b3 b4 c2 d3 d4 (6 spaces; the rest is water)


def _palazzo_game():
    swamp = {"c3": None, "c4": None, "d3": None}
    return arrange(
        fresh(),
        hand=[["palazzo_card"], [], []],
        swamp_gold=swamp,
        built={"d3": "casa"},
        laid_out=laid(3, p1=["palazzo_card"] * 2),
        master_piece=pieces(palazzo=JUERGEN),
    )


def test_rule_palazzo_example_klaus_and_juergen_five_undeveloped_spaces_give_5_and_2():
    # "There are 6 spaces around the Palazzo, of which 5 are undeveloped. Master builder
    # Jürgen receives 5 points and Klaus receives 2 points."
    game = _palazzo_game()
    around = {n for s in ("c3", "c4") for n in RULES.board.neighbours(s)} - {"c3", "c4"}
    assert len(around) == 6 and [s for s in sorted(around) if game.value("built", s)] == ["d3"]
    play(game, "p0 play([palazzo_card])")
    assert game.to_move == (JUERGEN,)  # the master builder places it
    play(game, "p1 site([c3,c4])")
    (points,) = events_of(game, "points")
    assert points["points"] == 5 and points["master"] == JUERGEN
    assert [(e["player"], e["steps"]) for e in events_of(game, "gondola")] == [(JUERGEN, 5), (KLAUS, 2)]
    assert game.value("gondola") == (2, 5, 0)


def test_rule_palazzo_counts_drained_empty_spaces_as_undeveloped_and_water_not_at_all():
    game = _palazzo_game()
    arrange(game, swamp_gold={"b2": None})  # drained, empty: still undeveloped
    play(game, "p0 play([palazzo_card])", "p1 site([c3,c4])")
    assert events_of(game, "points")[0]["points"] == 5


def test_rule_campo_counts_neighbouring_developed_spaces():
    game = arrange(
        fresh(),
        hand=[["campo_card"] * 3, [], []],
        swamp_gold={"c2": None, "d3": None},
        built={"d3": "casa", "d2": "palazzo", "e2": None},
    )
    arrange(game, swamp_gold={"d2": None})
    play(game, "p0 play([campo_card,campo_card,campo_card])", "p0 site([c2])")
    # around c2: b2 c3 d1 d2 d3 (row 2 is shifted); d2 and d3 are built on
    assert events_of(game, "points")[0]["points"] == 2


def test_rule_basilica_gives_seven_and_casa_one():
    game = arrange(fresh(), hand=[["basilica_card"] * 4 + ["casa_card"], [], []])
    play(
        game,
        "p0 play([basilica_card,basilica_card,basilica_card,basilica_card,casa_card])",
        "p0 build([basilica,alone])",
        "p0 site([g10,h10,h11])",
    )
    pass_while(game, "exchange")
    play(game, texts(game)[0])
    assert [e["points"] for e in events_of(game, "points")] == [7, 1]


def _basilica_of_three() -> vr.Game:
    """Klaus (to play) completes a Basilica with one card; Jürgen, master builder, has two
    laid out, the third player one; every gondola on the start."""
    return arrange(
        fresh(),
        hand=[["basilica_card"], [], []],
        gondola=[0, 0, 0],
        laid_out=laid(3, p1=["basilica_card"] * 2, p2=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
    )


def test_rule_helpers_get_half_the_points_rounded_down():
    game = _basilica_of_three()
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])")
    moves = [(e["player"], e["steps"]) for e in events_of(game, "gondola")]
    assert moves == [(JUERGEN, 7), (THIRD, 3), (KLAUS, 3)]  # master first, then clockwise


# -- moving the gondola ------------------------------------------------------------------------
def test_rule_juergen_moves_7_skipping_klaus_then_klaus_3_overtakes_him():
    # Basilica built by Jürgen (master, 7) and Klaus (3): occupied spaces are skipped.
    game = arrange(
        fresh(2),
        hand=[["basilica_card"], []],
        gondola=[25, 20],
        laid_out=laid(2, p0=["basilica_card"], p1=["basilica_card"] * 2),
        master_piece=pieces(basilica=JUERGEN),
        treasure_supply=[],
    )
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])")
    assert events_of(game, "gondola")[0] == {
        "type": "gondola",
        "player": JUERGEN,
        "steps": 7,
        "from_step": 20,
        "to_step": 28,
    }
    assert events_of(game, "gondola")[1]["to_step"] == 29
    assert game.value("gondola") == (29, 28)


def test_rule_no_two_gondolas_share_a_space_and_10_is_45():
    game = arrange(fresh(2), hand=[["casa_card"], []], gondola=[44, 10], swamp_gold=EMPTY)
    play(game, "p0 play([casa_card])")
    play(game, texts(game)[0])
    assert game.value("gondola")[KLAUS] == 46  # 45 is the space of 10, where Jürgen stands


def test_moving_past_60_continues_on_the_gondola_posts():
    game = arrange(fresh(2), hand=[["basilica_card"] * 4, []], gondola=[58, 0])
    play(game, "p0 play([basilica_card,basilica_card,basilica_card,basilica_card])", "p0 site([g10,h10,h11])")
    assert game.value("gondola")[KLAUS] == 65


# -- treasures ------------------------------------------------------------------------------------
def test_rule_involved_players_at_the_district_shore_take_a_treasure_master_first():
    # g10 h10 h11 lie in Giudecca; steps 17-29 touch Giudecca, step 2 does not.
    game = arrange(
        fresh(),
        hand=[["basilica_card"], [], []],
        gondola=[20, 25, 2],
        laid_out=laid(3, p1=["basilica_card"] * 2, p2=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
        treasure_supply=["treasure_3", "treasure_6"],
    )
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])")
    assert [e["player"] for e in events_of(game, "treasure")] == [JUERGEN, KLAUS]
    assert game.value("gold_tiles") == ((("treasure_6",)), ("treasure_3",), ())
    assert events_of(game, "treasure")[0]["type"] == "treasure"
    first_move = next(i for i, e in enumerate(game.events) if e["type"] == "gondola")
    last_treasure = max(i for i, e in enumerate(game.events) if e["type"] == "treasure")
    assert last_treasure < first_move  # treasures before the gondolas move


def test_rule_for_a_ponte_either_connected_district_counts_for_treasure():
    game = arrange(
        fresh(2), hand=[["ponte_card"] * 3, []], gondola=[38, 0], swamp_gold=EMPTY, treasure_supply=["treasure_4"]
    )
    play(game, "p0 play([ponte_card,ponte_card,ponte_card])", "p0 site([d4,e6])")
    assert not events_of(game, "treasure")  # 38 touches Castello and San Marco
    game = arrange(
        fresh(2), hand=[["ponte_card"] * 3, []], gondola=[38, 0], swamp_gold=EMPTY, treasure_supply=["treasure_4"]
    )
    play(game, "p0 play([ponte_card,ponte_card,ponte_card])", "p0 site([m4,n6])")
    assert events_of(game, "treasure")  # m4 is Castello


def test_rule_an_empty_treasure_supply_gives_no_treasure():
    game = arrange(fresh(2), hand=[["casa_card"], []], gondola=[3, 0], treasure_supply=[])
    play(game, "p0 play([casa_card])", "p0 site([c2])")
    assert events_of(game, "no_treasure") and game.value("gold_tiles")[KLAUS] == ()


def test_the_treasure_gold_is_hidden_from_the_others():
    game = arrange(fresh(2), hand=[["casa_card"], []], gondola=[3, 0], treasure_supply=["treasure_5"])
    play(game, "p0 play([casa_card])", "p0 site([c2])")
    assert game.view(KLAUS)["state"]["gold_tiles"][KLAUS] == ["treasure_5"]
    assert game.view(JUERGEN)["state"]["gold_tiles"][KLAUS] == {"hidden": 1}


# -- end of the build action ----------------------------------------------------------------------
def test_rule_at_most_two_types_laid_out_the_player_discards_whole_excess_types():
    game = arrange(fresh(), hand=[["palazzo_card", "campo_card", "basilica_card"], [], []])
    play(game, "p0 play([basilica_card,campo_card,palazzo_card])")
    assert texts(game) == ["p0 discard(basilica)", "p0 discard(campo)", "p0 discard(palazzo)"]
    play(game, "p0 discard(campo)")
    assert game.value("laid_out")[KLAUS] == ("basilica_card", "palazzo_card")
    assert dict(game.value("master_piece"))["campo"] is None
    assert game.played.state.pending.label == "drain"


# -- action 2: draining ----------------------------------------------------------------------------
def test_rule_drain_zero_to_two_swamp_tiles_and_keep_their_gold_secret():
    game = fresh(2)
    play(game, "p0 pass")
    assert game.played.state.pending.label == "drain" and "p0 pass" in texts(game)
    tile = game.value("swamp_gold", "a7")
    play(game, "p0 drain(a7)")
    play(game, "p0 drain(b7)")
    assert game.played.state.pending.label == "draw"  # at most two
    assert tile in game.value("gold_tiles")[KLAUS]
    assert game.value("swamp_gold", "a7") is None
    assert game.view(JUERGEN)["state"]["gold_tiles"][KLAUS] == {"hidden": 2}
    drained = [e for e in game.view(JUERGEN)["events"] if e.get("var") == "gold_tiles"]
    assert all(
        e["value"] == {"hidden": len(e["value"]) if isinstance(e["value"], list) else 2} or isinstance(e["value"], dict)
        for e in drained
    )


def test_rule_drain_min_they_may_also_choose_to_skip_this_action(tmp_path):
    # "They may also choose to skip this action": drain_min 0 offers a pass at once; the
    # constant is live, so a designer's drain_min 1 makes the first tile compulsory.
    assert RULES.constant("drain_min") == 0
    strict = with_constants(tmp_path, drain_min=1)
    game = play(fresh(2, strict), "p0 pass")
    assert game.played.state.pending.label == "drain" and "p0 pass" not in texts(game)
    play(game, "p0 drain(a7)")
    assert "p0 pass" in texts(game)  # the second tile stays optional (drain_max 2)


def test_rule_cards_play_min_they_may_also_choose_not_to_play_any_cards(tmp_path):
    # "They may also choose not to play any cards": cards_play_min 0 offers a pass; with
    # cards_play_min 2 only lay-outs of two cards or more are offered, and no pass.
    hand = [["casa_card", "campo_card", "palazzo_card"], [], []]
    assert "p0 pass" in texts(arrange(fresh(), hand=hand))
    game = arrange(fresh(rules=with_constants(tmp_path, cards_play_min=2)), hand=hand)
    assert "p0 pass" not in texts(game)
    assert all(t.count("_card") >= 2 for t in texts(game))
    game = with_constants(tmp_path, cards_play_min=4).new_game(3, 1)  # 3 cards in hand: nothing that large
    pass_while(game, "exchange")
    assert game.played.state.pending.label == "drain"  # not asked to play at all


# -- action 3: drawing -----------------------------------------------------------------------------
def _to_draw(game, hand, pool=()):
    arrange(game, hand=hand, pool=list(pool))
    play(game, "p0 pass", "p0 pass")  # play nothing, drain nothing
    assert game.played.state.pending.label == "draw"
    return game


def test_rule_draw_one_card_from_the_pool_or_the_pile():
    game = _to_draw(fresh(2), [["casa_card"], []], ["campo_card"])
    assert "p0 draw([pile])" in texts(game) and "p0 draw([pool,campo_card])" in texts(game)
    play(game, "p0 draw([pool,campo_card])")
    assert sorted(game.value("hand")[KLAUS]) == ["campo_card", "casa_card"] and game.value("pool") == ()


def test_rule_place_a_card_of_a_new_type_in_the_pool_then_take_three_pool_first_not_the_placed_one():
    game = _to_draw(fresh(2), [["casa_card", "campo_card"], []], ["campo_card", "ponte_card"])
    options = texts(game)
    assert "p0 draw([place,casa_card])" in options
    assert "p0 draw([place,campo_card])" not in options  # a Campo is in the pool already
    play(game, "p0 draw([place,casa_card])")
    assert texts(game) == ["p0 take([pile])", "p0 take([pool,campo_card])", "p0 take([pool,ponte_card])"]
    play(game, "p0 take([pile])")  # once from the pile, the rest comes from the pile
    assert len(game.value("hand")[KLAUS]) == 1 + 3
    assert "casa_card" in game.value("pool")


def test_rule_the_hand_limit_of_five_bounds_both_draw_options():
    game = _to_draw(fresh(2), [["casa_card"] * 4, []], ["campo_card"])
    assert not any("place" in t for t in texts(game))  # 4 - 1 + 3 > 5
    game = arrange(fresh(2), hand=[["casa_card"] * 5, []], pool=["campo_card"])
    play(game, "p0 pass", "p0 pass")
    pass_while(game, "exchange")
    assert game.to_move == (JUERGEN,)  # a full hand draws nothing (assumed)


def test_rule_four_cards_in_the_pool_at_the_end_of_a_turn_are_discarded():
    game = _to_draw(fresh(2), [["casa_card"], []], ["campo_card", "ponte_card", "palazzo_card"])
    play(game, "p0 draw([place,casa_card])")
    while game.played.state.pending.label == "take":
        play(game, "p0 take([pile])")
    assert game.value("pool") == () and events_of(game, "pool_full")


def test_rule_an_empty_draw_pile_is_replaced_by_the_shuffled_discard_pile():
    game = _to_draw(fresh(2), [["casa_card"], []])
    arrange(game, draw_pile=[], discard_pile=["ponte_card", "campo_card"])
    play(game, "p0 draw([pile])")
    assert events_of(game, "reshuffle") and len(game.value("draw_pile")) == 1


# -- gold ----------------------------------------------------------------------------------------------
def test_rule_five_gold_is_one_step_no_change_given_treasures_return_swamps_leave():
    game = arrange(fresh(2), gold_tiles=[["swamp_2", "treasure_4", "swamp_0"], []], treasure_supply=[])
    assert game.played.state.pending.label == "play"
    game = fresh(2)
    play(game, "p0 pass", "p0 pass")
    arrange(game, gold_tiles=[["swamp_2", "treasure_4", "swamp_0"], []], treasure_supply=[])
    play(game, texts(game)[0], settle=False)  # draw
    assert offered(game) == ["p0 exchange(1)", "p0 pass"]
    play(game, "p0 exchange(1)", "p0 hand_in([swamp_2,treasure_4])")  # the only way: still asked, in secret
    assert game.value("gondola")[KLAUS] == 1
    assert game.value("gold_tiles")[KLAUS] == ("swamp_0",)  # 6 gold handed in, 1 lost
    assert game.value("treasure_supply") == ("treasure_4",) and game.value("swamp_out") == ("swamp_2",)


def test_rule_the_player_picks_the_tiles_to_hand_in_treasure_and_swamp_gold_mixed():
    game = fresh(2)
    play(game, "p0 pass", "p0 pass")
    arrange(game, gold_tiles=[["swamp_1", "swamp_2", "treasure_3", "treasure_5", "swamp_0"], []], treasure_supply=[])
    play(game, texts(game)[0], settle=False)  # draw
    play(game, "p0 exchange(1)")
    # every set worth 5 or more that needs each of its tiles ([swamp_1,treasure_5] does not
    # need the swamp tile); a 0-gold tile is never one of them
    assert offered(game) == ["p0 hand_in([swamp_2,treasure_3])", "p0 hand_in([treasure_5])"]
    play(game, "p0 hand_in([swamp_2,treasure_3])")
    assert sorted(game.value("gold_tiles")[KLAUS]) == ["swamp_0", "swamp_1", "treasure_5"]
    assert game.value("treasure_supply") == ("treasure_3",) and game.value("swamp_out") == ("swamp_2",)
    assert game.value("gondola")[KLAUS] == 1


def test_which_tiles_were_handed_in_stays_secret_from_the_other_players():
    game = fresh(2)
    play(game, "p0 pass", "p0 pass")
    arrange(game, gold_tiles=[["swamp_2", "treasure_3", "treasure_5"], []], treasure_supply=[])
    play(game, texts(game)[0], "p0 exchange(1)", "p0 hand_in([swamp_2,treasure_3])", settle=False)
    theirs = [e for e in game.view(JUERGEN)["events"] if e["type"] == "choice" and e["label"] == "hand_in"]
    mine = [e for e in game.view(KLAUS)["events"] if e["type"] == "choice" and e["label"] == "hand_in"]
    assert theirs[0]["value"] == {"hidden": 2} and mine[0]["value"] == ["swamp_2", "treasure_3"]
    moved = [e for e in game.view(JUERGEN)["events"] if e["type"] == "move" and e["from"][0] == "gold_tiles"]
    assert moved and all(e["item"] == "?" for e in moved)


def test_exchanges_are_offered_at_the_start_and_end_of_ones_own_turn_only():
    game = fresh(3)
    play(game, "p0 pass", "p0 pass")
    arrange(game, gold_tiles=[[], ["treasure_5"], []])
    play(game, texts(game)[0], settle=False)  # p0 draws: p1 has gold, p0 none; p0 is asked all the same
    assert game.to_move == (KLAUS,) and offered(game) == ["p0 pass"]
    game.apply("p0 pass")
    assert game.to_move == (JUERGEN,) and offered(game) == ["p1 exchange(1)", "p1 pass"]


def test_rule_players_should_keep_their_gold_pieces_secret_so_an_exchange_offer_shows_nothing():
    # "Players should keep their gold pieces secret from the others": the player whose turn
    # it is is asked about an exchange at the same points whatever gold they hold, in
    # secret, so neither the question nor a pass tells Jürgen whether Klaus holds 5 gold.
    seen = []
    for gold in (["swamp_0", "swamp_1"], ["treasure_5", "treasure_6"]):
        game = fresh(3)
        arrange(game, gold_tiles=[gold, [], []])
        play(game, "p0 pass", "p0 pass", "p0 draw([pile])", settle=False)  # nothing played or drained; a card drawn
        assert game.to_move == (KLAUS,) and game.played.state.pending.label == "exchange"
        seen.append((game.view(JUERGEN), offered(game)))
        game.apply("p0 pass")
        assert game.to_move == (JUERGEN,)
        seen.append((game.view(JUERGEN), [e for e in game.view(JUERGEN)["events"] if e["type"] == "choice"][-1]))
    (poor_asked, poor_options), (poor_passed, poor_pass), (rich_asked, rich_options), (rich_passed, rich_pass) = seen
    assert poor_options == ["p0 pass"] and rich_options == ["p0 exchange(1)", "p0 exchange(2)", "p0 pass"]
    assert poor_asked == rich_asked and poor_passed == rich_passed
    assert (
        poor_pass
        == rich_pass
        == {
            "type": "choice",
            "player": KLAUS,
            "label": "exchange",
            "value": None,
            "passed": True,
            "hidden": True,
            "text": "p0 keeps the gold",
        }
    )


def test_rule_at_any_point_during_their_turn_a_player_may_exchange_once_another_master_builder_picks_the_district():
    # "At any point during their turn, a player may exchange": Jürgen, master builder of a
    # Palazzo Klaus completes, places it in Giudecca; before the treasures are handed out,
    # Klaus exchanges 5 gold to move from 13 (San Polo, San Marco) to 14 (at Giudecca).
    game = arrange(
        fresh(2),
        hand=[["palazzo_card"], []],
        gondola=[13, 40],
        laid_out=laid(2, p1=["palazzo_card"] * 2),
        master_piece=pieces(palazzo=JUERGEN),
        gold_tiles=[["treasure_5"], []],
        treasure_supply=["treasure_4"],
        swamp_gold=EMPTY,
    )
    play(game, "p0 play([palazzo_card])")
    assert game.to_move == (JUERGEN,) and game.played.state.pending.label == "site"
    play(game, "p1 site([g10,h10])", settle=False)
    assert game.to_move == (KLAUS,) and offered(game) == ["p0 exchange(1)", "p0 pass"]
    assert not events_of(game, "treasure")  # the treasures come after
    play(game, "p0 exchange(1)", "p0 hand_in([treasure_5])")
    assert events_of(game, "gondola")[0]["to_step"] == 14
    assert [e["player"] for e in events_of(game, "treasure")] == [KLAUS]  # now at Giudecca's shore


def test_rule_the_player_whose_turn_it_is_may_exchange_after_every_gondola_move():
    # the order of the moves decides who skips whom, so Klaus may exchange between them
    game = _basilica_of_three()
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])", settle=False)
    asked = []
    while game.played.state.pending.label == "exchange":
        asked.append([e["player"] for e in events_of(game, "gondola")])
        game.apply("p0 pass")
    assert asked == [[], [JUERGEN], [JUERGEN, THIRD], [JUERGEN, THIRD, KLAUS]]


# -- the worked example turn ----------------------------------------------------------------------------
def test_example_turn_klaus_bridge_two_casas_treasures_exchange_and_draw():
    # Klaus (p0): 2 Ponte + 2 Casa; Jürgen (p1) has one Ponte laid out. Three Casas stand in
    # San Marco, two in Castello; Klaus's gondola is on 12 (at San Marco), Jürgen's on 20.
    swamp = dict.fromkeys(["o7", "o8", "m4", "n6", "k3", "l3"])
    built = {"k6": "casa", "k7": "casa", "l7": "casa", "k3": "casa", "l3": "casa"}
    game = arrange(
        fresh(2),
        hand=[["ponte_card", "ponte_card", "casa_card", "casa_card", "palazzo_card"], []],
        laid_out=laid(2, p1=["ponte_card"]),
        master_piece=pieces(ponte=JUERGEN),
        gondola=[12, 20],
        gold_tiles=[["swamp_2", "swamp_2", "swamp_1"], []],
        treasure_supply=["treasure_3", "treasure_4", "treasure_6"],
        pool=["campo_card"],
        swamp_gold=swamp,
        built={**built, "k6": "casa"},
    )
    arrange(game, swamp_gold=dict.fromkeys(built))
    play(game, "p0 play([casa_card,casa_card,ponte_card,ponte_card])")
    assert dict(game.value("master_piece"))["ponte"] == KLAUS  # Jürgen hands it over (2 > 1)
    play(game, "p0 build([casa,alone])", "p0 site([o7])")
    assert [e["player"] for e in events_of(game, "treasure")] == [KLAUS]
    pass_while(game, "exchange")
    play(game, "p0 build([casa,alone])", "p0 site([o8])")
    assert len(events_of(game, "treasure")) == 2
    pass_while(game, "exchange")
    assert game.value("gondola")[KLAUS] == 14
    play(game, "p0 site([m4,n6])")
    assert len(events_of(game, "treasure")) == 2  # step 14 touches neither Castello nor San Marco
    play(game, "p0 district(san_marco)", settle=False)
    assert events_of(game, "points")[-1]["points"] == 5
    assert game.value("gondola") == (19, 20)  # exactly behind Jürgen
    play(game, "p0 exchange(1)")
    # he holds 2 + 2 + 1 swamp gold and treasures of 3 and 4: five ways to hand in 5 or more
    assert texts(game) == [
        "p0 hand_in([swamp_1,swamp_2,swamp_2])",
        "p0 hand_in([swamp_1,treasure_4])",
        "p0 hand_in([swamp_2,treasure_3])",
        "p0 hand_in([swamp_2,treasure_4])",
        "p0 hand_in([treasure_3,treasure_4])",
    ]
    play(game, "p0 hand_in([swamp_1,treasure_4])")  # "five gold pieces from his tile supply"
    assert sum(RULES.item(t)["params"]["gold"] for t in game.value("gold_tiles")[KLAUS]) == 5 + 3 + 4 - 5
    moves = [(e["player"], e["steps"], e["to_step"]) for e in events_of(game, "gondola")]
    assert moves[-2] == (KLAUS, 1, 21)  # the exchange puts him ahead of Jürgen (20 is skipped)
    assert moves[-1] == (JUERGEN, 2, 23)  # Jürgen: half of 5, rounded down, skipping Klaus
    assert game.value("gondola") == (21, 23)
    assert game.value("discard_pile").count("ponte_card") == 3
    assert dict(game.value("master_piece"))["ponte"] is None
    assert game.played.state.pending.label == "drain"
    drain = [a for a in texts(game) if a != "p0 pass"][:2]
    play(game, drain[0])
    play(game, next(a for a in texts(game) if a != "p0 pass"))
    assert len(events_of(game, "drain")) == 2
    play(game, "p0 draw([place,palazzo_card])", "p0 take([pool,campo_card])", "p0 take([pile])")
    hand = game.value("hand")[KLAUS]
    assert len(hand) == 3 and "campo_card" in hand and game.value("pool") == ("palazzo_card",)
    pass_while(game, "exchange")
    assert game.value("active") == JUERGEN


# -- the end ---------------------------------------------------------------------------------------
def test_rule_reaching_60_ends_the_game_but_the_others_involved_still_move():
    game = arrange(
        fresh(),
        hand=[["basilica_card"], [], []],
        gondola=[10, 55, 30],
        laid_out=laid(3, p1=["basilica_card"] * 2, p2=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
    )
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])")
    assert game.value("gondola") == (13, 62, 33)
    assert game.value("ending") and game.value("ender") == KLAUS
    pass_while(game, "final_exchange")
    assert game.is_over and game.winners == (JUERGEN,)
    assert not events_of(game, "drain")  # no more draining or drawing


def test_rule_a_used_up_building_type_ends_the_game():
    game = arrange(fresh(2), hand=[["basilica_card"] * 4, []], pieces=["basilica"])
    play(game, "p0 play([basilica_card,basilica_card,basilica_card,basilica_card])", "p0 site([g10,h10,h11])")
    assert game.value("ending") and game.value("gondola")[KLAUS] == 7  # the builder still moves
    assert game.is_over or game.played.state.pending.label == "final_exchange"


def test_rule_final_exchange_clockwise_from_the_left_of_the_ender():
    game = arrange(
        fresh(),
        hand=[["basilica_card"] * 4, [], []],
        gondola=[58, 0, 0],
        active=KLAUS,
        gold_tiles=[["treasure_5"], ["treasure_6"], ["swamp_2"]],
    )
    play(game, "p0 play([basilica_card,basilica_card,basilica_card,basilica_card])", "p0 site([g10,h10,h11])")
    order = []
    while not game.is_over:
        p = game.to_move[0]
        order.append(p)
        if offered(game) == [f"p{p} pass"]:  # asked all the same, in secret: gold is kept secret
            game.apply(f"p{p} pass")
        else:
            game.apply(f"p{p} final_exchange(1)")
            game.apply(offered(game)[0])  # hand_in: one way each, still asked in secret
    assert order == [1, 2, 0]
    assert game.value("gondola") == (66, 1, 0)


def test_short_rules_end_stops_at_once_and_converts_gold_automatically():
    game = arrange(
        fresh(3, SHORT),
        hand=[["basilica_card"], [], []],
        gondola=[10, 55, 30],
        laid_out=laid(3, p1=["basilica_card"] * 2, p2=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
        gold_tiles=[["treasure_6", "swamp_2", "swamp_2"], [], []],
    )
    play(game, "p0 play([basilica_card])", "p1 site([g10,h10,h11])")
    assert game.is_over
    assert game.value("gondola") == (12, 62, 30)  # Jürgen ended it; the helpers did not move; Klaus 10 gold = 2


def test_two_player_reveal_for_the_imaginary_player_before_the_turn():
    game = RULES.new_game(2, 1)
    assert texts(game) == ["p0 imaginary(reveal)", "p0 pass"]
    top = game.value("draw_pile")[0]
    play(game, "p0 imaginary(reveal)")
    if top == "casa_card":
        assert game.played.state.pending.label == "site"
    else:
        assert game.value("imaginary_laid_out") == (top,)
        assert game.played.state.pending.label in ("play", "exchange")
    assert "p0 imaginary(reveal)" not in texts(game)


def test_two_player_a_card_involving_the_imaginary_player_in_a_third_type_is_discarded():
    game = RULES.new_game(2, 1)
    arrange(
        game,
        imaginary_laid_out=["palazzo_card", "campo_card"],
        draw_pile=["ponte_card", "casa_card"],
        master_piece=pieces(palazzo="imaginary", campo="imaginary"),
    )
    play(game, "p0 imaginary(reveal)")
    assert events_of(game, "imaginary_discards")
    assert game.value("discard_pile")[-1] == "ponte_card" and game.value("imaginary_laid_out") == (
        "palazzo_card",
        "campo_card",
    )


def test_two_player_the_acting_player_sites_a_building_of_the_imaginary_master():
    game = RULES.new_game(2, 1)
    arrange(
        game,
        imaginary_laid_out=["campo_card", "campo_card"],
        draw_pile=["campo_card"],
        master_piece=pieces(campo="imaginary"),
        laid_out=laid(2),
        swamp_gold=EMPTY,
    )
    play(game, "p0 imaginary(reveal)")
    assert game.to_move == (KLAUS,) and game.played.state.pending.label == "site"
    play(game, texts(game)[0])
    assert events_of(game, "built")[0]["master"] == "imaginary"
    assert not events_of(game, "gondola")  # the imaginary player has no gondola


def test_two_player_the_imaginary_player_takes_part_in_master_builder_rules():
    game = RULES.new_game(2, 1)
    arrange(
        game,
        imaginary_laid_out=["basilica_card"],
        draw_pile=["basilica_card"],
        laid_out=laid(2, p1=["basilica_card"]),
        master_piece=pieces(basilica=JUERGEN),
    )
    play(game, "p0 imaginary(reveal)")
    assert dict(game.value("master_piece"))["basilica"] == "imaginary"


def test_rule_in_a_two_player_game_an_imaginary_third_player_takes_part():
    # "In a two-player game, an imaginary third player takes part": a two-player game of
    # venedig is the rulebook's; without it, only as the named variant no_imaginary_player.
    assert RULES.constant("imaginary_player", players=2) is True
    assert not any(RULES.constant("imaginary_player", players=n) for n in (3, 4, 5))
    assert texts(RULES.new_game(2, 1)) == ["p0 imaginary(reveal)", "p0 pass"]
    assert "imaginary" not in {a.name for a in RULES.new_game(3, 1).legal_actions()}
    assert PLAIN_TWO.players == range(2, 3) and PLAIN_TWO.constant("imaginary_player") is False
    plain = PLAIN_TWO.new_game(2, 1)
    pass_while(plain, "exchange")
    assert plain.played.state.pending.label == "play"


def test_the_variants_load_and_the_short_rules_only_change_the_end():
    assert SHORT.constant("end_last_build_movement") is False
    assert SHORT.constant("final_exchange_mode") == "automatic"


# -- whole games ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules, players",
    [(RULES, 2), (RULES, 5), (PLAIN_TWO, 2), (SHORT, 3)],
    ids=["2p", "5p", "no_imaginary_player", "short_rules_end"],
)
def test_random_games_end_with_the_invariants_holding(rules, players):
    import random

    chooser = random.Random(players)
    game = rules.new_game(players, 11)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        assert game.check_invariants() == []
    assert game.winners and len(game.actions) < rules.max_actions


def test_the_board_and_card_queries_agree_with_their_plain_definitions_at_every_step():
    """building_sites, swamp_spaces, builds_ready and complete_types are written for speed
    (plain loops, counts by type in one pass, spaces in a sorted order made once): each must
    give what its plain definition gives, at every step of whole games."""
    import random
    from collections import Counter
    from types import SimpleNamespace

    from venedig_rules.games import venedig as V

    rules = vr.load("venedig")
    ctx = SimpleNamespace(rules=rules)
    f = V._facts(ctx)
    checked = 0
    for players, seed in ((2, 1), (4, 2)):
        game, chooser = rules.new_game(players, seed, record=False), random.Random(seed)
        while not game.is_over:
            built, swamp, drained = game.value("built"), game.value("swamp_gold"), game.value("drained_now")
            with_swamp = sorted(s for s, w in zip(f.spaces, swamp) if w is not None)
            assert V.swamp_spaces(ctx, swamp) == tuple(with_swamp)
            free = {s for s, b in zip(f.spaces, built) if b is None} - set(with_swamp) - set(drained or ())
            for building in f.sites:
                expected = tuple(site for site in f.sites[building] if set(site) <= free)
                assert V.building_sites(ctx, building, built, swamp, drained) == expected
            laid_out, ghost = game.value("laid_out"), game.value("imaginary_laid_out")
            together = Counter(f.card_building[c] for cards in (*laid_out, ghost or ()) for c in cards)
            for alone in (game.value("alone_sets"), game.value("hand")[0]):
                counts = Counter(f.card_building[c] for c in alone)
                expected_builds = []
                for b in f.buildings:
                    expected_builds += [(b, "alone")] * (counts[b] // f.need[b])
                    expected_builds += [(b, "joint")] if together[b] >= f.need[b] else []
                assert V.builds_ready(ctx, alone, laid_out, ghost) == tuple(expected_builds)
            complete = tuple(b for b in f.buildings if together[b] >= f.need[b])
            assert V.complete_types(ctx, laid_out, ghost) == complete
            checked += 1
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    assert checked > 100


def test_building_sites_answers_each_game_right_when_another_game_asks_in_between(monkeypatch):
    """building_sites keeps its last free spaces and answers on the ruleset, which every game
    of it shares; the web server's bots think in worker threads, so another game may ask
    while one call runs. Here the other game asks in the middle of a call (where a thread
    switch could fall): each game must still get its own answers, then and afterwards."""
    import random
    from types import SimpleNamespace

    from venedig_rules.games import venedig as V

    rules = vr.load("venedig")
    ctx = SimpleNamespace(rules=rules)
    f = V._facts(ctx)
    positions = []
    game, chooser = rules.new_game(2, 3, record=False), random.Random(3)
    while len(positions) < 2:
        built = game.value("built")
        if not positions or built != positions[-1][0]:
            positions.append((built, game.value("swamp_gold")))
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    expected = [{b: V.building_sites(ctx, b, *where, None) for b in f.sites} for where in positions]
    mine, other = positions

    class Interruption:
        armed = True

        def other_game_asks(self, building):
            if self.armed:
                self.armed = False
                assert V.building_sites(ctx, building, *other, None) == expected[1][building]

    class OtherGameAsksFirst(dict, Interruption):  # where the pure package reads the sites
        def __getitem__(self, building):
            self.other_game_asks(building)
            return super().__getitem__(building)

    class OtherGameWalksFirst(Interruption):  # where the compiled build walks them in C
        def __init__(self, walk):
            self.walk = walk

        def free_mask(self, *args):
            return self.walk.free_mask(*args)

        def free_sites(self, building, mask):
            self.other_game_asks(building)
            return self.walk.free_sites(building, mask)

    for building in f.sites:
        if f.site_walk is None:
            interrupting = OtherGameAsksFirst(f.sites)
            monkeypatch.setattr(f, "sites", interrupting)
        else:
            interrupting = OtherGameWalksFirst(f.site_walk)
            monkeypatch.setattr(f, "site_walk", interrupting)
        f.free_memo = None  # so that this call finds its free spaces afresh
        assert V.building_sites(ctx, building, *mine, None) == expected[0][building]
        assert not interrupting.armed
        monkeypatch.undo()
        assert V.building_sites(ctx, building, *other, None) == expected[1][building]
        assert V.building_sites(ctx, building, *mine, None) == expected[0][building]
