"""The compiled modules (``compiled-modules`` in pyproject.toml) build their sequences with
list comprehensions, not generator expressions: compiled, a generator expression makes and
frees a closure scope and a generator at each call (some 1,000 instructions for three
items), a list comprehension is a loop. ``tuple([x for x in xs])``, not ``tuple(x for x in
xs)``; the pure package gains too (Python runs a comprehension in one frame). What runs once
per load, or only to word an error, may use either: ``COLD`` lists it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import compiled_sources

ROOT = Path(__file__).resolve().parent.parent

#: ``path:function`` of compiled modules that may use generator expressions, with the reason.
COLD = {
    "engine/game.py:_offered": "words the refusal of an illegal action",
    "engine/game.py:_why_illegal": "words the refusal of an illegal action",
    "engine/game.py:from_json": "loads a save",
    "engine/game.py:_check_replayed": "loads a save",
    "engine/game.py:_kept_types": "checks a save's values",
    "engine/run/machine.py:_initial_vars": "once per game",
    "engine/run/notation.py:value_text": "an action's text, made once per action kept",
    "engine/run/notation.py:_plain": "parses an action's text",
    "engine/run/notation.py:same_value": "parses an action's text",
    "engine/run/notation.py:has_number": "parses an action's text",
    "engine/run/ruleset_base.py:rank_winners": "once per game",
    "engine/run/ruleset_base.py:_made_copies": "once per load",
    "engine/run/ruleset_base.py:indexed_vars": "once per load",
    "engine/run/ruleset_base.py:player_vars": "once per load",
    "effects/runtime.py:show": "words an error",
    "effects/compile.py:*": "compiles a ruleset, once per load",
    "data/board.py:_cells": "a shape's cells, once per shape",
    "data/board.py:_rotations": "a shape's rotations, once per shape (cached)",
    "data/board.py:graph": "the board as a graph, made once",
    "data/board.py:region_graph": "the regions as a graph, made once",
    "data/board.py:_grid_neighbours": "the grid, once per load",
    "data/board.py:_region_order": "the regions, once per load",
    "data/board.py:_select": "the spaces of a selector, once per selector (cached)",
    "engine/research/sampling.py:build": "a seat's hidden places, once per seat and player count",
    "engine/research/sampling.py:layout": "a seat's hidden places, once per seat and player count",
    "engine/research/sampling.py:visible_parts": "what a seat sees, once per position it samples",
    "engine/research/sampling.py:_seen": "what a seat sees, once per position it samples",
    "engine/research/sampling.py:_held": "the paused code's hidden items, once per position sampled",
    "engine/research/sampling.py:_holders": "the paused code's hidden items, once per position sampled",
    "engine/research/sampling.py:_told": "a seat's knowledge, once per event of the real game",
    "engine/research/sampling.py:_unpin": "a seat's knowledge, once per event of the real game",
}


def generators(source: str, name: str) -> set[str]:
    """``name:function`` of each function of ``source`` (not ``__init__``) holding a
    generator expression."""
    return {
        f"{name}:{node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
        and node.name != "__init__"
        and any(isinstance(inner, ast.GeneratorExp) for inner in ast.walk(node))
    }


def found() -> set[str]:
    """``path:function`` of every function of the compiled modules holding a generator expression."""
    package = ROOT / "venedig_rules"
    sources = [path for path in compiled_sources() if path.suffix == ".py"]  # a .pyx is Cython's own
    assert len(sources) > 15
    return {
        f
        for path in sources
        for f in generators(path.read_text(encoding="utf-8"), path.relative_to(package).as_posix())
    }


def test_compiled_modules_build_lists_not_generators():
    hot = sorted(f for f in found() if f not in COLD and f.split(":")[0] + ":*" not in COLD)
    assert hot == [], f"a generator expression in a compiled module (make it a list comprehension): {hot}"


def test_every_cold_function_still_holds_a_generator_expression():
    stale = sorted(name for name in COLD if not name.endswith(":*") and name not in found())
    assert stale == [], f"no generator expression there any more, or gone: remove from COLD: {stale}"


def test_the_check_finds_a_generator_expression_outside_init():
    source = "def hot(xs):\n    return tuple(x for x in xs)\n\n\ndef __init__(xs):\n    return any(x for x in xs)\n"
    assert generators(source, "probe.py") == {"probe.py:hot"}
    assert generators("def hot(xs):\n    return tuple([x for x in xs])\n", "probe.py") == set()


def test_a_cython_source_has_a_pure_twin_that_names_its_functions():
    """A module compiled from a ``.pyx`` of its own (its ``.py`` twin is what the pure package
    imports) offers the same public names in both: the twin sets each to None, which the
    engine reads as "not in this build", or defines it in Python (``ordered.py``)."""
    twins = [path for path in compiled_sources() if path.suffix == ".pyx"]
    assert {p.name for p in twins} >= {
        "untracked.pyx",
        "ordered.pyx",
        "_saeulen_walks.pyx",
        "rngloops.pyx",
        "slotted.pyx",
        "_venedig_walks.pyx",
    }
    for pyx in twins:
        compiled = set(re.findall(r"^def ([a-z]\w*)\(", pyx.read_text(encoding="utf-8"), re.MULTILINE))
        body = ast.parse(pyx.with_suffix(".py").read_text(encoding="utf-8")).body
        pure = {
            node.target.id: node.value
            for node in body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id[0].islower()
        }
        defined = {node.name for node in body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}
        assert compiled and set(pure) | defined == compiled, f"{pyx.name}: {sorted(compiled)}; its twin: {sorted(pure)}"
        assert all(isinstance(v, ast.Constant) and v.value is None for v in pure.values()), pyx.name
