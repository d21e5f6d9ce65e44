"""No import cycle anywhere in scoring/, counting the imports inside functions too: an import
put inside a function to dodge a cycle at start-up is still a circle in the design. And the
cache sits beneath the domains: it imports none of them (they hand it what it warms,
`scoring.cache.warmup.register_warmers`)."""

import ast
from pathlib import Path

from tests.conftest import REPO

SCORING = REPO / "scoring"
# What scoring/cache/ may import of scoring/: itself, the schema and the pure layer.
BENEATH_THE_CACHE = ("scoring.cache", "scoring.models", "scoring.engine")


def module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(SCORING.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(REPO).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(path: Path, module: str, names: dict[str, Path]) -> set[str]:
    """The modules of scoring/ that `module` imports, anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            # `from package import module` imports the module; `from module import name` the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in names else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    names = module_names()
    return {module: imported(path, module, names) for module, path in names.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(start):
        # Iterative, so a long chain of imports cannot exhaust the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_scoring_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 100  # the walk found the package
    found = cycles(graph)
    assert found == [], "\n".join(" ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) for c in found)


def test_the_walk_sees_an_import_inside_a_function():
    graph = import_graph()
    # scoring.cache.announce imports the warmer inside a function (it runs after the commit).
    assert "scoring.cache.warmup" in graph["scoring.cache.announce"]


def test_the_cache_imports_no_domain():
    upward = {
        (module, target)
        for module, targets in import_graph().items()
        if module.startswith("scoring.cache")
        for target in targets
        if not target.startswith(BENEATH_THE_CACHE)
    }
    assert upward == set()


def test_a_cycle_is_found_however_long():
    chain = {f"m{n}": {f"m{n + 1}"} for n in range(2000)}
    chain["m2000"] = {"m0"}
    chain["alone"] = {"m0"}
    assert [len(c) for c in cycles(chain)] == [2001]
    chain["m2000"] = set()
    assert cycles(chain) == []


# Functions outside scoring/cache/ named like a stamp, each with why it is not one.
STAMP_NAMESAKES = {
    "scoring/table_entry/state.py:state_stamp": "hands the hot path's read to cache.stamps.table_state_stamp",
}


def test_every_cache_key_and_stamp_is_defined_in_the_cache():
    """Only scoring/cache/ talks to Django's cache (so every key is built there), and every
    stamp that keys a kept state or answers a conditional GET is defined there."""
    talks_to_the_cache, stamps = [], []
    for path in sorted(SCORING.rglob("*.py")):
        place = str(path.relative_to(REPO))
        if place.startswith("scoring/cache/") or "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("django.core.cache"):
                talks_to_the_cache.append(place)
            if isinstance(node, ast.ImportFrom) and node.module == "django.core":
                talks_to_the_cache += [place for alias in node.names if alias.name == "cache"]
            if isinstance(node, ast.FunctionDef) and "stamp" in node.name and not node.name.startswith("_"):
                stamps.append(f"{place}:{node.name}")
    assert talks_to_the_cache == []
    assert sorted(set(stamps) - set(STAMP_NAMESAKES)) == []
