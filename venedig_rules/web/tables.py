"""Tables: one game each, its seats (a person or a bot), each seat's secret token, and what each
seat's page shows, built only from that seat's view (a spectator's view for a page with no seat).

Nothing here knows a game: the page data is the view's ``waiting_for``, the seat's human log
(``game.log``), its labelled position (``present.summary``), the seat's ``game.decision``, the
texts of the items these name (``rules.describe_item``), the score breakdown at the end and the
board drawn from the view by ``present.render``: each the seat's own.

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
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ..bots import Bot, bot_names, make_bot
from ..data.texts import languages
from ..engine.game import Game
from ..engine.ruleset import Ruleset
from ..engine.run.notation import Action, ActionSyntaxError, IllegalActionError, parse_action
from ..engine.run.views import GameView
from ..engine.seat.humanlog import LogEntry
from ..engine.seat.wording import Wording
from ..present.render import render_view
from ..present.summary import Section, summary_of_view
from .catalog import Catalog, GameKey
from .itemtexts import items_named
from .refusals import BadRequest, Conflict, Forbidden, Unavailable

#: The seat of a page with no seat (as ``game.view`` takes it): it sees only public information.
SPECTATOR = None
#: The kind of a seat played by a person at a page.
HUMAN = "human"
#: The bot a seat of kind ``bot`` gets.
DEFAULT_BOT = "random"
#: Pages a table keeps between two changes (each seat's and the spectators', in each language).
PAGES_KEPT = 32
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


def token_digest(token: str) -> str:
    """What the server keeps of a seat's token: its SHA-256, enough to recognise the token,
    useless to make a link with (a token is 192 random bits: no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """One seat at a table: ``kind`` is ``human`` or a bot's name; ``token`` is the seat's secret
    (its page's URL carries it; ``""`` once the table was restored from its database, which
    keeps only ``digest``, the token's :func:`token_digest`); ``bot`` plays a bot seat."""

    player: int
    kind: str
    name: str
    token: str
    bot: Bot | None = None
    digest: str = ""

    def __post_init__(self) -> None:
        if not self.digest:
            self.digest = token_digest(self.token)

    def public(self) -> dict[str, Any]:
        """What every page may know of the seat."""
        return {"player": self.player, "name": self.name, "kind": self.kind}


class Journal(Protocol):
    """Where a table writes each change before anyone hears of it (the server's database,
    :class:`~venedig_rules.web.store.TableStore`); a write that fails raises."""

    def applied(self, table: Table, action: str) -> None:
        """The table's game took ``action`` (its last action now)."""

    def undone(self, table: Table) -> None:
        """The table's game took back its last action."""


#: Draws a table's board from a seat's view, off the event loop (``BotPool.draw``).
BoardDrawer = Callable[["Table", GameView], Awaitable[str]]


class PageKey(NamedTuple):
    """A page built at the table's current version: the same key, the same page."""

    player: int | None
    since: int
    lang: str
    reset: bool


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
    journal: Journal | None = None
    #: Spectator pages open now (the server refuses more than its cap per table).
    spectators: int = 0
    #: Pages built (each seat's and the spectators' once per version and cursor): for tests.
    builds: int = 0
    _changed: asyncio.Event | None = None
    _stopped: asyncio.Event | None = None
    _replay: Game | None = None
    _pages: dict[PageKey, tuple[dict[str, Any], str]] = field(default_factory=dict)
    _building: dict[PageKey, asyncio.Future[tuple[dict[str, Any], str]]] = field(default_factory=dict)

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
        digests: Sequence[str | None] | None = None,
        provenance: Provenance | None = None,
        ident: str | None = None,
    ) -> Table:
        """A new table of ``game`` (a catalog key) with ``variants``; ``kinds``: one per seat,
        ``human``, ``bot`` (the default bot) or a bot's name. ``seed``: a public seed (for tests
        and replays; the bots' seeds follow from it); None, the default: a secret one of
        ``SECRET_SEED_BITS`` bits from :mod:`secrets`, and secret seeds for the bots.
        ``saved``: go on with this game; ``digests``: keep these seats' tokens, known by their
        :func:`token_digest` (None: a new token);
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
        bots_seed = secrets.randbits(64) if seed is None else seed
        kept = list(digests) if digests is not None else [None] * players
        seats = [
            Seat(
                p,
                kind,
                names[p] if names else f"p{p}",
                "" if kept[p] else secrets.token_urlsafe(TOKEN_BYTES),
                seat_bot(kind, bots_seed, p),
                kept[p] or "",
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
        digest = token_digest(token)
        for seat in self.seats:
            if secrets.compare_digest(seat.digest, digest):
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
        self.apply(action, seat=player)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal action (a person's, checked to be its own, or a bot's), written to the
        journal before any page hears of it: an action the journal could not keep is taken
        back and refused. A person's (``seat``) is refused in words that weigh only that
        seat's own options."""
        try:
            self.game.apply(action, seat=seat)
        except IllegalActionError as exc:
            raise Conflict(str(exc)) from None
        if self.journal is not None:
            try:
                self.journal.applied(self, str(action))
            except Exception as exc:
                self.game.undo()
                raise Unavailable(f"the server could not keep the move, so it did not make it ({exc})") from None
        self._touch()

    def undo(self, token: str | None, lang: str = "en") -> None:
        """Take back the seat's last action, where the table allows it (``game.can_undo``;
        why not, in ``lang``)."""
        player = self.seat_for(token)
        if player is None:
            raise Forbidden("a spectator cannot undo")
        self.check_lang(lang)
        allowed = self.game.can_undo(player, lang)
        if not allowed:
            raise Conflict(f"no undo: {allowed.reason}")
        taken = self.game.actions[-1]
        self.game.undo()
        self.generation += 1
        if self.journal is not None:
            try:
                self.journal.undone(self)
            except Exception as exc:
                self.generation -= 1
                self.game.apply(taken)
                raise Unavailable(f"the server could not keep the undo, so it did not make it ({exc})") from None
        self._touch()

    def bot_to_move(self) -> int | None:
        """The first bot seat to move (None: no bot is to move)."""
        if self.game.is_over:
            return None
        for player in self.game.to_move:
            if self.seats[player].bot is not None:
                return player
        return None

    def bots_stopped(self) -> None:
        """The bots have stopped moving (none is to move): wake the pages waiting for that."""
        stopped, self._stopped = self._stopped, None
        if stopped is not None:
            stopped.set()

    async def settled(self, most: float) -> None:
        """Wait (``most`` seconds at most) while the table's bots are moving."""
        if not self.bots_running:
            return
        if self._stopped is None:
            self._stopped = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), most)

    def _touch(self) -> None:
        self.version += 1
        self._pages.clear()
        self._building.clear()  # a page asked from now on shows this change
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
        """What the page of ``player`` (``SPECTATOR``: a spectator) shows now: the entries of
        the seat's log from the cursor ``since`` on (all of them, with ``reset``, when an undo
        happened since ``generation`` or ``since`` is past the log). Built once per version for every page
        asking the same (read it, do not change it)."""
        return self._built(self._key(player, since, lang, generation))[0]

    def page_json(self, player: int | None, since: int = 0, lang: str = "en", generation: int | None = None) -> str:
        """:meth:`page` as JSON text, encoded once per version for every page that asks the
        same (the spectators of a table all follow the same cursor)."""
        return self._built(self._key(player, since, lang, generation))[1]

    async def shared_page(
        self, player: int | None, since: int, lang: str, generation: int | None, draw: BoardDrawer
    ) -> tuple[dict[str, Any], str]:
        """:meth:`page` and its JSON text, the board drawn by ``draw`` (elsewhere: in a worker
        process) while the event loop serves others. Every page asking the same meanwhile waits
        for the same build; a build finished after a change is not kept."""
        key = self._key(player, since, lang, generation)
        known = self._pages.get(key)
        if known is not None:
            return known
        building = self._building.get(key)
        if building is None:
            building = self._building[key] = asyncio.ensure_future(self._drawn(key, draw))
        return await asyncio.shield(building)

    async def _drawn(self, key: PageKey, draw: BoardDrawer) -> tuple[dict[str, Any], str]:
        version, views = self.version, []

        def later(view: GameView) -> str:  # the board is drawn below, off the event loop
            views.append(view)
            return ""

        try:
            page = self._make(key, later)
            page["board"] = await draw(self, views[-1])
            built = page, json.dumps(page, ensure_ascii=False, separators=(",", ":"))
            if self.version == version:
                self._keep(key, built)
            return built
        finally:
            if self.version == version:
                self._building.pop(key, None)

    def _key(self, player: int | None, since: int, lang: str, generation: int | None) -> PageKey:
        self.check_lang(lang)
        reset = generation is not None and generation != self.generation
        return PageKey(player, 0 if reset else since, lang, reset)

    def _built(self, key: PageKey) -> tuple[dict[str, Any], str]:
        """The page of ``key`` and its JSON text, built once per version."""
        known = self._pages.get(key)
        if known is None:
            page = self._make(key, lambda view: render_view(self.rules, view))
            known = (page, json.dumps(page, ensure_ascii=False, separators=(",", ":")))
            self._keep(key, known)
        return known

    def _keep(self, key: PageKey, built: tuple[dict[str, Any], str]) -> None:
        """Keep a page until the next change; the oldest goes first past ``PAGES_KEPT`` (a client
        asking with every ``since`` there is cannot fill the server's memory)."""
        while len(self._pages) >= PAGES_KEPT:
            del self._pages[next(iter(self._pages))]
        self._pages[key] = built

    def _make(self, key: PageKey, draw: Callable[[GameView], str]) -> dict[str, Any]:
        self.builds += 1
        reset = key.reset
        try:
            page = seat_page(self, self.game, key.player, key.since, key.lang, draw)
        except ValueError:  # ``since`` is past the seat's log: the page missed an undo
            page, reset = seat_page(self, self.game, key.player, 0, key.lang, draw), True
        page["reset"] = reset
        if key.player is not None:
            allowed = self.game.can_undo(key.player, key.lang)
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


def seat_page(
    table: Table, game: Game, player: int | None, since: int, lang: str, draw: Callable[[GameView], str] | None = None
) -> dict[str, Any]:
    """The page data of ``player`` at ``game`` (the table's game or a replayed one); ``draw``
    makes the board from the seat's view (default: ``render_view``). ``log``: the entries of
    the seat's human log from ``since`` on (a view's cursor); ``summary``: its labelled
    position; ``items``: ``[{name, text}]`` of the items the options, summary and log name;
    ``score_breakdown`` at the end: ``{seat: {reason: points}}``."""
    view = game.view(player, since=since, lang=lang, names=table.names)
    names = [seat.name for seat in table.seats]
    over = bool(view["over"])
    decision = None if player is None else game.decision(player, lang=lang, names=table.names)
    log = game.log(player, lang=lang, since=since, names=table.names)
    position = summary_of_view(Wording(game.rules, lang, table.names), view)  # (summary() would view it again)
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
        "actions": game.position.actions,  # game.actions would write every action out
        "to_move": view["to_move"],
        "waiting_for": view["waiting_for"],
        "decision": decision,
        "committed": view.get("your_commit") is not None,
        "log": log,
        "cursor": view["cursor"],
        "summary": position["sections"],
        "items": items_named(table.rules, lang, _texts(decision, position["sections"], log)),
        "board": render_view(table.rules, view) if draw is None else draw(view),
        "over": over,
        "winners": [{"player": p, "name": names[p]} for p in view["winners"]],
        "scores": [{"player": p, "name": names[p], "score": s} for p, s in game.scores.items()] if over else [],
        "score_breakdown": game.score_breakdown(lang, table.names) if over else None,
        "lang": lang,
        "public_seed": table.provenance.public_seed,
    }


def _texts(decision: Mapping[str, Any] | None, sections: Sequence[Section], log: Sequence[LogEntry]) -> list[str]:
    """Every text of a page that may name an item."""
    texts = [option["text"] for option in decision["options"]] if decision is not None else []
    texts += [part["value"] for section in sections for part in section["parts"]]
    for entry in log:
        texts += [entry["text"], *entry["details"]]
    return texts


def seat_kind(kind: str) -> str:
    """``human``, or the name of a bot (``bot``: the default bot); BadRequest for others."""
    kind = kind.strip().lower()
    if kind == "bot":
        return DEFAULT_BOT
    if kind == HUMAN or kind in bot_names():
        return kind
    raise BadRequest(f"a seat is {HUMAN!r}, 'bot' or a bot's name ({', '.join(bot_names())}), not {kind!r}")


def seat_bot(kind: str, seed: int, player: int) -> Bot | None:
    """The bot of a seat of ``kind`` (None for a person's) at a game of ``seed``."""
    return None if kind == HUMAN else make_bot(kind, seed=bot_seed(seed, player))


def bot_seed(seed: int, player: int) -> int:
    """The seed of the bot of ``player`` at a game of ``seed``."""
    return seed * 101 + player
