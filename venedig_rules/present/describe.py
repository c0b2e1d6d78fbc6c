"""Readable tables of a ruleset: what ``venedig-rules describe GAME`` prints.

>>> import venedig_rules as vr
>>> text = describe(vr.load("venedig"))
>>> "Components" in text and "Buildings" in text
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..data import board as boardlib
from ..engine.ruleset import Ruleset

#: A table row: one cell per column, each shown as ``str(cell)``.
Row = Sequence[object]


class _Section(NamedTuple):
    """One table of ``describe``: its title, column names and rows (none: it is left out)."""

    title: str
    header: tuple[str, ...]
    rows: list[Row]


def describe(rules: Ruleset) -> str:
    """Components, cards, tiles, buildings, board, constants and player counts as text tables."""
    game = rules.data["game"]
    out = [f"{rules.title} ({rules.name})", ""]
    facts = [
        ("players", f"{rules.players.start}-{rules.players.stop - 1}"),
        ("designers", ", ".join(game.get("designers", [])) or "-"),
        ("publisher", f"{game.get('publisher', '-')} {game.get('year', '')}".strip()),
        ("rules hash", rules.rules_hash[:16]),
    ]
    out += [f"  {k:<11}{v}" for k, v in facts]
    for section in [*_item_sections(rules), *_game_sections(game, rules.data.get("board") or {})]:
        if section.rows:  # a ruleset without tiles, say, shows no empty table of them
            out += ["", section.title, *table(section.header, section.rows)]
    return "\n".join(out) + "\n"


def _item_sections(rules: Ruleset) -> list[_Section]:
    """The tables of the game's pieces: components, card types, cards, tiles and buildings."""
    return [
        _Section(
            "Components",
            ("id", "name", "count", "provenance"),
            [(c["id"], c["name"], _count(c), _prov(c)) for c in rules.items("components")],
        ),
        _Section(
            "Card types",
            ("id", "name", "params"),
            [(t["id"], t["name"], _params(t)) for t in rules.items("cards", "types")],
        ),
        _Section("Cards", ("id", "name", "count", "of", "players", "params", "provenance"), _card_rows(rules)),
        _Section(
            "Tile shapes",
            ("id", "name", "cells"),
            [
                (s["id"], s.get("name", ""), " ".join(f"{x},{y}" for x, y in s["cells"]))
                for s in rules.items("tiles", "shapes")
            ],
        ),
        _Section(
            "Tiles",
            ("id", "count", "component", "shape", "params", "provenance"),
            [
                (t["id"], t["count"], t["component"], t.get("shape", ""), _params(t), _prov(t))
                for t in rules.items("tiles")
            ],
        ),
        _Section(
            "Buildings",
            ("id", "name", "count", "params", "points / ability", "provenance"),
            [
                (
                    b["id"],
                    b["name"],
                    b["count"],
                    _params(b),
                    _short(b.get("points") or b.get("ability") or ""),
                    _prov(b),
                )
                for b in rules.items("buildings")
            ],
        ),
    ]


def _card_rows(rules: Ruleset) -> list[Row]:
    return [
        (
            c["id"],
            c.get("name", ""),
            c["count"],
            c.get("type") or c.get("building") or c["component"],  # what the card is a card of
            f"{c['min_players']}+" if "min_players" in c else "",
            _params(c),
            _prov(c),
        )
        for c in rules.items("cards")
    ]


def _game_sections(game: dict[str, Any], board: dict[str, Any]) -> list[_Section]:
    """The tables of the board, the state, the flow and the constants."""
    return [
        _Section("Board", ("what", "count", "details"), _board_rows(board)),
        _Section(
            "State",
            ("name", "per", "type", "start", "visible"),
            [
                (name, d.get("per", "-"), d.get("type", "any"), _constant(d.get("start")), d.get("visible", "all"))
                for name, d in (game.get("state") or {}).items()
            ],
        ),
        _Section("Flow", ("procedure", "params", "first line"), _flow_rows(game.get("flow"))),
        _Section(
            "Constants",
            ("name", "value", "provenance"),
            [
                (name, _constant(value), _prov(value) if isinstance(value, dict) else "")
                for name, value in (game.get("constants") or {}).items()
            ],
        ),
    ]


def table(header: Sequence[str], rows: Iterable[Row]) -> list[str]:
    """Left-aligned columns with a rule under the header.

    >>> print("\\n".join(table(("id", "count"), [("casa", 10)])))
      id    count
      ----  -----
      casa  10
    """
    cells = [list(map(str, header))] + [[str(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  " + "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  " + "  ".join("-" * w for w in widths))
    return lines


def _board_rows(board: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    spaces = boardlib.grid_spaces(board)
    if spaces:
        grid = board["grid"]
        rows.append(
            ("spaces", len(spaces), f"{grid['type']} grid, {max(map(len, grid['rows']))} x {len(grid['rows'])}")
        )
        for attr in ("terrain", "region", "start"):
            tally = Counter(a[attr] for a in spaces.values() if attr in a)
            if tally:
                rows.append((f"  by {attr}", "", ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))))
    for key in ("regions", "connections"):
        if board.get(key):
            rows.append((key, len(board[key]), _short(", ".join(i["id"] for i in board[key]), 72)))
    for track in board.get("tracks") or []:
        posts = f", {track['posts']} posts" if track.get("posts") else ""
        rows.append(
            (f"track {track['id']}", track["last"] - track["first"] + 1, f"{track['first']}..{track['last']}{posts}")
        )
    return rows


def _flow_rows(flow: dict[str, Any] | None) -> list[Row]:
    if not flow:
        return []
    rows: list[Row] = [("main", "", _first_line(flow["main"]))]
    for name, proc in (flow.get("procedures") or {}).items():
        if isinstance(proc, str):
            rows.append((name, "", _first_line(proc)))
        else:
            params = ", ".join(f"{k}: {v}" for k, v in (proc.get("params") or {}).items())
            rows.append((name, params, _first_line(proc["body"])))
    return rows


def _first_line(text: str) -> str:
    return _short(text.strip().splitlines()[0]) if text.strip() else ""


def _count(item: dict[str, Any]) -> str:
    return str(item["count"]) if "count" in item else f"{item['per_player']} per player"


def _params(item: dict[str, Any]) -> str:
    return " ".join(f"{k}={_constant(v)}" for k, v in (item.get("params") or {}).items())


def _prov(item: dict[str, Any]) -> str:
    return str(item.get("provenance", ""))


def _constant(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        if "by_players" in value:
            return "; ".join(f"{n}p: {_constant(v)}" for n, v in value["by_players"].items())
        return _constant(value.get("value"))
    if isinstance(value, list):
        return "[" + ", ".join(map(_constant, value)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _short(text: str, width: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."
