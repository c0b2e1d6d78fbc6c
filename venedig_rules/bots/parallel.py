"""Root parallelism for search bots: run the same search in forked processes with other
seeds and merge what they found at the root (Chaslot, Winands and van den Herik 2008).

A forked process starts with the parent's memory, so it has the bot's sampler without the
sampler (or the game it came from) being pickled; only the root's statistics travel back,
pickled through a pipe. Forking needs ``os.fork`` (Linux, macOS).

>>> run_forked([lambda: 1, lambda: 2, lambda: 3])
[1, 2, 3]
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

T = TypeVar("T")


class RootStat(NamedTuple):
    """What a search found of one action at the root: its visits and summed reward."""

    visits: int
    reward: float


def can_fork() -> bool:
    """Whether this platform can run workers (``os.fork``)."""
    return hasattr(os, "fork")


def merge(found: Iterable[Mapping[str, RootStat]]) -> dict[str, RootStat]:
    """The root statistics of several searches added up, action by action.

    >>> merge([{"a": RootStat(3, 1.5)}, {"a": RootStat(1, 1.0), "b": RootStat(2, 0.5)}])
    {'a': RootStat(visits=4, reward=2.5), 'b': RootStat(visits=2, reward=0.5)}
    """
    out: dict[str, RootStat] = {}
    for stats in found:
        for key, stat in stats.items():
            had = out.get(key, RootStat(0, 0.0))
            out[key] = RootStat(had.visits + stat.visits, had.reward + stat.reward)
    return out


class WorkerFailed(RuntimeError):
    """A forked search worker raised or died; the message says what it raised."""


def run_forked(jobs: Sequence[Callable[[], T]]) -> list[T]:
    """Each job's result, in order: the first runs in this process, the others each in a
    forked child at the same time. A child's exception is raised here as
    :class:`WorkerFailed` naming it."""
    if len(jobs) > 1 and not can_fork():
        raise WorkerFailed("search workers need os.fork, which this platform lacks: use workers=1")
    children: list[tuple[int, int]] = []
    for job in jobs[1:]:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run, send, and leave without the parent's exit handlers
            os.close(read)
            code = 0
            try:
                try:
                    payload = pickle.dumps((True, job()))
                except BaseException as error:
                    payload, code = pickle.dumps((False, f"{type(error).__name__}: {error}")), 1
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(payload)
            finally:
                os._exit(code)
        os.close(write)
        children.append((pid, read))
    try:
        first = jobs[0]()
    finally:
        answers = []
        for pid, read in children:
            with os.fdopen(read, "rb") as pipe:
                data = pipe.read()
            os.waitpid(pid, 0)
            answers.append(data)
    results = [first]
    for data in answers:
        if not data:
            raise WorkerFailed("a search worker died without an answer")
        ok, value = pickle.loads(data)
        if not ok:
            raise WorkerFailed(f"a search worker failed: {value}")
        results.append(value)
    return results
