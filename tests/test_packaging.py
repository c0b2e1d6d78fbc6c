"""The wheel carries rules/ and schemas/: a regular install finds the bundled games anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        # the pure-Python wheel: compiling (the default where a compiler works) is
        # tests/test_compiled.py's, and takes minutes
        env={**os.environ, "VENEDIG_RULES_COMPILE": "0"},
    )
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{proc.stdout}\n{proc.stderr}")
    return next(out.glob("venedig_rules-*.whl"))


def test_wheel_ships_rules_schemas_and_type_marker(wheel: Path):
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name  # VENEDIG_RULES_COMPILE=0: pure Python
    assert "venedig_rules/py.typed" in names
    assert "venedig_rules/_data/schemas/defs.schema.json" in names
    for game in ("venedig", "saeulen", "rialto"):
        assert f"venedig_rules/_data/rules/{game}/game.yaml" in names
    # the reference interpreter is a test oracle: it lives in tests/reference, out of the wheel
    assert not [n for n in names if n.rpartition("/")[2] in ("reference.py", "interpreter.py")]


def _see_dependencies(python: Path) -> None:
    """Let a new venv import the dependencies from wherever this test's interpreter has them
    (a base interpreter, a venv, a user site), and nothing else of it: a ``.pth`` file names
    their folders, after the venv's own site-packages, where the wheel goes."""
    import importlib

    folders = []
    for name in (
        "yaml",
        "jsonschema",
        "referencing",
        "lark",
        "networkx",
        "attrs",
        "rpds",
        "jsonschema_specifications",
        "typing_extensions",
    ):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        origin = Path(module.__file__).resolve()
        folder = origin.parent.parent if origin.name == "__init__.py" else origin.parent
        if str(folder) not in folders:
            folders.append(str(folder))
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "outer_dependencies.pth").write_text("\n".join(folders) + "\n")


def install_wheel(wheel: Path, env_dir: Path) -> Path:
    """The python of a new environment at ``env_dir`` with ``wheel`` installed (and this
    environment's dependencies visible to it)."""
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    _see_dependencies(python)
    subprocess.run(
        # --ignore-installed: the dependencies' folders may hold this package too (a CI that
        # installed it there); pip would take that for this wheel and install nothing
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed", str(wheel)],
        check=True,
        capture_output=True,
    )
    return python


def run_installed(python: Path, code: str, cwd: Path) -> str:
    """What ``code`` prints, run by ``python`` in ``cwd`` with ``-I`` (neither the working
    directory nor PYTHONPATH comes before the installed package); fails the test when it
    fails."""
    proc = subprocess.run([str(python), "-I", "-c", code], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    """The python of a new environment with the wheel installed."""
    return install_wheel(wheel, tmp_path_factory.mktemp("venv"))


def test_installed_wheel_loads_bundled_rules_from_outside_the_checkout(installed: Path, tmp_path: Path):
    python = installed
    code = (
        "import venedig_rules as vr, pathlib; r = vr.load('venedig'); "
        "assert '_data' in str(r.path) and 'site-packages' in vr.__file__, (r.path, vr.__file__); "
        "print(r.id, len(r.rules_hash))"
    )
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert run_installed(python, code, outside).split() == ["venedig", "64"]
    script = python.parent / "venedig-rules"
    if script.exists():
        proc = subprocess.run([str(script), "validate"], cwd=outside, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_wheel_holds_each_bundled_rulesets_generated_module_as_python(wheel: Path):
    import zipfile

    names = [n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("venedig_rules/_aot/")]
    assert len(names) == 3 and all(n.endswith(".py") for n in names), names


def test_the_installed_wheel_imports_the_generated_modules_instead_of_compiling_their_text(
    installed: Path, tmp_path: Path
):
    code = (
        "import builtins, venedig_rules as vr\n"
        "def refuse(*args, **kwargs):\n"
        "    raise AssertionError('compiled the generated text')\n"
        "builtins.compile = refuse\n"
        "for name in ('venedig', 'saeulen', 'rialto'):\n"
        "    g = vr.load(name).generated\n"
        "    fn = next(iter(g.resume.values()))\n"
        "    assert g.filename.endswith('.py') and '_aot' in g.filename, g.filename\n"
        "    assert fn.__code__.co_filename == g.filename and fn.__module__.startswith('venedig_rules._aot.')\n"
        "    game = vr.load(name).new_game(3, 1)\n"
        "    game.apply(game.legal_actions(game.to_move[0])[0])\n"
        "    print(name, 'imported')\n"
    )
    assert run_installed(installed, code, tmp_path).count("imported") == 3
