"""venedig-rules: the complete rules of three Venice board games as data, and an engine.

>>> import venedig_rules as vr
>>> vr.bundled()
['rialto', 'saeulen', 'venedig']
>>> rules = vr.load("saeulen")
>>> rules.title, rules.players
('Die Säulen von Venedig', range(2, 7))
"""

from .errors import (CountError, DslError, DslNameError, DslSyntaxError, DslTypeError, DuplicateIdError,
                     InvalidRulesError, Location, ParamError, RuleFileError, RuleReferenceError, RulesError,
                     SchemaError, UnknownRulesetError, VariantError, VenedigError, YamlError)
from .ruleset import Ruleset, bundled, bundled_variants, load, rules_hash, validate

__version__ = "0.1.0"

__all__ = [
    "CountError", "DslError", "DslNameError", "DslSyntaxError", "DslTypeError", "DuplicateIdError",
    "InvalidRulesError", "Location", "ParamError", "RuleFileError", "RuleReferenceError", "RulesError",
    "Ruleset", "SchemaError", "UnknownRulesetError", "VariantError", "VenedigError", "YamlError",
    "bundled", "bundled_variants", "load", "rules_hash", "validate", "__version__",
]
