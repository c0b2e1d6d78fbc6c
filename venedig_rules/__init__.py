"""venedig-rules: the complete rules of three Venice board games as data, and an engine.

>>> import venedig_rules as vr
>>> vr.bundled()
['rialto', 'saeulen', 'venedig']
>>> rules = vr.load("saeulen")
>>> rules.title, rules.players
('Die Säulen von Venedig', range(2, 7))
"""

from .engine import Game, SaveFileError
from .errors import (CountError, DslError, DslNameError, DslSyntaxError, DslTypeError, DuplicateIdError,
                     InvalidRulesError, Location, ParamError, RuleFileError, RuleReferenceError, RuleRuntimeError,
                     RulesError, SchemaError, UnknownRulesetError, VariantError, VenedigError, YamlError)
from .notation import Action, ActionSyntaxError, IllegalActionError, parse_action
from .ruleset import Ruleset, bundled, bundled_variants, load, rules_hash, validate

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionSyntaxError", "Game", "IllegalActionError", "RuleRuntimeError", "SaveFileError",
    "parse_action", "CountError", "DslError", "DslNameError", "DslSyntaxError", "DslTypeError", "DuplicateIdError",
    "InvalidRulesError", "Location", "ParamError", "RuleFileError", "RuleReferenceError", "RulesError",
    "Ruleset", "SchemaError", "UnknownRulesetError", "VariantError", "VenedigError", "YamlError",
    "bundled", "bundled_variants", "load", "rules_hash", "validate", "__version__",
]
