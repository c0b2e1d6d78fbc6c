"""``python -m venedig_rules``: the same as the ``venedig-rules`` command."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
