"""The docs stay true to the code: their examples run."""

from __future__ import annotations

import doctest
import re
from importlib.util import find_spec
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
import venedig_rules.bots as bots
from conftest import EXTRA_MODULES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_variant_guide_example_loads(tmp_path: Path):
    block = re.search(r"```yaml\n(.*?)```", (DOCS / "variants.md").read_text(), re.S).group(1)
    ident = yaml.safe_load(block)["id"]
    path = tmp_path / f"{ident}.yaml"
    path.write_text(block)
    rules = vr.load(path)
    assert rules.name == "venedig+big_hands"
    assert rules.constant("hand_limit") == 7
    assert "ponte_card" not in {c["id"] for c in rules.items("cards")}


def test_error_reference_lists_every_error_code():
    text = (DOCS / "errors.md").read_text()
    classes = [getattr(vr, name) for name in vr.__all__]
    codes = {
        cls.code
        for cls in [*classes, *vars(vr.errors).values()]
        if isinstance(cls, type) and issubclass(cls, vr.VenedigError)
    } - {"venedig", "rules", "dsl"}
    missing = {code for code in codes if f"`{code}`" not in text}
    assert not missing


# -- every example runs after a plain `pip install`: from a folder that is not the checkout --------
DOC_FILES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
_PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """(line, code) of each ```python block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in _PYTHON_BLOCK.finditer(text)]


_IMPORT = re.compile(r"^\s*(?:>>> )?(?:from|import) ([A-Za-z_]\w*)", re.M)


def missing_extras(path: Path) -> list[str]:
    """The extras (by library) whose libraries the file's examples import but are not installed."""
    imported = {m.group(1) for _, code in python_blocks(path) for m in _IMPORT.finditer(code)}
    return sorted(
        f"{name} ({EXTRA_MODULES[name]})" for name in imported & EXTRA_MODULES.keys() if find_spec(name) is None
    )


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_example_runs_outside_the_checkout(path: Path, tmp_path: Path, monkeypatch):
    """Blocks with ``>>>`` are doctests (their output must match); other blocks must run.
    Each file's blocks share one namespace, in order, as a reader would type them. A file
    whose examples use an optional extra runs where that extra is installed (CI has them all)."""
    missing = missing_extras(path)
    if missing:
        pytest.skip(f"its examples need the extra of {', '.join(missing)}")
    monkeypatch.chdir(tmp_path)
    # an example may register a bot by name, as a reader would: on a copy, not for the other tests
    monkeypatch.setattr(bots, "BOTS", dict(bots.BOTS))  # no tests/, rules/ or docs/ here: what a pip install has
    namespace: dict = {"__name__": f"doc_{path.stem}"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, code in python_blocks(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        if ">>>" in code:
            test = parser.get_doctest(code, namespace, where, str(path), line)
            out: list[str] = []
            result = runner.run(test, out=out.append, clear_globs=False)
            assert result.failed == 0, "".join(out)
            namespace.update(test.globs)  # a DocTest works on a copy: keep what it defined
        else:
            exec(compile(code, where, "exec"), namespace)
