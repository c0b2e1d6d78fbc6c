"""Golden playthroughs: replaying each file's actions gives exactly its text, and every
playable ruleset (bundled, its variants, and the test ruleset) has one per player count."""

from __future__ import annotations

from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.testing.playthrough import expected_files, replay_text

FOLDER = Path(__file__).parent / "playthroughs"
LAGOON = Path(__file__).parent / "rulesets" / "lagoon"


def _playable() -> list[vr.Ruleset]:
    out = [vr.load(LAGOON)]
    for name in vr.bundled():
        for variants in [()] + [(v,) for v in vr.bundled_variants(name)]:
            rules = vr.load(name, variants=variants)
            if rules.playable:
                out.append(rules)
    return out


def _ruleset_of(path: Path) -> vr.Ruleset:
    name = path.name.rsplit("-", 1)[0]
    base, *variants = name.split("+")
    return vr.load(LAGOON if base == "lagoon" else base, variants=variants)


@pytest.mark.parametrize("rules", _playable(), ids=lambda r: r.name)
def test_every_playable_ruleset_has_a_playthrough_per_player_count(rules):
    missing = [f for f in expected_files(rules) if not (FOLDER / f).is_file()]
    assert not missing, f"run: venedig-rules playthrough {rules.name} --update (missing {missing})"


@pytest.mark.parametrize("path", sorted(FOLDER.glob("*.txt")), ids=lambda p: p.name)
def test_playthrough_replays_line_by_line(path: Path):
    text = path.read_text(encoding="utf-8")
    rules = _ruleset_of(path)
    replayed = replay_text(rules, text)
    for n, (want, got) in enumerate(zip(text.splitlines(), replayed.splitlines()), 1):
        assert got == want, f"{path.name}:{n}: expected {want!r}, the rules now give {got!r}"
    assert replayed == text
