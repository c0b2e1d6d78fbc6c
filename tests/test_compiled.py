"""The compiled build (hatch_build.py): the wheel built with ``VENEDIG_RULES_COMPILE=1`` holds
the hot modules as Cython extension modules, and, installed in a new environment, plays the
golden playthroughs and passes the games', the engine's and the reliability tests with them
(bad input gets the very errors of the pure package).

Runs where Cython, setuptools, hatchling and a C compiler are present (``pip install -e
".[compile]"``; CI installs that extra); skipped elsewhere. Compiling takes minutes (a quarter
of an hour on a busy 2-core machine): ``VENEDIG_RULES_COMPILED_WHEEL=PATH`` tests a compiled
wheel built already from this checkout instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from test_packaging import install_wheel, run_installed

from conftest import compiled_sources

ROOT = Path(__file__).resolve().parent.parent
_MISSING = [name for name in ("Cython", "setuptools", "hatchling") if importlib.util.find_spec(name) is None]
_COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])

pytestmark = [
    pytest.mark.compiled,
    pytest.mark.skipif(bool(_MISSING), reason=f"the compiled build needs {', '.join(_MISSING)} (the [compile] extra)"),
    pytest.mark.skipif(_COMPILER is None, reason="the compiled build needs a C compiler"),
]


def compiled_modules() -> list[str]:
    """The dotted names of the modules pyproject.toml lists for compiling."""
    return [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in compiled_sources()]


def build_compiled_wheel(into: Path) -> Path:
    """The compiled wheel of this checkout, built into ``into`` with this environment's
    Cython, setuptools and hatchling (no download)."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(into)]
    command.append(str(ROOT))
    proc = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "VENEDIG_RULES_COMPILE": "1"})
    if proc.returncode != 0:
        raise RuntimeError(f"building the compiled wheel failed:\n{proc.stdout}\n{proc.stderr}")
    return next(into.glob("venedig_rules-*.whl"))


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory) -> Path:
    given = os.environ.get("VENEDIG_RULES_COMPILED_WHEEL")
    return Path(given) if given else build_compiled_wheel(tmp_path_factory.mktemp("compiled"))


@pytest.fixture(scope="module")
def compiled_python(compiled_wheel: Path, tmp_path_factory) -> Path:
    """The python of a new environment with the compiled wheel installed (and this
    environment's dependencies and test tools visible to it)."""
    return install_wheel(compiled_wheel, tmp_path_factory.mktemp("venv"))


def test_the_compiled_wheel_is_a_platform_wheel_with_every_listed_module_compiled(compiled_wheel: Path):
    assert not compiled_wheel.name.endswith("-none-any.whl"), compiled_wheel.name
    names = set(zipfile.ZipFile(compiled_wheel).namelist())
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for module in compiled_modules():
        path = module.replace(".", "/")
        assert f"{path}{suffix}" in names, module
        assert f"{path}.py" in names, module  # the source stays beside it
    assert "venedig_rules/effects/parser_tables.json" in names


def test_the_installed_compiled_modules_are_the_ones_imported(compiled_python: Path, tmp_path: Path):
    code = (
        "import importlib, sys\n"
        f"for name in {compiled_modules()!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    print(name, module.__file__)\n"
    )
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for line in run_installed(compiled_python, code, tmp_path).splitlines():
        name, file = line.split()
        assert file.endswith(suffix) and "site-packages" in file, (name, file)


def test_the_compiled_build_plays_the_golden_playthroughs_and_passes_the_rules_and_reliability_tests(
    compiled_python: Path,
):
    # -I: neither the checkout (the working directory) nor PYTHONPATH comes before the wheel;
    # pytest puts only tests/ on the path (for conftest and the tests' helpers)
    # the games' rules, and what bad input gets (a compiled module must give the very errors
    # of the pure one)
    tests = [
        "tests/test_playthroughs.py",
        "tests/test_engine.py",
        "tests/test_venedig.py",
        "tests/test_rialto.py",
        "tests/test_registry.py",
        "tests/test_saeulen.py",
        "tests/test_undo_history.py",
        "tests/test_untracked.py",
        "tests/test_records.py",
        "tests/test_ordered.py",
        "tests/test_rngloops.py",
        "tests/test_slotted.py",
        "tests/test_saeulen_walks.py",
        "tests/test_venedig_walks.py",
        "tests/test_sampling.py",
        "tests/test_projection.py",
        "tests/test_bots.py",
        "tests/test_bots_search.py",
        "tests/test_bots_reach.py",
        "tests/test_reliability.py",
        "tests/test_speed.py",
        "tests/test_fuzz.py",
    ]
    code = (
        "import sys, pytest, venedig_rules.engine.run.machine as m\n"
        "assert 'site-packages' in m.__file__ and not m.__file__.endswith('.py'), m.__file__\n"
        f"sys.exit(pytest.main(['-q', '-x', '-p', 'no:cacheprovider', *{tests!r}]))\n"
    )
    proc = subprocess.run([str(compiled_python), "-I", "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


def test_the_compiled_wheel_holds_each_bundled_rulesets_generated_module(compiled_wheel: Path):
    names = [n for n in zipfile.ZipFile(compiled_wheel).namelist() if n.startswith("venedig_rules/_aot/")]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    compiled = [n for n in names if n.endswith(suffix)]
    assert len(compiled) == 3 and sorted(names) == sorted([*compiled, *(n.replace(suffix, ".py") for n in compiled)])


def test_the_compiled_build_runs_the_bundled_rulesets_generated_code_compiled(compiled_python: Path, tmp_path: Path):
    """The engine uses the ahead-of-time modules for the bundled rulesets, and their lines
    are the generated text's, so the line table still locates errors."""
    code = (
        "import venedig_rules as vr\n"
        "for name in ('venedig', 'saeulen', 'rialto'):\n"
        "    g = vr.load(name).generated\n"
        "    lines = g.source.splitlines()\n"
        "    for fn in g.resume.values():\n"
        "        assert type(fn).__name__ == 'cython_function_or_method', (name, fn)\n"
        "        assert fn.__code__.co_filename == g.filename\n"
        "        assert lines[fn.__code__.co_firstlineno - 1].startswith(f'def {fn.__name__}('), fn\n"
        "    print(name, 'compiled')\n"
    )
    assert run_installed(compiled_python, code, tmp_path).count("compiled") == 3


def _hatch_build():
    """The checkout's hatch_build module (it is not part of the package)."""
    sys.path.insert(0, str(ROOT))
    try:
        return importlib.import_module("hatch_build")
    finally:
        sys.path.remove(str(ROOT))


def _hook(tmp_path: Path):
    """The build hook as hatchling makes it for the wheel of this checkout."""
    from hatchling.metadata.core import ProjectMetadata
    from hatchling.plugin.manager import PluginManager

    metadata = ProjectMetadata(str(ROOT), PluginManager())
    config = {"compiled-modules": ["venedig_rules/engine/run/rng.py"]}
    return _hatch_build().CompiledBuildHook(str(ROOT), config, None, metadata, str(tmp_path), "wheel")


def test_a_wheel_build_asks_for_cython_unless_compiling_is_switched_off(monkeypatch, tmp_path: Path):
    hook = _hook(tmp_path)
    for switch in (None, "1"):
        if switch is None:
            monkeypatch.delenv("VENEDIG_RULES_COMPILE", raising=False)
        else:
            monkeypatch.setenv("VENEDIG_RULES_COMPILE", switch)
        wanted = hook.dependencies()
        assert any(d.startswith("cython") for d in wanted) and any(d.startswith("lark") for d in wanted), wanted
    monkeypatch.setenv("VENEDIG_RULES_COMPILE", "0")
    wanted = hook.dependencies()  # the package's own still: the generated modules need them
    assert not any(d.startswith("cython") for d in wanted) and any(d.startswith("lark") for d in wanted), wanted


def test_a_failed_compile_falls_back_to_the_pure_wheel_unless_compiling_is_required(monkeypatch, tmp_path: Path):
    hatch_build = _hatch_build()

    def broken(*args, **kwargs):
        raise RuntimeError("the compiler crashed")

    monkeypatch.setattr(hatch_build, "compile_modules", broken)
    source = tmp_path / "g_0.py"
    monkeypatch.setattr(hatch_build, "generated_modules", lambda root, into: {"venedig_rules._aot.g_0": source})
    monkeypatch.delenv("VENEDIG_RULES_COMPILE", raising=False)
    hook = _hook(tmp_path)
    build_data: dict = {"force_include": {}}
    hook.initialize("standard", build_data)
    work = hook._work
    # nothing compiled, a pure wheel, with the generated module's source
    assert build_data == {"force_include": {str(source): "venedig_rules/_aot/g_0.py"}}
    hook.finalize("standard", build_data, str(tmp_path / "wheel.whl"))
    assert not work.exists()
    monkeypatch.setenv("VENEDIG_RULES_COMPILE", "1")
    with pytest.raises(RuntimeError, match="the compiler crashed"):
        hook.initialize("standard", {"force_include": {}})
    assert hook._work is None  # a failed build leaves no working folder behind either


def test_the_compiled_random_number_generator_gives_the_pure_ones_numbers(compiled_python: Path, tmp_path: Path):
    """rng.pxd runs SplitMix64 on 64-bit C integers: the same states and numbers as rng.py
    run as Python, for seeds of every width and sign and bounds up to 2**64."""
    source = ROOT / "venedig_rules" / "engine" / "run" / "rng.py"
    code = (
        "import importlib.util, random, venedig_rules.engine.run.rng as c\n"
        "assert not c.__file__.endswith('.py'), c.__file__\n"
        f"spec = importlib.util.spec_from_file_location('pure_rng', {str(source)!r})\n"
        "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)\n"
        "wide = random.Random(5)\n"
        "seeds = [0, 1, -1, 2**63 - 1, -2**63, 2**64 - 1, 2**64, 2**200 + 7, -2**100]\n"
        "for seed in seeds + [wide.getrandbits(70) - 2**69 for _ in range(200)]:\n"
        "    assert c.seed_state(seed) == p.seed_state(seed), seed\n"
        "    s = p.seed_state(seed)\n"
        "    assert c.next64(s) == p.next64(s), seed\n"
        "    for n in (1, 2, 3, 6, 100, 2**53, 2**63, 2**64 - 1, 2**64):\n"
        "        assert c.below(s, n) == p.below(s, n), (seed, n)\n"
        "    assert c.shuffled(s, range(30)) == p.shuffled(s, range(30)), seed\n"
        "print('identical')\n"
    )
    assert run_installed(compiled_python, code, tmp_path).split() == ["identical"]
