"""venedig-rules: the complete rules of three Venice board games as data, and an engine.

>>> import venedig_rules as vr
>>> vr.bundled()
['rialto', 'saeulen', 'venedig']
>>> rules = vr.load("saeulen")
>>> rules.title, rules.players
('Die Säulen von Venedig', range(2, 7))

The package is in layers, each importing only those below it: ``errors``; ``data`` (rule
files); ``effects`` (the DSL); ``games`` (game primitives); ``engine`` (rulesets and games);
``present`` (text and pictures); then the clients ``bots``, ``testing`` and ``cli``.
``docs/architecture.md`` describes each and how data flows through them.
"""

from ._version import __version__
from .data.reading import bundled, bundled_variants, rules_hash
from .engine.game import Game, NotRecordedError, SaveFileError
from .engine.loading import load, validate
from .engine.ruleset import Ruleset
from .engine.run.notation import Action, ActionSyntaxError, IllegalActionError, parse_action
from .errors import (
    ConstantError,
    CountError,
    DeclarationError,
    DslCompileError,
    DslError,
    DslLeakError,
    DslLimitError,
    DslNameError,
    DslSyntaxError,
    DslTypeError,
    DslValueError,
    DuplicateIdError,
    GameArgumentError,
    InvalidRulesError,
    Location,
    ParamError,
    RuleFileError,
    RuleLimitError,
    RuleReferenceError,
    RuleRuntimeError,
    RulesError,
    SchemaError,
    TextError,
    UnknownRulesetError,
    UnreadDataError,
    VariantError,
    VenedigError,
    YamlError,
)

__all__ = [
    "Action",
    "ActionSyntaxError",
    "ConstantError",
    "CountError",
    "DeclarationError",
    "DslCompileError",
    "DslError",
    "DslLeakError",
    "DslLimitError",
    "DslNameError",
    "DslSyntaxError",
    "DslTypeError",
    "DslValueError",
    "DuplicateIdError",
    "Game",
    "GameArgumentError",
    "IllegalActionError",
    "InvalidRulesError",
    "Location",
    "NotRecordedError",
    "ParamError",
    "RuleFileError",
    "RuleLimitError",
    "RuleReferenceError",
    "RuleRuntimeError",
    "RulesError",
    "Ruleset",
    "SaveFileError",
    "SchemaError",
    "TextError",
    "UnknownRulesetError",
    "UnreadDataError",
    "VariantError",
    "VenedigError",
    "YamlError",
    "__version__",
    "bundled",
    "bundled_variants",
    "load",
    "parse_action",
    "rules_hash",
    "validate",
]
