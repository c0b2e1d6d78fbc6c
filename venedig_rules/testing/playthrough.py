"""Golden playthroughs: a seeded game played by random bots, written as a readable log.

Lines starting with ``> `` are actions; the lines under each are the events it caused, as
the narrator tells them (state changes included); the last line gives the scores.
Replaying the actions must give the same text, which pins down every rule of a ruleset:
any change in play shows up as a diff.

>>> import venedig_rules as vr
>>> text = render(vr.load("tests/rulesets/lagoon"), players=2, seed=1)
>>> text.splitlines()[0]
'# venedig-rules playthrough: lagoon, 2 players, seed 1'
>>> replay_text(vr.load("tests/rulesets/lagoon"), text) == text
True
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import RandomBot, play_out
from ..engine.game import Game
from ..present.narrator import Narrator

if TYPE_CHECKING:
    from ..engine.ruleset import Ruleset
    from ..engine.run.ruleset_base import RulesetBase

_HEADER = re.compile(r"# venedig-rules playthrough: (?P<ruleset>\S+), (?P<players>\d+) players, seed (?P<seed>-?\d+)")


def render(rules: Ruleset, players: int, seed: int) -> str:
    """Play a seeded game with random bots and write it as a log."""
    game = rules.new_game(players, seed)
    play_out(game, {p: RandomBot(seed * 31 + p) for p in range(players)})
    return log_text(game)


def log_text(game: Game) -> str:
    """The log of a game: header, actions with their events, final line."""
    rules = game.rules
    narrator = Narrator(rules)
    lines = [
        f"# venedig-rules playthrough: {rules.name}, {game.players} players, seed {game.seed}",
        f"# rules_hash {rules.rules_hash}",
        f"# regenerate with: venedig-rules playthrough {command_name(rules)} --update",
    ]
    replay = Game(rules, game.players, game.seed)  # as rules.new_game does (game.rules is a RulesetBase)
    lines += _new_events(narrator, replay, 0)
    for action in game.actions:
        seen = len(replay.events)
        replay.apply(action)
        lines.append(f"> {action}")
        lines += _new_events(narrator, replay, seen)
    lines.append(f"= {narrator.result(replay)}")
    return "\n".join(lines) + "\n"


def command_name(rules: RulesetBase) -> str:
    """How to name the ruleset on the command line: bundled id or path, plus variants."""
    from ..data.resources import display_path, rules_root

    bundled = rules.path is not None and rules.path.resolve().parent == rules_root().resolve()
    name = rules.id if bundled or rules.path is None else display_path(rules.path)
    return " ".join([name, *(f"--variant {v}" for v in rules.variants)])


def _new_events(narrator: Narrator, game: Game, seen: int) -> list[str]:
    """The log lines of the game's events after the first ``seen``, state changes included."""
    return [f"  {text}" for text in narrator.lines(game.events[seen:], verbose=True)]


def replay_text(rules: Ruleset, text: str) -> str:
    """Replay the actions of a playthrough text and render the log again."""
    header = _HEADER.match(text)
    if not header:
        raise ValueError("not a playthrough: the first line should be '# venedig-rules playthrough: ...'")
    players, seed = int(header["players"]), int(header["seed"])
    actions = [line[2:] for line in text.splitlines() if line.startswith("> ")]
    return log_text(rules.replay(players, seed, actions))


def file_name(rules: Ruleset, players: int) -> str:
    """The golden file of a ruleset at one player count."""
    return f"{rules.name}-{players}p.txt"


def expected_files(rules: Ruleset) -> list[str]:
    """The golden files a ruleset has: one per allowed player count."""
    return [file_name(rules, n) for n in rules.players]


def update(rules: Ruleset, folder: Path, seed: int = 1) -> list[Path]:
    """Write (or rewrite) the playthrough of every player count into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for n in rules.players:
        path = folder / file_name(rules, n)
        path.write_text(render(rules, n, seed), encoding="utf-8")
        written.append(path)
    return written
