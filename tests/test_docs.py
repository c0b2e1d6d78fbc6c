"""The docs stay true to the code: their examples run."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

import venedig_rules as vr

DOCS = Path(__file__).resolve().parent.parent / "docs"


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
