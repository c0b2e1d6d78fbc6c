"""Rialto (rules/rialto): one test per rule, with the rulebook's numbers.

Scenarios are built by playing a seeded game up to the decision where the rule starts and
then setting state variables (``set_vars``, the one helper that reaches inside a game);
the rule is then driven through the public API (``legal_actions``, ``apply``, ``value``).
Seed 0 with 3 players has player 0 as the starting player, so the Doge order starts as
p0, p1, p2 and every stage A begins with p0.
"""

from __future__ import annotations

import pytest

import venedig_rules as vr
from venedig_rules.effects.compile import freeze
from venedig_rules.engine.run.machine import Machine, State
from venedig_rules.engine.run.notation import IllegalActionError

RULES = vr.load("rialto")
GERMAN = vr.load("rialto", variants=["german_summary"])
DOGE, GOLD, BUILDING, BRIDGE, GONDOLA, COUNCILMAN, JOKER = (
    "doge_card",
    "gold_card",
    "building_card",
    "bridge_card",
    "gondola_card",
    "councilman_card",
    "joker_card",
)
DISTRICTS = tuple(r["id"] for r in RULES.items("board", "regions"))


# -- helpers ----------------------------------------------------------------------------------
def set_vars(game, **values):
    """Test-only: overwrite state variables and ask the pending decision again.

    A value given as a dict sets single players' values (``hand={0: [...]}``). The game
    must wait at a decision; its program is resumed at that ``choose`` so the options are
    worked out from the new values. Undo history is not rewritten (don't undo past this).
    """
    state = game.played.state
    data = dict(state.vars)
    for name, value in values.items():
        if isinstance(value, dict):
            items = list(data[name])
            for p, v in value.items():
                items[p] = freeze(v)
            data[name] = tuple(items)
        else:
            data[name] = freeze(value)
    game.played.state = Machine(
        game.rules, game.players, State(data, state.frames, None, state.rng), game.played.events
    ).run()
    game.played.legal = None
    return game


def label(game):
    pending = game.played.state.pending
    return pending.label if pending else None


def step(game):
    """Answer the pending decision the dull way: pass if allowed, else the first option."""
    mover = game.to_move[0]
    actions = game.legal_actions(mover)
    passes = [a for a in actions if a.name == "pass"]
    game.apply(passes[0] if passes else actions[0])


def drive(game, until, limit=3000):
    for _ in range(limit):
        if game.is_over or until(game):
            return game
        step(game)
    raise AssertionError("the condition was never reached")


def at_stage(game, stage, round_=1):
    """Drive to the first decision of a phase II stage (its first player's turn)."""
    return drive(
        game,
        lambda g: g.value("round") == round_ and g.value("current_stage") == stage and label(g) in ("activate", "play"),
    )


def quiet_stage(stage, players=3, seed=0, round_=1, rules=RULES, **values):
    """A game at the start of ``stage`` where nobody has buildings or cards but those
    given (hands default to empty). Earlier stages were played (by passing), so compare
    scores with their value at this point."""
    game = rules.new_game(players, seed)
    at_stage(game, stage, round_)
    hands = {p: [] for p in range(players)}
    hands.update(values.pop("hand", {}))
    base = dict(
        hand=hands,
        buildings={p: [] for p in range(players)},
    )
    base.update(values)
    return set_vars(game, **base)


def play(game, text):
    game.apply(text)
    return game


def finish_stage(game):
    stage = game.value("current_stage")
    return drive(game, lambda g: g.value("current_stage") != stage)


def vp(game):
    return list(game.value("victory_points"))


# -- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,coins", [(2, [1, 2]), (3, [1, 2, 3]), (4, [1, 2, 2, 3]), (5, [1, 2, 2, 2, 3])])
def test_setup_coins_by_seat_from_the_starting_player(players, coins):
    game = RULES.new_game(players, 5)
    start = game.value("start_player")
    assert [game.value("purse", (start + i) % players) for i in range(players)] == coins
    assert game.value("supply_coins") == 30 - sum(coins)


def test_setup_scores_councilmen_tiles_and_cards():
    game = RULES.new_game(4, 2)
    assert vp(game) == [3, 3, 3, 3]
    assert game.value("personal") == (5, 5, 5, 5) and game.value("general") == (13, 13, 13, 13)
    assert sorted(game.value("round_tiles")) == sorted(DISTRICTS)
    assert len(game.value("bridge_stack")) == 6 and game.value("bridge_top") == game.value("bridge_stack")[0]
    assert len(game.value("gondola_space")) == 6 and len(game.value("draw_pile")) == 77
    assert game.value("bonus_up") == ("blue", "red")


def test_round_tiles_are_dealt_at_random():
    orders = {RULES.new_game(3, seed).value("round_tiles") for seed in range(8)}
    assert len(orders) > 1


def test_the_order_the_districts_are_played_through_is_defined_by_the_round_tiles(tmp_path):
    # "in round 1, put the district token on tile 1, etc": the tiles' numbers decide
    variant = tmp_path / "swapped.yaml"
    variant.write_text(
        "extends: rialto\nid: swapped\ntitle: Swapped\ndescription: Round tiles 1 and 2 swapped.\n"
        "overlay:\n  tiles:\n    tiles:\n      - {id: round_tile_1, params: {number: 2}}\n"
        "      - {id: round_tile_2, params: {number: 1}}\n",
        encoding="utf-8",
    )
    base, swapped = RULES.new_game(3, 4).value("round_tiles"), vr.load(variant).new_game(3, 4).value("round_tiles")
    assert swapped == (base[1], base[0], *base[2:])
    game = drive(RULES.new_game(3, 4), lambda g: label(g) == "take_row")
    assert game.value("district") == base[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_doge_counters_placed_counter_clockwise_so_the_starting_player_is_on_top(players):
    game = RULES.new_game(players, 11)
    start = game.value("start_player")
    # placed from the player right of the start player counter-clockwise; the last one
    # placed (the start player) is on top, so the order is clockwise from the start player
    assert game.value("doge_order") == tuple((start + i) % players for i in range(players))
    assert set(game.value("doge_step")) == {0}


def test_starting_buildings_chosen_counter_clockwise_all_different_with_three_players():
    game = RULES.new_game(3, 0)
    assert game.to_move == (2,)  # right of the starting player 0
    play(game, "p2 start_building(green_1)")
    assert game.to_move == (1,)
    assert [a.value for a in game.legal_actions(1)] == ["blue_1", "yellow_1"]
    play(game, "p1 start_building(blue_1)")
    assert [a.value for a in game.legal_actions(0)] == ["yellow_1"]


def test_starting_buildings_at_most_two_alike_with_five_players():
    game = RULES.new_game(5, 1)
    for _ in range(2):
        play(game, f"p{game.to_move[0]} start_building(green_1)")
    assert "green_1" not in [a.value for a in game.legal_actions(game.to_move[0])]
    german = GERMAN.new_game(5, 1)
    for _ in range(4):
        play(german, f"p{german.to_move[0]} start_building(green_1)")
    assert "green_1" in [a.value for a in german.legal_actions(german.to_move[0])]


# -- phase I ------------------------------------------------------------------------------------
def test_card_rows_one_more_than_players_six_cards_each_dealt_one_per_row_at_a_time():
    game = drive(RULES.new_game(3, 0), lambda g: label(g) == "take_row")
    rows = game.value("rows")
    assert [len(r) for r in rows] == [6, 6, 6, 6]
    pile_before = RULES.new_game(3, 0)
    # the first card of the shuffled pile goes to row 1, the second to row 2, ...
    deck = drive(pile_before, lambda g: g.value("round") == 1 and label(g) != "start_building")
    assert deck.value("rows")[1][0] != () and game.to_move == (0,)


def test_select_cards_a_row_then_two_from_the_pile_in_doge_order_and_keep_seven():
    game = drive(RULES.new_game(3, 0), lambda g: label(g) == "take_row")
    row = game.value("rows")[2]
    play(game, "p0 take_row(2)")
    assert sorted(game.value("hand", 0)) == sorted(row + game.value("hand", 0)[6:]) and len(game.value("hand", 0)) == 8
    assert game.to_move == (1,)
    drive(game, lambda g: label(g) == "discard")
    assert game.to_move == (0,)
    play(game, f"p0 discard({game.legal_actions(0)[0].value})")
    assert len(game.value("hand", 0)) == 7 and len(game.value("discard", 0)) == 1
    drive(game, lambda g: g.value("current_phase") == 2)
    assert [len(h) for h in game.value("hand")] == [7, 7, 7]
    assert len(game.value("row_discard")) == 6 and game.value("rows") == ()  # leftover row discarded


def test_reduce_hands_the_discarded_card_goes_face_down_and_nobody_else_learns_it():
    """ "Each player has to keep their own, face-down discard pile": the choice of the card
    to discard is secret, so neither its choice event nor its move names it to the others."""
    game = drive(RULES.new_game(3, 0), lambda g: label(g) == "discard")
    card = game.legal_actions(0)[0].value
    play(game, f"p0 discard({card})")
    for viewer in (1, 2):
        events = game.view(viewer)["events"]
        choice = [e for e in events if e["type"] == "choice" and e["label"] == "discard"][-1]
        assert choice["value"] == "?" and choice["hidden"] is True
        moved = [e for e in events if e["type"] == "move" and e["to"] == ["discard", 0]][-1]
        assert moved["item"] == "?"
        assert game.view(viewer)["state"]["discard"][0] == {"hidden": 1}
    mine = [e for e in game.view(0)["events"] if e["type"] == "choice" and e["label"] == "discard"][-1]
    assert mine["value"] == card


def test_leftover_cards_are_kept_for_the_next_round():
    game = quiet_stage("doge", hand={0: [GOLD, GOLD]})
    drive(game, lambda g: g.value("round") == 2 and label(g) == "take_row" and g.to_move == (0,))
    play(game, "p0 take_row(0)")
    assert game.value("hand", 0).count(GOLD) >= 2 and len(game.value("hand", 0)) == 10


def test_leftover_cards_kept_is_live_and_without_it_the_hand_is_discarded_at_round_end(tmp_path):
    # "He may keep leftover cards for the next round": the constant leftover_cards_kept
    # (true) carries that sentence; a designer's false discards them at the end of a round
    variant = tmp_path / "no_leftovers.yaml"
    variant.write_text(
        "extends: rialto\nid: no_leftovers\ntitle: No leftovers\ndescription: Leftover cards are discarded.\n"
        "overlay:\n  game:\n    constants:\n      leftover_cards_kept: {value: false}\n",
        encoding="utf-8",
    )
    game = quiet_stage("doge", rules=vr.load(variant), hand={0: [GOLD, GOLD]})
    drive(game, lambda g: g.value("round") == 2)
    assert game.value("hand") == ((), (), ()) and GOLD in game.value("discard", 0)


def test_empty_draw_pile_is_rebuilt_from_all_discarded_cards():
    game = drive(RULES.new_game(3, 0), lambda g: label(g) == "take_row")
    set_vars(game, draw_pile=[DOGE], discard={0: [GOLD], 1: [BRIDGE]}, row_discard=[JOKER], hand={0: [], 1: [], 2: []})
    # rows were already dealt; the 2 cards drawn after taking a row empty the pile
    play(game, "p0 take_row(0)")
    assert game.value("discard") == ((), (), ()) and game.value("row_discard") == ()
    assert len(game.value("hand", 0)) == 8 and len(game.value("draw_pile")) == 2  # 3 shuffled, 1 drawn
    assert any(e["type"] == "reshuffle" for e in game.events)


# -- phase II: the stage frame ------------------------------------------------------------------
def test_stage_a_starts_with_the_player_ahead_and_each_player_has_one_turn_clockwise():
    game = quiet_stage("doge", hand={0: [DOGE], 1: [DOGE], 2: [DOGE]})
    assert game.to_move == (0,)
    play(game, "p0 play([1,0])")
    assert game.to_move == (1,)
    play(game, "p1 pass")
    assert game.to_move == (2,)


def test_every_player_gets_a_turn_and_being_asked_shows_nothing_of_his_hand():
    """ "each player gets a single turn to play any number of cards matching the current
    stage ... he may even play none at all and simply pass": every player is asked, also
    one without a card he could play, in secret, so the others cannot tell the two apart."""
    seen = []
    for hand in ([DOGE], [GOLD]):
        game = quiet_stage("doge", hand={0: [DOGE], 1: hand, 2: []})
        play(game, "p0 pass")
        assert game.to_move == (1,) and label(game) == "play"
        play(game, "p1 pass")
        assert game.to_move == (2,) and [str(a) for a in game.legal_actions(2)] == ["p2 pass"]
        seen.append(game.view(0))
    assert seen[0] == seen[1]


def test_later_stage_starts_with_the_previous_bonus_winner():
    game = quiet_stage("doge", hand={0: [DOGE], 1: [DOGE, DOGE], 2: []})
    play(game, "p0 play([1,0])")
    n = len(game.events)
    play(game, "p1 play([2,0])")
    play(game, "p2 pass")  # asked like everyone, though he holds no card
    stages = [e for e in game.events[n:] if e["type"] == "stage"]
    assert stages[0] == {"type": "stage", "stage": "gold", "player": 1}


def test_nobody_playing_gives_no_bonus_and_keeps_the_starting_player():
    game = quiet_stage("doge", hand={0: [DOGE], 1: [], 2: []})
    n = len(game.events)
    for p in range(3):
        play(game, f"p{p} pass")
    counted = [e for e in game.events[n:] if e["type"] == "counted"]
    stages = [e for e in game.events[n:] if e["type"] == "stage"]
    assert counted[0] == {"type": "counted", "stage": "doge", "counts": [0, 0, 0], "winner": None}
    assert stages[0] == {"type": "stage", "stage": "gold", "player": 0}


def test_played_cards_go_to_the_players_own_discard_pile():
    game = quiet_stage("doge", hand={0: [DOGE, DOGE, GOLD], 1: [], 2: []})
    play(game, "p0 play([2,0])")
    finish_stage(game)
    assert game.value("discard", 0)[-2:] == (DOGE, DOGE) and game.value("hand", 0) == (GOLD,)


def test_bonus_tie_is_broken_by_the_doge_track():
    game = quiet_stage("gold", hand={0: [GOLD], 1: [GOLD], 2: []}, doge_order=[1, 0, 2], doge_rank=[2, 3, 1])
    play(game, "p0 play([1,0])")
    play(game, "p1 play([1,0])")
    finish_stage(game)
    assert game.value("purse") == (1 + 1, 2 + 1 + 1, 3)  # p1 is ahead on the Doge track: bonus coin


# -- stage actions and bonuses ---------------------------------------------------------------------
def test_stage_a_one_step_per_card_bonus_one_more_and_a_counter_goes_on_top():
    game = quiet_stage("doge", hand={0: [DOGE, DOGE], 1: [DOGE, JOKER], 2: [DOGE]})
    play(game, "p0 play([2,0])")
    play(game, "p1 play([1,1])")
    play(game, "p2 play([1,0])")
    finish_stage(game)
    # p0 (2 cards, ahead: bonus) 3 steps; p1 2 steps; p2 1 step
    assert game.value("doge_step") == (3, 2, 1)
    assert game.value("doge_order") == (0, 1, 2)


def test_stage_a_counter_entering_an_occupied_space_goes_on_top():
    game = quiet_stage(
        "doge",
        hand={0: [DOGE, DOGE], 1: [DOGE, DOGE, DOGE], 2: []},
        doge_step=[0, 0, 2],
        doge_order=[0, 2, 1],
        doge_rank=[3, 1, 2],
    )
    # p2 stands on 2 already; the order of stage actions is the Doge order p0, p2, p1
    play(game, "p0 play([2,0])")
    play(game, "p1 play([2,0])")
    finish_stage(game)
    # p0: 2 cards, tie with p1 broken by the Doge track -> bonus, 3 steps; p1 2 steps onto p2's space
    assert game.value("doge_step") == (3, 2, 2)
    assert game.value("doge_order") == (0, 1, 2)  # p1 entered p2's space and is on top


def test_stage_b_one_coin_per_card_bonus_one_more():
    game = quiet_stage("gold", hand={0: [GOLD, GOLD, GOLD], 1: [GOLD], 2: []})
    play(game, "p0 play([3,0])")
    play(game, "p1 play([1,0])")
    finish_stage(game)
    assert game.value("purse") == (1 + 4, 2 + 1, 3)
    assert game.value("supply_coins") == 30 - 6 - 5


def test_stage_c_building_of_value_up_to_cards_played_bonus_plus_one():
    game = quiet_stage("building", hand={0: [BUILDING, BUILDING], 1: [BUILDING], 2: []})
    play(game, "p0 play([2,0])")
    play(game, "p1 play([1,0])")
    drive(game, lambda g: label(g) == "build")
    assert game.to_move == (0,)
    assert {a.value for a in game.legal_actions(0)} - {None} == {
        b for b in ("green_1", "green_2", "green_3", "yellow_1", "yellow_2", "yellow_3", "blue_1", "blue_2", "blue_3")
    }
    play(game, "p0 build(blue_3)")
    assert {a.value for a in game.legal_actions(1)} - {None} == {"green_1", "yellow_1", "blue_1"}
    play(game, "p1 build(green_1)")
    assert game.value("buildings", 0) == ("blue_3",) and game.value("buildings", 1) == ("green_1",)


def test_stage_c_above_value_four_takes_a_four_and_one_up_to_the_difference():
    game = quiet_stage("building", hand={0: [BUILDING] * 5, 1: [], 2: []})
    play(game, "p0 play([5,0])")
    drive(game, lambda g: label(g) == "build")
    # 5 cards + bonus = 6: a 4, then one of value up to 2
    play(game, "p0 build(yellow_4)")
    assert {a.value for a in game.legal_actions(0)} - {None} == {
        "green_1",
        "yellow_1",
        "blue_1",
        "green_2",
        "yellow_2",
        "blue_2",
    }
    play(game, "p0 build(blue_2)")
    assert game.value("buildings", 0) == ("yellow_4", "blue_2")


def test_stage_c_above_value_four_a_smaller_single_building_brings_no_second_one():
    """Decided: "take a 4, then one more of value up to the difference"; 001 lets a player
    "choose a building with a value equal to or lower than the number of cards played", so
    the first may be smaller than a 4, but only a 4 brings the second building."""
    game = quiet_stage("building", hand={0: [BUILDING] * 5, 1: [], 2: []})
    play(game, "p0 play([5,0])")
    drive(game, lambda g: label(g) == "build")
    assert "p0 build(green_3)" in [str(a) for a in game.legal_actions(0)]  # the first pick need not be a 4
    play(game, "p0 build(green_3)")
    assert label(game) != "build" and game.value("buildings", 0) == ("green_3",)


def test_stage_c_above_value_four_the_first_building_must_be_a_four_in_the_variant():
    rules = vr.load("rialto", variants=["building_four_first"])
    game = quiet_stage("building", rules=rules, hand={0: [BUILDING] * 5, 1: [], 2: []})
    play(game, "p0 play([5,0])")
    drive(game, lambda g: label(g) == "build")
    assert {a.value for a in game.legal_actions(0)} - {None} == {"green_4", "yellow_4", "blue_4"}
    play(game, "p0 build(green_4)")
    assert {a.value for a in game.legal_actions(0)} - {None} >= {"green_2", "blue_1"}


def test_stage_c_full_board_returns_a_building_for_its_value():
    full = ["green_1", "green_2", "blue_2", "blue_2", "blue_1", "blue_3", "green_4"]
    game = quiet_stage(
        "building",
        hand={0: [BUILDING], 1: [BRIDGE], 2: []},
        buildings={0: full, 1: [], 2: []},
        building_supply=[b for b in RULES.copies("buildings", 3)],
    )
    play(game, "p0 play([1,0])")
    drive(game, lambda g: label(g) == "build")
    play(game, "p0 build(green_1)")  # 1 card + bonus = value 2 allowed
    assert label(game) == "return_building" and not any(a.name == "pass" for a in game.legal_actions(0))
    before = vp(game)[0]
    play(game, "p0 return_building(blue_3)")
    assert vp(game)[0] == before + 3
    assert len(game.value("buildings", 0)) == 7 and "blue_3" not in game.value("buildings", 0)


def test_stage_d_one_point_per_card_minus_one_for_no_card_bonus_point_and_bridge():
    game = quiet_stage("bridge", hand={0: [BRIDGE, BRIDGE], 1: [BRIDGE], 2: [BRIDGE]})
    play(game, "p0 play([2,0])")
    play(game, "p1 play([1,0])")
    play(game, "p2 pass")
    assert label(game) == "bridge" and game.to_move == (0,)
    top = game.value("bridge_top")
    end_a, end_b = RULES.item_param(top, "end_a"), RULES.item_param(top, "end_b")
    play(game, "p0 bridge([san_marco_san_polo,san_polo])")
    finish_stage(game)
    assert vp(game) == [3 + 2 + 1, 3 + 1, 3 - 1]
    entry = game.value("conn_tiles")[[c["id"] for c in RULES.items("board", "connections")].index("san_marco_san_polo")]
    assert entry == (top, end_b, end_a)  # between [san_marco, san_polo]: end_a faces San Polo
    assert game.value("bridge_top") == game.value("bridge_stack")[0] and len(game.value("bridge_stack")) == 5


def test_stage_e_councilmen_from_general_to_personal_and_points_when_missing():
    game = quiet_stage(
        "gondola", hand={0: [GONDOLA, GONDOLA], 1: [GONDOLA, GONDOLA, GONDOLA], 2: []}, general=[13, 1, 13]
    )
    before = vp(game)
    play(game, "p0 play([2,0])")
    play(game, "p1 play([3,0])")
    drive(game, lambda g: label(g) == "gondola")
    assert game.to_move == (1,)
    assert game.value("personal")[0] == 5 + 2 and game.value("general")[0] == 11
    # p1: 3 cards, 1 councilman left in the general supply: 1 moved, 2 points
    assert game.value("personal")[1] == 6 and game.value("general")[1] == 0 and vp(game)[1] == before[1] + 2


def test_stage_e_bonus_gondola_tile_and_a_councilman_from_the_general_supply():
    game = quiet_stage("gondola", hand={0: [GONDOLA], 1: [], 2: []})
    play(game, "p0 play([1,0])")
    drive(game, lambda g: label(g) == "gondola")
    play(game, "p0 gondola(cannaregio_castello)")
    assert {a.value for a in game.legal_actions(0)} == {"cannaregio", "castello"}
    play(game, "p0 gondola_district(castello)")
    assert game.value("in_district", 0)[DISTRICTS.index("castello")] == 1
    assert game.value("general", 0) == 13 - 1 - 1 and len(game.value("gondola_space")) == 5
    assert RULES.board.connection("cannaregio_castello")  # the tile lies there:
    assert "cannaregio_castello" not in [c for c in _free(game)]


def _free(game):
    ids = [c["id"] for c in RULES.items("board", "connections")]
    return [c for c, t in zip(ids, game.value("conn_tiles")) if t is None]


def test_stage_e_bonus_with_empty_general_supply_scores_one_and_uses_the_personal_supply():
    game = quiet_stage("gondola", hand={0: [GONDOLA], 1: [], 2: []}, general=[0, 13, 13])
    before = vp(game)
    play(game, "p0 play([1,0])")
    drive(game, lambda g: label(g) == "gondola")
    play(game, "p0 gondola(san_polo_dorsoduro)")
    play(game, "p0 gondola_district(dorsoduro)")
    assert label(game) == "councilman_from"
    play(game, "p0 councilman_from(personal)")
    # 1 point for the missing councilman of the card, 1 for the empty supply at the bonus
    assert vp(game)[0] == before[0] + 1 + 1
    assert game.value("personal", 0) == 4 and game.value("in_district", 0)[DISTRICTS.index("dorsoduro")] == 1


def test_stage_f_councilmen_into_the_current_district_bonus_one_more():
    game = quiet_stage("councilman", hand={0: [COUNCILMAN, COUNCILMAN], 1: [COUNCILMAN], 2: []})
    district = game.value("district")
    play(game, "p0 play([2,0])")
    play(game, "p1 play([1,0])")
    finish_stage(game)
    i = DISTRICTS.index(district)
    assert game.value("in_district", 0)[i] == 3 and game.value("in_district", 1)[i] == 1
    assert game.value("personal") == (2, 4, 5)


def test_stage_f_empty_personal_supply_moves_councilmen_already_on_the_board():
    game = quiet_stage("councilman", hand={0: [COUNCILMAN], 1: [], 2: []}, personal=[0, 5, 5])
    district = game.value("district")
    other = next(d for d in DISTRICTS if d != district)
    row = [0] * 6
    row[DISTRICTS.index(other)] = 2
    set_vars(game, in_district={0: row})
    play(game, "p0 play([1,0])")
    play(game, "p1 pass")
    play(game, "p2 pass")
    assert label(game) == "move_councilman" and [a.value for a in game.legal_actions(0)][:1] == [other]
    play(game, f"p0 move_councilman({other})")
    play(game, f"p0 move_councilman({other})")  # the bonus councilman
    assert game.value("in_district", 0)[DISTRICTS.index(district)] == 2
    assert game.value("in_district", 0)[DISTRICTS.index(other)] == 0


# -- Jokers ------------------------------------------------------------------------------------
def test_joker_cannot_be_played_alone():
    game = quiet_stage("doge", hand={0: [DOGE, JOKER], 1: [], 2: []})
    assert {a.value for a in game.legal_actions(0)} == {(1, 0), (1, 1), None}
    with pytest.raises(IllegalActionError):
        game.apply("p0 play([0,1])")


def test_two_jokers_count_as_one_card_of_a_missing_type_plus_further_jokers():
    game = quiet_stage("doge", hand={0: [JOKER, JOKER, JOKER], 1: [JOKER], 2: []})
    assert {a.value for a in game.legal_actions(0)} == {(0, 2), (0, 3), None}
    play(game, "p0 play([0,3])")
    finish_stage(game)  # p1's lone Joker cannot be played: he can only pass
    assert game.value("doge_step", 0) == 2 + 1  # 3 Jokers count 2, plus the bonus


def test_jokers_added_to_cards_count_one_each():
    game = quiet_stage("gold", hand={0: [GOLD, JOKER, JOKER], 1: [], 2: []})
    play(game, "p0 play([1,2])")
    finish_stage(game)
    assert game.value("purse", 0) == 1 + 3 + 1


def test_german_summary_jokers_count_as_any_card_and_may_be_played_alone():
    game = GERMAN.new_game(3, 0)
    at_stage(game, "doge")
    set_vars(game, hand={0: [DOGE, JOKER], 1: [], 2: []}, buildings={0: [], 1: [], 2: []})
    assert (0, 1) in {a.value for a in game.legal_actions(0)}
    play(game, "p0 play([0,1])")
    finish_stage(game)
    assert game.value("doge_step", 0) == 1 + 1


# -- district bonus ------------------------------------------------------------------------------
def _row(**counts):
    return [counts.get(d, 0) for d in DISTRICTS]


def test_district_bonus_from_the_gondola_bonus_is_immediate_and_turns_the_tile():
    game = quiet_stage("gondola", hand={0: [GONDOLA], 1: [], 2: []}, in_district={0: _row(cannaregio=1, san_marco=1)})
    before = vp(game)
    play(game, "p0 play([1,0])")
    drive(game, lambda g: label(g) == "gondola")
    play(game, "p0 gondola(cannaregio_castello)")
    play(game, "p0 gondola_district(castello)")
    assert vp(game)[0] == before[0] + 5 and game.value("bonus_up") == ("red",)


def _stage_f_one_district_short(rules=RULES, seats=(0, 1)):
    """Stage F; each of ``seats`` holds a Councilman card and has a councilman in the two
    other districts of the current district's side. Gives the game and that side."""
    game = quiet_stage("councilman", rules=rules, hand={p: [COUNCILMAN] if p in seats else [] for p in range(3)})
    side = RULES.item(game.value("district"))["side"]
    on_side = [d for d in DISTRICTS if RULES.item(d)["side"] == side and d != game.value("district")]
    row = _row(**{d: 1 for d in on_side})
    set_vars(game, in_district={p: row for p in seats})
    return game, side


def test_district_bonus_two_players_in_the_same_stage_f_each_score_it():
    """ "If more than one player happens to accomplish this during the same stage F, each
    one of them gets the bonus." Decided: given at once, as in E ("immediately gets 5
    victory points"): p0 scores it as his councilman arrives, before p1 acts, and p1,
    arriving in the same stage F, still gets it though p0 turned the tile."""
    game, side = _stage_f_one_district_short()
    before, done = vp(game), len(game.events)
    play(game, "p0 play([1,0])")
    play(game, "p1 play([1,0])")
    finish_stage(game)
    kinds = [(e["type"], e.get("player")) for e in game.events[done:] if e["type"] in ("councilman", "district_bonus")]
    assert kinds[:2] == [("councilman", 0), ("district_bonus", 0)]  # at once, before the next councilman
    assert ("district_bonus", 1) in kinds and vp(game) == [before[0] + 5, before[1] + 5, before[2]]
    assert side not in game.value("bonus_up") and game.value("stage_bonus") == ()


def test_district_bonus_in_stage_f_at_the_end_of_the_stage_in_the_variant():
    rules = vr.load("rialto", variants=["district_bonus_end_of_stage_f"])
    game, side = _stage_f_one_district_short(rules, seats=(0,))
    before = vp(game)
    play(game, "p0 play([1,0])")
    finish_stage(game)
    kinds = [e["type"] for e in game.events if e["type"] in ("councilman", "district_bonus", "counted")]
    assert kinds[-1] == "district_bonus" and vp(game)[0] == before[0] + 5  # after all the councilmen
    assert side not in game.value("bonus_up")


# -- final scoring --------------------------------------------------------------------------------
def _last_stage_f(seed=0):
    game = RULES.new_game(3, seed)
    at_stage(game, "doge")
    set_vars(game, hand={0: [], 1: [], 2: []}, buildings={0: [], 1: [], 2: []})
    return at_stage(game, "councilman", round_=6)


def test_final_scoring_supply_half_rounded_up_and_building_values():
    game = _last_stage_f()
    set_vars(
        game,
        hand={0: [], 1: [], 2: []},
        purse=[3, 0, 1],
        personal=[4, 0, 0],
        buildings={0: ["blue_4", "green_1"], 1: [], 2: []},
        victory_points=[0, 0, 0],
        in_district={p: [0] * 6 for p in range(3)},
        supply_coins=26,
        general=[14, 18, 18],
    )
    drive(game, lambda g: False)
    # p0: half of 4 + 3 = 7 rounded up = 4, buildings 4 + 1; p2: half of 1 rounded up = 1
    assert game.is_over and vp(game) == [4 + 5, 0, 1]


def test_district_scoring_halves_by_rank_and_ties_go_by_the_doge_track():
    game = _last_stage_f()
    ids = [c["id"] for c in RULES.items("board", "connections")]
    tiles = [None] * len(ids)
    # San Marco is the first district of two of these connections; the value facing it counts
    tiles[ids.index("san_marco_castello")] = ("bridge_6_3", 6, 3)
    tiles[ids.index("san_marco_san_polo")] = ("bridge_5_4", 5, 4)
    tiles[ids.index("cannaregio_san_marco")] = ("gondola", 1, 1)
    # San Marco: 6 + 5 + 1 = 12. p1 and p2 tie with 2 councilmen; p2 is ahead on the Doge track
    set_vars(
        game,
        hand={0: [], 1: [], 2: []},
        purse=[0, 0, 0],
        personal=[0, 0, 0],
        supply_coins=30,
        conn_tiles=tiles,
        victory_points=[0, 0, 0],
        doge_order=[2, 0, 1],
        doge_rank=[2, 1, 3],
        in_district={0: _row(san_marco=1), 1: _row(san_marco=2), 2: _row(san_marco=2)},
        general=[17, 16, 16],
    )
    drive(game, lambda g: False)
    # Castello 3 (only the bridge end), San Polo 4, Cannaregio 1: nobody there
    assert vp(game) == [3, 6, 12]
    assert game.winners == (2,)


def test_winner_tie_is_broken_by_the_doge_track():
    game = _last_stage_f()
    set_vars(
        game,
        hand={0: [], 1: [], 2: []},
        purse=[0, 0, 0],
        personal=[0, 0, 0],
        supply_coins=30,
        victory_points=[10, 10, 2],
        doge_order=[1, 0, 2],
        doge_rank=[2, 3, 1],
        in_district={p: [0] * 6 for p in range(3)},
        general=[18, 18, 18],
    )
    drive(game, lambda g: False)
    assert game.scores == {0: 10, 1: 10, 2: 2} and game.winners == (1,)


# -- building abilities ---------------------------------------------------------------------------
def _green(building, purse=1):
    """A game at p0's green activation in round 1 (after every player took his row)."""
    game = drive(RULES.new_game(3, 0), lambda g: label(g) == "take_row" and g.to_move == (2,))
    set_vars(game, buildings={0: [building], 1: [], 2: []}, purse={0: purse})
    play(game, "p2 take_row(0)")
    assert label(game) == "activate" and game.to_move == (0,)
    play(game, f"p0 activate({building})")
    return game


def test_building_activation_costs_a_coin_once_per_round_and_coins_return_at_round_end():
    game = _green("green_2", purse=2)
    assert game.value("purse", 0) == 1 and game.value("activated", 0) == ("green_2",)
    assert label(game) != "activate" or game.to_move != (0,)  # no second activation of it
    drive(game, lambda g: g.value("round") == 2)
    assert game.value("activated") == ((), (), ())


def test_green_1_takes_a_card_from_the_leftover_row():
    game = _green("green_1")
    row = game.value("rows")[0]
    play(game, "p0 green_source(leftover_row)")
    play(game, f"p0 take_card({row[0]})")
    assert len(game.value("hand", 0)) == 9 and len(game.value("rows")[0]) == 5


def test_green_1_or_draws_three_cards():
    game = _green("green_1")
    play(game, "p0 green_source(draw_pile)")
    assert len(game.value("hand", 0)) == 8 + 3


def test_green_2_keeps_one_more_card():
    game = _green("green_2")
    drive(game, lambda g: g.value("current_phase") == 2)
    assert len(game.value("hand", 0)) == 8


def test_green_3_takes_a_card_and_keeps_one_more():
    game = _green("green_3")
    play(game, "p0 green_source(draw_pile)")
    drive(game, lambda g: g.value("current_phase") == 2)
    assert len(game.value("hand", 0)) == 8


def test_green_4_takes_a_card_and_keeps_two_more():
    game = _green("green_4")
    play(game, "p0 green_source(draw_pile)")
    drive(game, lambda g: g.value("current_phase") == 2)
    assert len(game.value("hand", 0)) == 9


def _yellow(building, stage="doge", hand=None):
    game = quiet_stage(stage, hand={0: hand or [], 1: [], 2: []}, buildings={0: [building], 1: [], 2: []})
    assert label(game) == "activate" and game.to_move == (0,)
    play(game, f"p0 activate({building})")
    return game


def test_yellow_1_delays_the_turn_after_all_others_and_gives_a_coin():
    game = quiet_stage("doge", hand={0: [DOGE], 1: [DOGE], 2: [DOGE]}, buildings={0: ["yellow_1"], 1: [], 2: []})
    play(game, "p0 activate(yellow_1)")
    assert game.value("purse", 0) == 1 - 1 + 1
    assert game.to_move == (1,)
    play(game, "p1 pass")
    play(game, "p2 pass")
    assert game.to_move == (0,) and label(game) == "play" and game.value("turn_queue") == (0,)


def test_yellow_1_is_not_offered_to_the_last_player_of_a_stage_whose_turn_it_cannot_delay():
    """Yellow 1: "delay your turn until all others have had theirs": with nobody left to go
    after him, a player's turn cannot be delayed, so the building is not offered."""
    game = quiet_stage(
        "doge",
        hand={0: [DOGE], 1: [DOGE], 2: [DOGE]},
        buildings={0: ["yellow_1", "yellow_1"], 1: [], 2: ["yellow_1"]},
        purse=[2, 0, 1],
    )
    assert "p0 activate(yellow_1)" in [str(a) for a in game.legal_actions(0)]
    play(game, "p0 activate(yellow_1)")  # p0 goes last now
    play(game, "p1 pass")
    assert game.to_move == (2,) and label(game) == "activate"  # p0 is still to go after p2
    play(game, "p2 pass")
    play(game, "p2 pass")  # no card played
    assert game.to_move == (0,) and label(game) == "play"  # his second yellow 1 is not offered
    game = quiet_stage("doge", hand={0: [DOGE], 1: [DOGE], 2: [DOGE]}, buildings={2: ["yellow_1"]}, purse=[0, 0, 1])
    play(game, "p0 pass")
    play(game, "p1 pass")
    assert game.to_move == (2,) and label(game) == "play"  # the last player of the stage


def test_yellow_2_plays_a_card_of_another_type_as_the_stage_type():
    game = _yellow("yellow_2", hand=[GOLD])
    play(game, "p0 convert(gold_card)")
    assert game.value("hand", 0) == () and game.value("played", 0) == (GOLD,)
    finish_stage(game)
    assert game.value("discard", 0)[-1] == GOLD
    assert game.value("doge_step", 0) == 1 + 1  # 1 card and the bonus


def test_yellow_3_counts_as_a_joker_and_pairs_with_a_joker_for_a_missing_type():
    game = _yellow("yellow_3", hand=[JOKER])
    assert {a.value for a in game.legal_actions(0)} == {(0, 1), None}
    play(game, "p0 play([0,1])")
    finish_stage(game)
    assert game.value("doge_step", 0) == 1 + 1


def test_yellow_4_one_card_counts_as_two():
    game = _yellow("yellow_4", stage="gold", hand=[GOLD])
    play(game, "p0 play([1,0])")
    finish_stage(game)
    assert game.value("purse", 0) == 1 - 1 + 2 + 1


def _blue(building, others=()):
    """A game right after p0 activated a blue building in phase III of round 1; also gives
    p0's score just before."""
    game = quiet_stage("councilman", buildings={0: [building, *others], 1: [], 2: []}, purse={0: 1})
    drive(game, lambda g: g.value("current_phase") == 3 and label(g) == "activate")
    before = vp(game)[0]
    play(game, f"p0 activate({building})")
    return game, before


def test_blue_1_upgrades_a_building_by_one_value():
    game, before = _blue("blue_1", others=["green_2"])
    play(game, "p0 upgrade(green_2)")
    assert {a.value for a in game.legal_actions(0)} == {"green_3", "yellow_3", "blue_3"}
    play(game, "p0 upgrade_to(yellow_3)")
    assert sorted(game.value("buildings", 0)) == ["blue_1", "yellow_3"]
    assert vp(game)[0] == before  # no points for the exchanged building


def test_blue_2_advances_two_on_the_doge_track():
    game, _ = _blue("blue_2")
    assert game.value("doge_step", 0) == 2 and game.value("doge_order")[0] == 0


def test_blue_3_scores_two_points():
    game, before = _blue("blue_3")
    assert vp(game)[0] == before + 2


def test_blue_4_puts_a_councilman_from_the_general_supply_into_the_current_district():
    game, _ = _blue("blue_4")
    district = game.value("round_tiles")[0]  # round 1's district
    assert game.value("in_district", 0)[DISTRICTS.index(district)] == 1 and game.value("general", 0) == 12


# -- German summary variant ------------------------------------------------------------------------
@pytest.mark.parametrize("card", [BRIDGE, JOKER], ids=["bridge", "joker"])
def test_german_summary_bridge_penalty_only_without_a_bridge_card(card):
    # 004: "Hat ein Spieler keine Brücke, die er ausspielen kann": p0 holds a Bridge card,
    # or a Joker, which counts as any card there; he passes and keeps his point
    game = quiet_stage("bridge", rules=GERMAN, hand={0: [card], 1: [], 2: []})
    before = vp(game)
    play(game, "p0 pass")
    finish_stage(game)
    assert vp(game) == [before[0], before[1] - 1, before[2] - 1]


def test_others_see_how_many_cards_a_player_holds_never_of_which_type():
    """ "Each player's hand size needs to be clearly visible at all times": the size, and
    nothing more. (The state variable `held` showed everybody, at every stage, how many
    cards of the stage's type each player held; it is gone.)"""
    seen = []
    for hand in ([BRIDGE, BRIDGE], [GOLD, DOGE]):
        game = quiet_stage("bridge", hand={0: [BRIDGE], 1: hand, 2: []})
        seen.append(game.view(0)["state"])
    assert seen[0] == seen[1] and seen[0]["hand"][1] == {"hidden": 2}
    assert "held" not in RULES.compiled.state


def test_german_summary_building_may_be_exchanged_any_time():
    game = quiet_stage(
        "building", rules=GERMAN, hand={0: [BUILDING], 1: [BRIDGE], 2: []}, buildings={0: ["green_1"], 1: [], 2: []}
    )
    before = vp(game)
    play(game, "p0 play([1,0])")
    drive(game, lambda g: label(g) == "build")
    play(game, "p0 build(green_2)")
    assert label(game) == "return_building" and any(a.name == "pass" for a in game.legal_actions(0))
    play(game, "p0 return_building(green_1)")
    assert game.value("buildings", 0) == ("green_2",) and vp(game)[0] == before[0] + 1


# -- the test kit ---------------------------------------------------------------------------------
def test_a_random_game_keeps_every_invariant_and_api_promise():
    """One 2-player game through the test kit (all counts and the variant: `venedig-rules
    check rialto --games 5`, slow because the kit's checks grow with the game's length)."""
    from venedig_rules.testing import api_test

    report = api_test(RULES, games=1, seed=3, players=[2])
    assert report.ok, str(report.violation)


def test_the_card_counts_agree_with_their_plain_definitions_at_every_step():
    """play_options and stage_counts count a hand's cards of a type and its Jokers in one
    plain loop (speed): at every step of two games, for every seat and stage type, they
    give what counting each kind on its own gives."""
    import random

    from venedig_rules.games import rialto as R

    f = R._facts(type("Ctx", (), {"rules": RULES})())
    kinds = [t for t in dict.fromkeys(f.card_type.values()) if t != f.joker]
    checked = 0
    for players, seed in ((3, 1), (5, 2)):
        game, chooser = RULES.new_game(players, seed, record=False), random.Random(seed)
        while not game.is_over:
            ctx = Machine(RULES, players, game.played.state, None)
            for kind in kinds:
                for missing, alone in ((2, False), (1, True)):
                    expected_counts = []
                    for p in range(players):
                        hand, played = game.value("hand", p), game.value("played", p)
                        have = sum(f.card_type[c] == kind for c in hand)
                        jokers = sum(f.card_type[c] == f.joker for c in hand)
                        extra, virtual = game.value("extra_cards", p), game.value("extra_jokers", p)
                        expected = tuple(
                            (n, j)
                            for n in range(have + 1)
                            for j in range(jokers + 1)
                            if (n or j) and (n + extra >= 1 or ((have == 0 or alone) and j + virtual >= missing))
                        )
                        assert R.play_options(ctx, p, kind, missing, alone) == expected
                        n = sum(f.card_type[c] == kind for c in played) + extra
                        j = sum(f.card_type[c] == f.joker for c in played) + virtual
                        total = n + j if n >= 1 else (1 + j - missing if j >= missing else 0)
                        expected_counts.append(total + game.value("doubles", p) if total >= 1 else total)
                    assert R.stage_counts(ctx, kind, missing, alone) == tuple(expected_counts)
            checked += 1
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    assert checked > 100
