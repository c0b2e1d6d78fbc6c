"""Where the server's bots think and its boards are drawn: off the event loop, in worker
processes, so that neither a bot that searches nor the drawing of a board (the largest part of
a page, and of the work a move causes) holds up the other tables' pages. A board is drawn from
the seat's view, as the page would draw it.

A bot is sent what its seat may know and nothing more: a *sample* of its seat's
information set (``game.sample(player, seed)``: the seat's view is the real game's view,
JSON for JSON, and everything the seat cannot see is drawn anew), with the legal actions.
The worker asks the bot as :func:`~venedig_rules.bots.decide` does, from the sample's view
and from further samples of the sample. The real game, its seed and the other hands never
leave the server's process. A worker loads each ruleset once (``Catalog.source`` says how)
and receives the sample pickled without its ruleset.

A bot that neither reads its view nor searches (``random``) picks on the event loop: its
pick costs less than sending it anywhere. A decision with one legal action is taken at once.

>>> from venedig_rules.web.catalog import Catalog
>>> from venedig_rules.web.tables import Table
>>> catalog = Catalog()
>>> table = Table.new(catalog, "saeulen", (), players=2, kinds=["greedy", "greedy"], seed=3)
>>> pool = BotPool(catalog, workers=0)           # 0: a thread of this process
>>> import asyncio
>>> action = asyncio.run(pool.choose(table, table.game.to_move[0]))
>>> action in table.game.legal_actions(action.player)
True
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import anyio.to_thread

from ..bots import decide, make_bot, reads_view
from ..engine.loading import load
from ..engine.ruleset import Ruleset
from ..engine.run.notation import Action, parse_action
from ..engine.run.ruleset_base import RulesetBase
from ..engine.run.views import GameView
from ..present.render import render_view
from .catalog import Catalog
from .tables import Table, bot_seed

_log = logging.getLogger(__name__)

#: The most worker processes a server starts by default (each holds every ruleset it met).
MAX_WORKERS = 4


def default_workers() -> int:
    """Worker processes for bots: one core is left to the event loop (at least one worker)."""
    return max(1, min(MAX_WORKERS, (os.cpu_count() or 2) - 1))


class Job(NamedTuple):
    """What a worker needs to let a bot pick: how to load the ruleset, the bot's kind and
    seed, its seat, the sample of the seat's information set (pickled without its
    ruleset), and the legal actions' texts."""

    source: str | Path
    variants: tuple[str, ...]
    rules_hash: str
    kind: str
    seed: int
    player: int
    sample: bytes
    actions: tuple[str, ...]


class Board(NamedTuple):
    """What a worker needs to draw a board: how to load the ruleset, and the seat's view."""

    source: str | Path
    variants: tuple[str, ...]
    rules_hash: str
    view: GameView


_Job = TypeVar("_Job", Job, Board)


class BotPool:
    """Lets the tables' bots pick their actions in ``workers`` processes (0: in a thread of
    this process, for tests and scripts). Start it lazily; :meth:`close` stops the workers."""

    def __init__(self, catalog: Catalog, workers: int | None = None):
        self.catalog = catalog
        self.workers = default_workers() if workers is None else workers
        self._executor: ProcessPoolExecutor | None = None

    async def choose(self, table: Table, player: int) -> Action:
        """The action of the bot at ``player``'s seat, which is to move now."""
        game = table.game
        bot = table.seats[player].bot
        if bot is None:
            raise ValueError(f"{table.seats[player].name} is a person's seat")
        actions = game.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        if not thinks(bot):  # gets no view: decide builds none
            return decide(bot, game, player, None, actions)
        seed = _derived(bot_seed(game.seed, player), game.position.actions)
        source, variants = self.catalog.source(table.key)
        job = Job(
            source,
            variants,
            table.rules.rules_hash,
            table.seats[player].kind,
            seed,
            player,
            _pickled(game.sample(player, _derived(seed, "sample"))),
            tuple(str(action) for action in actions),
        )
        text = await self._run(job)
        action = parse_action(text)
        if action not in actions:
            raise RuntimeError(f"the bot at {table.seats[player].name} picked {text!r}, which is not legal")
        return action

    async def draw(self, table: Table, view: GameView) -> str:
        """The table's board as a page shows it (``render_view``), from the seat's view: in a
        worker, as the board costs more than everything else a move does at the server."""
        if self.workers == 0:
            return render_view(table.rules, view)
        source, variants = self.catalog.source(table.key)
        try:
            return await self._in_worker(draw, Board(source, variants, table.rules.rules_hash, view))
        except Exception:  # the workers cannot draw it (lost twice, a rule file changed): the page still comes
            _log.exception("a worker could not draw a board of table %s; drawn here", table.ident)
            return render_view(table.rules, view)

    def start(self) -> None:
        """Start the worker processes now (a server's start-up), not at the first page."""
        if self.workers:
            pool = self._pool()
            for _ in range(self.workers):
                pool.submit(_as_worker)

    async def _run(self, job: Job) -> str:
        if self.workers == 0:
            return await anyio.to_thread.run_sync(think, job)
        return await self._in_worker(think, job)

    async def _in_worker(self, task: Callable[[_Job], str], job: _Job) -> str:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), task, job)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start new ones once
            self._executor = None
            return await loop.run_in_executor(self._pool(), task, job)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_as_worker
            )
        return self._executor

    def close(self) -> None:
        """Stop the worker processes once the work they have begun is done (what waits in the
        queue is dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def thinks(bot: Any) -> bool:
    """Whether ``bot`` reads its view or searches on samples: worth sending to a worker."""
    return reads_view(bot) or hasattr(bot, "act_with_samples")


def draw(board: Board) -> str:
    """The SVG of a board (run in a worker process)."""
    return render_view(_rules(board.source, board.variants, board.rules_hash), board.view)


def think(job: Job) -> str:
    """The text of the action the bot of ``job`` picks (run in a worker process)."""
    rules = _rules(job.source, job.variants, job.rules_hash)
    sample = _Unpickler(io.BytesIO(job.sample), rules).load()
    actions = [parse_action(text) for text in job.actions]
    return str(decide(make_bot(job.kind, seed=job.seed), sample, job.player, None, actions))


#: The rulesets a worker has loaded, by source and variants.
_LOADED: dict[tuple[str | Path, tuple[str, ...]], Ruleset] = {}


def _rules(source: str | Path, variants: tuple[str, ...], rules_hash: str) -> Ruleset:
    rules = _LOADED.get((source, variants))
    if rules is None:
        rules = _LOADED[source, variants] = load(source, list(variants))
    if rules.rules_hash != rules_hash:  # a designer's file changed on disk since the server loaded it
        raise RuntimeError(f"the rules of {rules.name} changed on disk; restart the server")
    return rules


class _Pickler(pickle.Pickler):
    """Pickles a game without its ruleset (the worker has its own copy)."""

    def persistent_id(self, obj: Any) -> str | None:
        return "rules" if isinstance(obj, RulesetBase) else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: io.BytesIO, rules: Ruleset):
        super().__init__(data)
        self.rules = rules

    def persistent_load(self, pid: Any) -> Any:
        if pid != "rules":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.rules


def _pickled(game: Any) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(game)
    return out.getvalue()


def _derived(seed: int, tag: object) -> int:
    """A 64-bit seed from ``seed`` and ``tag`` that tells nothing of ``seed``."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{tag}".encode()).digest()[:8], "big")


def _as_worker() -> None:
    """A worker's start. Ctrl+C stops the server, which stops the workers: they do not
    print it themselves. A server that dies without stopping them (``kill -9``, out of
    memory) ends them too: each waits on its queue, which it holds a writing end of
    itself, so without a watch on the server it would wait for ever, its ruleset loaded."""
    global _watching
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server = multiprocessing.parent_process()
    if server is not None and not _watching:
        _watching = True
        threading.Thread(target=_end_with, args=(server.sentinel,), name="server-watch", daemon=True).start()


#: Whether this worker watches its server already (:func:`_as_worker` runs again as a task
#: when the server starts its workers, see :meth:`BotPool.start`).
_watching = False


def _end_with(sentinel: int) -> None:
    """Wait until the process ``sentinel`` belongs to has ended, then end this one."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


async def run_bots(table: Table, pool: BotPool, delay: float) -> None:
    """Let the table's bots move while one of them is to move. A bot thinks in the pool on its
    seat's sample; when the game changed meanwhile (a person's simultaneous commit or undo),
    it thinks again."""
    table.bots_running = True
    try:
        while True:
            if delay:
                await asyncio.sleep(delay)
            player = table.bot_to_move()
            if player is None:
                return
            version = table.version
            action = await pool.choose(table, player)
            if table.version == version:
                table.apply(action)
    except Exception:  # the table's next request starts them again; the server goes on
        _log.exception("the bots of table %s stopped", table.ident)
    finally:
        table.bots_running = False
        table.bots_stopped()
