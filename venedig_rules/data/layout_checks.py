"""Checks of a board's drawing data (``board.yaml`` ``layout`` entries) against the rest of the
ruleset: every track step placed once, and every ``show`` entry naming state the game has, in
a shape its ``as`` can draw.

>>> from venedig_rules.data.yamlsource import PositionMap
>>> data = {"game": {"state": {"owner": {"per": "space", "type": "player"}}},
...         "board": {"tracks": [{"id": "t", "name": "T", "first": 0, "last": 3,
...                               "layout": {"runs": [{"steps": [0, 2], "path": [[0, 0], [2, 0]]}]}}],
...                   "layout": {"show": [{"var": "ownr", "as": "token"}]}}}
>>> for problem in check_layout(data, PositionMap()):
...     print(problem.code, problem.message)
rules/count track 't' places no step 3 in its layout runs; expected every step in exactly one run
rules/reference unknown state variable 'ownr' (did you mean 'owner'?)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import CountError, RuleReferenceError, RulesError, did_you_mean
from .layout import SHOW_KINDS, mapping
from .yamlsource import PositionMap


def check_layout(data: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    """Every problem of the board's drawing data in ``data`` (file kind -> content)."""
    board = mapping(data.get("board"))
    yield from _tracks(board, positions)
    yield from _show(data, board, positions)


def _tracks(board: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    for i, track in enumerate(board.get("tracks") or ()):
        if not mapping(track).get("layout"):
            continue
        first, last, posts = track.get("first"), track.get("last"), track.get("posts") or 0
        if not (isinstance(first, int) and isinstance(last, int) and isinstance(posts, int)):
            continue
        ptr = f"/board/tracks/{i}/layout"
        # a same_as step is drawn on the space of the step it names, so no run may place it
        same = {s["step"] for s in track.get("spaces") or () if isinstance(s, Mapping) and "same_as" in s}
        steps = range(first, last + posts + 1)  # the posts are spaces past the last step
        placed: dict[int, int] = {}
        for j, run in enumerate(mapping(track["layout"]).get("runs") or ()):
            span = run.get("steps") if isinstance(run, Mapping) else None
            if not (isinstance(span, list) and len(span) == 2 and all(isinstance(s, int) for s in span)):
                continue
            at = positions.at(f"{ptr}/runs/{j}/steps")
            a, b = span
            if a > b or a not in steps or b not in steps:
                yield RuleReferenceError(
                    f"run steps [{a}, {b}] of track {track.get('id')!r} are not a range of its steps "
                    f"({first}..{steps[-1]})",
                    at,
                )
                continue
            for step in range(a, b + 1):
                if step in same:
                    yield CountError(
                        f"step {step} of track {track.get('id')!r} is the same space as another step, so it is "
                        "drawn there; leave it out of the runs",
                        at,
                    )
                elif step in placed:
                    yield CountError(
                        f"track {track.get('id')!r} places step {step} in two layout runs "
                        f"(runs {placed[step]} and {j}); expected each step in one run",
                        at,
                    )
                placed.setdefault(step, j)  # the first run to place it, for the message
        missing = [s for s in steps if s not in placed and s not in same]
        if missing:
            shown = ", ".join(map(str, missing[:8])) + (", ..." if len(missing) > 8 else "")
            yield CountError(
                f"track {track.get('id')!r} places no step {shown} in its layout runs; expected every step "
                "in exactly one run",
                positions.at(ptr),
            )


def _show(data: Mapping[str, Any], board: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    layout, game = mapping(board.get("layout")), mapping(data.get("game"))
    state: dict[str, Any] = {k: v for k, v in (game.get("state") or {}).items() if isinstance(v, Mapping)}
    # a scoring track is state too, one number per player, and may be shown like it
    for track in mapping(data.get("scoring")).get("tracks") or ():
        if isinstance(track, Mapping) and isinstance(track.get("id"), str):
            state.setdefault(track["id"], {"per": "player", "type": "int"})
    tracks = {t.get("id") for t in board.get("tracks") or () if isinstance(t, Mapping)}
    yield from _player_colors(data, layout, positions)
    for i, entry in enumerate(layout.get("show") or ()):
        if not isinstance(entry, Mapping):
            continue  # the schema reports it, at its line
        ptr = f"/board/layout/show/{i}"
        on = entry.get("on") or ("track" if "track" in entry else "spaces")
        kind = entry.get("as") or SHOW_KINDS.get(on, ("",))[0]
        if on in SHOW_KINDS and kind not in SHOW_KINDS[on]:
            yield RuleReferenceError(
                f"a show entry on {on} cannot be drawn as {kind!r}; expected one of {', '.join(SHOW_KINDS[on])}",
                positions.at(ptr + ("/as" if "as" in entry else "")),
            )
            continue
        if on == "track" and entry.get("track") not in tracks:
            track = entry.get("track")
            yield RuleReferenceError(
                f"unknown board track {track!r}{did_you_mean(str(track), [t for t in tracks if t])}"
                if track
                else "a show entry on a track names no track; add track: <board track id>",
                positions.at(ptr + ("/track" if track else "")),
            )
        if "attr" in entry and on != "spaces":
            yield RuleReferenceError(f"a space attribute can only be shown on spaces, not on {on}", positions.at(ptr))
        for key in ("var", "stack"):
            name = entry.get(key)
            if isinstance(name, str) and name not in state:
                yield RuleReferenceError(
                    f"unknown state variable {name!r}{did_you_mean(name, state)}", positions.at(f"{ptr}/{key}")
                )
        var = entry.get("var")
        if not isinstance(var, str) or var not in state:
            continue  # reported above (or nothing to check)
        per, want = state[var].get("per"), needed_per(on, kind, "where" in entry)
        if per != want:
            yield RuleReferenceError(
                f"state variable {var!r} is {_per_text(per)}; drawn as {kind} on {on} it must be {_per_text(want)}",
                positions.at(f"{ptr}/var"),
            )


def needed_per(on: str, kind: str, where: bool) -> str | None:
    """The ``per`` a variable shown ``on`` a part of the board ``as`` ``kind`` must have.

    >>> needed_per("spaces", "token", False), needed_per("spaces", "token", True), needed_per("track", "piece", False)
    ('space', None, 'player')
    """
    if on == "track" or (on == "regions" and kind == "count"):
        return "player"
    if on == "spaces" and kind != "outline" and not where:
        return "space"
    return None


def _player_colors(data: Mapping[str, Any], layout: Mapping[str, Any], positions: PositionMap) -> Iterator[RulesError]:
    source = layout.get("player_colors_from")
    if not isinstance(source, str):
        return
    at = positions.at("/board/layout/player_colors_from")
    items = {c.get("id"): c for c in mapping(data.get("components")).get("components") or () if isinstance(c, Mapping)}
    if source not in items:
        yield RuleReferenceError(
            f"unknown component {source!r}{did_you_mean(source, [k for k in items if isinstance(k, str)])}", at
        )
        return
    colors = items[source].get("colors") or []
    most = mapping(mapping(data.get("game")).get("players")).get("max")
    if isinstance(most, int) and len(colors) < most:
        yield CountError(
            f"component {source!r} has {len(colors)} colours for up to {most} players; "
            "expected a colour per player (its colors list)",
            at,
        )


def _per_text(per: str | None) -> str:
    return {"player": "one value per player", "space": "one value per space"}.get(str(per), "a single value")
