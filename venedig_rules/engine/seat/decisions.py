"""The pending decisions of a game, described for people: what a seat is deciding, in a
sentence, with every option's text and what it refers to; and, for everyone, who is
deciding what.

Only the seat that decides learns its options. ``waiting_for`` is public: it names each
seat to move with the decision's public sentence (``p1 is choosing a building site``) and
nothing of its options, whether the decision is secret or not.

>>> import venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
>>> d = describe(game, 0)
>>> d["prompt"], d["options"][0]["text"], d["options"][-1]["action"]
('Lay out building cards, or none', 'Lay out 1 Basilica card', 'p0 pass')
>>> waiting(game)
[{'player': 0, 'label': 'play', 'prompt': 'p0 is laying out building cards'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from ...data.valuetypes import ANY
from ..run.machine import PendingChoice, PendingCommits
from ..run.notation import PASS, Action, value_text
from ..run.views import Waiting
from .wording import PLAYER, RefView, Typed, Wording

if TYPE_CHECKING:
    from .played import PlayedGame


class OptionView(TypedDict):
    """One option of a decision: its ``action`` text (to send back), a ``text`` for people
    (unique within the decision) and the things it refers to."""

    action: str
    text: str
    refs: list[RefView]


class DecisionDescription(TypedDict):
    """A seat's pending decision for people (``game.decision(player)``)."""

    player: int
    label: str
    prompt: str
    secret: bool  # only the chooser learns the choice
    simultaneous: bool  # every seat to move decides at once, in secret
    forced: bool  # the seat's only choice is one option: a client may answer it for the seat
    options: list[OptionView]  # one per legal action, in ``legal_actions`` order


def describe(
    game: PlayedGame, player: int, lang: str = "en", names: Sequence[str] | None = None
) -> DecisionDescription | None:
    """The pending decision of ``player`` (None when that seat is not to move): ``player``,
    ``label``, ``prompt``, ``secret`` (only the chooser learns the choice), ``simultaneous``
    (every seat to move decides at once, in secret), ``forced`` (one option only: a client may
    answer it for the seat, at a person's pace when the decision is secret or simultaneous, so
    the timing shows nothing the question hides), and ``options``: one per legal action,
    in ``legal_actions`` order, each ``{"action", "text", "refs"}``. Option texts are unique
    within the decision."""
    if player not in game.to_move:
        return None
    wording = Wording(game.rules, lang, names)
    pending = game.played.state.pending
    assert pending is not None
    actions = game.legal_actions(player)
    texts = option_texts(game, wording, player, actions)
    vt = wording.decision_type(pending.label)
    options = [
        OptionView(action=str(a), text=text, refs=[] if a.name == PASS else wording.refs(a.value, vt))
        for a, text in zip(actions, unique(texts, actions))
    ]
    return DecisionDescription(
        player=player,
        label=pending.label,
        prompt=prompt(game, wording, player),
        secret=isinstance(pending, PendingChoice) and pending.secret,
        simultaneous=isinstance(pending, PendingCommits),
        forced=len(options) == 1,
        options=options,
    )


def waiting(game: PlayedGame, lang: str = "en", names: Sequence[str] | None = None) -> list[Waiting]:
    """Each seat to move with its decision's label and public sentence, in seat order."""
    pending = game.played.state.pending
    if pending is None or game.is_over:
        return []
    wording = Wording(game.rules, lang, names)
    texts = wording.lang.decisions.get(pending.label)
    out = []
    for p in game.to_move:
        text = wording.fill(texts.waiting, {"player": (p, PLAYER)}) if texts is not None else wording.player(p)
        out.append(Waiting(player=p, label=pending.label, prompt=text))
    return out


def prompt(game: PlayedGame, wording: Wording, player: int) -> str:
    """The sentence that asks ``player`` for the pending decision (it may name the
    decision's declared context)."""
    pending = game.played.state.pending
    assert pending is not None
    texts = wording.lang.decisions.get(pending.label)
    if texts is None:
        return pending.label
    return wording.fill(texts.prompt, {"player": (player, PLAYER), **context(game, wording)})


def option_texts(game: PlayedGame, wording: Wording, player: int, actions: Sequence[Action]) -> list[str]:
    """The text of each action, as its template gives it (not made unique)."""
    pending = game.played.state.pending
    assert pending is not None
    texts = wording.lang.decisions.get(pending.label)
    vt = wording.decision_type(pending.label)
    names = {"player": (player, PLAYER), **context(game, wording)}
    out = []
    for action in actions:
        if action.name == PASS:
            template = texts.pass_option if texts is not None else None
            out.append(wording.fill(template, names) if template is not None else wording.engine("pass_option"))
        elif texts is None:
            out.append(value_text(action.value))
        else:
            out.append(wording.fill(texts.option_for(action.value), {**names, "value": (action.value, vt)}))
    return out


def unique(texts: Sequence[str], actions: Sequence[Action]) -> list[str]:
    """The texts with each repeated one (or an empty one) told apart by its action's value."""
    seen: dict[str, int] = {}
    for text in texts:
        seen[text] = seen.get(text, 0) + 1
    return [
        text if text and seen[text] == 1 else f"{text} ({value_text(a.value)})".strip()
        for text, a in zip(texts, actions)
    ]


def context(game: PlayedGame, wording: Wording) -> dict[str, Typed]:
    """The declared context names of the pending decision, from the choosing code's names."""
    state = game.played.state
    pending = state.pending
    decl = wording.tables.declarations.decisions.get(pending.label) if pending is not None else None
    if decl is None or not decl.context or not state.frames or game.rules.compiled is None:
        return {}
    frame = state.frames[-1]
    slots = game.rules.generated.choose_names.get(frame.code, {}).get(frame.pc, {})
    return {name: (frame.names.get(slots.get(name, name)), vt or ANY) for name, vt in decl.context.items()}
