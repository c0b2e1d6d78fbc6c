"""Checks of a ruleset's data beyond the schemas: ids, references, params and counts.

They run on data that may have failed its schema, so they read defensively and report
what they can; every problem is located through the ruleset's position map.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypedDict

from ..errors import (
    CountError,
    DuplicateIdError,
    Location,
    ParamError,
    RuleLimitError,
    RuleReferenceError,
    RulesError,
    did_you_mean,
)
from ..limits import MAX_COMPONENTS
from . import board as boardlib
from . import summarytexts, textcheck
from .constant_checks import check_lengths, declared_bounds, mixed_by_players
from .layout_checks import check_layout
from .locate import where_changed
from .value_bounds import value_problem
from .yamlsource import Plain, PositionMap, pointer


class ItemList(NamedTuple):
    """Where a list of items lives: list ``key`` of the file of ``kind`` (``cards.yaml``'s ``types``)."""

    kind: str
    key: str


#: Id namespaces: name -> the list holding items with an ``id``.
NAMESPACES = {
    "component": ItemList("components", "components"),
    "card": ItemList("cards", "cards"),
    "card type": ItemList("cards", "types"),
    "tile": ItemList("tiles", "tiles"),
    "shape": ItemList("tiles", "shapes"),
    "building": ItemList("buildings", "buildings"),
    "region": ItemList("board", "regions"),
    "connection": ItemList("board", "connections"),
    "track": ItemList("board", "tracks"),  # after collection: board and score tracks
    "score track": ItemList("scoring", "tracks"),
    "scoring rule": ItemList("scoring", "rules"),
    "invariant": ItemList("invariants", "invariants"),
}

#: Items whose ``params`` are declared in ``game.yaml`` under ``parameters/<kind>``.
PARAM_KINDS = {
    "cards": ItemList("cards", "cards"),
    "card_types": ItemList("cards", "types"),
    "tiles": ItemList("tiles", "tiles"),
    "buildings": ItemList("buildings", "buildings"),
    "components": ItemList("components", "components"),
    "regions": ItemList("board", "regions"),
    "connections": ItemList("board", "connections"),
}

#: Items that are copies of a component: their counts must sum to the component's count.
COUNTED = (ItemList("cards", "cards"), ItemList("tiles", "tiles"), ItemList("buildings", "buildings"))

#: Fields that hold effect DSL source, by where their items live.
DSL_FIELDS = {
    ItemList("cards", "cards"): ("effect",),
    ItemList("cards", "types"): ("effect",),
    ItemList("tiles", "tiles"): ("effect",),
    ItemList("buildings", "buildings"): ("points", "ability"),
    ItemList("scoring", "rules"): ("effect",),
    ItemList("invariants", "invariants"): ("check",),
}


class _Reference(NamedTuple):
    """A field of the items of one list that names an item of a namespace."""

    items: ItemList
    field: str
    namespace: str


#: Fields that hold one id each.
REFERENCES = (
    _Reference(ItemList("cards", "cards"), "component", "component"),
    _Reference(ItemList("cards", "cards"), "type", "card type"),
    _Reference(ItemList("cards", "cards"), "building", "building"),
    _Reference(ItemList("tiles", "tiles"), "component", "component"),
    _Reference(ItemList("tiles", "tiles"), "shape", "shape"),
    _Reference(ItemList("buildings", "buildings"), "component", "component"),
    _Reference(ItemList("buildings", "buildings"), "shape", "shape"),
)


class DslContext(TypedDict):
    """What a DSL checker is told of the item whose field it checks."""

    kind: str  # the file kind, e.g. "cards"
    list: str  # the list in that file, e.g. "types"
    item: dict[str, Any]  # the whole item, as read


#: ``DslChecker(text, pointer, positions, context) -> problems``; ``context`` names the item.
DslChecker = Callable[[str, str, PositionMap, DslContext], list[RulesError]]


def check(data: dict[str, Any], positions: PositionMap, dsl_checker: DslChecker | None = None) -> list[RulesError]:
    """Every problem in the cross-file facts of ``data`` (a mapping of file kind to content)."""
    return list(_Checker(data, positions).run(dsl_checker))


class _Checker:
    def __init__(self, data: dict[str, Any], positions: PositionMap):
        self.data, self.positions = data, positions
        self.ids: dict[str, dict[str, str]] = {}  # namespace -> id -> pointer
        self.spaces = boardlib.grid_spaces(self._get("board"))

    def run(self, dsl_checker: DslChecker | None) -> Iterator[RulesError]:
        yield from self.collect_ids()
        yield from self.references()
        yield from self.grid()
        yield from self.tracks()
        yield from self.params()
        yield from self.counts()
        yield from self.limits()
        yield from self.players()
        yield from mixed_by_players(self.data, self.positions)
        yield from declared_bounds(self.data, self.positions)
        yield from check_lengths(self.data, self.positions)
        yield from check_layout(self.data, self.positions)
        yield from self.report()
        yield from textcheck.check(self.data, self.positions, self.ids, self.spaces)
        yield from summarytexts.check(self.data, self.positions)
        if dsl_checker is not None:
            for item_list, fields in DSL_FIELDS.items():
                for ptr, item in self.items(*item_list):
                    for name in fields:
                        if isinstance(item.get(name), str):
                            context = DslContext(kind=item_list.kind, list=item_list.key, item=item)
                            yield from dsl_checker(item[name], pointer(ptr, name), self.positions, context)

    # -- helpers ---------------------------------------------------------------------------
    def _get(self, *path: str) -> Plain:
        node: Plain = self.data
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        return node

    def items(self, kind: str, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """(pointer, item) of each mapping in list ``key`` of file ``kind``."""
        values = self._get(kind, key)
        for i, item in enumerate(values if isinstance(values, list) else []):
            if isinstance(item, dict):
                yield pointer(pointer(f"/{kind}", key), i), item

    def at(self, ptr: str) -> Location:
        return self.positions.at(ptr)

    def ref(self, namespace: str, value: Plain, ptr: str) -> Iterator[RulesError]:
        known = self.ids.get(namespace, {})
        if isinstance(value, str) and value not in known:
            yield RuleReferenceError(f"unknown {namespace} {value!r}{did_you_mean(value, known)}", self.at(ptr))

    # -- checks ----------------------------------------------------------------------------
    def limits(self) -> Iterator[RulesError]:
        """Data no game could start with: each kind of item, copies counted, and the board's
        spaces become lists in play, which hold at most MAX_COMPONENTS items."""
        for what, (kind, key) in LIMITED.items():
            counted = [(ptr, count) for ptr, item in self.items(kind, key) if (count := _copies(item)) is not None]
            total = sum(count for _, count in counted)
            if total > MAX_COMPONENTS:
                ptr, _ = max(counted, key=lambda pc: pc[1])  # at the item that adds the most
                yield RuleLimitError(
                    f"the {what} add up to {total} copies, more than a game can hold (limit MAX_COMPONENTS: "
                    f"{MAX_COMPONENTS}); expected at most {MAX_COMPONENTS}",
                    self.at(ptr + "/count"),
                )
        if len(self.spaces) > MAX_COMPONENTS:
            yield RuleLimitError(
                f"the board has {len(self.spaces)} spaces, more than a game can hold (limit MAX_COMPONENTS: "
                f"{MAX_COMPONENTS}); expected at most {MAX_COMPONENTS}",
                self.at("/board/grid"),
            )

    def collect_ids(self) -> Iterator[RulesError]:
        for namespace, item_list in NAMESPACES.items():
            seen = self.ids.setdefault(namespace, {})
            for ptr, item in self.items(*item_list):
                ident = item.get("id")
                if not isinstance(ident, str):
                    continue
                if ident in seen:
                    first, here = self.at(seen[ident] + "/id"), self.at(ptr + "/id")
                    where = f"line {first.line}" + ("" if first.file == here.file else f" of {first.file}")
                    yield DuplicateIdError(
                        f"{namespace} {ident!r} is defined twice (first at {where}); expected each id once", here
                    )
                else:
                    seen[ident] = ptr
        self.ids["space"] = {sid: "" for sid in self.spaces}
        self.ids["track"] = {**self.ids["track"], **self.ids["score track"]}

    def references(self) -> Iterator[RulesError]:
        for ref in REFERENCES:
            for ptr, item in self.items(*ref.items):
                yield from self.ref(ref.namespace, item.get(ref.field), pointer(ptr, ref.field))
        for ptr, attrs in self.space_attr_sets():
            for field, namespace in (("region", "region"), ("building", "building")):
                yield from self.ref(namespace, attrs.get(field), pointer(ptr, field))
        for ptr, item in self.items("board", "connections"):
            for field, namespace in (("between", "region"), ("spaces", "space")):
                values = item.get(field)
                for i, value in enumerate(values if isinstance(values, list) else []):
                    yield from self.ref(namespace, value, pointer(pointer(ptr, field), i))
            between = item.get("between")
            if isinstance(between, list) and len(between) == 2 and between[0] == between[1]:
                yield RuleReferenceError(
                    f"connection {item.get('id')!r} joins {between[0]!r} to itself; expected two different regions",
                    self.at(ptr + "/between"),
                )
        for ptr, item in self.items("board", "tracks"):
            for j, space in enumerate(item.get("spaces") or []):
                touches = space.get("touches") if isinstance(space, dict) else None
                for k, region in enumerate(touches if isinstance(touches, list) else []):
                    yield from self.ref("region", region, f"{ptr}/spaces/{j}/touches/{k}")
        winner = self._get("scoring", "winner")
        if isinstance(winner, dict):
            yield from self.ref("track", winner.get("most"), "/scoring/winner/most")
            state = self._get("game", "state")
            self.ids["track or state variable"] = {**self.ids["track"], **(state if isinstance(state, dict) else {})}
            for i, value in enumerate(winner.get("tie_breakers") or []):
                yield from self.ref("track or state variable", value, f"/scoring/winner/tie_breakers/{i}")

    def space_attr_sets(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every mapping of space attributes: legend entries, space overrides and selectors."""
        for section in (("grid", "legend"), ("spaces",)):
            mapping = self._get("board", *section)
            for key, attrs in (mapping or {}).items() if isinstance(mapping, dict) else ():
                if isinstance(attrs, dict):
                    yield "/board/" + "/".join(section) + pointer("", key), attrs
        for ptr, item in self.items("components", "components"):
            where = (
                (item.get("board_spaces") or {}).get("where") if isinstance(item.get("board_spaces"), dict) else None
            )
            if isinstance(where, dict):
                yield ptr + "/board_spaces/where", where
        for ptr, item in self.items("board", "counts"):
            if isinstance(item.get("where"), dict):
                yield ptr + "/where", item["where"]

    def grid(self) -> Iterator[RulesError]:
        grid = self._get("board", "grid")
        if not isinstance(grid, dict):
            return
        legend = grid.get("legend")
        if not isinstance(legend, dict):
            legend = {}
        for row, text in enumerate(grid.get("rows") or []):
            if not isinstance(text, str):
                continue
            for col, char in enumerate(text):
                if char not in boardlib.EMPTY and char not in legend:
                    ptr = f"/board/grid/rows/{row}"
                    yield RuleReferenceError(
                        f"map character {char!r} (space {boardlib.space_id(col, row)}) is not in the legend; "
                        f"expected one of {''.join(sorted(legend))!r} or '.' for no space",
                        self.positions.in_scalar(ptr, col),
                    )
        overrides = self._get("board", "spaces")
        for sid in overrides if isinstance(overrides, dict) else ():
            if sid not in self.spaces:
                yield RuleReferenceError(
                    f"unknown space {sid!r}{did_you_mean(sid, self.spaces)}; expected a space drawn in grid/rows",
                    self.positions.key_at(pointer("/board/spaces", sid)),
                )

    def tracks(self) -> Iterator[RulesError]:
        for ptr, track in self.items("board", "tracks"):
            first, last = track.get("first"), track.get("last")
            if not (isinstance(first, int) and isinstance(last, int)):
                continue
            if first > last:
                yield CountError(
                    f"track {track.get('id')!r} runs from {first} to {last}; expected first <= last",
                    self.at(ptr + "/first"),
                )
            steps: dict[int, str] = {}
            for j, space in enumerate(track.get("spaces") or []):
                if not isinstance(space, dict) or not isinstance(space.get("step"), int):
                    continue
                step, sptr = space["step"], f"{ptr}/spaces/{j}"
                if not first <= step <= last:
                    yield RuleReferenceError(
                        f"track {track.get('id')!r} has no step {step} (it runs from {first} to {last})",
                        self.at(sptr + "/step"),
                    )
                if step in steps:
                    yield DuplicateIdError(
                        f"track {track.get('id')!r} describes step {step} twice", self.at(sptr + "/step")
                    )
                steps[step] = sptr
            for j, space in enumerate(track.get("spaces") or []):
                same = space.get("same_as") if isinstance(space, dict) else None
                if isinstance(same, int) and not first <= same <= last:
                    yield RuleReferenceError(
                        f"step {space.get('step')} is the same space as step {same}, "
                        f"which track {track.get('id')!r} does not have",
                        self.at(f"{ptr}/spaces/{j}/same_as"),
                    )

    def params(self) -> Iterator[RulesError]:
        declared_all = self._get("game", "parameters")
        declared_all = declared_all if isinstance(declared_all, dict) else {}
        for pkind, item_list in PARAM_KINDS.items():
            declared = declared_all.get(pkind)
            if not isinstance(declared, dict):
                declared = {}
            for ptr, item in self.items(*item_list):
                yield from self.item_params(pkind, declared, ptr, item)

    def item_params(self, pkind: str, declared: dict[str, Any], ptr: str, item: dict[str, Any]) -> Iterator[RulesError]:
        params = item.get("params")
        params = params if isinstance(params, dict) else {}
        name = f"{pkind.rstrip('s').replace('_', ' ')} {item.get('id')!r}"
        for pname, value in params.items():
            decl = declared.get(pname)
            vptr = pointer(ptr + "/params", pname)
            if not isinstance(decl, dict):
                where = f"game.yaml parameters/{pkind}"
                yield ParamError(
                    f"{name} has param {pname!r}, which {where} does not declare{did_you_mean(pname, declared)}",
                    self.positions.key_at(vptr),
                )
                continue
            problem = value_problem(decl, value)
            if problem:
                yield ParamError(
                    f"param {pname!r} of {name} is {value!r}; expected {problem.expected}"
                    + self.declared_at(f"/game/parameters/{pkind}/{pname}", problem.bound),
                    self.at(vptr),
                )
        for pname, decl in declared.items():
            if isinstance(decl, dict) and decl.get("required") and pname not in params:
                yield ParamError(
                    f"{name} lacks param {pname!r}, which game.yaml declares as required",
                    self.at(ptr + "/params") if "params" in item else self.at(ptr),
                )

    def declared_at(self, decl_ptr: str, bound: str) -> str:
        """Where a bound a value broke is declared (a variant raising the value may need it
        raised too): `` (bound parameters.tiles.end_a.maximum at rules/rialto/game.yaml:328:7)``."""
        if not bound:
            return ""
        ptr = pointer(decl_ptr, bound)
        dotted = ".".join(ptr.strip("/").split("/")[1:])
        return f" (bound {dotted} at {self.positions.key_at(ptr)})"

    def counts(self) -> Iterator[RulesError]:
        """Each component's count agrees with the items made of it and with the board spaces
        it declares, and the board's declared counts of spaces hold."""
        components: dict[Any, tuple[str, dict[str, Any]]] = {}  # id -> (pointer, item)
        for ptr, item in self.items("components", "components"):
            components.setdefault(item.get("id"), (ptr, item))
        yield from self._counts_of_items(components)
        yield from self._counts_of_board_spaces(components)
        yield from self._board_counts()

    def _counts_of_items(self, components: dict[Any, tuple[str, dict[str, Any]]]) -> Iterator[RulesError]:
        """A component's count is the sum of the counts of the cards, tiles, ... made of it."""
        sums: Counter[str] = Counter()
        users: dict[str, list[str]] = {}
        for item_list in COUNTED:
            for ptr, item in self.items(*item_list):
                comp, count = item.get("component"), item.get("count")
                if isinstance(comp, str) and isinstance(count, int):
                    sums[comp] += count
                    users.setdefault(comp, []).append(ptr)
        for comp, total in sums.items():
            if comp not in components:
                continue
            ptr, item = components[comp]
            want = item.get("count")
            if isinstance(want, int) and want != total:
                kinds = sorted({p.split("/")[1] for p in users[comp]})
                count_at = self.at(ptr + "/count")
                # a count a variant set (an added card, say) is where the designer looks
                changed = [where_changed(count_at, self.at(u + "/count")) for u in users[comp]]
                at = next((loc for loc in changed if loc is not count_at), count_at)
                yield CountError(
                    f"component {comp!r} has count {want}"
                    + (f" (at {count_at})" if at is not count_at else "")
                    + f", but the {' and '.join(kinds)} of it add up to {total}; expected them to agree",
                    at,
                )

    def _counts_of_board_spaces(self, components: dict[Any, tuple[str, dict[str, Any]]]) -> Iterator[RulesError]:
        """A component with ``board_spaces`` has as many pieces as the spaces matching it (or
        at most, or at least as many)."""
        for ptr, item in components.values():
            rule, want = item.get("board_spaces"), item.get("count")
            if not (isinstance(rule, dict) and isinstance(rule.get("where"), dict) and isinstance(want, int)):
                continue
            have = sum(boardlib.matches(a, rule["where"]) for a in self.spaces.values())
            relation = rule.get("relation", "equal")
            if not isinstance(relation, str):
                continue  # not a relation at all: the schema says so, at its line
            ok = {"equal": want == have, "at_most": want <= have, "at_least": want >= have}.get(relation, True)
            if not ok:
                words = {"equal": "exactly", "at_most": "at most", "at_least": "at least"}[relation]
                yield CountError(
                    f"component {item.get('id')!r} has count {want}; expected {words} the number "
                    f"of board spaces matching {rule['where']}, which is {have} (board_spaces at "
                    f"{self.at(ptr + '/board_spaces')})",
                    where_changed(self.at(ptr + "/board_spaces"), self.at(ptr + "/count")),
                )

    def _board_counts(self) -> Iterator[RulesError]:
        """The board has as many spaces matching each of its ``counts`` as it says."""
        for ptr, item in self.items("board", "counts"):
            where, want = item.get("where"), item.get("count")
            if isinstance(where, dict) and isinstance(want, int):
                have = sum(boardlib.matches(a, where) for a in self.spaces.values())
                if have != want:
                    yield CountError(
                        f"the board has {have} spaces matching {where}; expected {want}", self.at(ptr + "/count")
                    )

    def report(self) -> Iterator[RulesError]:
        """flow.report names state variables of the right type and declared events."""
        report = self._get("game", "flow", "report")
        if not isinstance(report, dict):
            return
        state, events, rounds = self._get("game", "state"), self._get("game", "events"), report.get("rounds")
        state = state if isinstance(state, dict) else {}
        events = events if isinstance(events, dict) else {}
        rounds = rounds if isinstance(rounds, dict) else {}
        ptr = "/game/flow/report"
        for vptr, name, kind in (
            (f"{ptr}/rounds/state", rounds.get("state"), "int"),
            (f"{ptr}/first_player", report.get("first_player"), "player"),
        ):
            if not isinstance(name, str):
                continue
            decl = state.get(name)
            if not isinstance(decl, dict):
                yield RuleReferenceError(f"unknown state variable {name!r}{did_you_mean(name, state)}", self.at(vptr))
            elif decl.get("type") != kind or decl.get("per"):
                yield RuleReferenceError(
                    f"state variable {name!r} is not one {kind} (type {decl.get('type')!r}"
                    f"{', per ' + str(decl['per']) if decl.get('per') else ''}); expected type {kind!r}",
                    self.at(vptr),
                )
        wanted = [(f"{ptr}/rounds/event", rounds.get("event"), False)]
        ends = report.get("end_events")
        wanted += [(pointer(f"{ptr}/end_events", e), e, True) for e in (ends if isinstance(ends, dict) else {})]
        for vptr, name, is_key in wanted:
            if isinstance(name, str) and name not in events:
                where = self.positions.key_at(vptr) if is_key else self.at(vptr)
                yield RuleReferenceError(
                    f"unknown event {name!r}{did_you_mean(name, events)}; expected an event game.yaml events names",
                    where,
                )

    def players(self) -> Iterator[RulesError]:
        players = self._get("game", "players")
        if not isinstance(players, dict):
            return
        low, high = players.get("min"), players.get("max")
        if not (isinstance(low, int) and isinstance(high, int)):
            return
        if low > high:
            yield CountError(f"players min {low} is above max {high}", self.at("/game/players/min"))
        for ptr, item in self.items("components", "components"):
            colors = item.get("colors")
            if isinstance(colors, list) and "per_player" in item and len(colors) < high:
                yield CountError(
                    f"component {item.get('id')!r} comes in {len(colors)} colours, but up to {high} players play",
                    self.at(ptr + "/colors"),
                )
        for ptr, item in self.items("cards", "cards"):
            mark = item.get("min_players")
            if isinstance(mark, int) and mark > high:
                yield CountError(
                    f"card {item.get('id')!r} is used from {mark} players, but at most {high} play",
                    self.at(ptr + "/min_players"),
                )
        constants = self._get("game", "constants")
        if not isinstance(constants, dict):
            return
        for name, const in constants.items():
            table = const.get("by_players") if isinstance(const, dict) else None
            if isinstance(table, dict):
                missing = [n for n in range(low, high + 1) if str(n) not in table]
                if missing:
                    yield CountError(
                        f"constant {name!r} has no value for {', '.join(map(str, missing))} "
                        f"players; expected one for every count from {low} to {high}",
                        self.at(f"/game/constants/{name}/by_players"),
                    )


#: The item lists whose copies a game deals as one list each (``copies``).
LIMITED = {
    "cards": ItemList("cards", "cards"),
    "tiles": ItemList("tiles", "tiles"),
    "buildings": ItemList("buildings", "buildings"),
}


def _copies(item: dict[str, Any]) -> int | None:
    """An item's copies (1 without a count; None for a count that is no whole number, which
    the schema reports)."""
    count = item.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else None
