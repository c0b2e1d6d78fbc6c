"""Die Säulen von Venedig (`rules/saeulen/`): every rule of the rulebook, and every worked
example with its numbers (rulebook 000, quoted in each test's docstring).

Scenario states are built on a real game at its first decision (round 1, the Start
Player's optional card theft): :func:`arrange` writes the state variables directly (the
only place that touches ``game.played.state``), keeping pillars, markers, tiles and cards
conserved so that the ruleset's invariants still hold; then the round is played through
the public API (``apply``, ``legal_actions``, ``value``, ``view``, ``events``).
Players are seats 0..n-1; in the rulebook's colour examples p0 is blue and p1 red.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

import venedig_rules as vr
from venedig_rules.effects.compile import freeze
from venedig_rules.engine.run.notation import IllegalActionError

RULES = vr.load("saeulen")


# -- helpers ---------------------------------------------------------------------------------------
def new(players: int = 2, seed: int = 0, rules: vr.Ruleset = RULES) -> vr.Game:
    return rules.new_game(players, seed)


def arrange(
    game,
    *,
    hands: dict[int, list[str]] | None = None,
    supply: dict[int, list[str]] | None = None,
    pillars: list[str] = (),
    markers: dict[str, int] | None = None,
    tiles: list[tuple[str, list[str]]] = (),
    scores: dict[int, int] | None = None,
    gondola: int | None = None,
    pillars_left: int | None = None,
    pile_front: list[str] = (),
) -> vr.Game:
    """Rewrite the state of a game waiting at its first decision: players' hands (the rest
    of each hand refilled from the other dealt cards), personal tile supplies, pillars,
    markers on pillars (space -> owner), built tiles [(tile, cells)], scores, the gondola,
    and tiles moved to the top of the piles. Everything taken comes from where it was, so
    the invariants keep holding."""
    v = dict(game.played.state.vars)
    ids = RULES.space_ids
    if hands:
        pool = Counter(c for hand in v["hand"] for c in hand)
        for cards in hands.values():
            pool.subtract(cards)
        assert all(n >= 0 for n in pool.values()), f"cards not dealt in this game: {hands}"
        rest = list(pool.elements())
        new_hands = []
        for p in range(game.players):
            mine = list(hands.get(p, []))
            while len(mine) < 5:
                mine.append(rest.pop(0))
            new_hands.append(tuple(mine))
        v["hand"] = tuple(new_hands)
    pile = list(v["pile"])
    if supply is not None:
        sup = [list(s) for s in v["supply"]]
        for p, wanted in supply.items():
            pile += sup[p]
            sup[p] = []
            for t in wanted:
                pile.remove(t)
                sup[p].append(t)
        v["supply"] = tuple(tuple(s) for s in sup)
    has_pillar, marker, ground = list(v["has_pillar"]), list(v["marker"]), list(v["ground"])
    built = list(v["built"])
    for s in pillars:
        has_pillar[ids.index(s)] = True
    reserve = [list(r) for r in v["reserve"]]
    for s, owner in (markers or {}).items():
        assert has_pillar[ids.index(s)], f"a marker needs a pillar: {s}"
        marker[ids.index(s)] = owner
        reserve[owner].remove(owner)
    for tile, cells in tiles:
        pile.remove(tile)
        built.append((tile, tuple(cells)))
        for cell, word in zip(cells, RULES.item(tile)["pattern"]):
            ground[ids.index(cell)] = word
    for t in reversed(pile_front):
        pile.remove(t)
        pile.insert(0, t)
    v.update(
        has_pillar=tuple(has_pillar),
        marker=tuple(marker),
        ground=tuple(ground),
        built=tuple(built),
        reserve=tuple(tuple(r) for r in reserve),
        pile=tuple(pile),
    )
    v["pillars_left"] = (
        pillars_left
        if pillars_left is not None
        else v["pillars_left"] - sum(has_pillar) + sum(game.played.state.vars["has_pillar"])
    )
    if scores:
        v["victory_points"] = tuple(scores.get(p, 0) for p in range(game.players))
    if gondola is not None:
        v["gondola"] = gondola
        reserve[gondola].remove(gondola)
        v["reserve"] = tuple(tuple(r) for r in reserve)
    game.played.state.vars = {k: freeze(x) for k, x in v.items()}
    game.played.legal = None
    return game


def play(game, cards: dict[int, str], steal: str = "pass") -> vr.Game:
    """Step 1 (the Start Player passes, or steals) and step 2 (every player's card)."""
    start = game.to_move[0]
    game.apply(f"p{start} {steal}")
    for p, card in cards.items():
        game.apply(f"p{p} play({card})")
    return game


def label(game) -> str | None:
    """The label of the decision pending now, or None when the game is over."""
    if game.is_over:
        return None
    return game.view(game.to_move[0])["decision"]["label"]


def texts(game, player: int | None = None) -> list[str]:
    return [str(a) for a in game.legal_actions(player)]


def values(game, player: int | None = None) -> list[Any]:
    return [a.value for a in game.legal_actions(player)]


def score(game) -> dict[int, int]:
    return game.scores


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def ok(game) -> None:
    assert game.check_invariants() == []


# == preparation ================================================================================
def test_board_is_17_by_8_with_the_canale_grande():
    rows = RULES.data["board"]["grid"]["rows"]
    assert len(rows) == 8 and {len(r) for r in rows} == {17}
    board = RULES.board
    assert len(board.spaces) == 17 * 8
    canal = board.spaces_where(terrain="canal")
    assert canal and board.is_contiguous(canal)


@pytest.mark.parametrize("players", range(2, 7))
def test_60_pillars_wait_beside_the_board(players):
    game = new(players)
    assert game.value("pillars_left") == 60 and not any(game.value("has_pillar"))


@pytest.mark.parametrize("players", range(2, 7))
def test_nine_markers_per_colour_one_on_the_startfeld(players):
    game = new(players)
    assert [len(r) for r in game.value("reserve")] == [8] * players
    assert game.scores == {p: 0 for p in range(players)}


def test_the_gondola_starts_empty():
    assert new().value("gondola") is None


@pytest.mark.parametrize("players", range(2, 7))
def test_only_cards_marked_at_or_below_the_player_count_are_used_and_each_player_holds_five(players):
    game = new(players)
    hands = game.value("hand")
    assert [len(h) for h in hands] == [5] * players
    cards = [c for h in hands for c in h]
    assert all(RULES.item(c).get("min_players", 0) <= players for c in cards)
    assert len(cards) == RULES.constant("action_cards_in_use", players=players)
    assert "start_player_card" not in cards


def test_hands_are_secret():
    game = new(3)
    view = game.view(0)
    assert view["state"]["hand"][0] == list(game.value("hand", 0))
    assert view["state"]["hand"][1] == {"hidden": 5}


@pytest.mark.parametrize("players", [2, 6])
def test_tiles_are_sorted_by_shape_shuffled_and_piled(players):
    a, b = new(players, seed=1), new(players, seed=2)
    assert a.value("pile") != b.value("pile")
    assert [RULES.item(t)["shape"] for t in a.value("top_tiles")] == [s["id"] for s in RULES.items("tiles", "shapes")]
    assert len(a.value("pile")) + sum(len(s) for s in a.value("supply")) == 48


@pytest.mark.parametrize("players", range(2, 7))
def test_each_player_takes_a_2_2_and_a_4_7_tile_beginning_with_the_start_player(players):
    game = new(players, seed=3)
    shuffled = next(
        e["value"] for e in game.events if e["type"] == "change" and e["var"] == "pile" and e["why"] == "shuffle"
    )
    for kind in ((2, 2), (4, 7)):
        fitting = [t for t in shuffled if (RULES.item_param(t, "stones"), RULES.item_param(t, "arms")) == kind]
        taken = [
            next(
                t
                for t in game.value("supply", p)
                if (RULES.item_param(t, "stones"), RULES.item_param(t, "arms")) == kind
            )
            for p in range(players)
        ]
        assert taken == fitting[:players]  # seat 0 (the Start Player) took the topmost
    assert all(len(game.value("supply", p)) == 2 for p in range(players))


def test_the_oldest_player_seat_0_starts_with_the_start_player_card():
    game = new(4)
    assert game.value("start_player") == 0 and game.to_move == (0,)


# == a round ======================================================================================
def test_step1_the_start_player_may_take_a_random_card_from_any_player():
    game = new(4)
    assert texts(game, 0) == ["p0 steal(1)", "p0 steal(2)", "p0 steal(3)", "p0 pass"]


def test_step1_the_start_player_must_then_give_that_player_a_card_possibly_the_same():
    game = new(3, seed=5)
    before = [list(h) for h in game.value("hand")]
    game.apply("p0 steal(2)")
    taken = of_type(game.events, "move")[-1]["item"]
    assert taken in before[2] and len(game.value("hand", 0)) == 6 and len(game.value("hand", 2)) == 4
    hand = game.value("hand", 0)
    assert texts(game, 0) == [f"p0 give({c})" for c in sorted(set(hand))]  # no pass: he must give one
    game.apply(f"p0 give({taken})")  # he may give back the very card he took
    assert sorted(game.value("hand", 2)) == sorted(before[2]) and sorted(game.value("hand", 0)) == sorted(before[0])


def test_step1_the_taken_and_given_cards_stay_secret_from_the_other_players():
    game = new(3, seed=5)
    given = game.value("hand", 0)[0]
    game.apply("p0 steal(2)").apply(f"p0 give({given})")
    moves = [e for e in game.view(1)["events"] if e["type"] == "move" and e["from"][0] == "hand"]
    assert len(moves) == 2 and all(e["item"] == "?" for e in moves)
    seen = [e for e in game.view(2)["events"] if e["type"] == "move" and e["from"][0] == "hand"]
    assert len(seen) == 2 and all(e["item"] != "?" for e in seen)  # the victim sees what he lost and got
    # the give is a secret choice: the others see that he gave, not what
    assert [e["value"] for e in of_type(game.view(1)["events"], "choice")] == [2, "?"]
    assert [e["value"] for e in of_type(game.view(2)["events"], "choice")] == [2, "?"]
    assert [e["value"] for e in of_type(game.view(0)["events"], "choice")] == [2, given]


def test_step2_all_choose_a_card_simultaneously_hidden_until_all_have_chosen():
    game = new(3)
    game.apply("p0 pass")
    assert game.to_move == (0, 1, 2)
    card = game.value("hand", 1)[0]
    game.apply(f"p1 play({card})")
    assert game.to_move == (0, 2)
    commit = [e for e in game.view(0)["events"] if e["type"] == "commit"][-1]
    assert commit["value"] == "?" and game.view(1)["your_commit"] == card
    assert not of_type(game.events, "reveal")


def test_step3_cards_are_revealed_at_once_and_carried_out_from_the_start_player_clockwise():
    game = new(3)
    arrange(game, hands={0: ["councillor_4_p2"], 1: ["gondolier_p2"], 2: ["councillor_5_p2"]})
    play(game, {0: "councillor_4_p2", 1: "gondolier_p2", 2: "councillor_5_p2"})
    reveal = of_type(game.events, "reveal")[-1]
    assert reveal["values"] == ("councillor_4_p2", "gondolier_p2", "councillor_5_p2")
    while label(game) in ("take",):
        game.apply(game.legal_actions()[0])
    # round 2: a Councillor (Start Player symbol) was played, so p1 starts and resolves first
    assert game.value("start_player") == 1
    game.apply("p1 pass")
    for p in range(3):
        game.apply(game.legal_actions(p)[0])
    first_round = [e["player"] for e in of_type(game.events, "perform")]
    assert first_round[:3] == [0, 1, 2] and first_round[3] == 1


@pytest.mark.parametrize("players", [2, 5])
def test_step4_played_cards_pass_clockwise_at_once_and_every_hand_is_back_to_five(players):
    game = new(players, seed=4)
    game.apply("p0 pass")
    picks = {}
    for p in range(players):
        picks[p] = game.legal_actions(p)[0].value
        game.apply(game.legal_actions(p)[0])
    while game.value("round") == 1 and not game.is_over:
        game.apply(game.legal_actions(game.to_move[0])[0])
    for p in range(players):
        assert picks[p] in game.value("hand", (p + 1) % players)
    assert [len(h) for h in game.value("hand")] == [5] * players
    assert all(len(x) == 0 for x in game.value("played"))


def test_step5_the_start_player_card_passes_clockwise_if_a_card_with_the_symbol_was_played():
    game = new(2)
    arrange(game, hands={0: ["master_builder_4_p2"], 1: ["gondolier_p2"]}, supply={0: [], 1: []})
    play(game, {0: "master_builder_4_p2", 1: "gondolier_p2"})
    assert game.value("start_player") == 1 and game.to_move == (1,)


def test_step5_the_start_player_card_stays_if_no_card_with_the_symbol_was_played():
    game = new(2)
    arrange(game, hands={0: ["gondolier_p2"], 1: ["beggar_p2"]})
    play(game, {0: "gondolier_p2", 1: "beggar_p2"})
    game.apply("p1 copy(gondolier_p2)")
    assert game.value("start_player") == 0 and game.to_move == (0,)
    assert game.value("gondola") == 1  # the Beggar's copy replaced p0's marker


# == Councillor =====================================================================================
def _councillor_outcomes(game, player):
    found = set()

    def walk(g):
        if label(g) != "take":
            new_tiles = Counter(g.value("supply", player)) - Counter(game.value("supply", player))
            found.add(tuple(sorted(RULES.item(t)["shape"] for t in new_tiles.elements())))
            return
        for action in g.legal_actions(player):
            walk(g.clone().apply(action))

    walk(game)
    return found


def test_councillor_example_six_combinations_for_4_stones():
    """ "Example: If a player plays a Councillor showing 4 stones, he may take the following
    combinations of city tiles. (Six alternative shape combinations totalling 4 stones.)\""""
    game = new(2)
    arrange(game, hands={0: ["councillor_4_p2"], 1: ["gondolier_p2"]})
    play(game, {0: "councillor_4_p2", 1: "gondolier_p2"})
    assert label(game) == "take"
    assert _councillor_outcomes(game, 0) == {
        ("square",),
        ("domino", "domino"),
        ("straight",),
        ("l_triomino",),
        ("bridge",),
        ("domino",),
    }


def test_councillor_takes_from_the_tops_of_the_piles():
    game = new(2)
    arrange(game, hands={0: ["councillor_4_p2"], 1: ["gondolier_p2"]}, pile_front=["square_bfff_6"])
    play(game, {0: "councillor_4_p2", 1: "gondolier_p2"})
    assert "square_bfff_6" in game.value("top_tiles")
    game.apply("p0 take(square)")
    assert "square_bfff_6" in game.value("supply", 0)


def test_councillor_remaining_stones_are_lost():
    game = new(2)
    arrange(game, hands={0: ["councillor_4_p2"], 1: ["gondolier_p2"]})
    play(game, {0: "councillor_4_p2", 1: "gondolier_p2"})
    assert "p0 pass" not in texts(game, 0)  # he takes one or more tiles
    game.apply("p0 take(straight)")  # 3 of 4 stones: no 1-stone tile exists
    assert label(game) != "take"


def test_councillor_may_stop_after_the_first_tile():
    game = new(2)
    arrange(game, hands={0: ["councillor_4_p2"], 1: ["gondolier_p2"]})
    play(game, {0: "councillor_4_p2", 1: "gondolier_p2"})
    game.apply("p0 take(domino)")
    assert texts(game, 0) == ["p0 take(domino)", "p0 pass"]


# == Pitch Dipper ===================================================================================
def _pitch(game_players=2, pillars=(), **kw):
    game = new(game_players)
    arrange(game, hands={0: ["pitch_dipper_4_2_p2"], 1: ["gondolier_p2"]}, pillars=list(pillars), **kw)
    return play(game, {0: "pitch_dipper_4_2_p2", 1: "gondolier_p2"})


def test_pitch_dipper_example_first_pillar_a_by_the_canal_b_by_a_pillar_not_c_unconnected():
    """ "A player setting 4 pillars can either begin placing a) adjacent to Canal Grande or
    b) adjacent to a preexisting pillar ... It would not be allowed to place the first pillar
    of the group c) without a connection.\""""
    game = _pitch(pillars=["b8"])
    spots = values(game, 0)
    assert "a3" in spots  # a) a3 touches the canal square a4
    assert "c8" in spots  # b) c8 touches the pillar on b8
    assert "e8" not in spots  # c) e8 touches neither


def test_pitch_dipper_example_the_4th_pillar_only_on_the_light_blue_fields():
    """ "The 4th pillar may only be placed in any of the light blue fields since all pillars
    set by a player in a turn must all be in an adjacent grouping.\""""
    game = _pitch(pillars=["b8"])
    for space in ("a3", "a2", "a1"):
        game.apply(f"p0 pillar({space})")
    assert values(game, 0) == ["b1", "b2", "b3"]


def test_pitch_dipper_never_on_the_canal():
    game = _pitch()
    canal = RULES.board.spaces_where(terrain="canal")
    assert values(game, 0) and not set(values(game, 0)) & canal


def test_pitch_dipper_places_exactly_the_cards_number_then_markers_on_empty_pillars():
    game = _pitch(pillars=["a7", "b7", "c7"], markers={"a7": 1}, tiles=[("domino_bb_3", ["b7", "c7"])])
    for space in ("a3", "a2", "a1", "b1"):
        assert label(game) == "pillar"
        game.apply(f"p0 pillar({space})")
    assert label(game) == "marker"
    # empty pillars: no tile (b7, c7) and no marker (a7); the new ones included
    assert values(game, 0) == ["a1", "a2", "a3", "b1"]
    game.apply("p0 marker(a1)")
    assert values(game, 0) == ["a2", "a3", "b1"]
    game.apply("p0 marker(b1)")
    assert game.value("pillars_left") == 60 - 3 - 4
    assert len(game.value("reserve", 0)) == 6 and game.value("marker", "b1") == 0
    ok(game)


#: Pillars on every land square whose column and row add up to an even number (55 of the
#: 60): every free land square is then walled in alone, so no group can grow past 1 pillar.
CHECKERBOARD = sorted(s for s in RULES.board.spaces_where(terrain="land") if (ord(s[0]) - 97 + int(s[1:])) % 2 == 0)


def test_pitch_dipper_all_pillars_indicated_on_the_card_must_be_taken_and_placed():
    """ "All pillars indicated on the card must be taken and placed." With a1 walled in by
    pillars on a2 and b1, a group begun on a1 could never reach 4 pillars: a1 is not offered,
    while a3 (by the canal) and c1 (by the pillar on b1) are."""
    game = _pitch(pillars=["a2", "b1"])
    spots = values(game, 0)
    assert "a1" not in spots and {"a3", "c1"} <= set(spots)
    for _ in range(4):
        assert label(game) == "pillar"
        game.apply(game.legal_actions(0)[0])
    assert label(game) == "marker" and game.value("pillars_left") == 60 - 2 - 4


def test_pitch_dipper_holding_the_last_pillars_cannot_dodge_the_game_end():
    """ "If there are fewer pillars remaining than indicated on the card then all remaining
    pillars are set": with 3 left, a group begun on the walled-in a1 would stop at 1 and
    keep the game going; only squares from which all 3 can be set are offered."""
    game = _pitch(pillars=["a2", "b1"], pillars_left=3)
    assert "a1" not in values(game, 0)
    for _ in range(3):
        game.apply(game.legal_actions(0)[0])
    assert game.is_over and game.value("pillars_left") == 0


def test_pitch_dipper_where_no_group_can_take_every_pillar_as_many_as_fit_are_set():
    """Ambiguity 3: the rulebook does not say what happens when no free land area is large
    enough for "all pillars indicated on the card" as one "contiguous grouping". Decided:
    the group begins where the most fit and is set in full; the rest stay in the supply."""
    game = _pitch(pillars=CHECKERBOARD)
    assert game.value("pillars_left") == 5 and len(values(game, 0)) == 111 - 55  # every square fits 1
    game.apply(game.legal_actions(0)[0])
    assert label(game) == "marker"  # 1 of 4 set, the group is walled in; 3 stay in the supply
    assert game.value("pillars_left") == 4


def test_pitch_dipper_where_no_group_can_take_every_pillar_new_groups_in_the_variant():
    rules = vr.load("saeulen", variants=["pillars_new_group"])
    game = new(2, rules=rules)
    arrange(game, hands={0: ["pitch_dipper_4_2_p2"], 1: ["gondolier_p2"]}, pillars=CHECKERBOARD)
    play(game, {0: "pitch_dipper_4_2_p2", 1: "gondolier_p2"})
    for _ in range(4):
        assert label(game) == "pillar"
        game.apply(game.legal_actions(0)[0])
    assert label(game) == "marker" and game.value("pillars_left") == 1


def test_pitch_dipper_setting_the_last_pillar_ends_the_game_at_once():
    """ "A Pitch Dipper is played and the last pillar ... is set. If there are fewer pillars
    remaining than indicated on the card then all remaining pillars are set. Other cards
    left in this round are not played and no other victory points can be received.\""""
    game = new(2)
    arrange(game, hands={0: ["pitch_dipper_4_2_p2"], 1: ["councillor_4_p2"]}, pillars_left=2, scores={0: 5, 1: 9})
    play(game, {0: "pitch_dipper_4_2_p2", 1: "councillor_4_p2"})
    game.apply("p0 pillar(a3)").apply("p0 pillar(a2)")
    assert game.is_over and game.value("pillars_left") == 0
    assert [e["player"] for e in of_type(game.events, "perform")] == [0]  # p1's Councillor is not played
    assert game.winners == (1,)


def test_the_most_points_win_and_ties_share_the_win():
    game = new(3)
    arrange(game, hands={0: ["pitch_dipper_4_2_p2"]}, pillars_left=1, scores={0: 12, 1: 12, 2: 3})
    game.apply("p0 pass")
    game.apply("p0 play(pitch_dipper_4_2_p2)")
    for p in (1, 2):
        game.apply(game.legal_actions(p)[0])
    game.apply("p0 pillar(a3)")
    assert game.is_over and game.winners == (0, 1)


# == Master Builder ==================================================================================
def _builder(card, supply, pillars, players=2, other="councillor_4_p2", **kw):
    game = new(players)
    arrange(game, hands={0: [card], 1: [other]}, supply={0: supply, 1: []}, pillars=pillars, **kw)
    return play(game, {0: card, 1: other, **{p: game.value("hand", p)[0] for p in range(2, players)}})


BLOCK = ["a7", "b7", "c7", "d7", "e7", "a8", "b8", "c8", "d8", "e8"]  # 2 x 5 pillars, away from the canal


def test_master_builder_clarification_a_3_and_a_4_stone_tile_with_4_stones():
    """ "Clarification: If you have a 3-stone city tile, a 4-stone city tile, and a 4-stone
    Master Builder, you may place either city tile. If you place the 3-stone city tile, you
    lose the remaining stone.\""""
    game = _builder("master_builder_4_p2", ["straight_bbb_5", "square_bbbf_8"], BLOCK)
    assert values(game, 0) == ["square_bbbf_8", "straight_bbb_5"]
    game.apply("p0 build(straight_bbb_5)").apply("p0 place([a7,b7,c7])")
    assert label(game) != "build" and game.value("supply", 0) == ("square_bbbf_8",)
    other = _builder("master_builder_4_p2", ["straight_bbb_5", "square_bbbf_8"], BLOCK)
    other.apply("p0 build(square_bbbf_8)").apply("p0 place([a7,b7,a8,b8])")
    assert label(other) != "build" and other.value("supply", 0) == ("straight_bbb_5",)


def test_master_builder_example_tiles_a_b_c_with_5_stones():
    """ "A player has tiles a, b, and c ... He plays a Master Builder with 5 stone. If he first
    builds tile a, he then must also build tile b if there is a legal place to build it. If
    he first builds tile c, he does not have enough stone to build either remaining tile.\""""
    a, b, c = "domino_bb_3", "straight_bbb_5", "square_bbbf_8"  # 2, 3 and 4 stones
    game = _builder("master_builder_5_p2", [a, b, c], BLOCK)
    assert values(game, 0) == sorted([a, b, c])
    game.apply(f"p0 build({a})").apply("p0 place([a7,b7])")
    assert texts(game, 0) == [f"p0 build({b})"]  # he must build b: no pass
    game.apply(f"p0 build({b})").apply("p0 place([c7,d7,e7])")
    assert label(game) != "build" and game.value("supply", 0) == (c,)
    game = _builder("master_builder_5_p2", [a, b, c], BLOCK)
    game.apply(f"p0 build({c})").apply("p0 place([a7,b7,a8,b8])")
    assert label(game) != "build" and sorted(game.value("supply", 0)) == sorted([a, b])


def test_master_builder_must_build_b_only_if_it_has_a_legal_place():
    a, b = "domino_bb_3", "straight_bbb_5"
    game = _builder("master_builder_5_p2", [a, b], ["a7", "b7"])  # room for a domino only
    assert values(game, 0) == [a]
    game.apply(f"p0 build({a})").apply("p0 place([a7,b7])")
    assert label(game) != "build" and game.value("supply", 0) == (b,)


def test_master_builder_every_square_on_a_pillar_never_diagonal_never_on_a_tile():
    game = _builder(
        "master_builder_4_p2",
        ["domino_bb_3"],
        ["a7", "b8", "c8", "d7", "e7", "d8"],
        tiles=[("domino_bf_3", ["d7", "e7"])],
    )
    game.apply("p0 build(domino_bb_3)")
    # a7-b8 touch only diagonally, d7 and e7 are built on, a5 has no pillar: b8-c8 and c8-d8 remain
    assert sorted(values(game, 0)) == [("b8", "c8"), ("c8", "d8")]


def test_master_builder_offers_only_tiles_with_a_legal_place():
    game = _builder(
        "master_builder_4_p2", ["domino_bb_3"], ["a7", "b8", "c7", "d7", "e7"], tiles=[("domino_bf_3", ["d7", "e7"])]
    )
    # a7-b8 are diagonal, c7's neighbours d7 is built on: no legal place, nothing to build
    assert label(game) != "build"
    assert game.value("supply", 0) == ("domino_bb_3",)


def test_master_builder_tiles_turn_but_stay_on_pillars():
    game = _builder("master_builder_4_p2", ["domino_bf_3"], ["a7", "b7", "a8"])
    game.apply("p0 build(domino_bf_3)")  # building on the first square, field on the second
    assert sorted(values(game, 0)) == sorted([("a7", "b7"), ("b7", "a7"), ("a7", "a8"), ("a8", "a7")])


def test_turns_showing_the_same_tile_are_one_placement():
    game = _builder("master_builder_4_p2", ["domino_bb_3"], ["a7", "b7", "a8"])
    game.apply("p0 build(domino_bb_3)")  # two buildings: turned half round it looks the same
    assert sorted(values(game, 0)) == [("a7", "a8"), ("a7", "b7")]


def test_master_builder_a_bridges_middle_crosses_the_canale_grande():
    game = _builder("master_builder_4_p2", ["bridge_bf_4"], ["a3", "a5", "b3", "b5"])
    game.apply("p0 build(bridge_bf_4)")
    assert sorted(values(game, 0)) == [("a3", "a4", "a5"), ("a5", "a4", "a3"), ("b3", "b4", "b5"), ("b5", "b4", "b3")]
    game.apply("p0 place([a3,a4,a5])")
    assert game.value("ground", "a4") == "canal" and game.value("has_pillar", "a4") is False
    ok(game)


def test_the_gondola_is_moved_aside_for_a_bridge():
    """ "The Gondola ... is moved only if it obstructs the building of bridges": its square j6
    takes a bridge's middle like any canal square."""
    game = _builder("master_builder_4_p2", ["bridge_bf_4"], ["j5", "j7"])
    game.apply("p0 build(bridge_bf_4)")
    assert sorted(values(game, 0)) == [("j5", "j6", "j7"), ("j7", "j6", "j5")]


def test_master_builder_covered_markers_return_to_their_owners():
    game = _builder("master_builder_4_p2", ["domino_bb_3"], ["a7", "b7"], markers={"a7": 1})
    game.apply("p0 build(domino_bb_3)").apply("p0 place([a7,b7])")
    assert game.value("marker", "a7") is None and len(game.value("reserve", 1)) == 8
    ok(game)


def test_scoring_example_a_4_stone_tile_with_four_matching_edges_scores_11():
    """ "Example: A player has placed the city tile with 4 stone and 7 points. He scores 11
    points. 7 points for the tile itself and 4 points for the four matching edges.\""""
    # square_bbff_start: buildings on top (b7, c7), fields below (b8, c8); above it a domino
    # of two buildings (b6, c6: 2 edges), to its right a domino building/field (d7, d8: 2 edges)
    game = _builder(
        "master_builder_4_p2",
        ["square_bbff_start"],
        ["b7", "c7", "b8", "c8", "b6", "c6", "d7", "d8"],
        tiles=[("domino_bb_3", ["b6", "c6"]), ("domino_bf_3", ["d7", "d8"])],
    )
    game.apply("p0 build(square_bbff_start)").apply("p0 place([b7,c7,b8,c8])")
    assert score(game)[0] == 11
    assert [(e["amount"], e["reason"]) for e in of_type(game.events, "score")] == [(7, "arms"), (4, "matching edges")]


def test_matching_edges_need_the_same_ground_on_both_sides():
    # the same square turned half round: fields on top meet the buildings above (no match)
    game = _builder(
        "master_builder_4_p2",
        ["square_bbff_start"],
        ["b7", "c7", "b8", "c8", "b6", "c6"],
        tiles=[("domino_bb_3", ["b6", "c6"])],
    )
    game.apply("p0 build(square_bbff_start)").apply("p0 place([c8,b8,c7,b7])")
    assert score(game)[0] == 7


def test_scoring_example_blue_covers_his_own_marker_and_reds():
    """ "The blue player has placed a city tile. He scores 7 points. He does not score an
    additional 3 points for covering his own pillar marker, but takes it back into his
    supply. Since the red player had his pillar marker built upon by another player, he
    scores 3 points and takes his pillar marker back into his supply.\""""
    blue, red = 0, 1
    game = _builder(
        "master_builder_4_p2", ["square_bbff_start"], ["b7", "c7", "b8", "c8"], markers={"b7": blue, "c8": red}
    )
    game.apply("p0 build(square_bbff_start)").apply("p0 place([b7,c7,b8,c8])")
    assert score(game) == {blue: 7, red: 3}
    assert len(game.value("reserve", blue)) == 8 and len(game.value("reserve", red)) == 8
    ok(game)


def test_gondola_owner_scores_2_for_a_tile_touching_the_canal():
    game = _builder("master_builder_4_p2", ["domino_bb_3"], ["a3", "b3"], gondola=1)
    game.apply("p0 build(domino_bb_3)").apply("p0 place([a3,b3])")  # a3 and b3 lie on the canal (a4, b4)
    assert score(game) == {0: 3, 1: 2}
    ok(game)


def test_gondola_owner_scores_nothing_for_a_tile_away_from_the_canal():
    game = _builder("master_builder_4_p2", ["domino_bb_3"], ["a7", "b7"], gondola=1)
    game.apply("p0 build(domino_bb_3)").apply("p0 place([a7,b7])")
    assert score(game) == {0: 3, 1: 0}


def test_gondola_owner_scores_for_every_bridge():
    game = _builder("master_builder_4_p2", ["bridge_bb_5"], ["a3", "a5"], gondola=0)
    game.apply("p0 build(bridge_bb_5)").apply("p0 place([a3,a4,a5])")
    assert score(game) == {0: 5 + 2, 1: 0}


def test_reaching_80_wins_at_once():
    game = _builder(
        "master_builder_4_p2", ["square_bbff_start"], ["b7", "c7", "b8", "c8"], scores={0: 75, 1: 79}, markers={"b7": 1}
    )
    game.apply("p0 build(square_bbff_start)").apply("p0 place([b7,c7,b8,c8])")
    # the arms come first: p0 reaches 80 (not 82) and wins before red's marker would score
    assert game.is_over and game.winners == (0,) and score(game) == {0: 80, 1: 79}


def test_covered_markers_are_returned_to_their_owner_also_when_their_score_ends_the_game_at_80():
    """ "Pillar markers which are covered are returned to their owner." and "The owner of a
    pillar marker covered by the city tile gains 3 points for each pillar marker covered."
    Red's 3 points take him to 80 and end the game at once; his marker is back all the
    same (it returns as the tile covers it), so the invariant markers_on_free_pillars holds."""
    blue, red = 0, 1
    game = _builder(
        "master_builder_4_p2", ["square_bbff_start"], ["b7", "c7", "b8", "c8"], scores={red: 77}, markers={"c8": red}
    )
    game.apply("p0 build(square_bbff_start)").apply("p0 place([b7,c7,b8,c8])")
    assert game.is_over and game.winners == (red,) and score(game) == {blue: 7, red: 80}
    assert game.value("marker", "c8") is None and len(game.value("reserve", red)) == 8
    ok(game)


def test_a_random_game_ended_at_80_by_a_covered_marker_keeps_every_invariant():
    # like the audit's game (4 players, seed 2, random play, before the Pitch Dipper fix
    # changed its course): 3 players, seed 56, random play end at 80 by a covered marker
    game, chooser = new(3, seed=56), random.Random(56)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        ok(game)
    last = of_type(game.events, "score")[-1]
    assert (last["reason"], last["total"], game.winners) == ("covered marker", 80, (last["player"],))


# == Gondolier =======================================================================================
def test_gondolier_puts_a_marker_on_the_gondola_and_the_old_one_returns():
    game = new(2)
    arrange(game, hands={0: ["gondolier_p2"], 1: ["beggar_p2"]}, gondola=1)
    play(game, {0: "gondolier_p2", 1: "beggar_p2"})
    assert game.value("gondola") == 0
    assert len(game.value("reserve", 0)) == 7 and len(game.value("reserve", 1)) == 8
    ok(game)


# == Inventor, Speculator, Dealer ====================================================================
@pytest.mark.parametrize(
    "bet, needed, scored",
    [
        ("inventor_p4", "pitch_dipper_4_2_p2", 6),
        ("inventor_p4", "councillor_4_p2", 0),
        ("speculator_p3", "master_builder_4_p2", 6),
        ("speculator_p3", "pitch_dipper_4_2_p2", 0),
        ("dealer_p4", "councillor_4_p2", 6),
        ("dealer_p4", "master_builder_4_p2", 0),
    ],
)
def test_inventor_speculator_dealer_score_6_if_their_card_is_in_play(bet, needed, scored):
    game = new(4)
    arrange(game, hands={0: [bet], 3: [needed], 1: ["gondolier_p2"], 2: ["lawyer_p3"]}, supply={2: [], 3: []})
    # p0 resolves first: the card in play counts even though it is carried out later
    play(game, {0: bet, 1: "gondolier_p2", 2: "lawyer_p3", 3: needed})
    assert score(game)[0] == scored


def _spy_then_speculator(rules):
    game = new(3, rules=rules)
    arrange(
        game,
        hands={0: ["spy_p2"], 1: ["speculator_p3"], 2: ["master_builder_4_p2", "gondolier_p2"]},
        supply={0: [], 1: [], 2: []},
    )
    play(game, {0: "spy_p2", 1: "speculator_p3", 2: "gondolier_p2"})
    game.apply("p0 spy(2)").apply("p0 spy_take(master_builder_4_p2)")
    return game


def test_in_play_a_card_a_spy_took_and_carried_out_counts():
    """Ambiguity 1, base reading: the cards lying face up when the card is carried out."""
    assert score(_spy_then_speculator(RULES))[1] == 6


def test_in_play_only_revealed_cards_count_in_the_variant():
    assert score(_spy_then_speculator(vr.load("saeulen", variants=["in_play_revealed"])))[1] == 0


# == Lawyer ==========================================================================================
def test_lawyer_builds_one_2_stone_tile_covered_markers_give_nothing_gondola_scores():
    game = new(3)
    arrange(
        game,
        hands={0: ["lawyer_p3"], 1: ["councillor_4_p2"], 2: ["beggar_p2"]},
        supply={0: ["domino_bb_3", "domino_bf_3", "straight_bbb_5"]},
        pillars=["a3", "b3", "c3", "a2"],
        markers={"a3": 1},
        gondola=2,
    )
    play(game, {0: "lawyer_p3", 1: "councillor_4_p2", 2: "beggar_p2"})
    assert values(game, 0) == ["domino_bb_3", "domino_bf_3"]  # 2 stones only
    game.apply("p0 build(domino_bb_3)").apply("p0 place([a3,b3])")
    assert label(game) != "build"  # one tile only
    assert score(game) == {0: 3, 1: 0, 2: 2}
    assert len(game.value("reserve", 1)) == 8  # the marker returns all the same


# == Arsonist ========================================================================================
def _arsonist(rules=RULES):
    game = new(3, rules=rules)
    arrange(
        game,
        hands={0: ["arsonist_p3"], 1: ["gondolier_p2"], 2: ["beggar_p2"]},
        pillars=["a7", "b7", "c7", "a3"],
        tiles=[("domino_bb_3", ["a7", "b7"])],
        markers={"c7": 1},
    )
    return play(game, {0: "arsonist_p3", 1: "gondolier_p2", 2: "beggar_p2"})


def test_arsonist_removes_any_built_tile_to_the_bottom_of_its_pile():
    game = _arsonist()
    assert values(game, 0) == [("domino_bb_3", ("a7", "b7"))]
    game.apply("p0 burn([domino_bb_3,[a7,b7]])")
    assert game.value("pile")[-1] == "domino_bb_3" and game.value("built") == ()
    assert game.value("ground", "a7") is None


def test_arsonist_places_2_markers_on_uncovered_pillars():
    game = _arsonist()
    game.apply("p0 burn([domino_bb_3,[a7,b7]])")
    assert values(game, 0) == ["a3", "a7", "b7"]  # no tile, no marker (c7 has one); freed ones included
    game.apply("p0 marker(a3)").apply("p0 marker(b7)")
    assert game.value("marker", "a3") == 0 and game.value("marker", "b7") == 0
    ok(game)


def test_arsonist_marks_only_the_freed_pillars_in_the_variant():
    game = _arsonist(vr.load("saeulen", variants=["arsonist_freed_pillars"]))
    game.apply("p0 burn([domino_bb_3,[a7,b7]])")
    assert values(game, 0) == ["a7", "b7"]


# == Spy =============================================================================================
def test_spy_looks_at_an_opponents_cards_takes_one_and_carries_it_out():
    game = new(2)
    arrange(game, hands={0: ["spy_p2"], 1: ["gondolier_p2", "councillor_4_p2", "beggar_p2"]})
    play(game, {0: "spy_p2", 1: "gondolier_p2"})
    assert texts(game, 0) == ["p0 spy(1)"]
    game.apply("p0 spy(1)")
    look = of_type(game.view(0)["events"], "spy_look")
    assert look and sorted(look[0]["cards"]) == sorted(game.value("hand", 1)) and len(look[0]["cards"]) == 4
    assert not of_type(game.view(1)["events"], "spy_look")  # only the Spy sees the cards
    assert "councillor_4_p2" in values(game, 0)
    game.apply("p0 spy_take(councillor_4_p2)")
    assert label(game) == "take"  # he carries out the Councillor
    assert "spy_p2" in game.value("hand", 1)
    while label(game) == "take":
        game.apply(game.legal_actions(0)[0])
    assert [len(h) for h in game.value("hand")] == [5, 5]
    assert "councillor_4_p2" in game.value("hand", 1)  # passed on as p0's played card
    ok(game)


def test_spy_may_not_take_a_spy():
    game = new(5)
    arrange(game, hands={0: ["spy_p2"], 1: ["spy_p5", "gondolier_p2"]})
    play(game, {0: "spy_p2", 1: "gondolier_p2", **{p: game.value("hand", p)[0] for p in (2, 3, 4)}})
    game.apply("p0 spy(1)")
    assert "spy_p5" not in values(game, 0)


# == Beggar ==========================================================================================
def test_beggar_copies_an_action_card_in_play_but_not_the_spy():
    game = new(3)
    arrange(game, hands={0: ["beggar_p2"], 1: ["spy_p2"], 2: ["pitch_dipper_4_2_p2"]})
    play(game, {0: "beggar_p2", 1: "spy_p2", 2: "pitch_dipper_4_2_p2"})
    assert texts(game, 0) == ["p0 copy(pitch_dipper_4_2_p2)"]
    game.apply("p0 copy(pitch_dipper_4_2_p2)")
    assert label(game) == "pillar" and game.to_move == (0,)  # with the copied card's numbers
    for space in ("a3", "a2", "a1", "b1"):
        game.apply(f"p0 pillar({space})")
    assert label(game) == "marker"


def test_illegal_actions_are_refused():
    game = new(2)
    with pytest.raises(IllegalActionError):
        game.apply("p1 steal(0)")


def test_every_cards_note_gives_its_own_reasons():
    # the notes of arsonist_p5 and gondolier_p5 had been copied from other cards: a note
    # that names a player count names the card's own, and no two cards of a role share one
    for card in RULES.items("cards"):
        note = card.get("note") or ""
        for said in re.findall(r"(?:from|joins at) (\d) players", note):
            assert int(said) == card["min_players"], card["id"]
    notes = [(c["type"], c.get("note")) for c in RULES.items("cards") if c["type"] in ("arsonist", "gondolier")]
    assert len(set(notes)) == len(notes)


# == invariants (rules/saeulen/invariants.yaml) =======================================================
def test_invariants_hold_after_setup_at_every_player_count():
    for players in range(2, 7):
        ok(new(players))


@pytest.mark.parametrize(
    "broken, invariant",
    [
        (
            {"tiles": [("domino_bb_3", ["a7", "b7"]), ("domino_bf_3", ["b7", "c7"])], "pillars": ["a7", "b7", "c7"]},
            "no_overlapping_tiles",
        ),
        ({"tiles": [("domino_bb_3", ["a7", "b7"])], "pillars": ["a7"]}, "tiles_on_pillars"),
        ({"pillars": ["a4"]}, "pillars_on_land"),
        ({"pillars": ["a7"], "pillars_left": 60}, "pillars_conserved"),
        ({"scores": {0: 81}}, "scores_on_track"),
    ],
)
def test_invariants_catch_a_broken_state(broken, invariant):
    game = arrange(new(2), **broken)
    assert any(m.startswith(f"{invariant}:") for m in game.check_invariants())


def test_invariant_markers_conserved_and_on_free_pillars_catch_a_lost_marker():
    game = arrange(new(2), pillars=["a7", "b7"], markers={"a7": 0}, tiles=[("domino_bb_3", ["a7", "b7"])])
    failed = game.check_invariants()
    assert any(m.startswith("markers_on_free_pillars:") for m in failed)
    game = new(2)
    game.played.state.vars = {**game.played.state.vars, "reserve": ((0,) * 7, (1,) * 8)}
    assert any(m.startswith("markers_conserved:") for m in game.check_invariants())


def test_invariant_hands_of_five_between_rounds():
    game = new(2)
    hands = game.value("hand")
    game.played.state.vars = {**game.played.state.vars, "hand": (hands[0][:4], hands[1] + hands[0][4:])}
    assert any(m.startswith("hands_of_five:") for m in game.check_invariants())


def test_build_spots_gives_every_candidate_that_fits_in_the_candidates_order_at_every_step():
    """The placements come from those anchored on a free pillar (engine speed): the answer
    must be the plain filter over all of a tile's candidates, in their order, since that
    order numbers the ``place`` actions."""
    from types import SimpleNamespace

    from venedig_rules.games import saeulen as S

    rules = vr.load("saeulen")
    ctx, t = SimpleNamespace(rules=rules), S.tables(rules)

    def fits(pillars, water, has_pillar, ground):
        on_free_pillars = all(has_pillar[i] and ground[i] is None for i in pillars)
        return on_free_pillars and all(ground[i] is None for i in water)

    for players, seed in ((2, 1), (4, 2)):
        game, chooser = rules.new_game(players, seed, record=False), random.Random(seed)
        while not game.is_over:
            has_pillar, ground = game.value("has_pillar"), game.value("ground")
            for tile in t.candidates:
                expected = tuple(c for c, p, w in t.candidates[tile] if fits(p, w, has_pillar, ground))
                assert S.build_spots(ctx, tile, has_pillar, ground) == expected
            every = tuple(t.candidates)
            expected_tiles = tuple(
                tile for tile in every if any(fits(p, w, has_pillar, ground) for _, p, w in t.candidates[tile])
            )
            assert S.buildable(ctx, every, 0, 99, has_pillar, ground) == expected_tiles
            game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
