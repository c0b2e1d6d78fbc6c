"""Generated modules made ahead of time: the wheel's copy of the bundled rulesets'
generated code, as Python modules and, in the compiled build, as Cython extension modules
(``hatch_build.py`` makes them).

A ruleset's generated module is Python source that :func:`~.compile.generate` runs with
``exec``, after compiling it to bytecode at the ruleset's first game (a tenth of a second
for Venedig). The wheel also holds, for each bundled ruleset, that very source as a module
in ``venedig_rules/_aot/`` (the compiled build holds it compiled to an extension module
too), named by a digest of the source and of what its namespace holds
(:func:`module_name`). ``generate`` imports such a module only when the name matches
exactly, that is, when the source it would ``exec`` is the one shipped and its namespace
holds the same primitives and constants; the import system caches its bytecode as any
module's. Anything else (a variant, your own ruleset, a bundled one you edited, a checkout
or an editable install) is ``exec``-ed as before.

The module's globals are filled with the namespace ``generate`` made, as ``exec`` would
have them, and its functions keep the generated text's line numbers (the names Cython must
know as globals are declared *after* the text), so the line table still locates every error
in the rule files.

The compiled build also gives Cython each generated module's declarations
(:func:`module_pxd`): every function ``cpdef``, its machine ``C`` (and a resumable
program's frame ``F``) typed as the engine's extension types, so that the generated code
reads and writes their fields directly, and calls its own functions and the machine's
(those ``engine/run/machine.pxd`` declares ``cpdef``) without Python's attribute look-up and
call protocol; the source stays the same text.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, Protocol

#: The package of the modules made ahead of time (a folder of the installed package; no __init__).
PACKAGE = "venedig_rules._aot"
FOLDER = Path(__file__).resolve().parent.parent / "_aot"
#: A module's file names, in the order tried: compiled, then source.
SUFFIXES = (importlib.machinery.EXTENSION_SUFFIXES[0], ".py")


def module_name(text: str, namespace: Mapping[str, Any]) -> str:
    """The name of the compiled module of ``text`` run in ``namespace``: a digest of the
    text and of what each global is (a function or class by its qualified name, any other
    value by its ``repr``)."""
    digest = hashlib.sha256(text.encode())
    for name in sorted(namespace):
        if name.startswith("__"):
            continue
        value = namespace[name]
        if callable(value):
            what = f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', '?')}"
        else:
            what = repr(value)
        digest.update(f"\0{name}\0{what}".encode())
    return "g_" + digest.hexdigest()[:24]


def module_source(text: str, namespace: Mapping[str, Any]) -> str:
    """The source to compile: the generated text as it is, then each global the text reads
    from its namespace declared (Cython must know every global; set once the module is
    loaded). Declared after the text, so its line numbers stay those of the line table."""
    declared = "".join(f"{name} = None\n" for name in sorted(namespace) if not name.startswith("__"))
    return f"{text}\n\n# globals the generator puts in the namespace, filled in when loaded\n{declared}"


#: A generated function's first line: its name, then its parameters (the machine ``C`` first).
_DEF = re.compile(r"^def (\w+)\(C((?:, \w+)*)\):$", re.MULTILINE)
#: The engine's extension types the declarations name (engine/run/machine.pxd).
_TYPES = "cimport cython\nfrom venedig_rules.engine.run.machine cimport Frame, Machine\n"
#: The locals every generated function may have, typed (a function without one declares it unused).
_LOCALS = "@cython.locals(L=dict, V=dict)\n"


def module_pxd(text: str) -> str:
    """Cython's declarations for the generated module of ``text`` (a ``.pxd`` beside it in
    the compiled build; Python never reads it): each function ``cpdef``, its machine ``C``
    a ``Machine`` and a resumable program's frame ``F`` a ``Frame``, every other parameter
    any object. The machine always runs generated code on itself (a subclass passes too).
    A function's frame locals ``L`` and the state's variables ``V`` are dictionaries (see
    compile.py): typed, a read or a write of one is the dictionary's own C call, and
    ``L.get`` no method look-up.

    >>> print(module_pxd("def r0(C, F):\\n    return d1(C, None)\\ndef d1(C, v_self):\\n    return 1\\n"), end="")
    cimport cython
    from venedig_rules.engine.run.machine cimport Frame, Machine
    @cython.locals(L=dict, V=dict)
    cpdef r0(Machine C, Frame F)
    @cython.locals(L=dict, V=dict)
    cpdef d1(Machine C, v_self)
    """
    lines = [_TYPES]
    for name, rest in _DEF.findall(text):
        params = [p.strip() for p in rest.split(",") if p.strip()]
        typed = ["Frame F" if p == "F" else p for p in params]
        lines.append(f"{_LOCALS}cpdef {name}({', '.join(['Machine C', *typed])})\n")
    return "".join(lines)


class Compiled(NamedTuple):
    """A compiled generated module: its globals (the namespace filled in) and the file
    name its functions' tracebacks give (what the line table is looked up by)."""

    namespace: dict[str, Any]
    filename: str


def load(text: str, namespace: dict[str, Any]) -> Compiled | None:
    """The module made ahead of time of ``text`` (the compiled one where there is one),
    its globals filled from ``namespace``, or None when this install has none (then
    ``exec`` the text)."""
    if not FOLDER.is_dir():
        return None
    name = module_name(text, namespace)
    full = f"{PACKAGE}.{name}"
    module = sys.modules.get(full)
    if module is None:
        path = next((p for p in (FOLDER / (name + s) for s in SUFFIXES) if p.is_file()), None)
        if path is None:
            return None
        spec = importlib.util.spec_from_file_location(full, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[full] = module
    found = vars(module)
    found.update(namespace)
    code = next(v.__code__ for v in found.values() if getattr(v, "__module__", None) == full)
    return Compiled(found, code.co_filename)


class GeneratedFunctions(Protocol):
    """What :func:`given_namespace` reads of a :class:`~.compile.Generated`."""

    resume: Mapping[str, Any]
    direct: Mapping[str, Any]
    invariants: Mapping[str, Any]


def given_namespace(generated: GeneratedFunctions) -> dict[str, Any]:
    """What :func:`~.compile.generate` gave a generated module to run in: its functions'
    globals but the functions themselves and ``__builtins__`` (what the build compiles)."""
    tables = (generated.resume, generated.direct, generated.invariants)
    functions = {fn.__name__: fn for table in tables for fn in table.values() if fn is not None}
    first = next(iter(functions.values()))
    return {k: v for k, v in first.__globals__.items() if k not in functions and not k.startswith("__")}
