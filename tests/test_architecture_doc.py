"""docs/architecture.md stays true: its example runs, its picture is what its script draws, and
it names every folder and every module of the package, by its path under ``venedig_rules/``
in backticks (`` `engine/game.py` ``), and no path that is not one."""

from __future__ import annotations

import doctest
import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "venedig_rules"


def test_the_example_runs():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_picture_is_what_its_script_draws():
    script = runpy.run_path(str(ROOT / "docs" / "architecture_svg.py"))
    drawn = (ROOT / "docs" / "architecture.svg").read_text(encoding="utf-8")
    assert drawn == script["render"](), "run: python docs/architecture_svg.py"


def package_modules() -> list[str]:
    """Every module of the package, as its path under ``venedig_rules/`` (``engine/game.py``)."""
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))


def package_folders() -> list[str]:
    return sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())


def named_paths(text: str) -> set[str]:
    """The module paths the doc names in backticks: ``x.py`` or ``folder/.../x.py``."""
    return set(re.findall(r"`([A-Za-z_][\w/]*\.py)`", text))


def test_every_folder_and_module_of_the_package_is_described():
    text = DOC.read_text(encoding="utf-8")
    missing = [f"{name}/" for name in package_folders() if f"`{name}/`" not in text]
    missing += [path for path in package_modules() if f"`{path}`" not in text]
    assert not missing, f"docs/architecture.md does not name {missing} (see its section 'The modules')"


def test_every_module_path_the_doc_names_exists():
    """A path in a folder of the package, or a bare module name, must be a module of the
    package: a module moved or removed leaves no stale row behind."""
    folders, modules = package_folders(), set(package_modules())
    candidates = {
        path
        for path in named_paths(DOC.read_text(encoding="utf-8"))
        if path.split("/")[0] in folders or "/" not in path
    }
    outside = {"architecture_svg.py", "hatch_build.py", "conftest.py"}  # files of the checkout, not the package
    stale = sorted(candidates - modules - outside)
    assert not stale, f"docs/architecture.md names {stale}, which are no modules of the package"


def test_the_path_check_finds_names():
    assert named_paths("`engine/game.py` and `cli.py`, not `engine/` or engine/x.py") == {"engine/game.py", "cli.py"}
