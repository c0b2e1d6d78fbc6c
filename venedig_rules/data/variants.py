"""Variant overlays: a base ruleset's data changed by a patch, located in the overlay file.

A variant is a YAML file (or a folder with ``variant.yaml`` and one overlay file per rule
file kind) that names the ruleset it ``extends`` and patches its files:

- a mapping merges key by key (RFC 7396 merge patch); ``null`` removes a key;
- a list whose items all have ids is patched by id: ``{id: x, ...}`` changes the given
  fields of item ``x``, ``{add: {...}}`` appends a new item, ``{remove: x}`` removes one;
- a flow procedure's ``body`` (or ``main``) given as a list of step edits changes those
  steps only (:mod:`.steps`);
- anything else replaces the base value.

>>> from venedig_rules.data.yamlsource import loads
>>> base = loads("cards: [{id: casa, count: 10}, {id: ponte, count: 8}]", "cards.yaml")
>>> over = loads("cards: [{id: casa, count: 9}, {remove: ponte}, {add: {id: campo, count: 2}}]", "v.yaml")
>>> merged = merge(base.data, base.positions, over.data, over.positions)
>>> merged.data
{'cards': [{'id': 'casa', 'count': 9}, {'id': 'campo', 'count': 2}]}
>>> print(merged.positions.at("/cards/0/count"))
v.yaml:1:27
>>> print(merged.positions.at("/cards/1/count"))
v.yaml:1:73
>>> merged.errors
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import VariantError, did_you_mean
from .positions import Piece
from .steps import edit_steps, is_step_edits
from .yamlsource import Plain, PositionMap, pointer


@dataclass
class Merged:
    """The result of a merge: data, where each value came from, and every problem."""

    data: Plain
    positions: PositionMap
    errors: list[VariantError] = field(default_factory=list)


def merge(
    base: Plain,
    base_positions: PositionMap,
    overlay: Plain,
    overlay_positions: PositionMap,
    base_at: str = "",
    overlay_at: str = "",
    out_at: str = "",
    into: Merged | None = None,
) -> Merged:
    """Apply ``overlay`` to ``base``; neither is changed.

    ``*_at`` are the pointers of the values inside their position maps; with ``into``,
    positions and errors are added to an existing result.
    """
    result = into or Merged(None, PositionMap())
    merger = _Merger(base_positions, overlay_positions, result, _procedures(base, base_at))
    result.data = merger.value(base, base_at, overlay, overlay_at, out_at)
    return result


def _procedures(base: Plain, at: str) -> frozenset[str]:
    """The names of the flow procedures of ``base`` (the whole data, or ``game`` at ``/game``)."""
    game = base.get("game") if isinstance(base, dict) and at == "" else base if at == "/game" else None
    flow = game.get("flow") if isinstance(game, dict) else None
    procedures = flow.get("procedures") if isinstance(flow, dict) else None
    return frozenset(procedures) if isinstance(procedures, dict) else frozenset()


#: The DSL a variant may change step by step (:mod:`.steps`): the flow's main and procedure bodies.
_STEPPED = re.compile(r"^/game/flow/(main|procedures/[^/]+(/body)?)$")


class _Entry(NamedTuple):
    """An item of an id list being patched, and where its positions come from."""

    item: Plain
    source: str  # its pointer in the base, or in the overlay when added there
    added: bool  # whether the overlay added it (its positions are the overlay's)


def is_id_list(value: Plain) -> bool:
    """Whether ``value`` is a list whose items are all mappings with an ``id`` (a string)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and isinstance(item.get("id"), str) for item in value)
    )


class _Merger:
    """One merge: ``keep`` a base value, ``take`` an overlay's, each with its positions; the
    pointers ``b``, ``o`` and ``out`` name a value in the base, the overlay and the result."""

    def __init__(self, base_pm: PositionMap, over_pm: PositionMap, result: Merged, procedures: frozenset[str]):
        self.base_pm, self.over_pm, self.result = base_pm, over_pm, result
        self.procedures = procedures

    def keep(self, value: Plain, src: str, dst: str) -> Plain:
        self.base_pm.copy_subtree(src, value, dst, self.result.positions)
        return value

    def take(self, value: Plain, src: str, dst: str) -> Plain:
        self.over_pm.copy_subtree(src, value, dst, self.result.positions)
        return value

    def error(self, message: str, at: str, key: bool = False) -> None:
        loc = self.over_pm.key_at(at) if key else self.over_pm.at(at)
        self.result.errors.append(VariantError(message, loc))

    def value(self, base: Plain, b: str, over: Plain, o: str, out: str) -> Plain:
        if isinstance(base, dict) and isinstance(over, dict):
            return self.mapping(base, b, over, o, out)
        if is_id_list(base) and isinstance(over, list) and _is_patch_list(over):
            return self.id_list(base, b, over, o, out)
        if isinstance(base, str) and is_step_edits(over) and _STEPPED.match(b):
            return self.steps(base, b, over, o, out)
        return self.take(over, o, out)

    def steps(self, base: str, b: str, over: list[Plain], o: str, out: str) -> str:
        """A procedure body changed step by step: located at the overlay's list of edits (the
        lines of the edited text are no longer the base file's)."""
        edited = edit_steps(base, over, self.procedures)
        for problem in edited.problems:
            if problem.shape:
                continue  # the overlay's schema says so, at its line
            at = pointer(o, problem.edit)
            self.error(problem.message, pointer(at, problem.key) if problem.key else at)
        pm = self.result.positions
        if o in self.over_pm.values:
            pm.values[out] = self.over_pm.values[o]
        if b in self.base_pm.keys:
            pm.keys[out] = self.base_pm.keys[b]
        # each character is located in the file that wrote it: the base's body or an edit's text
        sources = {"": (self.base_pm, b)}
        sources.update(
            {
                f"{i}/{k}": (self.over_pm, pointer(pointer(o, i), k))
                for i in range(len(over))
                for k in ("insert", "with")
            }
        )
        pieces: list[Piece] = []
        for n, (source, offset) in enumerate(edited.origin):
            last = pieces[-1] if pieces else None
            if last is not None and last.source == f"#{source}" and last.offset + (n - last.start) == offset:
                pieces[-1] = last._replace(end=n + 1)
            else:
                pieces.append(Piece(n, n + 1, f"#{source}", offset))
        for piece in pieces:
            positions, at = sources[piece.source[1:]]
            if at in positions.spans:
                pm.spans[out + piece.source] = positions.spans[at]
                pm.texts.update(positions.texts)
        pm.pieces[out] = pieces
        return edited.text

    def mapping(self, base: dict[str, Plain], b: str, over: dict[str, Plain], o: str, out: str) -> dict[str, Plain]:
        pm = self.result.positions
        # the merged mapping stays where the base has it; only its changed values move
        if b in self.base_pm.values:
            pm.values[out] = self.base_pm.values[b]
        if b in self.base_pm.keys:
            pm.keys[out] = self.base_pm.keys[b]
        merged: dict[str, Plain] = {}
        for key, value in base.items():
            if key not in over:
                merged[key] = self.keep(value, pointer(b, key), pointer(out, key))
        for key, value in over.items():
            if value is None:
                if key not in base:
                    self.error(
                        f"removes key {key!r}, which the base does not have{did_you_mean(key, base)}",
                        pointer(o, key),
                        key=True,
                    )
                continue
            if key in base:
                merged[key] = self.value(base[key], pointer(b, key), value, pointer(o, key), pointer(out, key))
            else:
                merged[key] = self.take(value, pointer(o, key), pointer(out, key))
        # keep the base's key order, new keys last
        return {k: merged[k] for k in list(base) + [k for k in over if k not in base] if k in merged}

    def id_list(self, base: list[Plain], b: str, over: list[Plain], o: str, out: str) -> list[Plain]:
        items = {item["id"]: _Entry(item, pointer(b, i), added=False) for i, item in enumerate(base)}
        patched: dict[str, tuple[dict[str, Plain], str]] = {}  # id -> (patch, its pointer)
        for i, patch in enumerate(over):
            at = pointer(o, i)
            key = "remove" if "remove" in patch else "id" if "id" in patch else None
            if key is not None and not isinstance(patch[key], str):
                self.error(f"{key!r} needs the id of an item (a word), not {_show(patch[key])}", pointer(at, key))
            elif "remove" in patch:
                ident = patch["remove"]
                if ident in items:
                    del items[ident]
                else:
                    self.error(
                        f"removes {ident!r}, which the base does not have{did_you_mean(str(ident), items)}",
                        pointer(at, "remove"),
                    )
            elif "add" in patch:
                item = patch["add"]
                ident = item.get("id") if isinstance(item, dict) else None
                if not isinstance(ident, str):
                    self.error("'add' needs a mapping with an 'id' (a word)", pointer(at, "add"))
                elif ident in items:
                    self.error(
                        f"adds {ident!r}, which the base already has (patch it by id instead)", pointer(at, "add")
                    )
                else:
                    items[ident] = _Entry(item, pointer(at, "add"), added=True)
            else:
                ident = patch["id"]
                if ident not in items:
                    self.error(
                        f"patches {ident!r}, which the base does not have{did_you_mean(str(ident), items)}"
                        " (use {add: ...} for a new item)",
                        pointer(at, "id"),
                    )
                else:
                    patched[ident] = (patch, at)
        result = self.items(items, patched, out)
        # the list as a whole is the overlay's now: a problem with it points at the patch
        self.result.positions.values[out] = self.over_pm.where(o)
        return result

    def items(
        self, items: dict[str, _Entry], patched: dict[str, tuple[dict[str, Plain], str]], out: str
    ) -> list[Plain]:
        """The items left, in order, each kept, added or patched, at ``out``'s places."""
        result = []
        for n, (ident, entry) in enumerate(items.items()):
            dst = pointer(out, n)
            if entry.added:
                result.append(self.take(entry.item, entry.source, dst))
            elif ident in patched:
                patch, at = patched[ident]
                result.append(self.mapping(entry.item, entry.source, patch, at, dst))
            else:
                result.append(self.keep(entry.item, entry.source, dst))
        return result


def _show(value: Plain) -> str:
    """A value for a message, cut to 40 characters: a long one would hide the message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_patch_list(over: list[Plain]) -> bool:
    """Whether every item patches, adds or removes by id; any other list replaces the base's."""
    return all(isinstance(p, dict) and (("id" in p) or set(p) in ({"add"}, {"remove"})) for p in over)
