"""Collection for the whole checkout: the adapters' modules import their frameworks (the
optional extras), so their doctests are collected only where those are installed."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    f"venedig_rules/adapters/{module}.py"
    for module, needs in (("openspiel", "pyspiel"), ("pettingzoo", "pettingzoo"), ("seat_env", "pettingzoo"))
    if importlib.util.find_spec(needs) is None
]
