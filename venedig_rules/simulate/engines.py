"""Where a simulation's games are played: in this process, on a pool of local processes,
or on a Ray cluster (:mod:`.ray_engine`); all give the same numbers.

>>> from venedig_rules.simulate.run import Setup, game_seed
>>> setup = Setup("tests/rulesets/lagoon", players=2, bots=("random", "random"), games=4, seed=1)
>>> sim = simulate(setup, jobs=1)
>>> [r.index for r in sim.records], sim.records[0].seed == game_seed(1, 0)
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator

from .run import Batch, Progress, Setup, Simulation, batches, check_setup, gather, play_batch


def simulate(
    setup: Setup, jobs: int | None = None, engine: str = "local", progress: Progress | None = None
) -> Simulation:
    """Play ``setup.games`` games on ``jobs`` processes (default: every core; with
    ``engine="ray"``, every CPU of the Ray cluster) and gather them. Raises
    :class:`~.run.GameFailedError` when a game stops with an error."""
    # read here first: a bad ruleset fails before any process starts
    setup, rules = (setup, setup.rules()) if setup.rules_hash else setup.pinned()
    check_setup(setup, rules)
    if engine == "ray":
        from .ray_engine import run_ray

        done = run_ray(setup, jobs, progress)
    elif engine == "local":
        done = run_local(setup, jobs or os.cpu_count() or 1, progress)
    else:
        raise ValueError(f"unknown engine {engine!r}; expected 'local' or 'ray'")
    return gather(setup, rules, done)


def run_local(setup: Setup, jobs: int, progress: Progress | None = None) -> Iterator[Batch]:
    """The batches of ``setup``, played here (``jobs`` 1) or on a pool of ``jobs`` processes."""
    work = batches(setup.games, jobs)
    if jobs == 1:
        for indices in work:
            yield _reported(play_batch(setup, indices), progress)
        return
    # the workers find the ruleset loaded when forked, or load it once each otherwise
    pool = multiprocessing.get_context().Pool(min(jobs, len(work)), initializer=_leave_interrupts_to_the_parent)
    try:
        for batch in pool.imap_unordered(_play_batch_args, [(setup, indices) for indices in work]):
            yield _reported(batch, progress)
            if batch.failure:
                pool.terminate()
                return
        pool.close()  # all done: the workers end by themselves
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl-C stops the parent, which ends the pool; a worker would only print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_batch_args(args: tuple[Setup, range]) -> Batch:
    return play_batch(*args)


def _reported(batch: Batch, progress: Progress | None) -> Batch:
    if progress is not None:
        progress(len(batch.records))
    return batch
