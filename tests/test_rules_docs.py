"""The project owns its rules: docs/rules/<game>.md names every rule option with the default
`cardsim rules` prints, `cardsim rules GAME` points to that page, and no file in the repository
points outside it (to a folder users of cardsim do not have)."""
from __future__ import annotations

import re
import subprocess
from importlib import import_module
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsim.simulator.cli import cli
from cardsim.simulator.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
# spelled in pieces so that this file does not contain what it looks for
FORBIDDEN = ("../" + "shared", "shared" + "/rules", "shared" + "/design")


def _page(game: str) -> Path:
    return ROOT / "docs" / "rules" / (GAMES[game].rsplit(".", 1)[-1] + ".md")


def _option_lines(text: str) -> dict[str, str]:
    """`name = default` entries of a rules page: lines starting with "- `name = default`"."""
    found = {}
    for m in re.finditer(r"^- `([a-z_0-9]+) = (.*?)`(?: |$)", text, re.M):
        found.setdefault(m.group(1), m.group(2))
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_option_and_its_default_is_on_the_rules_page(game):
    rules = import_module(GAMES[game] + ".rules").RULES
    page = _page(game)
    assert page.is_file(), f"{page.relative_to(ROOT)} is missing"
    documented = _option_lines(page.read_text(encoding="utf-8"))
    for name, default, _allowed, _doc in rules.listing():
        assert name in documented, f"{page.name}: rule option {name!r} is not documented"
        assert documented[name] == default, (
            f"{page.name}: {name} is documented with default {documented[name]!r}, "
            f"`cardsim rules {game}` prints {default!r}")
    extra = set(documented) - set(rules.fields)
    assert not extra, f"{page.name} documents options the game does not have: {sorted(extra)}"


def _repo_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = {ROOT / f for f in out.decode().split("\0") if f}
    files |= set((ROOT / "docs" / "rules").glob("*.md"))  # new pages, before their commit
    return sorted(f for f in files if f.is_file() and ".git" not in f.relative_to(ROOT).parts)


def test_no_file_points_outside_the_repository():
    bad = []
    for f in _repo_files():
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary
        for needle in FORBIDDEN:
            if needle in text:
                line = text[:text.index(needle)].count("\n") + 1
                bad.append(f"{f.relative_to(ROOT)}:{line}: {needle}")
    assert not bad, "references to files outside the repository:\n" + "\n".join(bad)


@pytest.mark.parametrize("game", list(GAMES))
def test_cardsim_rules_names_the_rules_page(game):
    result = CliRunner().invoke(cli, ["rules", game])
    assert result.exit_code == 0, result.output
    named = re.findall(r"docs/rules/[A-Za-z0-9_]+\.md", result.output)
    assert named, f"`cardsim rules {game}` does not name its rules page"
    assert ROOT / named[-1] == _page(game)
    assert (ROOT / named[-1]).is_file()
    assert result.output.rstrip().endswith(named[-1]), "the page is named on the last line"
