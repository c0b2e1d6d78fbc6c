"""Checks that any ruleset can be drawn: its board layout holds every space, region, connection
and track step, and a rendered position is well-formed SVG with one ``data-space`` element
per board space that shows nothing the seat may not know.

>>> import venedig_rules as vr
>>> rules = vr.load("saeulen")
>>> layout_problems(rules)
[]
>>> render_problems(rules.new_game(players=3, seed=1), seat=None)
[]
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..present.render import render_svg

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.ruleset_base import RulesetBase

#: The corners of a space's outline, by its shape.
CORNERS = {"square": 4, "hex": 6}


def layout_problems(rules: RulesetBase) -> list[str]:
    """What is wrong with ``rules.board.layout()``: spaces, regions, connections or track steps
    missing or misshapen, or a layout that does not survive a JSON round trip."""
    board, layout = rules.board, rules.board.layout()
    problems = []
    if set(layout["spaces"]) != set(board.spaces):
        missing, extra = sorted(board.spaces - set(layout["spaces"])), sorted(set(layout["spaces"]) - board.spaces)
        problems.append(f"the layout's spaces differ from the board's: missing {missing[:8]}, extra {extra[:8]}")
    for sid, space in layout["spaces"].items():
        if len(space["center"]) != 2 or len(space["outline"]) != CORNERS.get(space["shape"], -1):
            problems.append(
                f"space {sid} has no centre or a {space['shape']} outline of {len(space['outline'])} corners"
            )
    if list(layout["regions"]) != list(board.regions):
        problems.append(f"the layout's regions {list(layout['regions'])} are not the board's {list(board.regions)}")
    if list(layout["connections"]) != list(board.connections):
        problems.append("the layout's connections are not the board's")
    for cid, con in layout["connections"].items():
        if not con["path"] or len(con["ends"]) != 2:
            problems.append(f"connection {cid} has no path")
    for tid, track in board.tracks.items():
        steps = [s["step"] for s in layout["tracks"].get(tid, {"steps": []})["steps"]]
        if steps != list(track.steps):
            problems.append(f"track {tid} has layout steps {steps[:5]}...; expected one per step {track.steps}")
    if json.loads(json.dumps(layout)) != layout:
        problems.append("the layout is not JSON-safe")
    return problems


def render_problems(game: Game, seat: int | None) -> list[str]:
    """What is wrong with ``render_svg(game, seat)``: not XML, not one ``data-space`` element per
    board space, or an id the seat may not see (a hidden card or tile) in the picture."""
    picture = render_svg(game, seat)
    try:
        root = ET.fromstring(picture)
    except ET.ParseError as exc:
        return [f"render wrote no well-formed SVG: {exc}"]
    found = Counter(str(el.get("data-space")) for el in root.iter() if el.get("data-space") is not None)
    problems = []
    spaces = game.rules.board.spaces
    if set(found) != spaces or any(n != 1 for n in found.values()):
        twice = sorted(s for s, n in found.items() if n > 1)
        missing, unknown = sorted(spaces - set(found)), sorted(set(found) - spaces)
        problems.append(
            f"render drew {sum(found.values())} data-space elements for {len(spaces)} spaces "
            f"(missing {missing[:8]}, twice {twice[:8]}, unknown {unknown[:8]})"
        )
    for ident in sorted(hidden_ids(game, seat)):
        if _mentions(picture, ident):
            problems.append(f"the picture for {_who(seat)} shows {ident!r}, which is hidden from them")
    return problems


def hidden_ids(game: Game, seat: int | None) -> set[str]:
    """The text values (card, tile, ... ids) that ``seat`` (a spectator when ``None``) may not
    see anywhere: those in hidden parts of the state that no visible part of the state holds."""
    rules = game.rules
    hidden: set[str] = set()
    shown: set[str] = set()
    for name, info in (rules.compiled.state if rules.compiled is not None else {}).items():
        value, visibility = game.value(name), rules.state_visibility(name)
        if info.per == "player":
            for p, part in enumerate(value):
                mine = visibility == "all" or (visibility == "owner" and p == seat)
                (shown if mine else hidden).update(_strings(part))
        elif visibility == "all":
            shown.update(_strings(value))
        else:
            hidden.update(_strings(value))
    return hidden - shown


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _strings(v)}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    return set()


def _mentions(picture: str, ident: str) -> bool:
    """Whether ``ident`` stands in the picture as a whole word (an id or inside an attribute)."""
    start = picture.find(ident)
    while start != -1:
        before = picture[start - 1] if start else " "
        end = start + len(ident)
        after = picture[end] if end < len(picture) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = picture.find(ident, start + 1)
    return False


def _who(seat: int | None) -> str:
    return "a spectator" if seat is None else f"p{seat}"
