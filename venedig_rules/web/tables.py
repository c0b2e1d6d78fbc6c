"""Tables: one game each, its seats (a person or a bot), each seat's secret token, and what each
seat's page shows, built only from that seat's view (a spectator's view for a page with no seat).

Nothing here knows a game: the page data is the view's ``waiting_for``, events' ``text``, the
seat's ``game.decision`` and the board drawn from the view by ``present.render``.

>>> from venedig_rules.web.catalog import Catalog
>>> table = Table.new(Catalog(), "venedig", (), players=3, kinds=["human", "bot", "bot"], seed=1)  # a public seed
>>> page = table.page(0)
>>> page["seat_name"], page["seats"][1]["kind"], page["waiting_for"][0]["player"]
('p0', 'random', 0)
>>> table.act(table.seats[0].token, page["decision"]["options"][0]["action"])
>>> table.page(SPECTATOR)["decision"] is None and table.seat_for("") is SPECTATOR
True
>>> table.act(table.seats[1].token, "p1 pass")
Traceback (most recent call last):
...
venedig_rules.web.refusals.Forbidden: p1 is played by a bot
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, SeatViews, bot_names, make_bot
from ..data.texts import languages
from ..engine.game import Game
from ..engine.ruleset import Ruleset
from ..engine.run.notation import Action, ActionSyntaxError, IllegalActionError, parse_action
from ..engine.run.views import GameView
from ..present.render import render_view
from .catalog import Catalog, GameKey
from .refusals import BadRequest, Conflict, Forbidden

#: The seat of a page with no seat (as ``game.view`` takes it): it sees only public information.
SPECTATOR = None
#: The kind of a seat played by a person at a page.
HUMAN = "human"
#: The bot a seat of kind ``bot`` gets.
DEFAULT_BOT = "random"
#: Bytes of a token: unguessable, and short enough for a URL.
TOKEN_BYTES = 24
#: Bits of the seed a table draws from :mod:`secrets` when none is chosen (a public seed).
SECRET_SEED_BITS = 128


@dataclass
class Provenance:
    """Where a table came from, for the lobby's rules (docs/web.md, Security): ``owner``, the
    hashed visitor cookie of whoever made it (``""``: none); ``client``, the address it came
    from; ``line``, the game's line (a table and every copy made from its saves share it; one
    unfinished copy at a time); ``given``, the players whose seat tokens went to whoever made it;
    ``public_seed``, the seed chosen in the open (None: a secret seed from ``secrets``)."""

    owner: str = ""
    client: str = ""
    line: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    given: tuple[int, ...] = ()
    public_seed: int | None = None


@dataclass
class Seat:
    """One seat at a table: ``kind`` is ``human`` or a bot's name; ``token`` is the seat's secret
    (its page's URL carries it); ``bot`` plays a bot seat."""

    player: int
    kind: str
    name: str
    token: str
    bot: Bot | None = None

    def public(self) -> dict[str, Any]:
        """What every page may know of the seat."""
        return {"player": self.player, "name": self.name, "kind": self.kind}


@dataclass
class Table:
    """A game at a server with its seats. ``version`` counts the changes (pages wait for the
    next); ``generation`` counts the undos (a page that saw an older one reloads its log)."""

    ident: str
    key: GameKey
    rules: Ruleset
    game: Game
    seats: list[Seat]
    names: list[str] | None = None
    provenance: Provenance = field(default_factory=Provenance)
    created: float = field(default_factory=time.monotonic)
    version: int = 0
    generation: int = 0
    bots_running: bool = False
    _changed: asyncio.Event | None = None
    _replay: Game | None = None
    _bot_views: SeatViews | None = None

    @classmethod
    def new(
        cls,
        catalog: Catalog,
        game: str,
        variants: Sequence[str],
        players: int,
        kinds: Sequence[str],
        seed: int | None = None,
        names: Sequence[str] | None = None,
        saved: Game | None = None,
        tokens: Sequence[str | None] | None = None,
        provenance: Provenance | None = None,
        ident: str | None = None,
    ) -> Table:
        """A new table of ``game`` (a catalog key) with ``variants``; ``kinds``: one per seat,
        ``human``, ``bot`` (the default bot) or a bot's name. ``seed``: a public seed (for tests
        and replays; the bots' seeds follow from it); None, the default: a secret one of
        ``SECRET_SEED_BITS`` bits from :mod:`secrets`, and secret seeds for the bots.
        ``saved``: go on with this game; ``tokens``: keep these seats' tokens (None: a new one);
        ``ident``: the table's id (default a new one)."""
        rules = catalog.rules(game, variants)
        if saved is None:
            if players not in rules.players:
                raise BadRequest(
                    f"{rules.title} is for {rules.players.start}-{rules.players.stop - 1} players, not {players}"
                )
            played = rules.new_game(players=players, seed=secrets.randbits(SECRET_SEED_BITS) if seed is None else seed)
        else:
            played, players = saved, saved.players
        if len(kinds) != players:
            raise BadRequest(f"say who plays each of the {players} seats (human or a bot); got {len(kinds)}")
        if names is not None and (len(names) != players or len(set(names)) != players or not all(names)):
            raise BadRequest(f"give {players} different names, one per seat, or none")
        bot_seed = secrets.randbits(64) if seed is None else seed
        kept = list(tokens) if tokens is not None else [None] * players
        seats = [
            Seat(
                p,
                kind,
                names[p] if names else f"p{p}",
                kept[p] or secrets.token_urlsafe(TOKEN_BYTES),
                _bot(kind, bot_seed, p),
            )
            for p, kind in enumerate(seat_kind(k) for k in kinds)
        ]
        return cls(
            ident or secrets.token_urlsafe(12),
            GameKey(game, tuple(variants)),
            rules,
            played,
            seats,
            list(names) if names else None,
            provenance if provenance is not None else Provenance(public_seed=seed),
        )

    @property
    def has_people(self) -> bool:
        """Whether a person plays a seat (such a table is kept until its game ends)."""
        return any(seat.bot is None for seat in self.seats)

    # -- who is asking ---------------------------------------------------------------------
    def seat_for(self, token: str | None) -> int | None:
        """The seat whose token this is; ``SPECTATOR`` for no token; Forbidden for a wrong one."""
        if not token:
            return SPECTATOR
        for seat in self.seats:
            if secrets.compare_digest(seat.token.encode(), token.encode()):
                if seat.bot is not None:
                    raise Forbidden(f"{seat.name} is played by a bot")
                return seat.player
        raise Forbidden("this seat token does not belong to this table")

    # -- changing the game -----------------------------------------------------------------
    def act(self, token: str | None, text: str) -> None:
        """Apply the action ``text`` for the seat of ``token``: only that seat's own actions."""
        player = self.seat_for(token)
        if player is None:
            raise Forbidden("a spectator cannot act; open a seat's page")
        try:
            action = parse_action(text)
        except ActionSyntaxError as exc:
            raise BadRequest(str(exc)) from None
        if action.player != player:
            raise Forbidden(f"this page is {self.seats[player].name}'s seat; {text!r} is another seat's action")
        self.apply(action)

    def apply(self, action: Action) -> None:
        """Apply a legal action (a person's, checked to be its own, or a bot's)."""
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            raise Conflict(str(exc)) from None
        self._touch()

    def undo(self, token: str | None) -> None:
        """Take back the seat's last action, where the table allows it (``game.can_undo``)."""
        player = self.seat_for(token)
        if player is None:
            raise Forbidden("a spectator cannot undo")
        allowed = self.game.can_undo(player)
        if not allowed:
            raise Conflict(f"no undo: {allowed.reason}")
        self.game.undo()
        self.generation += 1
        self._touch()

    def bot_move(self) -> tuple[Bot, GameView, list[Action]] | None:
        """The first bot seat to move, with its view and legal actions (None: no bot to move)."""
        if self.game.is_over:
            return None
        for player in self.game.to_move:
            bot = self.seats[player].bot
            if bot is not None:
                if self._bot_views is None:
                    self._bot_views = SeatViews(self.game)
                return bot, self._bot_views(player), self.game.legal_actions(player)
        return None

    def _touch(self) -> None:
        self.version += 1
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()

    async def changed(self, version: int) -> None:
        """Wait until the table's version is no longer ``version``."""
        while self.version == version:
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()

    # -- what a page shows ------------------------------------------------------------------
    def check_lang(self, lang: str) -> None:
        """BadRequest unless the game has texts in ``lang``."""
        known: list[str] = self.rules.derived("web.languages", lambda rules: sorted(languages(rules.data)))
        if lang not in known:
            raise BadRequest(f"{self.rules.title} has no texts in {lang!r}; its languages: {', '.join(known)}")

    def page(
        self, player: int | None, since: int = 0, lang: str = "en", generation: int | None = None
    ) -> dict[str, Any]:
        """What the page of ``player`` (``SPECTATOR``: a spectator) shows now: the events after
        ``since`` of the seat's log (all of them, with ``reset``, when an undo happened since
        ``generation`` or ``since`` is past the log)."""
        self.check_lang(lang)
        reset = generation is not None and generation != self.generation
        if reset:
            since = 0
        try:
            page = seat_page(self, self.game, player, since, lang)
        except ValueError:  # ``since`` is past the seat's log: the page missed an undo
            page, reset = seat_page(self, self.game, player, 0, lang), True
        page["reset"] = reset
        if player is not None:
            allowed = self.game.can_undo(player)
            page["can_undo"] = {"allowed": bool(allowed), "reason": allowed.reason}
        return page

    def replay(self, player: int | None, step: int, lang: str = "en") -> dict[str, Any]:
        """The page of ``player`` as it was after the first ``step`` actions: the replay viewer
        (no options to click; the whole log up to that step)."""
        self.check_lang(lang)
        actions = self.game.actions
        if not 0 <= step <= len(actions):
            raise BadRequest(f"step {step} is not between 0 and {len(actions)}")
        game = self._replay
        if game is None or game.actions != actions[: len(game.actions)]:
            game = self._replay = self.rules.new_game(players=self.game.players, seed=self.game.seed)
        while len(game.actions) > step:
            game.undo()
        for text in actions[len(game.actions) : step]:
            game.apply(text)
        page = seat_page(self, game, player, 0, lang)
        if page["decision"] is not None:
            page["decision"] = {**page["decision"], "options": []}
        page.update(replay={"step": step, "steps": len(actions)}, reset=True)
        return page


def seat_page(table: Table, game: Game, player: int | None, since: int, lang: str) -> dict[str, Any]:
    """The page data of ``player`` at ``game`` (the table's game or a replayed one)."""
    view = game.view(player, since=since, lang=lang, names=table.names)
    names = [seat.name for seat in table.seats]
    over = bool(view["over"])
    return {
        "table": table.ident,
        "game": table.key.game,
        "variants": list(table.key.variants),
        "title": table.rules.title,
        "seat": player,
        "seat_name": "spectator" if player is None else names[player],
        "seats": [seat.public() for seat in table.seats],
        "version": table.version,
        "generation": table.generation,
        "actions": len(game.actions),
        "to_move": view["to_move"],
        "waiting_for": view["waiting_for"],
        "decision": None if player is None else game.decision(player, lang=lang, names=table.names),
        "committed": view.get("your_commit") is not None,
        "events": [_shown(event) for event in view["events"]],
        "cursor": view["cursor"],
        "board": render_view(table.rules, view),
        "over": over,
        "winners": [{"player": p, "name": names[p]} for p in view["winners"]],
        "scores": [{"player": p, "name": names[p], "score": s} for p, s in game.scores.items()] if over else [],
        "lang": lang,
        "public_seed": table.provenance.public_seed,
    }


def _shown(event: Mapping[str, object]) -> dict[str, object]:
    """What a page shows of an event: its sentence (and its type, for styling)."""
    return {"type": event["type"], "text": event["text"]}


def seat_kind(kind: str) -> str:
    """``human``, or the name of a bot (``bot``: the default bot); BadRequest for others."""
    kind = kind.strip().lower()
    if kind == "bot":
        return DEFAULT_BOT
    if kind == HUMAN or kind in bot_names():
        return kind
    raise BadRequest(f"a seat is {HUMAN!r}, 'bot' or a bot's name ({', '.join(bot_names())}), not {kind!r}")


def _bot(kind: str, seed: int, player: int) -> Bot | None:
    return None if kind == HUMAN else make_bot(kind, seed=seed * 101 + player)
