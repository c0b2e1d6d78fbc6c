"""Shared test helpers."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent
BAD_RULES = TESTS / "bad_rules"


def bundled_copy_with(into: Path, game: str, old: str, new: str, after: str = "") -> tuple[Path, int]:
    """A copy of bundled ruleset ``game``'s rules in ``into`` whose ``game.yaml`` has the first
    ``old`` after the text ``after`` replaced by ``new``; the copy's folder and the line of the
    replacement."""
    root = into / game
    shutil.copytree(TESTS.parent / "rules" / game, root)
    path = root / "game.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index(old, text.index(after))
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return root, text.count("\n", 0, at) + 1


def bundled_with_constant(into: Path, game: str, name: str, value: str) -> tuple[Path, int]:
    """A copy of bundled ruleset ``game``'s rules in ``into`` with constant ``name``'s
    ``value:`` line giving ``value`` (YAML text); the copy's folder and the value's line."""
    text = (TESTS.parent / "rules" / game / "game.yaml").read_text(encoding="utf-8")
    start = text.index(f"\n  {name}:\n")
    at = text.index("\n    value: ", start) + 1
    return bundled_copy_with(into, game, text[at : text.index("\n", at)], f"    value: {value}", f"\n  {name}:\n")


def build_case(case: Path, into: Path) -> Path:
    """The tiny base ruleset with one bad_rules case's files laid over it."""
    target = into / case.name
    shutil.copytree(BAD_RULES / "_base", target)
    for path in case.rglob("*"):
        if path.is_file() and path.name != "expect.yaml":
            dest = target / path.relative_to(case)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, dest)
    return target


@pytest.fixture(autouse=True, scope="session")
def user_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data folder (``XDG_DATA_HOME``) for the whole session: a server a test starts
    keeps its tables there (``serve``'s default ``--db``), never in the user's own folder."""
    folder = tmp_path_factory.mktemp("data_home")
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A writable copy of the tiny valid ruleset."""
    target = tmp_path / "tiny"
    shutil.copytree(BAD_RULES / "_base", target)
    return target


@pytest.fixture
def data_only(tmp_path: Path) -> Path:
    """The test ruleset without its flow: rule data that can be validated, not played."""
    target = tmp_path / "data_only"
    shutil.copytree(TESTS / "rulesets" / "lagoon", target)
    game = target / "game.yaml"
    text = game.read_text()
    game.write_text(text[: text.index("flow:")])
    return target


#: Set by ``.ci/run``, which installs every extra: a test skipped for a missing extra (or
#: browser) then fails, so that CI never passes an extra it did not test.
REQUIRE_EXTRAS = os.environ.get("VENEDIG_RULES_REQUIRE_EXTRAS") == "1"
MISSING_EXTRA = re.compile(
    r"could not import|not installed|needs? the .*extra|\[\w+\] extra|no browser|chromium|playwright|C compiler",
    re.IGNORECASE,
)
#: What CI installs for the extras (module -> extra), and the browser the web tests drive.
EXTRA_MODULES = {
    "matplotlib": "sim",
    "ray": "ray",
    "starlette": "web",
    "uvicorn": "web",
    "playwright": "test",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "numpy": "openspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "pettingzoo",
    "Cython": "compile",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
}


def pytest_sessionstart(session: pytest.Session) -> None:
    if not REQUIRE_EXTRAS:
        return
    missing = [f"{module} ([{extra}])" for module, extra in EXTRA_MODULES.items() if find_spec(module) is None]
    if shutil.which("chromium") is None:
        missing.append("chromium (.ci/install-browser)")
    if missing:
        pytest.exit(f"VENEDIG_RULES_REQUIRE_EXTRAS=1 but these are missing: {', '.join(missing)}", returncode=4)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_EXTRAS and report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
        if MISSING_EXTRA.search(reason):
            report.outcome = "failed"
            report.longrepr = f"skipped for a missing extra, which CI must test: {reason}"


def secrets_of(game: Any, player: int) -> set[str]:
    """The texts of the game's whole state that ``player``'s view does not show (its hidden
    cards): what no page or answer for that seat may contain."""
    seen = json.dumps(game.view(player))
    return {
        text
        for name in game.rules.compiled.state
        for text in state_strings(game.value(name))
        if f'"{text}"' not in seen
    }


def state_strings(value: Any) -> Iterator[str]:
    """Every text in a state value, however deeply nested."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, list, tuple, set, frozenset)):
        for item in value.values() if isinstance(value, dict) else value:
            yield from state_strings(item)


def compiled_sources() -> list[Path]:
    """The source files pyproject.toml lists for compiling (``compiled-modules``), sorted."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compiled-modules"]
    return sorted({path for pattern in patterns for path in root.glob(pattern) if path.name != "__init__.py"})


def runs_compiled(module: Any) -> bool:
    """Whether ``module`` was imported as its compiled extension module, not its ``.py`` file
    (a twin module's compiled-only tests run only then: see tests/test_compiled.py)."""
    return not str(module.__file__).endswith(".py")


def midgame(name: str | Path, players: int, seed: int, actions: int, **options: Any) -> Any:
    """A game of ruleset ``name`` after up to ``actions`` random actions (fewer if it ends);
    ``options`` are ``new_game``'s (``record``, ``keep_events``)."""
    import random

    import venedig_rules as vr

    game = vr.load(name).new_game(players, seed=seed, **options)
    chooser = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))
    return game


def played_out(name: str | Path, players: int, seed: int) -> list[Any]:
    """The events of a random game of ruleset ``name``, played to its end as :func:`midgame`
    chooses (what a test of a compiled walk compares with the same game walked in Python)."""
    game = midgame(name, players, seed, actions=100_000)
    assert game.is_over
    return list(game.events)


@pytest.fixture(scope="module")
def catalog() -> Any:
    """The web server's catalog of the bundled rulesets (the web tests'; needs the web extra)."""
    from venedig_rules.web.catalog import Catalog

    return Catalog()


@pytest.fixture
def lobby(catalog: Any) -> Any:
    """A lobby in memory over that catalog."""
    from venedig_rules.web.lobby import Lobby

    return Lobby(catalog)
