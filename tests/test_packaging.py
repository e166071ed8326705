"""cardsim installs one import package, ``cardsim``, holding the project's folders: a user's
own ``simulator.py``, ``strategies.py`` or ``analysis.py`` beside their notebook cannot shadow
it, and the version everyone reports is the package metadata's."""
import ast
import json
import os
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import cardsim

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"simulator": "cardsim.simulator", "strategies": "cardsim.strategies",
           "analysis": "cardsim.analysis", "cardsim": "cardsim"}


def project_files():
    for where in ("cardsim", "simulator", "strategies", "analysis", "scripts", "tests",
                  "docs"):
        yield from sorted((ROOT / where).rglob("*.py"))


def test_every_package_folder_is_installed():
    """A folder missing from pyproject's list would be left out of a wheel (an editable
    install would not show it)."""
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = set()
    for folder, name in FOLDERS.items():
        assert cfg["package-dir"][name] == folder
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *rel)))
    assert found == listed


def test_nothing_imports_the_folders_as_top_level_packages():
    bad = []
    for path in project_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            bad += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names
                    if n.split(".")[0] in ("simulator", "strategies", "analysis")]
    assert bad == []


def shadowing_folder(tmp_path: Path) -> Path:
    """A user's working folder whose own modules would break cardsim if it imported them."""
    for name in ("simulator", "strategies", "analysis"):
        (tmp_path / f"{name}.py").write_text(f"raise ImportError('the user\\'s own {name}.py')\n")
    return tmp_path


def test_the_command_and_the_api_work_beside_a_users_modules(tmp_path):
    here = shadowing_folder(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [str(Path(sys.executable).with_name("cardsim")), "run", "fifty-six", "--deals",
           "2000", "--seed", "4", "--quiet", "--out", "cmd"]
    p = subprocess.run(cmd, cwd=here, capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    # python -c puts the working folder first on sys.path, as a notebook does
    code = ("import cardsim, polars as pl\n"
            "r = cardsim.simulate('fifty-six', deals=2000, seed=4)\n"
            "d = pl.read_parquet(sorted(__import__('pathlib').Path('cmd').glob('deals-*')))\n"
            "print(r.deals.equals(d), r.deals.height)\n"
            "import sys; print(sys.modules['simulator'] if 'simulator' in sys.modules "
            "else 'not imported')\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=here, capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:2] == ["True 2000", "not imported"]
    p = subprocess.run([sys.executable, "-m", "cardsim", "rules", "hand-and-foot"], cwd=here,
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0 and "min_meld" in p.stdout, p.stderr


def test_version_comes_from_the_package_metadata(tmp_path):
    v = version("cardsim")
    assert cardsim.__version__ == v
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert v == pyproject  # an editable install made from this checkout
    p = subprocess.run([sys.executable, "-m", "cardsim", "--version"], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split()[-1] == v, p.stdout + p.stderr
    cardsim.simulate("fifty-six", deals=200, seed=1, out=tmp_path / "run")
    assert json.loads((tmp_path / "run" / "run.json").read_text())["package_version"] == v
    assert cardsim.simulate("fifty-six", deals=200, seed=1).info["package_version"] == v


def test_the_changelog_names_this_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {cardsim.__version__}" in text


def _imports(path: Path, modules: dict) -> set:
    """The cardsim modules a file imports, at its top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cardsim"):
            for a in node.names:
                full = f"{node.module}.{a.name}"
                out.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("cardsim"))
    return {m for m in out if m in modules}


def test_no_import_cycles():
    """No two modules of cardsim import each other, directly or through others (counting
    imports inside functions: a cycle there still ties the two modules together)."""
    modules = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            modules[".".join((package, *parts))] = path
    graph = {m: _imports(p, modules) - {m} for m, p in modules.items()}

    def reaches(start, goal, seen):
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and not seen.add(nxt)
                               and reaches(nxt, goal, seen)):
                return True
        return False

    cycles = sorted(m for m in graph if reaches(m, m, set()))
    assert cycles == []
