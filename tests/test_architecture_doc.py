"""docs/architecture.md stays true: its example runs, its picture is what its script draws, and
it names every folder and top-level module of the package."""

from __future__ import annotations

import doctest
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


def test_every_part_of_the_package_is_described():
    text = DOC.read_text(encoding="utf-8")
    parts = [f"`{p.name}/`" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]
    parts += [f"`{p.name}`" for p in PACKAGE.glob("*.py")]
    missing = [part for part in parts if part not in text]
    assert not missing, f"docs/architecture.md does not describe {missing}"
