"""Speed-up of ``venedig-rules simulate`` from 1 to 2 processes, and on a local Ray; prints
the figures, asserts nothing.

Run: python benchmarks/simulate_speedup.py [--game venedig] [--players 3] [--games 40] [--repeat 3] [--no-ray]

Each figure is the wall time of a whole simulation through the library (``simulate``),
starting worker processes included, so it is what a designer waits for. The runs are
interleaved (1 job, 2 jobs, Ray, then again) so that the machine's drift hits each alike,
and the best of ``--repeat`` runs is compared (the run least disturbed by other work).
Ray's start (``ray.init``) is timed on its own, once: a cluster that is already running
does not pay it. Every run gives the same report; the script checks that too.

On a shared machine the wall times say little (another process may hold the second core),
so the CPU time of 1 and 2 jobs is printed as well: what 2 jobs cost beyond the work of 1
(starting processes, passing results) is what keeps the speed-up on two free cores below 2.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from venedig_rules.simulate import Setup, balance_report, simulate  # noqa: E402


def timed(run: Callable[[], dict]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of this process and its finished children, the report)."""
    start, cpu = time.perf_counter(), _cpu()
    report = run()
    return time.perf_counter() - start, _cpu() - cpu, report


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="venedig")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true", help="leave Ray out")
    args = parser.parse_args()
    # read once, before any timing: every run then forks a process that has the rules
    setup, rules = Setup(args.game, args.players, ("random",) * args.players, args.games, seed=1).pinned()

    engines: dict[str, Callable[[], dict]] = {
        "1 job": lambda: balance_report(simulate(setup, jobs=1)),
        "2 jobs": lambda: balance_report(simulate(setup, jobs=2)),
    }
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            print("ray is not installed (pip install 'venedig-rules[ray]'): Ray left out")
        else:
            start = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            print(f"ray.init (a local Ray with 2 CPUs): {time.perf_counter() - start:.1f} s, paid once")
            engines["Ray, 2 CPUs"] = lambda: balance_report(simulate(setup, engine="ray"))

    print(
        f"{rules.name}, {args.players} players, {args.games} random games; {os.cpu_count()} cores, "
        f"load average before: {os.getloadavg()[0]:.1f}"
    )
    times: dict[str, list[float]] = {name: [] for name in engines}
    cpu: dict[str, list[float]] = {name: [] for name in engines}
    reports = []
    for _ in range(args.repeat):
        for name, run in engines.items():
            seconds, cpu_seconds, report = timed(run)
            times[name].append(seconds)
            cpu[name].append(cpu_seconds)
            reports.append(report)
    assert all(r == reports[0] for r in reports), "the engines gave different reports"
    base = min(times["1 job"])
    print("wall time (what you wait for; other work on the machine slows it):")
    for name, runs in times.items():
        best = min(runs)
        print(
            f"  {name:12} best {best:6.2f} s ({args.games / best:5.1f} games/s), "
            f"runs {', '.join(f'{t:.2f}' for t in runs)}; speed-up x{base / best:.2f}"
        )
    # CPU time is less disturbed by other work: what 2 jobs cost beyond 1 job's work is what
    # keeps the speed-up on 2 free cores below 2 (the games split evenly, each core does half)
    one, two = min(cpu["1 job"]), min(cpu["2 jobs"])
    print("CPU time (this process and its worker processes; Ray's workers are not counted):")
    print(f"  1 job        best {one:6.2f} s")
    print(f"  2 jobs       best {two:6.2f} s: x{two / one:.2f} the CPU time of 1 job")
    print(f"load average after: {os.getloadavg()[0]:.1f} (above 2, other work shared the 2 cores)")


if __name__ == "__main__":
    main()
