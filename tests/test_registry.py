"""A primitive's DSL types come from its Python annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import pytest

from venedig_rules.effects.context import CallRequestLike, Context
from venedig_rules.effects.registry import CORE, OMITTED, REQUIRED, ListRef, Param, Player, Registry
from venedig_rules.games import rialto, saeulen, venedig


def test_each_annotation_gives_its_dsl_type():
    reg = Registry()

    @reg.primitive(changes=True, example="demo(...)")
    def demo_(
        ctx: Context,
        n: int,
        flag: bool,
        word: str,
        seat: Player,
        items: tuple[str, ...],
        seq: Sequence[int] | None,
        either: int | str,
        value: Any,
        target: ListRef,
        stated: Annotated[int | tuple[int, ...], "player"],
        *rest: int,
        **names: Any,
    ) -> tuple[int, ...] | None:
        return None

    prim = reg.get("demo")
    assert prim is not None and prim.fn is demo_
    assert [(p.name, p.type, p.ref, p.variadic) for p in prim.params] == [
        ("n", "int", False, False),
        ("flag", "bool", False, False),
        ("word", "str", False, False),
        ("seat", "player", False, False),
        ("items", "list", False, False),
        ("seq", "list", False, False),
        ("either", "any", False, False),
        ("value", "any", False, False),
        ("target", "list", True, False),
        ("stated", "player", False, False),
        ("rest", "int", False, True),
    ]
    assert all(p.default is REQUIRED for p in prim.params)
    assert (prim.result, prim.keywords, prim.changes, prim.calls) == ("list", True, True, False)
    assert prim.signature() == (
        "demo(n: int, flag: bool, word: str, seat: player, items: list, seq: list, either: any, value: any, "
        "target: ref list, stated: player, *rest: int, name: value ...) -> list"
    )


def test_defaults_make_an_argument_optional_and_omitted_shows_as_none():
    reg = Registry()

    @reg.primitive()
    def pick(ctx: Context, a: int = 3, b: Any = OMITTED) -> None:
        """Pick."""

    prim = reg.get("pick")
    assert prim is not None
    assert prim.params == (Param("a", "int", 3), Param("b", "any", None))
    assert prim.signature() == "pick(a: int = 3, b: any = none) -> none"
    assert prim.doc == "Pick."


def test_a_primitive_that_runs_effects_states_its_result():
    reg = Registry()

    @reg.primitive(result="int", calls=True)
    def run(ctx: Context, item: str) -> tuple[CallRequestLike, ...]:
        return ()

    prim = reg.get("run")
    assert prim is not None and (prim.result, prim.calls, prim.changes) == ("int", True, True)
    with pytest.raises(TypeError, match="result="):
        reg.primitive(calls=True)(run)
    with pytest.raises(TypeError, match="result="):
        reg.primitive(result="int")(run)


@pytest.mark.parametrize("annotation", ["list[int]", "dict[str, int]", "float", "ListRef | None"])
def test_an_annotation_with_no_dsl_type_fails_at_registration(annotation):
    namespace: dict[str, Any] = {"Context": Context, "ListRef": ListRef}
    exec(f"def odd(ctx: Context, x: {annotation}) -> None: ...", namespace)
    with pytest.raises(TypeError, match="odd: x is annotated"):
        Registry().primitive()(namespace["odd"])


def test_a_missing_return_annotation_fails_at_registration():
    def odd(ctx: Context, x: int):  # type: ignore[no-untyped-def]  # the mistake under test
        return x

    with pytest.raises(TypeError, match="odd: return has no annotation"):
        Registry().primitive()(odd)


def test_a_function_registered_after_its_def_gets_the_return_annotation_cython_drops():
    """``add_cpdef`` registers as the decorator does; the return annotation it gives stands in
    for the def's only where the function lacks one (a cpdef function, compiled)."""
    reg = Registry()

    def counts(ctx: Context, n: int) -> tuple[int, ...]:
        return (n,)

    assert reg.add_cpdef(counts, "tuple[int, ...]", example="counts(2)") is counts
    prim = reg.primitives["counts"]
    assert (prim.result, [p.name for p in prim.params], prim.example) == ("list", ["n"], "counts(2)")
    del counts.__annotations__["return"]  # what Cython leaves of a cpdef function
    reg.add_cpdef(counts, "int", changes=True)
    assert (reg.primitives["counts"].result, reg.primitives["counts"].changes) == ("int", True)


@pytest.mark.parametrize("registry", [CORE, venedig.PRIMITIVES, saeulen.PRIMITIVES, rialto.PRIMITIVES])
def test_every_primitive_is_registered_from_a_fully_annotated_function(registry):
    for prim in registry.primitives.values():
        annotations = prim.fn.__annotations__
        assert "return" in annotations and annotations.get("ctx") == "Context", prim.name
