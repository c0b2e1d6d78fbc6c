"""Generated modules compiled ahead of time (venedig_rules/effects/aot.py): the name that
ties a compiled module to its source and namespace, and the fallback to ``exec``."""

from __future__ import annotations

import venedig_rules as vr
from venedig_rules.effects import aot


def _given(name: str) -> tuple[str, dict]:
    code = vr.load(name).generated
    return code.source, aot.given_namespace(code)


def test_a_compiled_module_is_named_by_its_text_and_every_value_of_its_namespace():
    text, given = _given("rialto")
    name = aot.module_name(text, given)
    assert name == aot.module_name(text, dict(given)) and name.startswith("g_")
    assert aot.module_name(text + "\n", given) != name
    constant = next(k for k in given if k.startswith("k"))
    assert aot.module_name(text, {**given, constant: ("another",)}) != name  # a variant's value
    primitive = next(k for k in given if k.startswith("p_"))
    assert aot.module_name(text, {**given, primitive: len}) != name


def test_the_source_to_compile_keeps_the_texts_lines_and_declares_every_global():
    text, given = _given("saeulen")
    source = aot.module_source(text, given)
    assert source.startswith(text)
    assert all(f"\n{name} = None\n" in source for name in given)
    compile(source, "<check>", "exec")


def test_without_compiled_modules_the_text_is_run_as_python():
    # the pure-Python install (this checkout) has no venedig_rules/_aot
    text, given = _given("venedig")
    assert not aot.FOLDER.exists() and aot.load(text, given) is None
    assert type(next(iter(vr.load("venedig").generated.resume.values()))).__name__ == "function"


def test_the_compiled_builds_declarations_type_every_generated_functions_machine():
    for name in ("venedig", "saeulen", "rialto"):
        text, _ = _given(name)
        declared = aot.module_pxd(text).splitlines()
        functions = [line for line in text.splitlines() if line.startswith("def ")]
        assert declared[:2] == ["cimport cython", "from venedig_rules.engine.run.machine cimport Frame, Machine"]
        assert len(declared) == 2 * len(functions) + 2
        assert set(declared[2::2]) == {"@cython.locals(L=dict, V=dict)"}
        for line, function in zip(declared[3::2], functions):
            assert line.startswith(f"cpdef {function[4:].split('(')[0]}(Machine C"), (line, function)
            assert ("Frame F" in line) == ("(C, F)" in function), (line, function)
