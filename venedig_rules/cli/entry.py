"""``main``: parse the command line, run the subcommand named, and turn every error into one
line on stderr and an exit status."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .._version import __version__
from ..errors import UnknownRulesetError, VenedigError
from .command import Runner, silence_stdout
from .parser import parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. No traceback reaches the user: an
    unexpected exception (a bug) is one line on stderr asking for a report, exit 1.

    >>> main(["list"])  # doctest: +ELLIPSIS
      id       title ...
    0
    """
    top = parser()
    args = top.parse_args(argv)  # a usage error exits 2 (argparse), --help 0
    if not getattr(args, "command", None):
        top.print_help()
        return 2
    run: Runner = args.run
    try:
        return run(args)
    except UnknownRulesetError as exc:  # a ruleset, a file or a value the user named is wrong
        print(f"venedig-rules: error: {exc}", file=sys.stderr)
        return 2
    except VenedigError as exc:  # the rule data or a save has problems: the message says where
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("venedig-rules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say to it
        silence_stdout()
        return 1
    except OSError as exc:  # a file or folder the user named cannot be read or written
        where = f": {exc.filename}" if exc.filename else ""
        print(f"venedig-rules: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except Exception as exc:  # the last guard: a one-line message, never a traceback
        print(_internal_error(exc), file=sys.stderr)
        return 1


def _internal_error(exc: Exception) -> str:
    """The message of a bug: the exception's first line (cut at 200 characters) and a plea."""
    what = str(exc).splitlines()[0][:200] if str(exc) else ""
    return (
        f"venedig-rules: internal error: {type(exc).__name__}{': ' + what if what else ''}\n"
        f"  this is a bug in venedig-rules {__version__}; please report it with the command you ran"
    )
