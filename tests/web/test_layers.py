"""The layers of docs/architecture.md: the web layer (`scoring/web/`, and the admin, which is a
page too) sits on top, with the template tags; nothing below it imports from it. (The pure layer's own rule, no Django
at all, is tests/games/test_engine_is_pure.py.)"""

import ast

from tests.conftest import REPO

WEB = "scoring.web"
# The template tags are the pages' too; Django finds them only at the app's top.
ON_TOP = ("scoring/web/", "scoring/admin.py", "scoring/templatetags/")


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def imports_from_the_web_layer(path):
    return sorted({name for name in imported_modules(path) if name == WEB or name.startswith(WEB + ".")})


def test_nothing_below_the_web_layer_imports_from_it():
    below = [
        path for path in sorted((REPO / "scoring").rglob("*.py")) if not str(path.relative_to(REPO)).startswith(ON_TOP)
    ]
    assert len(below) > 100  # the walk found the tree
    offenders = {str(path.relative_to(REPO)): imports_from_the_web_layer(path) for path in below}
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_check_sees_an_import_from_the_web_layer(tmp_path):
    module = tmp_path / "service.py"
    module.write_text("from scoring.web.client_address import client_ip\nimport scoring.web.forms\n", encoding="utf-8")
    assert imports_from_the_web_layer(module) == ["scoring.web.client_address", "scoring.web.forms"]
