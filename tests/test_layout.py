"""The package's shape (docs/ARCHITECTURE.md): every module imports alone, and
lower layers never import higher ones.

Layers, lowest first: ``errors`` < ``page`` < ``template`` < ``site`` <
``content`` < ``batch``, ``web``, ``api``, ``evaluate`` < ``cli``. A module may
import its own layer and the ones below, at module level or inside a function.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import temex

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "temex"

LAYERS = {"errors": 0, "demo": 0, "page": 1, "template": 2, "site": 3, "content": 4,
          "batch": 5, "crawler": 5, "web": 5, "api": 5, "evaluate": 5, "cli": 6}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = sorted(module_name(p) for p in PKG.rglob("*.py")
                 if p.name != "__main__.py" and "demo" not in p.relative_to(PKG).parts[:1])


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 else None  # the root package is the top


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every temex import in the file, lazy ones included."""
    mod = module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "temex" or target.startswith("temex."):
                # "from . import x": x may be a sub-module
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    out.append((node.lineno, sub if sub in MODULES else target))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names if a.name.startswith("temex."))
    return out


def test_the_public_api_is_short_and_importable() -> None:
    assert len(temex.__all__) <= 25
    for name in temex.__all__:
        assert getattr(temex, name) is not None, name


def test_lower_layers_never_import_higher_ones() -> None:
    wrong = []
    for path in PKG.rglob("*.py"):
        if path.name == "__main__.py":
            continue
        mine = layer(module_name(path))
        if mine is None:
            continue
        for line, target in imported_modules(path):
            theirs = layer(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{path.relative_to(SRC)}:{line} imports {target}")
    assert not wrong, "layer rule broken:\n" + "\n".join(sorted(wrong))


def test_rule_sees_a_breach() -> None:
    # the checker itself: a page-layer module importing the CLI is caught
    bad = PKG / "page" / "_layout_probe.py"
    bad.write_text("from ..cli import main\n", encoding="utf-8")
    try:
        hits = imported_modules(bad)
        assert any(t.startswith("temex.cli") and layer(t) == 6 for _, t in hits)
    finally:
        bad.unlink()


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone(module: str) -> None:
    """A fresh interpreter imports the module first: an import circle fails here."""
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                       text=True, env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]


NETWORK_STACK = ("aiohttp", "yarl", "multidict", "ssl", "protego", "playwright")


@pytest.mark.parametrize("code", [
    "from temex.cli.main import build_parser; build_parser()",  # temex --help
    "import temex; temex.parse; temex.extract_files; temex.render",  # file extraction
    "import temex.batch.pipeline",  # temex batch
    "import temex.cli.main as m",
    # temex extract FILE --pages-dir DIR, run through the CLI
    "import contextlib, io; from temex.demo import DEMO_SITE; from temex.cli.main import main; "
    "w = DEMO_SITE / 'www'; out = io.StringIO(); ctx = contextlib.redirect_stdout(out); "
    "ctx.__enter__(); rc = main(['extract', str(w / 'index.html'), '--pages-dir', str(w), "
    "'-f', 'content']); ctx.__exit__(None, None, None); assert rc == 0 and out.getvalue()",
])
def test_offline_paths_import_no_network_stack(code: str) -> None:
    """``temex --help``, file extraction and batch start without aiohttp & co.
    (they were half of the start-up time)."""
    probe = f"import sys; {code}; print(sorted(m for m in {NETWORK_STACK!r} if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[]"


def test_help_imports_only_the_cli() -> None:
    """``temex --help`` loads neither the parser nor the detectors, nor
    ``logging`` and ``dataclasses`` (a quarter of its start-up)."""
    probe = ("import sys; from temex.cli.main import build_parser; build_parser(); "
             "print(sorted(m for m in sys.modules if m.startswith(('temex.page', "
             "'temex.template.detectors', 'temex.content.extract', 'selectolax')) "
             "or m in ('logging', 'dataclasses', 'socket')))")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[]"


def test_cheap_defaults_agree_with_their_modules() -> None:
    from temex.content.formats import FORMATS
    from temex.content.render import FORMATS as RENDER_FORMATS
    from temex.site.defaults import DEFAULT_N
    from temex.site.explore import DEFAULT_N as EXPLORE_N
    from temex.template import defaults
    from temex.template.equality import DEFAULT_EQUALITY
    from temex.template.equality import EQUALITIES as RELATIONS

    assert set(defaults.EQUALITIES) == set(RELATIONS)
    assert defaults.DEFAULT_EQUALITY == DEFAULT_EQUALITY and FORMATS is RENDER_FORMATS
    assert DEFAULT_N == EXPLORE_N
    lazy = set(temex.__all__) - set(vars(temex))
    assert all(getattr(temex, name) is not None for name in lazy)
