"""How loading scales with the size of a rule file; prints figures, asserts nothing.

Run: python benchmarks/load_scaling.py [--sizes 1000,4000,18000] [--repeat 3]

It writes the tiny test ruleset (tests/bad_rules/_base) with a cards.yaml of N cards (18000
cards is about 1 MB, a quarter of the largest rule file read, venedig_rules.limits
.MAX_FILE_BYTES) and loads it, the sizes interleaved in each round so a busy machine slows
them alike. For each size it prints the best time of each stage (YAML with positions; read
with the schemas; the checks across files; the whole load) in microseconds per card, and
the ratio of each size's whole load per card to the smallest size's: near 1 is linear.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import venedig_rules as vr  # noqa: E402
from venedig_rules.data import checks, reading, yamlsource  # noqa: E402

STAGES = ("yaml", "read+schema", "checks", "load")


def make(folder: Path, cards: int) -> Path:
    root = folder / f"cards{cards}"
    shutil.copytree(ROOT / "tests" / "bad_rules" / "_base", root)
    lines = [f"  - {{id: c{i}, name: Card {i}, count: 1, component: card}}" for i in range(cards)]
    (root / "cards.yaml").write_text("cards:\n" + "\n".join(lines) + "\n")
    components = (root / "components.yaml").read_text().replace("count: 6", f"count: {cards}")
    (root / "components.yaml").write_text(components)
    return root


def stages(root: Path) -> dict[str, float]:
    """Seconds of each stage for one ruleset."""
    times = {}
    start = time.perf_counter()
    yamlsource.load(root / "cards.yaml")
    times["yaml"] = time.perf_counter() - start
    start = time.perf_counter()
    raw = reading.read(root)
    raw.read_errors()
    times["read+schema"] = time.perf_counter() - start
    start = time.perf_counter()
    checks.check(raw.data, raw.positions)
    times["checks"] = time.perf_counter() - start
    start = time.perf_counter()
    vr.load(root)
    times["load"] = time.perf_counter() - start
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,4000,18000", help="card counts, comma separated")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (each size once per round)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    vr.load(ROOT / "tests" / "bad_rules" / "_base")  # builds the DSL parser and the schemas once
    with tempfile.TemporaryDirectory() as tmp:
        roots = {n: make(Path(tmp), n) for n in sizes}
        best: dict[int, dict[str, float]] = {n: dict.fromkeys(STAGES, float("inf")) for n in sizes}
        for _ in range(args.repeat):
            for n in sizes:
                for stage, seconds in stages(roots[n]).items():
                    best[n][stage] = min(best[n][stage], seconds)
        print(f"{'cards':>7} {'bytes':>9}  " + "  ".join(f"{s + ' us/card':>18}" for s in STAGES) + "  ratio")
        base = best[sizes[0]]["load"] / sizes[0]
        for n in sizes:
            size = (roots[n] / "cards.yaml").stat().st_size
            per = {s: best[n][s] / n * 1e6 for s in STAGES}
            ratio = best[n]["load"] / n / base
            print(f"{n:>7} {size:>9}  " + "  ".join(f"{per[s]:>18.1f}" for s in STAGES) + f"  {ratio:5.2f}")
            print(f"{'':>17}whole load: {best[n]['load']:.2f} s")


if __name__ == "__main__":
    main()
