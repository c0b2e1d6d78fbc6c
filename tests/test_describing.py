"""Games describe themselves to people: game.decision, waiting_for, the cursor of views,
event sentences, compact views, table undo, the reasons of refused actions, the narrator
and the checks of the test kit (issue "Self-describing games")."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.present.narrator import Narrator
from venedig_rules.testing import api_test, describing

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
VENEDIG = vr.load("venedig")
SAEULEN = vr.load("saeulen")
RIALTO = vr.load("rialto")


def laying_out(rules):
    """A 3-player Venedig game (seed 7) at p0's first laying out of cards: the turn begins
    with the secret question whether to exchange gold, which p0 (holding none) passes."""
    return rules.new_game(players=3, seed=7).apply("p0 pass")


def play_until(game, label: str, seed: int = 0):
    """Random play until some seat is to decide ``label``."""
    chooser = random.Random(seed)
    while not (game.to_move and game.played.state.pending.label == label):
        assert not game.is_over, f"the game ended before a {label!r} decision"
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return game


# -- game.decision ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [VENEDIG, SAEULEN, RIALTO], ids=lambda r: r.id)
def test_a_decision_has_a_prompt_and_one_option_per_legal_action_in_order(rules):
    game = rules.new_game(players=3, seed=5)
    for _ in range(40):
        for p in game.to_move:
            d = game.decision(p)
            assert set(d) == {"player", "label", "prompt", "secret", "simultaneous", "forced", "options"}
            assert d["player"] == p and d["prompt"]
            assert [o["action"] for o in d["options"]] == [str(a) for a in game.legal_actions(p)]
            texts = [o["text"] for o in d["options"]]
            assert all(texts) and len(set(texts)) == len(texts)
            for option in d["options"]:
                assert all(describing.ref_problem(game, ref) is None for ref in option["refs"])
        game.apply(random.Random(len(game.actions)).choice(game.legal_actions(game.to_move[0])))


def test_a_seat_that_is_not_to_move_has_no_decision():
    game = laying_out(VENEDIG)
    assert game.decision(0) is not None and game.decision(1) is None and game.decision(2) is None


def test_options_name_what_they_refer_to_typed():
    game = laying_out(VENEDIG)
    option = game.decision(0)["options"][1]
    assert option == {
        "action": "p0 play([basilica_card,palazzo_card])",
        "text": "Lay out 1 Basilica card and 1 Palazzo card",
        "refs": [
            {"kind": "card", "id": "basilica_card", "name": "Basilica card"},
            {"kind": "card", "id": "palazzo_card", "name": "Palazzo card"},
        ],
    }
    game.apply("p0 pass")
    drain = game.decision(0)["options"][0]
    assert drain == {
        "action": "p0 drain(a7)",
        "text": "Drain A7",
        "refs": [{"kind": "space", "id": "a7", "name": "A7"}],
    }


def test_a_tuple_option_refs_each_item_by_its_declared_kind():
    game = play_until(VENEDIG.new_game(players=3, seed=1), "draw")
    refs = {o["action"]: o["refs"] for o in game.decision(game.to_move[0])["options"]}
    placed = next(r for a, r in refs.items() if "[place," in a)
    assert [r["kind"] for r in placed] == ["word", "card"] and placed[0]["name"] == "a card placed in the pool"


def test_a_placing_orders_its_squares_as_the_tile_turns_and_says_which_word_lies_where():
    game = play_until(SAEULEN.new_game(players=2, seed=3), "place", seed=3)
    options = game.decision(game.to_move[0])["options"]
    assert options[0]["text"] == "Place it on J5\u2013K5: field on J5 and K5"  # an en dash
    assert [r["id"] for r in options[0]["refs"]] == ["j5", "k5"]


def test_a_german_decision_names_everything_in_german():
    game = laying_out(VENEDIG)
    d = game.decision(0, lang="de")
    assert d["prompt"] == "Gebäudekarten ausspielen, oder keine"
    assert d["options"][1]["text"] == "1 Basilika-Karte und 1 Palazzo-Karte ausspielen"
    assert d["options"][1]["refs"][0] == {"kind": "card", "id": "basilica_card", "name": "Basilika-Karte"}
    assert d["options"][-1]["text"] == "Keine Karten ausspielen"


def test_names_name_the_seats_in_every_text():
    game = SAEULEN.new_game(players=3, seed=7)
    assert game.decision(0, names=["Ada", "Ben", "Cy"])["options"][0]["text"] == "Take a random card from Ben"
    assert (
        game.view(2, names=["Ada", "Ben", "Cy"])["waiting_for"][0]["prompt"] == "Ada is deciding whether to take a card"
    )


def test_a_language_the_ruleset_lacks_is_refused_naming_the_ones_it_has():
    with pytest.raises(ValueError, match="venedig has no texts in 'fr'; its languages: en, de"):
        laying_out(VENEDIG).decision(0, lang="fr")


# -- waiting_for and secret decisions --------------------------------------------------------------
def test_every_view_says_who_is_deciding_what_in_public_words():
    game = laying_out(VENEDIG)
    for p in range(3):
        assert game.view(p)["waiting_for"] == [
            {"player": 0, "label": "play", "prompt": "p0 is laying out building cards"}
        ]


def test_a_simultaneous_decision_lists_every_seat_that_has_not_committed():
    game = SAEULEN.new_game(players=3, seed=7).apply("p0 pass")
    assert [w["player"] for w in game.view(0)["waiting_for"]] == [0, 1, 2]
    game.apply(game.legal_actions(1)[0])
    assert [w["player"] for w in game.view(0)["waiting_for"]] == [0, 2]
    assert game.decision(1) is None


def test_a_secret_decision_shows_the_others_only_its_public_sentence():
    game = play_until(SAEULEN.new_game(players=3, seed=2), "give")
    chooser = game.to_move[0]
    secret = game.decision(chooser)
    assert secret["secret"] and secret["prompt"].startswith("Give p")
    for p in range(3):
        view = game.view(p)
        assert view["waiting_for"] == [
            {"player": chooser, "label": "give", "prompt": f"p{chooser} is choosing a card to give back"}
        ]
        if p != chooser:
            assert view["decision"] is None and game.decision(p) is None
            shown = json.dumps(view)
            assert not any(o["text"] in shown for o in secret["options"])
    game.apply(game.legal_actions(chooser)[0])
    others = [p for p in range(3) if p != chooser]
    choice = [e for e in game.view(others[0])["events"] if e["type"] == "choice" and e["label"] == "give"][-1]
    assert choice["value"] == "?" and choice["text"] == f"p{chooser} chooses in secret"
    own = [e for e in game.view(chooser)["events"] if e["type"] == "choice" and e["label"] == "give"][-1]
    assert own["text"].startswith(f"p{chooser} gives ") and own["text"].endswith(" back")


# -- the cursor, since and compact views ------------------------------------------------------------
def peek_lagoon(tmp_path: Path) -> vr.Ruleset:
    """Lagoon with a private rule event: each seat learns its own secret number."""
    root = tmp_path / "lagoon"
    shutil.copytree(LAGOON, root)
    game = root / "game.yaml"
    text = game.read_text().replace(
        "secret[p] = random(secret_kinds) + 1",
        'secret[p] = random(secret_kinds) + 1; event("peek", to: p, secret: secret[p])',
    )
    game.write_text(text.replace("events:\n", "events:\n  peek: {fields: {secret: number}}\n", 1))
    texts = root / "texts.yaml"
    texts.write_text(
        texts.read_text().replace("    events:\n", '    events:\n      peek: "{to} learns the secret {secret}"\n', 1)
    )
    return vr.load(root)


def test_the_cursor_counts_the_events_the_seat_received_not_the_whole_log(tmp_path):
    game = peek_lagoon(tmp_path).new_game(players=3, seed=7)
    for p in range(3):
        view = game.view(p)
        assert view["cursor"] == len(view["events"]) == len(game.events) - 2  # two peeks for the others
        assert game.view(p, since=view["cursor"])["events"] == []


def test_a_client_that_counts_what_it_received_gets_exactly_the_new_events(tmp_path):
    game = peek_lagoon(tmp_path).new_game(players=3, seed=7)
    received = {p: game.view(p)["events"] for p in range(3)}
    chooser = random.Random(1)
    for _ in range(12):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
        for p in range(3):
            received[p] += game.view(p, since=len(received[p]))["events"]
            assert received[p] == game.view(p)["events"]


def test_since_beyond_the_cursor_is_refused_after_an_undo():
    game = laying_out(VENEDIG)
    cursor = game.apply("p0 pass").view(1)["cursor"]
    game.undo()
    assert game.view(1)["cursor"] < cursor
    with pytest.raises(ValueError, match="is not a count of the events p1 has received"):
        game.view(1, since=cursor)


def test_the_seat_log_follows_undo_and_a_different_action_after_it():
    game = laying_out(VENEDIG)
    game.view(1)
    game.apply("p0 pass")
    game.view(1)
    game.undo()
    game.apply("p0 play([basilica_card])")
    fresh = game.clone()  # a clone keeps no views: its log is made anew
    assert game.view(1) == fresh.view(1)


def test_every_event_of_a_view_has_a_sentence_in_the_views_language():
    game = laying_out(VENEDIG).apply("p0 pass").apply("p0 drain(k8)")
    drain = [e for e in game.view(1, lang="de")["events"] if e["type"] == "drain"]
    assert drain == [{"type": "drain", "player": 0, "space": "k8", "text": "p0 legt K8 trocken"}]
    assert all(e["text"] for e in game.view(2)["events"])


def test_a_hidden_value_is_named_as_hidden():
    events = laying_out(VENEDIG).view(1)["events"]
    assert events[1]["text"] == "p0 draws a card" and events[4]["text"] == "p1 draws a Basilica card"


def test_a_compact_view_has_no_null_entries_and_the_same_content():
    game = laying_out(VENEDIG)
    full, compact = game.view(1), game.view(1, compact=True)

    def nulls(value) -> int:
        if isinstance(value, dict):
            return sum(v is None or nulls(v) for v in value.values())
        return sum(nulls(v) for v in value) if isinstance(value, list) else 0

    assert nulls(full) > 0 and nulls(compact) == 0
    assert "decision" not in compact and compact["state"]["built"] == {
        s: b for s, b in full["state"]["built"].items() if b is not None
    }
    assert len(json.dumps(game.view(1, since=full["cursor"], compact=True))) < 4000


# -- table undo --------------------------------------------------------------------------------------
def test_a_seat_may_take_back_its_last_action_when_nothing_followed_it():
    game = laying_out(VENEDIG).apply("p0 pass")
    allowed = game.can_undo(0)
    assert allowed and allowed.reason == ""
    game.undo()
    assert game.actions == ["p0 pass"]  # back at laying out, after keeping the gold


def test_table_undo_says_why_not():
    game = VENEDIG.new_game(players=3, seed=7)
    assert game.can_undo(0).reason == "p0 has made no move yet"
    assert game.can_undo(0, "de").reason == "p0 hat noch keinen Zug gemacht"
    game.apply("p0 pass")  # keeps the gold
    game.apply("p0 pass")
    assert game.can_undo(1).reason == "p1 has made no move yet"
    game.apply("p0 drain(k8)")  # takes a hidden swamp tile
    assert not game.can_undo(0) and game.can_undo(0).reason.startswith("“p0 drains K8” showed what was hidden (")


def test_table_undo_refuses_after_another_seat_acted():
    game = SAEULEN.new_game(players=3, seed=7).apply("p0 pass")
    game.apply(game.legal_actions(1)[0])
    assert game.can_undo(1)  # a commit shows nothing yet
    game.apply(game.legal_actions(2)[0])
    assert game.can_undo(1).reason == "p2 has moved since: only the last move can be taken back, by whoever made it"


def test_table_undo_refuses_after_chance_and_after_a_reveal():
    game = SAEULEN.new_game(players=3, seed=7)
    game.apply("p0 steal(1)")  # a random card from p1
    assert game.can_undo(0).reason == (
        "“p0 takes a random card from p1” was followed by a shuffle or a random draw: it cannot be taken back"
    )
    game = SAEULEN.new_game(players=3, seed=7).apply("p0 pass")
    for p in (0, 1, 2):
        game.apply(game.legal_actions(p)[0])
    assert "showed what was hidden" in game.can_undo(2).reason


def test_table_undo_refuses_once_the_game_is_over():
    game = VENEDIG.new_game(players=2, seed=1)
    chooser = random.Random(1)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    assert game.can_undo(vr.parse_action(game.actions[-1]).player).reason == (
        "The game is over: no move can be taken back"
    )


def test_a_reason_tells_only_what_the_seat_itself_saw():
    game, chooser = VENEDIG.new_game(players=3, seed=0), random.Random(0)
    while not game.is_over:
        mover = game.to_move[0]
        cursor = game.view(mover)["cursor"]
        game.apply(chooser.choice(game.legal_actions(mover)))
        reason = game.can_undo(mover).reason
        if "showed what was hidden (" in reason:
            seen = [d for e in game.log(mover, since=cursor) for d in e["details"]]
            assert reason[reason.index("hidden (") + 8 : reason.rindex("):")] in seen


def test_undo_reasons_are_worded_sentences_in_the_asked_language():
    """No reason holds action notation, a raw id or an English word in German, over whole
    games of every ruleset."""
    notation, raw_id = re.compile(r"\bp\d+ [a-z_]+\("), re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
    english = re.compile(r"\b(the|has|was|cannot|move|taken|hidden|chance)\b")
    for name in vr.bundled():
        game, chooser = vr.load(name).new_game(players=3, seed=2), random.Random(2)
        reasons: set[tuple[str, str]] = set()
        while not game.is_over:
            mover = game.to_move[0]
            game.apply(chooser.choice(game.legal_actions(mover)))
            for player in range(3):
                for lang in ("en", "de"):
                    reasons.add((lang, game.can_undo(player, lang).reason))
        for lang, reason in reasons:
            assert not notation.search(reason) and not raw_id.search(reason), reason
            assert lang == "en" or not english.search(reason), reason
        assert len({r for lang, r in reasons if lang == "de"}) > 3


# -- refused actions, in a person's words -------------------------------------------------------------
def refusal(game, action: str) -> str:
    with pytest.raises(vr.IllegalActionError) as info:
        game.apply(action)
    return str(info.value)


def test_an_action_of_a_seat_not_to_move_says_whose_turn_it_is():
    assert refusal(laying_out(VENEDIG), "p2 pass") == (
        "p2 pass is not legal: p2 is not to move; it is p0's turn (p0 is laying out building cards)"
    )


def test_an_action_of_another_decision_says_what_is_being_decided():
    message = refusal(laying_out(VENEDIG), "p0 drain(f11)")
    assert message.startswith(
        "p0 drain(f11) is not legal: p0 has no 'drain' decision now; p0 is deciding 'play' "
        "(Lay out building cards, or none), e.g. p0 play([basilica_card]); legal: "
    )


def test_a_value_not_among_the_options_names_the_closest():
    game = laying_out(VENEDIG).apply("p0 pass")
    message = refusal(game, "p0 drain(k9)")
    assert message.startswith(
        "p0 drain(k9) is not legal: k9 is not among p0's options (Choose a swamp space to drain, or stop); "
        "closest: p0 drain(k8)"
    )


def test_a_pass_where_none_is_allowed_says_so():
    message = refusal(SAEULEN.new_game(players=3, seed=7).apply("p0 pass"), "p1 pass")
    assert message.startswith("p1 pass is not legal: p1 may not pass now (Choose the action card you play this round)")


def test_a_refused_action_leaves_the_game_as_it_was():
    game = laying_out(VENEDIG)
    before = json.dumps(game.to_json())
    refusal(game, "p0 drain(f11)")
    assert json.dumps(game.to_json()) == before


def refused(apply, *args, **kwargs) -> str:
    with pytest.raises(vr.IllegalActionError) as info:
        apply(*args, **kwargs)
    return str(info.value)


def test_a_refusal_to_one_seat_is_the_same_whatever_another_seats_hidden_hand():
    """Twin positions that differ only in p1's hidden hand (and the draw pile it came from):
    every action seat 0's client sends in p1's name, and an illegal action of its own, get
    byte-identical refusals, which name none of p1's options."""
    game = VENEDIG.new_game(players=3, seed=7)
    chooser = random.Random(2)
    while tuple(game.to_move) != (1,) or game.played.state.pending.label != "play":
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    twin = next(t for t in (game.sample(0, s) for s in range(50)) if t.value("hand", 1) != game.value("hand", 1))
    assert twin.view(0) == game.view(0) and twin.legal_actions(1) != game.legal_actions(1)
    sent = {str(a) for g in (game, twin) for a in g.legal_actions(1)} | {"p1 play([casa_card,casa_card,casa_card])"}
    for text in sorted(sent):
        mine, theirs = refused(game.apply, text, seat=0), refused(twin.apply, text, seat=0)
        assert mine == theirs == f"{text} is not legal: p0 may act only as p0, not in p1's name"
    for index in range(3):
        assert refused(game.apply_index, index, player=1, seat=0) == refused(twin.apply_index, index, 1, seat=0)
        assert refused(game.apply_legal, index, player=1, seat=0) == refused(twin.apply_legal, index, 1, seat=0)
        assert "p0 may act only as p0, not in p1's name" in refused(game.apply_legal, index, player=1, seat=0)
    for own in ("p0 drain(f11)", "p0 pass", "p0 play([casa_card])"):  # illegal: p1 is to move
        assert refused(game.apply, own, seat=0) == refused(twin.apply, own, seat=0)
    # told to a referee, who may see every hand, the refusal lists p1's options: they differ
    nonsense = "p1 play([gondola])"
    assert refused(game.apply, nonsense) != refused(twin.apply, nonsense)
    assert refused(game.apply, nonsense, seat=1) != refused(twin.apply, nonsense, seat=1)  # p1's own: its hand
    assert game.view(0) == twin.view(0)  # every refusal left both games as they were


# -- the narrator --------------------------------------------------------------------------------------
def test_the_log_tells_sentences_and_state_changes_only_when_verbose():
    game = laying_out(VENEDIG).apply("p0 pass").apply("p0 drain(k8)")
    narrator = Narrator(VENEDIG, names=["Ada", "Ben", "Cy"])
    assert narrator.lines(game.events) == [
        "Ada's turn (turn 1)",
        "Ada keeps the gold",
        "Ada lays out no cards",
        "Ada chooses to drain K8",
        "Ada drains K8",
    ]
    verbose = narrator.lines(game.events, verbose=True)
    assert len(verbose) == len(game.events) and "the phase: a player's turn" in verbose


def test_the_german_narrator_tells_german_sentences():
    game = laying_out(VENEDIG).apply("p0 pass").apply("p0 drain(k8)")
    assert Narrator(VENEDIG, "de").lines(game.events)[-2:] == ["p0 will K8 trockenlegen", "p0 legt K8 trocken"]


# -- the test kit's checks for any ruleset --------------------------------------------------------------
@pytest.mark.parametrize(
    "rules", [VENEDIG, SAEULEN, RIALTO, vr.load("venedig", ["no_imaginary_player"])], ids=lambda r: r.name
)
def test_a_random_game_of_each_ruleset_describes_itself(rules):
    players = rules.players.start + 1 if rules.players.start + 1 in rules.players else rules.players.start
    game, chooser = rules.new_game(players, seed=11), random.Random(11)
    while not game.is_over:
        assert describing.decision_problem(game) is None
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    for p in range(players):
        assert describing.view_problem(game, game.view(p)) is None
    assert describing.log_problem(game) is None
    assert describing.summary_problem(game) is None


def variant(tmp_path: Path, overlay: str) -> vr.Ruleset:
    path = tmp_path / "designer.yaml"
    path.write_text(
        f"extends: venedig\nid: designer\ntitle: A designer's variant\noverlay:\n{overlay}", encoding="utf-8"
    )
    return vr.load(path)


def test_the_kit_finds_option_texts_that_are_not_distinct(tmp_path):
    rules = variant(
        tmp_path, "  texts:\n    languages:\n      en:\n        decisions:\n          play: {option: Lay out cards}\n"
    )
    game = laying_out(rules)
    assert "have the same en text 'Lay out cards'" in describing.decision_problem(game)
    texts = [o["text"] for o in game.decision(0)["options"]]
    assert len(set(texts)) == len(texts) and texts[0] == "Lay out cards ([basilica_card])"  # still told apart


def test_the_kit_finds_a_seat_named_by_its_number_in_the_log(tmp_path):
    rules = variant(
        tmp_path,
        "  game:\n    events:\n      drain: {fields: {player: any}}\n"
        "  texts:\n    languages:\n      en:\n        events: {drain: 'seat {player} drains {space}'}\n"
        "      de:\n        events: {drain: 'Platz {player} legt {space} trocken'}\n",
    )
    game = laying_out(rules).apply("p0 pass").apply("p0 drain(k8)")
    assert describing.log_problem(game) == "the en log line 'seat 0 drains K8' shows a seat as 0 (a field of type any)"


def test_the_kit_finds_a_panel_part_that_names_a_thing_by_its_id(tmp_path):
    path = tmp_path / "designer.yaml"
    overlay = "  texts:\n    summary:\n      of: {bridge_top: text}\n"  # the tile as text: its id
    path.write_text(f"extends: rialto\nid: designer\ntitle: Text tiles\noverlay:\n{overlay}", encoding="utf-8")
    game = vr.load(path).new_game(3, seed=1)
    assert (
        describing.summary_problem(game)
        == "the en panel part 'Top bridge tile: bridge_5_4' names 'bridge_5_4' by its id"
    )
    assert describing.summary_problem(vr.load("rialto").new_game(3, seed=1)) is None


def test_the_kit_finds_a_rule_event_with_an_undeclared_field(tmp_path):
    game = laying_out(VENEDIG)
    assert describing.events_problem(game, [{"type": "drain", "player": 0, "space": "k8", "gold": 2}]) == (
        "event 'drain' has field 'gold', which game.yaml events/drain does not declare"
    )
    assert describing.events_problem(game, [{"type": "drain", "player": 0, "space": "z99"}]) == (
        "field 'space' of event 'drain' is 'z99', which is no space"
    )


def test_the_kit_finds_a_ref_to_nothing():
    game = laying_out(VENEDIG)
    assert describing.ref_problem(game, {"kind": "card", "id": "joker", "name": "Joker"}) == (
        "ref {'kind': 'card', 'id': 'joker', 'name': 'Joker'} names no card of the ruleset"
    )
    assert describing.ref_problem(game, {"kind": "player", "id": 3, "name": "p3"}) is not None


def test_api_test_reports_a_designer_variant_that_does_not_describe_itself(tmp_path):
    rules = variant(
        tmp_path, "  texts:\n    languages:\n      en:\n        decisions:\n          drain: {option: Drain}\n"
    )
    report = api_test(rules, games=1, players=[3])
    assert not report.ok and report.violation.check == "decision"
    assert "the same en text 'Drain'" in report.violation.message
