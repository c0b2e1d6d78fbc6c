"""``venedig-rules serve``: the web front end. Its options live with the server
(:mod:`venedig_rules.web.serve`), which imports the web libraries only when it starts."""

from __future__ import annotations

import argparse

from ..web.serve import EXAMPLES, add_arguments
from .command import Command


def run(args: argparse.Namespace) -> int:
    """Serve until stopped."""
    from ..web.serve import run as serve

    return serve(args)


COMMAND = Command(
    "serve",
    "Play in the browser: the lobby, each seat's page and spectators' pages "
    '(needs the web extra: pip install ".[web]" from a checkout).',
    EXAMPLES,
    run,
    add_arguments,
)
