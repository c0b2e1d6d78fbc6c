"""What an action number means, in plain words: ``rules.action_space(players).describe(i)``.

A listed value reads as the option a seat would see for it (the decision's ``option``
template of texts.yaml), after the decision's prompt. A name the decision takes from the
moment (Rialto's ``play`` asks for cards of the stage's type ``t``) is shown in brackets:
the number means that option whatever the moment gives it. A number that stands for a
place says so.

>>> import venedig_rules as vr
>>> space = vr.load("rialto").action_space(2)
>>> space.describe(0)
'0: pass (decline the decision offered)'
>>> space.describe(space.labels["take_row"].offset + 1)
'14: Choose a card row to take into your hand: Take card row 2'
>>> venedig = vr.load("venedig").action_space(2)
>>> hand_in = venedig.labels["hand_in"]
>>> venedig.describe(hand_in.offset + hand_in.listed + 1)
"2589: Choose the gold tiles to hand in: option 2 among the legal 'hand_in' options that have no number of their own"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..run.notation import PASS
from ..seat.wording import TEXT, Typed, Wording

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase


class NumberBlock(Protocol):
    """The numbers of one decision label (``actions.LabelSpace``), as far as words need them."""

    @property
    def label(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def listed(self) -> int: ...
    @property
    def values(self) -> tuple[Any, ...] | None: ...


#: The words of a number's meaning that the ruleset's texts do not hold, per language.
_WORDS = {
    "en": {
        "pass": "pass (decline the decision offered)",
        "place": "option {k} among the legal {label!r} options that have no number of their own",
    },
    "de": {
        "pass": "passen (die angebotene Entscheidung ablehnen)",
        "place": "Option {k} unter den erlaubten {label!r}-Optionen ohne eigene Nummer",
    },
}


def describe(rules: RulesetBase, block: NumberBlock | None, index: int, lang: str = "en") -> str:
    """What action number ``index`` means: pass when ``block`` is None, else a number of
    ``block`` (``lang``: a language of the ruleset's texts; the engine's own words are in
    English and German)."""
    wording = Wording(rules, lang)
    words = _WORDS.get(lang, _WORDS["en"])
    if block is None:
        return f"{index}: {words['pass']}"
    head = _prompt(wording, block)
    place = index - block.offset - block.listed
    if place >= 0:
        return f"{index}: {head}: {words['place'].format(k=place + 1, label=block.label)}"
    assert block.values is not None  # only a values entry lists numbers
    return f"{index}: {head}: {_option(wording, block, block.values[index - block.offset])}"


def _prompt(wording: Wording, block: NumberBlock) -> str:
    texts = wording.lang.decisions.get(block.label)
    if texts is None:
        return block.label
    return _filled(wording, texts.prompt, block.label, {}) or block.label


def _option(wording: Wording, block: NumberBlock, value: Any) -> str:
    texts = wording.lang.decisions.get(block.label)
    vt = wording.decision_type(block.label)
    if block.label == PASS or texts is None:
        return wording.text(value, vt)
    return _filled(wording, texts.option_for(value), block.label, {"value": (value, vt)}) or wording.text(value, vt)


def _filled(wording: Wording, template: Any, label: str, fields: dict[str, Typed]) -> str:
    """A template filled with ``fields``, each name the decision takes from the moment in
    brackets (``[t]``) and a player as "the player"."""
    decl = wording.tables.declarations.decisions.get(label)
    context: dict[str, Typed] = {name: (f"[{name}]", TEXT) for name in (decl.context if decl else {})}
    text = str(wording.fill(template, {"player": ("[player]", TEXT), **context, **fields}))
    return text.strip()
