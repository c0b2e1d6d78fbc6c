"""Start-up time: a new Python process imports venedig_rules and loads a bundled ruleset
(``python -c "import venedig_rules as vr; vr.load('venedig')"``); prints figures, asserts nothing.

Run: python benchmarks/startup.py [--runs 9] [--baseline REV] [--rulesets venedig saeulen rialto]

For each ruleset, ``--runs`` new processes (interleaved over the rulesets, and with the
baseline's when given, so that the machine's drift hits each alike); for each: the wall time
of the whole process (interpreter start included), its CPU time, and, measured inside it,
the import and the load. Minimum and median of each. The target (issue 17) is a wall time
under 0.35 s on a quiet machine; on a busy one the CPU time and the ratio to the baseline
say more.

``--baseline REV`` extracts that commit (``git archive``) into a temporary folder and times
it with the same interpreter and dependencies; the ratio is this tree's median over the
baseline's. Both trees are byte-compiled first, as an installed wheel is.

Then what each part costs, in this tree: the import by top-level package (``python -X
importtime``, self times summed) and the load step by step (reading the YAML, hashing the
data, the data checks or the manifest that spares them, the DSL's parses, checking and
compiling the DSL), each in a new process.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Timed inside the process: the import, then the load.
TIMED = """
import time
start = time.perf_counter()
import venedig_rules as vr
imported = time.perf_counter()
vr.load({name!r})
print(imported - start, time.perf_counter() - imported)
"""

#: The load, step by step (this tree's modules only).
STEPS = """
import time
clock = time.perf_counter
t0 = clock()
import venedig_rules as vr
from venedig_rules.data.reading import read, rules_hash
from venedig_rules.data.validated import is_validated
from venedig_rules.effects import _dsl_sources, compile_ruleset, parse
from venedig_rules.engine.loading import registry_for
t1 = clock()
raw = read({name!r})
t2 = clock()
digest = rules_hash(raw.data)
t3 = clock()
trusted = is_validated(digest)
errors = [] if trusted else raw.data_errors()
t4 = clock()
for _, text, _ in _dsl_sources(raw.data):
    parse(text)
t5 = clock()
flow = raw.data["game"]["flow"]
compile_ruleset(raw.data, raw.positions, registry_for(flow.get("modules") or []))
t6 = clock()
label = "manifest (known valid)" if trusted else "data checks (schemas, cross-file)"
for part, seconds in [("import venedig_rules", t1 - t0), ("read the YAML", t2 - t1), ("hash the data", t3 - t2),
                      (label, t4 - t3), ("parse the DSL", t5 - t4), ("check and compile the DSL", t6 - t5)]:
    print(part, seconds, sep="\\t")
"""


#: The figures of each run, and how they are printed.
FIGURES = {"wall": "process, wall", "cpu": "process, CPU", "import": "import", "load": "load"}


def run(tree: Path, code: str, *flags: str) -> tuple[float, float, str, str]:
    """(wall seconds, CPU seconds, stdout, stderr) of a new process running ``code`` in ``tree``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *flags, "-c", code], cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"failed in {tree}:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout, proc.stderr


def extract(rev: str, into: Path) -> Path:
    """Commit ``rev`` of this repository, extracted into ``into``."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, check=True, capture_output=True).stdout
    tar_path = into / "tree.tar"
    tar_path.write_bytes(archive)
    tree = into / "tree"
    with tarfile.open(tar_path) as tar:
        tar.extractall(tree, filter="data")
    return tree


def summary(values: list[float]) -> str:
    return f"min {min(values) * 1000:6.0f} ms  median {statistics.median(values) * 1000:6.0f} ms"


def timings(trees: dict[str, Path], rulesets: list[str], runs: int) -> dict[tuple[str, str], dict[str, list[float]]]:
    """Per (tree, ruleset): wall, cpu, import and load seconds of each run, interleaved."""
    found: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for _ in range(runs):
        for name in rulesets:
            for label, tree in trees.items():
                wall, cpu, out, _ = run(tree, TIMED.format(name=name))
                imported, loaded = map(float, out.split())
                figures = found[(label, name)]
                for key, value in (("wall", wall), ("cpu", cpu), ("import", imported), ("load", loaded)):
                    figures[key].append(value)
    return found


def import_parts(tree: Path, name: str, top: int = 8) -> list[tuple[str, float]]:
    """The import's self time summed by top-level package, largest first."""
    _, _, _, err = run(tree, f"import venedig_rules as vr; vr.load({name!r})", "-X", "importtime")
    by_package: dict[str, float] = defaultdict(float)
    for line in err.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, module = line.split(":", 1)[1].split("|")
        by_package[module.strip().split(".")[0]] += int(own) / 1e6
    return sorted(by_package.items(), key=lambda item: -item[1])[:top]


def load_steps(tree: Path, name: str, runs: int) -> dict[str, float]:
    """The median seconds of each step of the load, over ``runs`` new processes."""
    steps: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        _, _, out, _ = run(tree, STEPS.format(name=name))
        for line in out.splitlines():
            part, seconds = line.split("\t")
            steps[part].append(float(seconds))
    return {part: statistics.median(values) for part, values in steps.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="new processes per ruleset and tree (default 9)")
    parser.add_argument("--baseline", metavar="REV", help="also time this commit, interleaved, and print ratios")
    parser.add_argument("--rulesets", nargs="+", default=["venedig", "saeulen", "rialto"])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.baseline:
            trees[f"baseline {args.baseline}"] = extract(args.baseline, Path(tmp))
        for tree in trees.values():
            compileall.compile_dir(tree / "venedig_rules", quiet=1)
            run(tree, "import venedig_rules")  # warm the file cache
        found = timings(trees, args.rulesets, args.runs)

        print(f"import + load of a bundled ruleset in a new process ({args.runs} runs each, interleaved)")
        for name in args.rulesets:
            print(f"\n{name}")
            for label in trees:
                figures = found[(label, name)]
                print(f"  {label}")
                for key, what in FIGURES.items():
                    print(f"    {what:14} {summary(figures[key])}")
            if args.baseline:
                ours, theirs = found[("this tree", name)], found[(list(trees)[1], name)]
                ratios = ", ".join(
                    f"{key} {statistics.median(ours[key]) / statistics.median(theirs[key]):.2f}x"
                    for key in ("wall", "cpu", "import", "load")
                )
                print(f"  this tree / baseline (medians): {ratios}")

    print("\nwhat each part costs, in this tree")
    for name in args.rulesets:
        print(f"\n{name}: the load step by step (median of {min(args.runs, 5)} new processes)")
        for part, seconds in load_steps(ROOT, name, min(args.runs, 5)).items():
            print(f"  {part:36} {seconds * 1000:6.1f} ms")
    print(f"\nthe import by package, self time (python -X importtime, one process, {args.rulesets[0]}):")
    for package, seconds in import_parts(ROOT, args.rulesets[0]):
        print(f"  {package:36} {seconds * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
