"""Playing a simulation's batches on a Ray cluster (the ``ray`` extra): the same batches
as on local processes, so the same numbers.

Ray is joined where ``RAY_ADDRESS`` points, or started on this machine when nothing is
running; a Ray this process already started (``ray.init(...)``) is used as it is. Every
node needs venedig-rules installed, and rule files given by path must be at the same path
on every node (bundled ids always work).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

from .run import Batch, Progress, Setup, batches, play_batch


def run_ray(setup: Setup, jobs: int | None, progress: Progress | None = None) -> Iterator[Batch]:
    """The batches of ``setup`` played as Ray tasks, at most ``jobs`` at once (default: the
    cluster's CPUs)."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            address=os.environ.get("RAY_ADDRESS"),
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    try:
        width = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        task = ray.remote(play_batch)
        todo = iter(batches(setup.games, width))
        running: list[Any] = []
        while True:
            running += [task.remote(setup, indices) for indices in _take(todo, width - len(running))]
            if not running:
                return
            ready, running = ray.wait(running, num_returns=1)
            batch: Batch = ray.get(ready[0])
            if progress is not None:
                progress(len(batch.records))
            yield batch
            if batch.failure:
                for ref in running:
                    ray.cancel(ref)
                return
    finally:
        if started:
            ray.shutdown()


def _take(items: Iterator[range], n: int) -> list[range]:
    return [item for _, item in zip(range(n), items)]
