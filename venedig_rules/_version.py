"""The package version (one place: the wheel and ``venedig_rules.__version__`` read it)."""

__version__ = "0.1.0"
