"""docs/dsl-reference.md is what docs/dsl_reference.py writes from the registry: every core and
game function, with its arity, types and example, and every bundled game's flow procedures."""

from __future__ import annotations

import importlib
import runpy
from pathlib import Path

import pytest

from venedig_rules.effects.registry import CORE, Param, Primitive

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = runpy.run_path(str(ROOT / "docs" / "dsl_reference.py"))


def test_the_reference_is_what_its_script_writes():
    written = (ROOT / "docs" / "dsl-reference.md").read_text(encoding="utf-8")
    assert written == SCRIPT["render"](), "run: python docs/dsl_reference.py"


@pytest.mark.parametrize("module", ["core", *SCRIPT["GAMES"]])
def test_every_function_is_listed_with_its_example(module: str):
    registry = CORE if module == "core" else importlib.import_module(f"venedig_rules.games.{module}").PRIMITIVES
    page = SCRIPT["render"]()
    for name, prim in registry.primitives.items():
        assert prim.example, f"{name} has no example"
        assert f"| `{name}` | {SCRIPT['arity'](prim)} | `({prim.signature().split('(', 1)[1]}` |" in page.replace(
            "\\|", "|"
        )


def test_arity_counts_required_optional_and_variadic_arguments():
    def prim(*params: Param, keywords: bool = False) -> Primitive:
        return Primitive("f", params, "none", lambda ctx: None, keywords=keywords)

    arity = SCRIPT["arity"]
    assert arity(prim(Param("a"), Param("b"))) == "2"
    assert arity(prim(Param("a"), Param("b", default=None))) == "1-2"
    assert arity(prim(Param("a"), Param("rest", variadic=True))) == "1+"
    assert arity(prim(Param("kind"), keywords=True)) == "1 + names"
