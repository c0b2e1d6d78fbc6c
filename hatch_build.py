"""The wheel's build hook: the engine's hot modules compiled with Cython (pure-Python mode:
the ``.py`` files as they are, and a few ``.pyx`` sources) into a platform wheel, and in every
wheel the bundled rulesets' generated modules.

Which modules: ``compiled-modules`` in ``pyproject.toml``
(``[tool.hatch.build.targets.wheel.hooks.custom]``), one path or glob a line, ``__init__.py``
left out. The wheel keeps every ``.py`` file beside its compiled module (Python imports the
compiled one first), so tracebacks, ``inspect`` and the doctests still find the source. A
``.pxd`` file beside a module (``engine/run/machine.pxd``) makes the classes it names extension
types with their attributes declared: Cython reads it, Python never does. A ``.pyx`` in the
list is a module of Cython's own for what Python code cannot do (``engine/run/untracked.pyx``)
or what would cost the pure package more than it saves (``engine/run/ordered.pyx``, the C
walks of ``games/_saeulen_walks.pyx``: pyproject.toml says what each is for); its
``.py`` twin, which the pure package imports, sets each of its functions to None, and the
engine skips the step then (tests/test_compiled_style.py checks the two name the same).

The generated modules: each bundled ruleset's DSL compiled to Python source (which the
engine otherwise generates and runs with ``exec`` at a ruleset's first game) is written into
``venedig_rules/_aot/``, and compiled there ahead of time with the rest;
``venedig_rules/effects/aot.py`` says when the engine uses them.

When: by default, every wheel build asks for Cython and setuptools in its build environment
(``dependencies``: an isolated ``pip install`` downloads them) and compiles where a C compiler
and the Python headers work; where they do not, or where compiling fails, it says so and
builds the pure-Python wheel, which behaves the same, only slower. ``VENEDIG_RULES_COMPILE=1``
makes compiling required (a missing compiler or a failure is an error);
``VENEDIG_RULES_COMPILE=0`` never compiles and asks for no Cython. An editable install gets
neither compiled modules nor generated ones.

    VENEDIG_RULES_COMPILE=1 pip wheel --no-deps -w dist .
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The environment variable that turns compiling on (1) or off (0).
SWITCH = "VENEDIG_RULES_COMPILE"
#: What compiling needs in the build environment.
REQUIRES = ["cython>=3.0", "setuptools>=61"]
#: Cython's directives: Python semantics wherever Cython would otherwise differ.
DIRECTIVES = {
    "language_level": 3,
    "binding": True,  # functions stay introspectable (signatures, docstrings), as the registry reads them
    "always_allow_keywords": True,  # any argument may be passed by keyword, as in Python
    # annotations are not types to Cython: it would refuse a wrong argument with its own
    # TypeError before the function's own check gives the typed error the API promises
    # (a seat of True, a seed of 1.0); the .pxd files declare what is typed (under 1% slower)
    "annotation_typing": False,
}


class CompiledBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # the package's own dependencies: the hook loads the bundled rulesets to write their
        # generated modules; Cython and setuptools unless compiling is switched off
        wanted = [] if os.environ.get(SWITCH) == "0" else REQUIRES
        return [*wanted, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._work: Path | None = Path(tempfile.mkdtemp(prefix="venedig-rules-compiled-"))
        try:
            self._build(build_data, self._work)
        except BaseException:
            self._clean()  # hatchling calls finalize only after a build that went through
            raise

    def _build(self, build_data: dict[str, Any], work: Path) -> None:
        generated = self._generated(work)
        if self._wanted():
            sources = modules(Path(self.root), self.config.get("compiled-modules", []))
            try:
                built = compile_modules(Path(self.root), sources, work, generated)
            except Exception as exc:
                self._go_on_without("compiling", "the pure-Python wheel instead", exc)
            else:
                for relative, binary in built.items():
                    build_data["force_include"][str(binary)] = relative
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                self.app.display_info(f"compiled {len(built)} modules with Cython")
        # the generated modules' source in either build: the pure one imports it (its
        # bytecode cached as any module's) instead of compiling the text at the first game
        for name, path in generated.items():
            build_data["force_include"][str(path)] = name.replace(".", "/") + ".py"

    def _generated(self, work: Path) -> dict[str, Path]:
        try:
            return generated_modules(Path(self.root), work / "generated")
        except Exception as exc:
            self._go_on_without("writing the bundled rulesets' generated modules", "each compiles at first use", exc)
            return {}

    def _go_on_without(self, what: str, instead: str, exc: Exception) -> None:
        """A speed-up failed: an error when compiling is required, else a warning (a
        machine where it fails still gets the package, only slower)."""
        if os.environ.get(SWITCH) == "1":
            raise exc
        self.app.display_warning(f"{what} failed ({instead}): {exc}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        self._clean()  # the wheel holds the built modules now

    def _clean(self) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
            self._work = None

    def _wanted(self) -> bool:
        switch = os.environ.get(SWITCH, "")
        if switch == "0":
            return False
        missing = _missing()
        if switch == "1":
            if missing:
                raise RuntimeError(f"{SWITCH}=1 but {missing}")
            return True
        if missing:
            self.app.display_info(f"building the pure-Python wheel: {missing} (set {SWITCH}=1 to require compiling)")
        return not missing


def modules(root: Path, patterns: list[str]) -> list[Path]:
    """The source files the patterns name (paths or globs, relative to ``root``), in order."""
    found: list[Path] = []
    for pattern in patterns:
        matches = sorted(root.glob(pattern))
        if not matches:
            raise FileNotFoundError(f"compiled-modules: {pattern!r} names no file")
        found += [path for path in matches if path.name != "__init__.py" and path not in found]
    # a glob of .py files takes in the pure twin of a listed .pyx too: the .pyx is compiled
    return [path for path in found if not (path.suffix == ".py" and path.with_suffix(".pyx") in found)]


def generated_modules(root: Path, into: Path) -> dict[str, Path]:
    """The bundled rulesets' generated modules (``venedig_rules/effects/aot.py``), written
    into ``into`` as the sources to compile: {module name: source file}. Loads the package
    from ``root`` itself, so that the text is the one this very source generates."""
    import importlib

    if "venedig_rules" in sys.modules:
        raise RuntimeError("venedig_rules is imported already: the hook must load the one it builds")
    sys.path.insert(0, str(root))
    try:
        vr = importlib.import_module("venedig_rules")
        aot = importlib.import_module("venedig_rules.effects.aot")
        if Path(vr.__file__).resolve().parent != (root / "venedig_rules").resolve():
            raise RuntimeError(f"the hook loaded venedig_rules from {vr.__file__}, not from {root}")
        into.mkdir(parents=True, exist_ok=True)
        found: dict[str, Path] = {}
        for name in vr.bundled():
            rules = vr.load(name)
            if not rules.playable:
                continue
            code = rules.generated
            given = aot.given_namespace(code)
            module = aot.module_name(code.source, given)
            # in the package's layout, where Cython finds the declarations beside the source
            folder = into.joinpath(*aot.PACKAGE.split("."))
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{module}.py"
            path.write_text(aot.module_source(code.source, given), encoding="utf-8")
            (folder / f"{module}.pxd").write_text(aot.module_pxd(code.source), encoding="utf-8")
            found[f"{aot.PACKAGE}.{module}"] = path
        return found
    finally:
        sys.path.remove(str(root))
        for module_name in [m for m in sys.modules if m == "venedig_rules" or m.startswith("venedig_rules.")]:
            del sys.modules[module_name]


def compile_modules(
    root: Path, sources: list[Path], work: Path, generated: dict[str, Path] | None = None
) -> dict[str, Path]:
    """Each source (and each ``generated`` module: {module name: source file}) compiled to
    an extension module; returns {path in the wheel: built file}."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    # no debug information: a quarter of the wheel's size and of the compiler's time
    flags = [] if sysconfig.get_platform().startswith("win") else ["-g0"]
    extensions = []
    for path in sources:
        relative = path.relative_to(root)
        name = ".".join(relative.with_suffix("").parts)
        extensions.append(Extension(name, [str(relative)], extra_compile_args=flags))
    for name, path in (generated or {}).items():
        extensions.append(Extension(name, [str(path)], extra_compile_args=flags))
    here = Path.cwd()
    os.chdir(root)  # Cython and setuptools take the sources relative to the project
    try:
        jobs = os.cpu_count() or 1
        c_dir = str(work / "c")
        # the generated modules' declarations (.pxd beside each source, in the package's
        # layout) are found through the include path; the engine's own in the project
        folders = sorted({str(_package_root(name, path)) for name, path in (generated or {}).items()})
        compiled = cythonize(
            extensions,
            build_dir=c_dir,
            compiler_directives=DIRECTIVES,
            quiet=True,
            nthreads=jobs,
            include_path=[*folders, str(root)],
        )
        dist = Distribution({"name": "venedig-rules", "ext_modules": compiled})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "tmp")
        command.parallel = jobs
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = {}
    for extension in extensions:
        relative = extension.name.replace(".", "/") + suffix
        built[relative] = work / "lib" / relative
    return built


def _package_root(name: str, path: Path) -> Path:
    """The folder that holds module ``name``'s top package, for a source at ``path`` laid
    out as its package (``venedig_rules/_aot/g_x.py`` for ``venedig_rules._aot.g_x``)."""
    return path.parents[name.count(".")]


def _missing() -> str:
    """What compiling lacks here ("" when nothing): Cython, setuptools or a C compiler."""
    try:
        import Cython  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed in the build environment"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} not found)"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python headers (Python.h)"
    return ""
