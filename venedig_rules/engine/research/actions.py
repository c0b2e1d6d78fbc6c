"""Integer actions for research: every action a ruleset's decisions can ever offer gets a
fixed number, from the rule data (``game.yaml`` ``action_space``, docs/research.md).

Number 0 is ``pass``. Then come the decision labels in the order ``action_space`` lists
them, each with a block of numbers:

- ``values: <DSL>``: code over the rule data alone (``players`` is bound, no state) whose
  value lists every value the decision can ever take; value ``k`` of that list is number
  ``offset + k``.
- ``ordinal: N``: for decisions with too many possible values to list (sets of tiles): the
  action is the option's place among the decision's legal options now, at most ``N``.
- both: the values listed get fixed numbers (the common ones: Venedig's hand-ins of up to
  30 gold); a legal option outside the list is numbered by its place among the legal
  options outside the list, at most ``N``, after the listed values.

The ``values`` code runs with the most players the ruleset allows, so the numbers are the
same at every player count (values only a larger table uses are never legal at a smaller
one), and they depend only on the rule data: they stay the same while ``rules_hash`` does.
A legal action outside the declared space is an :class:`ActionSpaceError` naming the entry
in the rule file (the test kit looks for them).

>>> import venedig_rules as vr
>>> rules = vr.load("tests/rulesets/lagoon")
>>> space = rules.action_space(2)
>>> int(space), space.labels["bid"].offset, space.labels["bid"].values
(21, 1, ('one', 'two', 'three', 'four', 'five'))
>>> rules.encode(vr.Action(0, "bid", "two")), rules.decode(5, player=1)
(2, Action(player=1, name='bid', value='five'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...data.derived_actions import derived_values
from ...data.yamlsource import pointer
from ...effects.compile import freeze
from ...errors import RuleRuntimeError, VenedigError
from ..run.machine import Machine, initial_state
from ..run.notation import PASS, Action
from .describe import describe

if TYPE_CHECKING:
    from ..run.ruleset_base import RulesetBase

#: The number of ``pass`` (declining an optional decision), whatever its label.
PASS_ID = 0


class ActionSpaceError(VenedigError, ValueError):
    """An action outside the declared action space, or an action space that cannot be
    built; the message names the ``action_space`` entry in the rule file."""

    code = "play/action_space"


@dataclass(frozen=True)
class LabelSpace:
    """The numbers of one decision label: ``offset`` up to ``offset + size``: first one per
    listed value, then ``places`` numbered by their place among the legal options now that
    are not listed."""

    label: str
    offset: int
    size: int
    #: the values with fixed numbers, for a ``values`` entry (None for an ``ordinal`` one)
    values: tuple[Any, ...] | None
    where: str
    index: dict[Any, int] = field(default_factory=dict, repr=False, compare=False)
    #: how many numbers stand for a place among the unlisted legal options (``ordinal: N``)
    places: int = 0

    @property
    def ordinal(self) -> bool:
        """Whether some of the label's numbers stand for an option's place among the legal
        options now (then those actions need the game to be numbered)."""
        return self.places > 0

    @property
    def listed(self) -> int:
        """How many numbers name one value each, in every state."""
        return self.size - self.places

    def number_of(self, value: Any) -> int | None:
        """The fixed number of ``value``, or None when it is not listed."""
        try:
            place = self.index.get(freeze(value))
        except TypeError:
            return None
        return None if place is None else self.offset + place

    def unlisted(self, legal: list[Action]) -> list[Action]:
        """The legal options of this label numbered by their place: those not listed."""
        return [a for a in legal if a.name == self.label and self.number_of(a.value) is None]


class ActionSpace(int):
    """The number of integer actions of a ruleset at one player count (it is that int),
    with the blocks of numbers per decision label and the ways to and from actions.

    ``encode`` and ``decode`` need the legal actions of the moment (``legal``) only for an
    ``ordinal`` label."""

    labels: dict[str, LabelSpace]
    ruleset: str
    players: int
    _starts: list[tuple[int, LabelSpace]]
    _rules: RulesetBase | None

    def __new__(
        cls, ruleset: str, players: int, labels: dict[str, LabelSpace], rules: RulesetBase | None = None
    ) -> ActionSpace:
        size = 1 + sum(space.size for space in labels.values())
        self = super().__new__(cls, size)
        self.labels, self.ruleset, self.players, self._rules = labels, ruleset, players, rules
        self._starts = sorted(((space.offset, space) for space in labels.values()), key=lambda pair: pair[0])
        return self

    @property
    def size(self) -> int:
        """The number of integer actions."""
        return int(self)

    def __repr__(self) -> str:
        return f"ActionSpace({self.ruleset!r}, players={self.players}, size={int(self)})"

    def describe(self, index: int, lang: str = "en") -> str:
        """What action number ``index`` means, in plain words (``lang``: a language of the
        ruleset's texts); see :mod:`venedig_rules.engine.research.describe`.

        >>> import venedig_rules as vr
        >>> vr.load("tests/rulesets/lagoon").action_space(2).describe(2)
        '2: Choose the card you bid: Bid bid 2'
        """
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < int(self):
            raise ActionSpaceError(f"{index!r} is not an action number of {self.ruleset} (0 to {int(self) - 1})")
        if self._rules is None:
            raise ActionSpaceError(f"this action space of {self.ruleset} was built without its rules: no texts")
        return describe(self._rules, None if index == PASS_ID else self.label_of(index), index, lang)

    def encode(self, action: Action, legal: list[Action] | None = None) -> int:
        """The number of ``action``; ``legal`` (the player's legal actions now) is needed for
        an ordinal label. ActionSpaceError when the action is outside the space."""
        if action.name == PASS and action.value is None:
            return PASS_ID
        space = self.labels.get(action.name)
        if space is None:
            raise ActionSpaceError(
                f"{action} is outside the action space of {self.ruleset}: no action_space entry for "
                f"decision {action.name!r}"
            )
        number = space.number_of(action.value)
        if number is not None:
            return number
        if not space.places:
            raise ActionSpaceError(
                f"{action} is outside the action space: {space.where}: the values of {action.name!r} "
                f"({space.size}) do not include {action.value!r}"
            )
        if legal is None:
            raise ActionSpaceError(
                f"{action} is numbered by its place among the legal options ({space.where}): "
                "use game.encode(action) or give legal="
            )
        options = space.unlisted(legal)
        if action not in options:
            raise ActionSpaceError(f"{action} is not among the legal actions given")
        place = options.index(action)
        if place >= space.places:
            raise ActionSpaceError(
                f"{action} is outside the action space: {space.where}: {action.name!r} has "
                f"{len(options)} options now that it numbers by their place, more than ordinal: {space.places}"
            )
        return space.offset + space.listed + place

    def encode_all(self, legal: list[Action]) -> list[int]:
        """The numbers of one player's legal actions ``legal`` (all of them, in one pass: an
        option numbered by its place is counted, not searched for, so a decision with
        thousands of such options costs their number, not its square)."""
        places: dict[str, int] = {}
        out = []
        for action in legal:
            space = self.labels.get(action.name)
            number = None if space is None else space.number_of(action.value)
            if number is None and space is not None and space.places:
                place = places.get(space.label, 0)
                places[space.label] = place + 1
                if place >= space.places:
                    raise ActionSpaceError(
                        f"{action} is outside the action space: {space.where}: {action.name!r} has more "
                        f"options now that it numbers by their place than ordinal: {space.places}"
                    )
                number = space.offset + space.listed + place
            out.append(self.encode(action, legal) if number is None else number)
        return out

    def decode(self, index: int, player: int, legal: list[Action] | None = None) -> Action:
        """The action number ``index`` stands for, as ``player``'s."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < int(self):
            raise ActionSpaceError(f"{index!r} is not an action number of {self.ruleset} (0 to {int(self) - 1})")
        if index == PASS_ID:
            return Action(player, PASS)
        space = self.label_of(index)
        place = index - space.offset - space.listed
        if place < 0:
            assert space.values is not None  # only a values entry lists numbers
            return Action(player, space.label, space.values[index - space.offset])
        if legal is None:
            raise ActionSpaceError(
                f"action number {index} ({space.label!r}) is numbered by its place among the legal options "
                f"({space.where}): use game.decode(index) or give legal="
            )
        options = space.unlisted(legal)
        if place >= len(options):
            raise ActionSpaceError(f"action number {index} ({space.label!r} option {place}) is not legal now")
        return options[place]

    def label_of(self, index: int) -> LabelSpace:
        """The label block holding action number ``index`` (not 0: that is pass)."""
        found: LabelSpace | None = None
        for offset, space in self._starts:
            if offset > index:
                break
            found = space
        if found is None or index >= found.offset + found.size:
            raise ActionSpaceError(f"{index!r} is not an action number of {self.ruleset}")
        return found


def action_space(rules: RulesetBase, players: int) -> ActionSpace:
    """The action space of ``rules`` at ``players`` players (built once, then cached)."""
    if players not in rules.players:
        raise ValueError(f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}")

    def at(_: RulesetBase) -> ActionSpace:
        return ActionSpace(rules.name, players, rules.derived("actions", _labels), rules)

    # the checks and numbering run once per ruleset: this is asked at every step of a game
    result: ActionSpace = rules.derived(f"actions.{players}", at)
    return result


def _labels(rules: RulesetBase) -> dict[str, LabelSpace]:
    """The numbered decisions of a ruleset's ``action_space``, in its order."""
    declared = rules.data["game"].get("action_space")
    if not isinstance(declared, dict) or rules.compiled is None:
        raise ActionSpaceError(
            f"ruleset {rules.name!r} declares no action_space in game.yaml, so its actions have no numbers "
            "(docs/research.md says how to declare one)"
        )
    most = rules.players.stop - 1
    # a decision without an entry whose type lists its values (an id kind, a player, named
    # words) is numbered after the declared ones; validate refuses any other
    missing = sorted(set(rules.compiled.decision_labels()) - set(declared))
    derived = {label: derived_values(rules.data, label, most) for label in missing}
    underived = [label for label, values in derived.items() if values is None]
    if underived:
        raise ActionSpaceError(
            f"{rules.positions.key_at('/game/action_space')}: decision {', '.join(map(repr, underived))} has no "
            "action_space entry, so its actions have no numbers (every decision needs one: values or ordinal)"
        )
    labels: dict[str, LabelSpace] = {}
    offset = 1
    for label, entry in declared.items():
        ptr = pointer("/game/action_space", label)
        where = str(rules.positions.key_at(ptr))
        places = int(entry.get("ordinal", 0))
        if "values" not in entry:
            labels[label] = LabelSpace(label, offset, places, None, where, places=places)
        else:
            values = _values(rules, most, label, where)
            index = {v: i for i, v in enumerate(values)}
            labels[label] = LabelSpace(label, offset, len(values) + places, values, where, index, places)
        offset += labels[label].size
    for label, listed in derived.items():
        assert listed is not None  # refused above
        where = f"{rules.positions.key_at(pointer('/game/decisions', label))} (derived from its type)"
        labels[label] = LabelSpace(label, offset, len(listed), listed, where, {v: i for i, v in enumerate(listed)})
        offset += len(listed)
    return labels


def _values(rules: RulesetBase, players: int, label: str, where: str) -> tuple[Any, ...]:
    """The values a ``values`` entry lists: its code run on a game that has not started."""
    compiled = rules.compiled
    assert compiled is not None  # _labels() checked it
    code_id = compiled.action_values[label]
    start = initial_state(rules, players, 0)
    machine = Machine(rules, players, start, None)
    try:
        values = machine.value_of(code_id, {"players": tuple(range(players))})
    except RuleRuntimeError as exc:
        raise ActionSpaceError(f"{where}: the values of {label!r} cannot be listed: {exc}") from None
    if not isinstance(values, tuple):
        raise ActionSpaceError(f"{where}: the values of {label!r} must be a list, not {values!r}")
    try:
        return tuple(dict.fromkeys(freeze(v) for v in values))
    except TypeError:
        raise ActionSpaceError(f"{where}: the values of {label!r} must be numbers, words or lists of them") from None
