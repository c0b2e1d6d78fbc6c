"""Every error venedig-rules raises, in one hierarchy.

Each class subclasses the builtin that fits (mostly :class:`ValueError`) and carries a
stable ``code`` that tools may match on; the code never changes once released.

Rule-data errors know where they happened and print as
``file:line:column: code: message``:

>>> err = RuleReferenceError("unknown building 'palazo' (did you mean 'palazzo'?)",
...                          Location("rules/venedig/cards.yaml", 12, 7))
>>> print(err)
rules/venedig/cards.yaml:12:7: rules/reference: unknown building 'palazo' (did you mean 'palazzo'?)
>>> isinstance(err, ValueError), err.code
(True, 'rules/reference')

A load collects every problem and raises one :class:`InvalidRulesError` listing them all.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import NamedTuple


class Location(NamedTuple):
    """A place in a file: 1-based line and column. ``line`` 0 means the whole file.

    (A named tuple, cheap to make: a :class:`~venedig_rules.data.positions.PositionMap` keeps
    each value's place as a plain tuple and makes a ``Location`` of it when asked.)
    """

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class VenedigError(Exception):
    """Base of every error raised by venedig-rules."""

    code = "venedig"


class RulesError(VenedigError, ValueError):
    """A problem in rule data, with its location.

    ``detail`` holds optional extra lines (a source excerpt with a caret) shown under
    the message when the error is printed alone.
    """

    code = "rules"
    #: Whether this is a warning: printed after the errors, it does not stop a load nor
    #: change ``validate``'s exit status (unless ``validate --strict``).
    warning = False

    def __init__(self, message: str, location: Location | None = None, detail: str = ""):
        super().__init__(message)
        self.message = message
        self.location = location or Location("<unknown>")
        self.detail = detail

    def line(self) -> str:
        """The one-line form ``file:line:column: code: message``."""
        return f"{self.location}: {self.code}: {self.message}"

    def sort_key(self) -> tuple[Location, str, str]:
        return (self.location, self.code, self.message)

    def to_dict(self) -> dict[str, str | int]:
        """JSON-safe form, as printed by ``venedig-rules validate --format json``."""
        loc = self.location
        return {"file": loc.file, "line": loc.line, "column": loc.column, "code": self.code, "message": self.message}

    def __str__(self) -> str:
        return self.line() + (("\n" + self.detail) if self.detail else "")


class YamlError(RulesError):
    """A rule file is not well-formed YAML, uses an unsafe tag, repeats a key or expands too far."""

    code = "rules/yaml"
    #: Whether the file's data was still read whole (a repeated key: its first value is
    #: kept), so later stages may run on it.
    kept = False


class RuleFileError(RulesError):
    """A rule file or folder is missing, unreadable, or has a name that is not a file kind."""

    code = "rules/file"


class SchemaError(RulesError):
    """A rule file does not have the shape its JSON Schema requires."""

    code = "rules/schema"
    #: Whether the value has the wrong shape (a type, a required key missing, none of its
    #: allowed forms), not only a wrong value: no later stage runs on such data.
    shape = False


class RuleReferenceError(RulesError):
    """An id refers to nothing that is defined."""

    code = "rules/reference"


class DuplicateIdError(RulesError):
    """The same id is defined twice."""

    code = "rules/duplicate"


class CountError(RulesError):
    """Counts that must agree do not (a deck against its component, pieces against the board)."""

    code = "rules/count"


class RuleLimitError(RulesError):
    """Rule data past a limit of :mod:`venedig_rules.limits` that no game could start with
    (more cards of a kind than a list holds, a board of too many spaces); the message names
    the limit."""

    code = "rules/limit"


class ParamError(RulesError):
    """An item's params do not match what game.yaml declares for its kind."""

    code = "rules/param"


class VariantError(RulesError):
    """A variant overlay cannot be applied (unknown base, patch of a missing id, ...)."""

    code = "rules/variant"


class DeclarationError(RulesError):
    """A decision label or rule event the rules use without declaring it in game.yaml, or a
    declared type written wrongly."""

    code = "rules/declaration"


class TextError(RulesError):
    """A text people read is missing (a name, a prompt, a sentence, a language's entry) or
    its template names a field or format its place does not have."""

    code = "rules/text"


class DslError(RulesError):
    """A problem in an effect DSL string."""

    code = "dsl"


class DslSyntaxError(DslError):
    """DSL text that does not parse."""

    code = "dsl/syntax"


class DslNameError(DslError):
    """A DSL name that is bound to nothing."""

    code = "dsl/name"


class DslTypeError(DslError, TypeError):
    """A DSL call with the wrong number or types of arguments."""

    code = "dsl/type"


class DslLimitError(DslError):
    """A DSL program that would pass a limit whatever happens in play (``repeat 1000000``,
    ``range(0, 100000000)``, a number past the largest allowed): see docs/errors.md."""

    code = "dsl/limit"


class DslValueError(DslError):
    """A DSL expression that fails whatever happens in play (``x // 0``)."""

    code = "dsl/value"


class DslCompileError(DslError):
    """A checked DSL program the compiler cannot write as Python: a fault of venedig-rules
    (the checker passes only what the compiler can write), located at the DSL statement or
    expression it could not write."""

    code = "dsl/compile"


class RulesWarning(RulesError):
    """Something in rule data a designer should look at that does not stop the rules from
    loading and playing (see :attr:`RulesError.warning`).

    >>> print(RulesWarning("a note", Location("v.yaml", 3, 5)))
    v.yaml:3:5: warning: rules/warning: a note
    """

    code = "rules/warning"
    warning = True

    def line(self) -> str:
        """The one-line form ``file:line:column: warning: code: message``."""
        return f"{self.location}: warning: {self.code}: {self.message}"


class DeclassifyWarning(RulesWarning):
    """A variant's ``declassify(value, "quote")``: it shows a secret on the word of its quote,
    which no check can verify, so ``validate`` shows the quote for a person to judge."""

    code = "dsl/declassify"


class NeverRunWarning(RulesWarning):
    """A scoring rule whose ``when`` no ``trigger(...)`` of the rules names: it would never
    run (a misspelt ``when``, most often; the message says which words are triggered)."""

    code = "rules/never-runs"


class TextMissingWarning(RulesWarning):
    """A text the ruleset's first language has and another language lacks (a name, a word,
    a decision's texts, an event's sentence, ...): in play that language shows the first
    language's text, so a designer who writes one language can validate and play."""

    code = "rules/text-missing"


class UnreadDataError(RulesError):
    """A game constant or item param that nothing reads: no DSL, no game module."""

    code = "rules/unread"


class ConstantError(RulesError):
    """A game constant's value is not what the game module reading it needs (a whole
    number, true or false, a board track's id, ...)."""

    code = "rules/constant"


class DslLeakError(DslError):
    """A value secret to some seat reaches what that seat sees (the flow's path in the message)."""

    code = "dsl/leak"


class InvalidRulesError(RulesError):
    """Every problem found while loading a ruleset, sorted by location.

    >>> e = InvalidRulesError([SchemaError("b", Location("x.yaml", 2, 1)),
    ...                        YamlError("a", Location("x.yaml", 1, 5))])
    >>> print(e)
    x.yaml:1:5: rules/yaml: a
    x.yaml:2:1: rules/schema: b
    >>> [err.code for err in e.errors]
    ['rules/yaml', 'rules/schema']
    """

    code = "rules/invalid"

    def __init__(self, errors: Iterable[RulesError]):
        self.errors = sorted(errors, key=RulesError.sort_key)
        first = self.errors[0].location if self.errors else None
        super().__init__(f"{len(self.errors)} problem(s) in rule data", first)

    def __str__(self) -> str:
        return "\n".join(err.line() for err in self.errors)


class RuleRuntimeError(VenedigError, ValueError):
    """A rule asked for something impossible while playing (a bug in the rule data).

    ``location`` is the file:line:column of the statement that ran (``None`` until the
    machine locates it); once located the error prints as ``location: message``.
    ``offset`` is where that statement starts in its DSL text, when the compiled code
    knows it (the machine turns it into ``location``).

    >>> err = RuleRuntimeError("'//' by zero")
    >>> err.location = Location("rules/x/game.yaml", 14, 11)
    >>> print(err)
    rules/x/game.yaml:14:11: '//' by zero
    """

    code = "play/rule"

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.offset: int | None = None

    @classmethod
    def of(cls, exc: Exception) -> RuleRuntimeError:
        """``exc`` as a rule error: itself when it is one, else a rule error that names the
        Python error a rule caused (``TypeError: ...``), with that error as its cause."""
        if isinstance(exc, RuleRuntimeError):
            return exc
        error = cls(f"{type(exc).__name__}: {exc}")
        error.__cause__ = exc
        return error

    def __str__(self) -> str:
        return self.message if self.location is None else f"{self.location}: {self.message}"


class GameArgumentError(VenedigError, ValueError, TypeError):
    """A game was asked something with an argument it cannot take: a seat that is not in
    the game (``view(True)``, ``view(99)``, ``view("0")``), a negative ``since``, a player
    count the rules do not allow, a seed that is not a whole number of at most
    ``limits.MAX_SEED_BITS`` bits. Nothing changed."""

    code = "play/argument"


class NoConsistentDealError(VenedigError, RuntimeError):
    """``game.sample(player, seed)`` found no deal of what the seat cannot see that is
    consistent with what it has seen, within the deals it may try (a seat that is asked
    must have an option in the deal). The sample is refused: the true hidden state is
    never handed out in its place. Nothing changed; another seed may succeed.

    >>> NoConsistentDealError("no deal").code
    'play/no_deal'
    """

    code = "play/no_deal"


class UnknownRulesetError(VenedigError, LookupError):
    """No bundled ruleset, variant or path has the name asked for."""

    code = "rules/not_found"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A `` (did you mean 'x'?)`` suffix for the closest choice, or ``""``.

    >>> did_you_mean("palazo", ["casa", "palazzo"])
    " (did you mean 'palazzo'?)"
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
