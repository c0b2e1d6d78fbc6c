"""The package's layers: every import runs down the layers, and no modules import each other
in a circle. Every import statement counts, in a function or under ``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "venedig_rules"

#: Each part of the package and its layer: a module may import from its own layer and below.
LAYERS = {
    "venedig_rules._version": 0,
    "venedig_rules.errors": 0,
    "venedig_rules.limits": 0,
    "venedig_rules.data": 1,
    "venedig_rules.effects": 2,
    "venedig_rules.games": 3,
    "venedig_rules.engine": 4,
    "venedig_rules.present": 5,
    "venedig_rules.bots": 6,
    "venedig_rules.adapters": 6,
    "venedig_rules.simulate": 6,
    "venedig_rules.testing": 6,
    "venedig_rules.web": 6,
    "venedig_rules.cli": 7,
    "venedig_rules": 8,  # the public facade: nothing inside imports it
    "venedig_rules.__main__": 9,
}

#: The engine's floors, each a folder (its top modules, ``game``, ``ruleset``, ``loading``,
#: ``startup``, lie in ``engine/`` itself): an engine module may import from its own floor
#: and below.
ENGINE_FLOORS = {
    "venedig_rules.engine.run": 0,  # the machine, its events, states, notation, views, undo history
    "venedig_rules.engine.seat": 1,  # a game's play as a record, and what a seat is told of it
    "venedig_rules.engine.research": 2,  # sampling, observations, the action space
    "venedig_rules.engine": 3,  # the Game, the Ruleset, loading
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str, layers: dict[str, int] = LAYERS) -> int:
    """The layer of the longest part name ``module`` starts with."""
    best = max((name for name in layers if module == name or module.startswith(name + ".")), key=len)
    return layers[best]


def in_engine(module: str) -> bool:
    return module == "venedig_rules.engine" or module.startswith("venedig_rules.engine.")


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The package's own modules that ``module`` imports, anywhere in its text."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # "from pkg import mod" depends on the module, "from pkg import name" on the package
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


@cache
def import_graph() -> nx.DiGraph:
    found = modules()
    graph = nx.DiGraph()
    for module, path in found.items():
        graph.add_node(module)
        for target in imports(module, path, set(found)):
            graph.add_edge(module, target)
    return graph


def test_every_module_has_a_layer():
    for module in modules():
        assert any(module == name or module.startswith(name + ".") for name in LAYERS), module


def test_no_import_circles():
    cycles = list(nx.simple_cycles(import_graph()))
    assert cycles == [], f"import circles: {cycles}"


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_run_down_the_layers(module: str):
    graph = import_graph()
    upward = [target for target in graph.successors(module) if layer(target) > layer(module)]
    assert upward == [], f"{module} (layer {layer(module)}) imports from above: {upward}"


@pytest.mark.parametrize("module", sorted(m for m in modules() if in_engine(m)))
def test_engine_imports_run_down_its_floors(module: str):
    graph = import_graph()
    floor = layer(module, ENGINE_FLOORS)
    upward = [t for t in graph.successors(module) if in_engine(t) and layer(t, ENGINE_FLOORS) > floor]
    assert upward == [], f"{module} (engine floor {floor}) imports from a floor above: {upward}"


def test_the_engine_floors_are_its_folders():
    """Every folder of the engine is a floor, and each floor holds modules."""
    folders = {module_name(init.parent / "__init__.py") for init in (PACKAGE / "engine").glob("*/__init__.py")}
    assert folders == set(ENGINE_FLOORS) - {"venedig_rules.engine"}
    for floor in folders:
        assert any(m.startswith(floor + ".") for m in modules()), f"{floor} holds no module"


def test_each_folder_says_what_lives_there_and_what_it_may_import():
    for init in PACKAGE.glob("*/**/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "May import" in doc, f"{init.relative_to(PACKAGE.parent)} does not say what it may import"


# -- a game's play: one record, reached through its public surface ------------------------------
ENGINE = PACKAGE / "engine"
GAME_MODULE = ENGINE / "game.py"


def private_reaches(tree: ast.AST) -> list[ast.Attribute]:
    """Every ``x._name`` on something other than ``self`` or ``cls`` (dunders aside)."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def declared_by_classes(tree: ast.AST) -> set[str]:
    """The attribute names the module's classes declare: their methods, class attributes,
    slots and what their methods set on ``self``."""
    names: set[str] = set()
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef) and node in cls.body:
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign | ast.Assign) and node in cls.body:
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                names.update(t.id for t in targets if isinstance(t, ast.Name))
                if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets) and node.value is not None:
                    names.update(c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant))
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return names


def game_privates() -> set[str]:
    """The private attributes and methods of ``engine.game.Game``."""
    tree = ast.parse(GAME_MODULE.read_text(encoding="utf-8"))
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    return {name for name in declared_by_classes(game) if name.startswith("_") and not name.startswith("__")}


def test_the_game_keeps_its_play_in_one_declared_record():
    import venedig_rules as vr

    game = vr.load(PACKAGE.parent / "tests" / "rulesets" / "lagoon").new_game(players=2, seed=7)
    _ = game.view(0), game.information_state_string(1), game.sample(0, seed=1)  # what caches something
    assert not hasattr(game, "__dict__") and not hasattr(game.played, "__dict__")
    assert "_play" in game_privates()


@pytest.mark.parametrize(
    "path", sorted(p for p in PACKAGE.rglob("*.py") if p != GAME_MODULE), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_but_the_game_touches_a_games_privates(path: Path):
    """Nothing outside ``engine/game.py`` reads or writes a private member of a Game: the
    engine's modules take its play through ``game.played``. (A module's own classes may
    have members of the same name.)"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    privates = game_privates() - declared_by_classes(tree)
    reaches = [f"line {n.lineno}: {ast.unparse(n)}" for n in private_reaches(tree) if n.attr in privates]
    assert reaches == [], f"{path.relative_to(PACKAGE.parent)} reaches into a Game: {reaches}"


@pytest.mark.parametrize(
    "path", sorted(p for p in ENGINE.rglob("*.py") if p != GAME_MODULE), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_engine_modules_touch_only_their_own_classes_privates(path: Path):
    """In the engine, ``x._name`` on anything but ``self``/``cls`` only for a member a class
    of the same module declares (a copy filling another instance of its own class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = declared_by_classes(tree)
    reaches = [f"line {n.lineno}: {ast.unparse(n)}" for n in private_reaches(tree) if n.attr not in own]
    assert reaches == [], f"{path.relative_to(PACKAGE.parent)} reaches into another module's privates: {reaches}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_tables_keyed_by_games_and_no_dict_tricks(path: Path):
    """What is kept of a game lives in its record: no module keeps a table keyed by objects
    (``WeakKeyDictionary``), and no engine module hangs values on an object's ``__dict__``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "WeakKeyDictionary" not in names, f"{path.relative_to(PACKAGE.parent)} keeps a table keyed by objects"
    if ENGINE in path.parents:
        assert "__dict__" not in names and "vars" not in calls, (
            f"{path.relative_to(PACKAGE.parent)} reaches into an object's __dict__"
        )
