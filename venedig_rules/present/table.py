"""A human at the terminal: the seat's position as text, the prompt, the options numbered
with their texts; a number (or an action's text) picks one, part of a text narrows them
down (and picks the only one left); a decision with one option is answered and said rather
than asked (``answer_forced``); ``u`` takes back
the seat's last action where the table allows it, ``s FILE`` saves the game, ``?`` helps,
``q`` (or the end of the input) leaves.

>>> import io, venedig_rules as vr
>>> game = vr.load("venedig").new_game(players=3, seed=7)
>>> out = io.StringIO()
>>> first = HumanSeat(game, 0, Narrator(game.rules), write=out.write).choose()  # one option: keep the gold
>>> str(first), out.getvalue().strip()
('p0 pass', 'Only one choice: Keep the gold')
>>> game = game.apply(first)
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
from .position import compact_lines, natural, position_lines

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.run.notation import Action


def _written(actions: list[Action], answer: str) -> Action | None:
    """The action whose own text ``answer`` is, with its seat (``p0 drain(f11)``) or without
    (``drain(f11)``); None if none is."""
    for action in actions:
        text = str(action)
        _, _, without_seat = text.partition(" ")
        if answer in (text, without_seat):
            return action
    return None


def _reading_order(actions: list[Action], texts: list[str]) -> tuple[list[Action], list[str]]:
    """The options in the order a person reads them: C3 before C10, a pass last."""
    shown = sorted(zip(actions, texts), key=lambda option: (option[0].value is None, natural(option[1])))
    return [a for a, _ in shown], [t for _, t in shown]


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
        answer_forced: bool = True,
    ):
        self.game, self.player, self.narrator = game, player, narrator
        self.read, self.write = read or _stdin, write or _stdout
        #: a decision with one option is answered at once (and said), not asked
        self.answer_forced = answer_forced
        #: the places in the game's actions of the answers given for this person
        self.answered: set[int] = set()
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
        if decision["forced"] and self.answer_forced:
            # one option is no choice: the terminal says what it answered instead of asking
            self.say(f"  {w.engine('forced_answer', text=(decision['options'][0]['text'], TEXT))}")
            self.answered.add(len(game.actions))
            return actions[0]
        self.say(f"\n-- {w.engine('your_position', player=(player, PLAYER))} --")
        for line in compact_lines(w, view, player):
            self.say(f"  {line}")
        self.say(f"-- {decision['prompt']} --")
        actions, texts = _reading_order(actions, [o["text"] for o in decision["options"]])
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
                for line in w.engine("help").splitlines():
                    self.say(f"  {line}")
            elif answer == "p":
                for line in position_lines(w, view):
                    self.say(f"  {line}")
            elif answer == "u":
                undone = self.take_back()
                if undone is not None:
                    return undone
            elif answer == "s" or answer.startswith("s "):
                self.save(answer[2:].strip())
            elif answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            elif (written := _written(actions, answer)) is not None:
                return written
            elif answer and (picked := self.narrow(answer, actions, texts)) is not None:
                return picked

    def narrow(self, answer: str, actions: list[Action], texts: list[str]) -> Action | None:
        """The only option whose text contains ``answer``; else None, the options that
        contain it shown (or said that none does)."""
        found = [i for i, t in enumerate(texts) if answer.lower() in t.lower()]
        if len(found) == 1:
            return actions[found[0]]
        if found:
            self.show(texts, found)
        else:
            self.say(f"  {self.narrator.wording.engine('no_option', text=(repr(answer), TEXT))}")
        return None

    def show(self, texts: list[str], which: range | list[int]) -> None:
        for i in which:
            self.say(f"  {i + 1:>3}. {texts[i]}")
        self.say(self.narrator.wording.engine("answer_hint"))

    def take_back(self) -> Undone | None:
        """Take back this seat's last own choice where the table allows it, with the forced
        answers given for the person after it (else ``u`` would only undo an answer that is
        given again at once); None, said why, when it cannot be."""
        w, game = self.narrator.wording, self.game
        trial, steps = game.clone(), 0  # tried first, so that a refusal leaves the game as it was
        while True:
            allowed = trial.can_undo(self.player, w.code)
            if not allowed:
                self.say(f"  {w.engine('cannot_undo', reason=(allowed.reason, TEXT))}")
                return None
            trial.undo()
            steps += 1
            if len(trial.actions) not in self.answered:
                break
        for _ in range(steps):
            last = game.actions[-1]
            game.undo()
            self.answered.discard(len(game.actions))
            self.say(f"  {w.engine('taken_back', text=(self._option_text(last), TEXT))}")
        return Undone(last)

    def _option_text(self, action: str) -> str:
        """How the option ``action`` (just taken back, so open again) reads to this person."""
        w = self.narrator.wording
        decision = self.game.decision(self.player, w.code, w.names)
        options = decision["options"] if decision is not None else []
        return next((o["text"] for o in options if o["action"] == action), action)

    def save(self, name: str) -> None:
        w = self.narrator.wording
        if not name:
            self.say(f"  {w.engine('save_needs_name')}")
            return
        try:
            Path(name).write_text(json.dumps(self.game.to_json(), ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            reason = str(exc.strerror or exc)
            self.say(f"  {w.engine('cannot_save', file=(repr(name), TEXT), reason=(reason, TEXT))}")
            return
        self.say(f"  {w.engine('saved_to', file=(name, TEXT))}")
