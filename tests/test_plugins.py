"""User plug-in strategies from a file: the documented example runs, and a broken file fails
with one line and exit code 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.simulator.errors import UsageError
from tests.helpers_fifty_six import GAME, play_deal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "fifty_six_highcard.py"
CLI = [sys.executable, "-m", "cardsim"]


def test_example_plugin_runs_from_the_cli(tmp_path):
    out = tmp_path / "run"
    p = subprocess.run(CLI + ["run", "fifty-six", "--games", "300", "--strategy",
                              f"0={EXAMPLE}:highcard:min_jacks=1", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["strategies"][0]["params"] == {"min_jacks": 1.0}
    assert info["strategies"][0]["name"].endswith("fifty_six_highcard.py:highcard")
    assert info["strategies"][1]["name"] == GAME.default_strategy == "tuned"  # the default


def test_example_plugin_decides_as_written():
    # seat 0 holds both jacks of spades and opens; highcard then leads its highest card
    hands = ["JS JS 9S 9S AS AS 10S 10S KS KS QH QH",
             "JH JH 9H 9H AH AH 10H 10H KH KH QS QS",
             "JD JD 9D 9D AD AD 10D 10D KD KD QD QD",
             "JC JC 9C 9C AC AC 10C 10C KC KC QC QC"]
    events, row = play_deal(hands, strategies=[f"{EXAMPLE}:highcard"])
    first = next(e for e in events if e["event"] == "call")
    assert (first["value"], first["trump"], first["form"]) == (28, "S", "number_suit")
    assert next(e for e in events if e["event"] == "play")["card"] == "JS"


BROKEN = {
    "missing": ("from numba import njit\n@njit\ndef s_bid(h, n, p, q, l, a, r):\n    return 0\n",
                "does not define s_play"),
    "plain": ("def s_bid(*a):\n    return 0\ndef s_play(*a):\n    return 0\n",
              "not an @njit function"),
    "syntax": ("def s_bid(:\n", "importing it failed"),
    "raises": ("raise RuntimeError('boom')\n", "importing it failed: RuntimeError: boom"),
    "types": ("from numba import njit\n@njit\ndef s_bid(h, n, p, q, l, a, r):\n"
              "    return h.nonexistent\n@njit\ndef s_play(h, n, p, q, l, a, r):\n    return 0\n",
              "does not compile"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_plugin_is_one_line_exit_2(tmp_path, case):
    text, needle = BROKEN[case]
    f = tmp_path / f"{case}.py"
    f.write_text(text)
    p = subprocess.run(CLI + ["run", "fifty-six", "--games", "5", "--strategy", f"0={f}:s",
                              "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not (tmp_path / "out").exists()


def test_missing_file_and_bad_params():
    rules = GAME.rules.resolve({})
    with pytest.raises(UsageError, match="no such file"):
        GAME.resolve_strategies(["0=/nonexistent/x.py:s"], rules)
    with pytest.raises(UsageError, match="no parameter 'depth'"):
        GAME.resolve_strategies([f"0={EXAMPLE}:highcard:depth=2"], rules)
