"""A human at the terminal: the seat's position as text, the prompt, the options numbered
with their texts; a number (or an action's text) picks one, part of a text narrows them
down (and picks the only one left), ``u`` takes back
the seat's last action where the table allows it, ``s FILE`` saves the game, ``?`` helps,
``q`` (or the end of the input) leaves.

>>> import io, venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7).apply("p0 pass")  # keeps the gold
>>> out = io.StringIO()
>>> seat = HumanSeat(game, 0, Narrator(game.rules), read=iter(["palazzo", "2"]).__next__, write=out.write)
>>> str(seat.choose())
'p0 play([basilica_card,palazzo_card])'
>>> "Lay out building cards, or none" in out.getvalue()
True
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.seat.wording import PLAYER, TEXT
from .narrator import Narrator
from .position import compact_lines, position_lines

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action

HELP = """  a number picks that option, and so does its action (drain(f11)); any other text
  shows the options containing it (one alone is picked)
  u   take back your last action (when the table allows it)
  s FILE   save the game to FILE (it holds every secret: keep it to yourself)
  p   the whole position (before a decision you see the table and your own)
  ?   this help;  q   leave the game"""


def _written(actions: list[Action], answer: str) -> Action | None:
    """The action whose own text ``answer`` is, with its seat (``p0 drain(f11)``) or without
    (``drain(f11)``); None if none is."""
    for action in actions:
        text = str(action)
        _, _, without_seat = text.partition(" ")
        if answer in (text, without_seat):
            return action
    return None


def _stdin() -> str:
    return input()


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


@dataclass
class Undone:
    """What :meth:`HumanSeat.choose` gives when the seat took back its last action."""

    action: str


class HumanSeat:
    """One seat played by a person through ``read`` (one line, EOFError at the end) and
    ``write`` (text); the texts are the narrator's language and names."""

    def __init__(
        self,
        game: Game,
        player: int,
        narrator: Narrator,
        read: Callable[[], str] | None = None,
        write: Callable[[str], object] | None = None,
    ):
        self.game, self.player, self.narrator = game, player, narrator
        self.read, self.write = read or _stdin, write or _stdout
        #: true once the input ended (rather than the person typing q)
        self.input_ended = False

    def say(self, text: str) -> None:
        self.write(text if text.endswith("\n") else text + "\n")

    def choose(self) -> Action | Undone | None:
        """The seat's choice; Undone after a table undo; None when the person leaves."""
        w = self.narrator.wording
        game, player = self.game, self.player
        view = game.view(player, lang=w.code, names=w.names)
        decision = game.decision(player, w.code, w.names)
        assert decision is not None, f"p{player} is not to move"
        actions = game.legal_actions(player)
        self.say(f"\n-- {w.engine('your_position', player=(player, PLAYER))} --")
        for line in compact_lines(w, view, player):
            self.say(f"  {line}")
        self.say(f"-- {decision['prompt']} --")
        texts = [o["text"] for o in decision["options"]]
        self.show(texts, range(len(texts)))
        while True:
            try:
                answer = self.read().strip()
            # the end of the input is leaving; RuntimeError: stdin closed ("lost sys.stdin")
            except (EOFError, StopIteration, RuntimeError):
                self.input_ended = True
                return None
            if answer == "q":
                return None
            if answer == "?":
                self.say(HELP)
            elif answer == "p":
                for line in position_lines(w, view):
                    self.say(f"  {line}")
            elif answer == "u":
                allowed = game.can_undo(player)
                if allowed:
                    last = game.actions[-1]
                    game.undo()
                    self.say(f"  taken back: {last}")
                    return Undone(last)
                self.say(f"  cannot take it back: {allowed.reason}")
            elif answer.startswith("s "):
                self.save(answer[2:].strip())
            elif answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            elif (written := _written(actions, answer)) is not None:
                return written
            elif answer:
                found = [i for i, t in enumerate(texts) if answer.lower() in t.lower()]
                if len(found) == 1:
                    return actions[found[0]]
                if found:
                    self.show(texts, found)
                else:
                    self.say(f"  {w.engine('no_option', text=(repr(answer), TEXT))}")

    def show(self, texts: list[str], which: range | list[int]) -> None:
        for i in which:
            self.say(f"  {i + 1:>3}. {texts[i]}")
        self.say(self.narrator.wording.engine("answer_hint"))

    def save(self, name: str) -> None:
        if not name:
            self.say("  s needs a file name: s game.json")
            return
        try:
            Path(name).write_text(json.dumps(self.game.to_json(), ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            self.say(f"  cannot save to {name!r}: {exc.strerror or exc}")
            return
        self.say(f"  saved to {name}")
