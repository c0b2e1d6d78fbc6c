"""Shared test helpers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
BAD_RULES = TESTS / "bad_rules"


def build_case(case: Path, into: Path) -> Path:
    """The tiny base ruleset with one bad_rules case's files laid over it."""
    target = into / case.name
    shutil.copytree(BAD_RULES / "_base", target)
    for path in case.rglob("*"):
        if path.is_file() and path.name != "expect.yaml":
            dest = target / path.relative_to(case)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, dest)
    return target


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A writable copy of the tiny valid ruleset."""
    target = tmp_path / "tiny"
    shutil.copytree(BAD_RULES / "_base", target)
    return target


@pytest.fixture
def data_only(tmp_path: Path) -> Path:
    """The test ruleset without its flow: rule data that can be validated, not played."""
    target = tmp_path / "data_only"
    shutil.copytree(TESTS / "rulesets" / "lagoon", target)
    game = target / "game.yaml"
    text = game.read_text()
    game.write_text(text[: text.index("flow:")])
    return target
