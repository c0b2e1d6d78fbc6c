"""The compiled build's declarations (``*.pxd`` beside a module, hatch_build.py): each class
a ``.pxd`` declares is a class of its ``.py`` file, and every attribute the class's methods
set is declared. In the compiled build such a class is an extension type with no attributes
but the declared ones: one set but not declared fails only there, at run time.

Nothing a ``.pxd`` declares is decorated in its ``.py`` file either: Cython compiles a
decorated function that a ``.pxd`` makes ``cpdef`` without calling its decorator, and says
nothing. A primitive's ``@P(...)`` would not run, and the ruleset would lack the primitive
only in the compiled build."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "venedig_rules"
PXDS = sorted(PACKAGE.rglob("*.pxd"))
#: The type words of a typed module-level variable in a .pxd (``cdef dict _cache``).
C_TYPES = "unsigned|long|int|double|object|bint|dict|list|tuple"


def declared(pxd: Path) -> dict[str, set[str]]:
    """{class: its declared attribute names} of a .pxd file."""
    classes: dict[str, set[str]] = {}
    current = None
    for line in pxd.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"cdef class (\w+)", line):
            current = classes.setdefault(match[1], set())
        elif current is not None and (match := re.match(r"\s+cdef (?:public |readonly )?(\w+) (.+)", line)):
            current.update(name.strip() for name in match[2].split(","))
    return classes


def bases(pxd: Path) -> dict[str, str]:
    """{class: the extension type it derives from} of a .pxd file (``cdef class A(B):``)."""
    return dict(re.findall(r"^cdef class (\w+)\((\w+)\)", pxd.read_text(encoding="utf-8"), flags=re.M))


def declared_with_bases(pxd: Path) -> dict[str, set[str]]:
    """:func:`declared`, each class's attributes with those its bases declare (in any .pxd
    of the package: a base may be cimported, as the machine's ``StateAccess``)."""
    everywhere: dict[str, set[str]] = {}
    parents: dict[str, str] = {}
    for other in PXDS:
        everywhere.update(declared(other))
        parents.update(bases(other))
    classes = declared(pxd)
    for name, attributes in classes.items():
        base = parents.get(name)
        while base is not None:
            attributes |= everywhere.get(base, set())
            base = parents.get(base)
    return classes


def declared_at_module_level(pxd: Path) -> set[str]:
    """The functions and variables a .pxd file declares outside its classes."""
    names: set[str] = set()
    for line in pxd.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"cp?def (?!class )(?:[\w ]+? )?(\w+)\(", line):
            names.add(match[1])
        elif match := re.match(rf"cdef (?!class )(?:(?:{C_TYPES}) )+(\w+(?:, \w+)*)$", line):
            names.update(name.strip() for name in match[1].split(","))
    return names


def defined_at_module_level(source: Path) -> set[str]:
    """The functions and variables a .py file defines at its top level."""
    names: set[str] = set()
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def declared_methods(pxd: Path) -> set[str]:
    """The methods a .pxd file declares, as ``Class.method``."""
    names: set[str] = set()
    current = None
    for line in pxd.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"cdef class (\w+)", line):
            current = match[1]
        elif current is not None and (match := re.match(r"\s+cp?def (?:[\w ]+? )?(\w+)\(", line)):
            names.add(f"{current}.{match[1]}")
        elif line and not line[0].isspace() and not line.startswith("#"):
            current = None
    return names


def decorated(source: Path) -> set[str]:
    """The top-level functions and classes, and the classes' methods (``Class.method``), of a
    .py file that carry a decorator."""
    names: set[str] = set()
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.decorator_list:
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef) and sub.decorator_list:
                    names.add(f"{node.name}.{sub.name}")
    return names


def assigned(source: Path) -> dict[str, set[str]]:
    """{class: the attributes its methods set on ``self`` (and on another instance it makes
    with ``cls.__new__``)} of a .py file."""
    found: dict[str, set[str]] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            names = found.setdefault(node.name, set())
            for sub in ast.walk(node):
                targets = sub.targets if isinstance(sub, ast.Assign) else [getattr(sub, "target", None)]
                for target in targets:
                    for leaf in ast.walk(target) if target is not None else ():
                        instance = isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name)
                        if instance and leaf.value.id in ("self", "other", "made"):
                            names.add(leaf.attr)
    return found


def cpdef_registrations(source: Path) -> dict[str, tuple[str, str | None]]:
    """{function: (the return annotation an ``add_cpdef`` call gives it, the one its def
    carries)} of a .py file: Cython drops a cpdef function's return annotation, and the
    call gives it again (``Registry.add_cpdef``)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    returns = {
        n.name: ast.unparse(n.returns) if n.returns else None for n in tree.body if isinstance(n, ast.FunctionDef)
    }
    found: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_cpdef":
            fn, given = node.args[0], node.args[1]
            assert isinstance(fn, ast.Name) and isinstance(given, ast.Constant), ast.unparse(node)
            found[fn.id] = (given.value, returns.get(fn.id))
    return found


def test_there_are_declarations_to_check():
    assert {p.name for p in PXDS} >= {"machine.pxd", "undohistory.pxd", "context.pxd", "rng.pxd"}


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_declaration_names_what_its_module_defines(pxd: Path):
    names = declared_at_module_level(pxd) | set(declared(pxd))
    assert names, f"{pxd.name} declares nothing"
    missing = names - defined_at_module_level(pxd.with_suffix(".py"))
    assert not missing, f"{pxd.name} declares {sorted(missing)}, which {pxd.with_suffix('.py').name} does not define"


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_declared_class_declares_every_attribute_it_sets(pxd: Path):
    classes = declared_with_bases(pxd)
    sets = assigned(pxd.with_suffix(".py"))
    for name, attributes in classes.items():
        assert name in sets, f"{pxd.name} declares {name}, which {pxd.with_suffix('.py').name} does not define"
        missing = sets[name] - attributes - {"__dict__"}
        assert not missing, f"{name} sets {sorted(missing)}, which {pxd.name} does not declare"


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_declared_is_decorated(pxd: Path):
    names = declared_at_module_level(pxd) | set(declared(pxd)) | declared_methods(pxd)
    both = names & decorated(pxd.with_suffix(".py"))
    source = pxd.with_suffix(".py").name
    assert not both, f"{pxd.name} declares {sorted(both)}, decorated in {source}: Cython drops the decorator"


def test_the_check_sees_a_declared_function_method_or_class_that_is_decorated(tmp_path: Path):
    (tmp_path / "m.py").write_text(
        "@reg\ndef f(ctx):\n    return 1\n\ndef g():\n    return 2\n\n"
        "@final\nclass A:\n    @property\n    def p(self):\n        return 3\n\n    def q(self):\n        return 4\n"
    )
    (tmp_path / "m.pxd").write_text(
        "cdef class A:\n    cdef public object x\n    cpdef p(self)\n    cpdef list q(self)\n\n"
        "cpdef f(ctx)\ncpdef g()\n"
    )
    names = declared_at_module_level(tmp_path / "m.pxd") | set(declared(tmp_path / "m.pxd"))
    names |= declared_methods(tmp_path / "m.pxd")
    assert names == {"A", "A.p", "A.q", "f", "g"}
    assert names & decorated(tmp_path / "m.py") == {"A", "A.p", "f"}


def test_the_check_sees_an_undeclared_attribute_and_a_declared_name_the_module_lacks(tmp_path: Path):
    (tmp_path / "m.py").write_text("class A:\n    def __init__(self):\n        self.x = 1\n        self.y = 2\nK = 1\n")
    (tmp_path / "m.pxd").write_text(
        "cdef class A:\n    cdef public object x\n\ncdef unsigned long long K, L\ncdef int f(int a)\n"
        "cpdef list g(a, Py_ssize_t b)\n"
    )
    assert assigned(tmp_path / "m.py")["A"] - declared(tmp_path / "m.pxd")["A"] == {"y"}
    assert declared_at_module_level(tmp_path / "m.pxd") == {"K", "L", "f", "g"}
    assert declared_at_module_level(tmp_path / "m.pxd") - defined_at_module_level(tmp_path / "m.py") == {"L", "f", "g"}


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_primitive_registered_after_its_def_is_declared_cpdef_with_its_own_return_annotation(pxd: Path):
    for name, (given, written) in cpdef_registrations(pxd.with_suffix(".py")).items():
        assert name in declared_at_module_level(pxd), f"{name} is registered by add_cpdef but not cpdef in {pxd.name}"
        assert given == written, f"add_cpdef gives {name} the return annotation {given!r}; its def has {written!r}"


def test_the_check_sees_a_return_annotation_given_again_that_is_not_the_defs(tmp_path: Path):
    (tmp_path / "m.py").write_text(
        "def f(ctx) -> tuple[int, ...]:\n    return ()\n\n\ndef g(ctx) -> int:\n    return 1\n\n\n"
        'R.add_cpdef(f, "tuple[int, ...]", example="f()")\nR.add_cpdef(g, "str")\n'
    )
    assert cpdef_registrations(tmp_path / "m.py") == {"f": ("tuple[int, ...]", "tuple[int, ...]"), "g": ("str", "int")}


def test_a_class_has_the_attributes_its_base_declares_in_another_pxd():
    machine = PACKAGE / "engine" / "run" / "machine.pxd"
    assert bases(machine) == {"Machine": "StateAccess"}
    assert "vars" not in declared(machine)["Machine"]
    assert {"vars", "frames"} <= declared_with_bases(machine)["Machine"]
