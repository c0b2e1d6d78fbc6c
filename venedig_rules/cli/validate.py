"""``venedig-rules validate``: check rule data against the schemas and cross-references, and
with ``--play N`` play quick random games of each target too."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from ..data.reading import FILE_KINDS, bundled, bundled_variants
from ..engine.loading import load, validate
from ..errors import RuleRuntimeError
from .command import Command


class _Target(NamedTuple):
    """One thing ``validate`` checks: a ruleset with variants, and how the report names it."""

    label: str
    ruleset: str | Path
    variants: tuple[str, ...] = ()


class TargetReport(TypedDict):
    """One target in ``validate --format json``: ``{"ok": ..., "targets": [TargetReport, ...]}``."""

    target: str
    ok: bool
    errors: list[dict[str, Any]]  # each as RulesError.to_dict(): file, line, column, code, message
    warnings: list[dict[str, Any]]  # the same; with --strict they are errors, and listed there


class PlayError(NamedTuple):
    """A runtime error found by ``validate --play``, printed and reported like a data error."""

    text: str
    error: RuleRuntimeError

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """The error as ``RulesError.to_dict()`` has it; without a location, at line 0."""
        loc = self.error.location
        where = (
            {"file": loc.file, "line": loc.line, "column": loc.column} if loc else {"file": "", "line": 0, "column": 0}
        )
        return {**where, "code": self.error.code, "message": self.text.removeprefix(f"{loc}: ")}


def arguments(parser: argparse.ArgumentParser) -> None:
    """``PATH ...``, ``--format``, ``--play N`` and ``--strict``."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="ruleset folders, variant files or folders, or bundled ids (default: all bundled); "
        "a bundled id wins over a same-named folder, so write ./venedig for the folder",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument(
        "--play",
        type=int,
        default=0,
        metavar="N",
        help="then play N quick random games of each target (player counts in turn) and report the first "
        "runtime error, located in its rule file",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings (a missing translation, a variant's declassify, ...) as errors: "
        "without it they print after the errors and do not change the exit status",
    )


def run(args: argparse.Namespace) -> int:
    """Check every target; exit 1 when any has a problem."""
    report: list[TargetReport] = []
    for target in _targets(args.paths):
        found = validate(target.ruleset, target.variants)
        errors: list[Any] = [e for e in found if args.strict or not e.warning]
        warnings = [e for e in found if not args.strict and e.warning]
        if not errors and args.play > 0:  # rules that do not load cannot be played
            errors += _play_errors(target, args.play)
        report.append(
            TargetReport(
                target=target.label,
                ok=not errors,
                errors=[e.to_dict() for e in errors],
                warnings=[w.to_dict() for w in warnings],
            )
        )
        if args.format == "text":
            # a DSL error adds its line with a caret; warnings come after the errors
            shown = errors + warnings
            print("\n".join(str(e) for e in shown) if shown else f"{target.label}: ok")
    if args.format == "json":
        print(json.dumps({"ok": all(r["ok"] for r in report), "targets": report}, indent=2, ensure_ascii=False))
    bad, noted = sum(len(r["errors"]) for r in report), sum(len(r["warnings"]) for r in report)
    if (bad or noted) and args.format == "text":
        print(f"{bad} problem(s) found" + (f", {noted} warning(s)" if noted else ""), file=sys.stderr)
    return 1 if bad else 0


def _targets(paths: Sequence[str]) -> list[_Target]:
    """Each thing to validate: the named paths, else every bundled ruleset and variant."""
    if not paths:
        out: list[_Target] = []
        for ident in bundled():
            out.append(_Target(f"rules/{ident}", ident))
            out += [_Target(f"rules/{ident}/variants/{v}.yaml", ident, (v,)) for v in bundled_variants(ident)]
        return out
    targets = []
    for text in paths:
        path = Path(text)
        if path.is_file() and path.stem in FILE_KINDS and (path.parent / "game.yaml").is_file():
            path = path.parent  # a single rule file: check the ruleset it belongs to
        targets.append(_Target(text, str(path) if path != Path(text) else text))
    return targets


def _play_errors(target: _Target, games: int) -> list[PlayError]:
    """The first runtime error of ``games`` quick random games of ``target`` (none or one)."""
    from ..testing.quick_play import play_quick

    rules = load(target.ruleset, target.variants)
    if not rules.playable:
        return []
    found = play_quick(rules, games)
    return [] if found.error is None else [PlayError(found.describe(), found.error)]


COMMAND = Command(
    "validate",
    "Check rule data against the schemas and cross-references; print every problem as file:line:column: code: message.",
    "examples:\n  venedig-rules validate                      # every bundled ruleset and variant\n"
    "  venedig-rules validate rules/venedig        # one ruleset folder\n"
    "  venedig-rules validate my_variant.yaml --format json\n"
    "  venedig-rules validate my_variant.yaml --play 5     # and 5 quick random games\n"
    "  venedig-rules validate my_variant.yaml --strict     # warnings fail too",
    run,
    arguments,
)
