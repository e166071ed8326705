"""Hostile input: random and malformed command lines, rule values, strategy specs and plug-in
files never give a traceback: either the command works (exit 0) or it prints one line and
exits with 2, leaving no finished-looking output."""
import string
import uuid

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from cardsim.simulator.cli import main

GAMES = ["fifty-six", "hand-and-foot", "contract-rummy", "bridge", ""]
RULE_KEYS = ["players", "decks", "min_meld", "payout", "max_bid", "hidden_trump", "deals",
             "contracts", "min_run", "ace_low", "pile_take", "books_to_go_out", "nosuch", ""]
JUNK = st.text(alphabet=string.printable, max_size=12)
VALUES = st.one_of(st.sampled_from(["4", "6", "0", "-1", "true", "none", "all", "50,90",
                                    "1/2", "2s:10,3r:12", "28-39:1/2", "1e9", "", "=", ":"]),
                   JUNK)
STRATS = st.one_of(
    st.sampled_from(["random", "evaluator", "early_melder", "0=random", "1=cautious:margin=2",
                     "0=nosuch", "9=random", "random:x=1", "0=", "=random", "a=b",
                     "missing.py:F", "0=evaluator:margin=abc", "lay_down_at_once"]),
    JUNK)


HANDS = st.one_of(st.sampled_from(["7S 7H 7D 9C 9D 9H 2S 5S 8D KC", "JC", "",
                                   "JK JK 2S 2H AS AS AH KS KS KH QS QS QH", "7S,7H 1D"]), JUNK)
CONSTRAINTS = st.one_of(st.sampled_from(["hand1:points:1..5", "hand0:holds=JK", "hand9:suit=H:1",
                                         "hand1:rank=J:0..1", "upcard:holds=JK:3..4",
                                         "hand1:points:5..1", ":::"]), JUNK)


@st.composite
def command_lines(draw):
    cmd = draw(st.sampled_from(["run", "sweep", "compare", "rules", "strategies", "schema",
                                "replay", "hand"]))
    args = [cmd, draw(st.sampled_from(GAMES))]
    if cmd == "hand":
        args += ["--hand", draw(HANDS), "--deals", draw(st.sampled_from(["20", "0", "x"]))]
        for _ in range(draw(st.integers(0, 2))):
            args += ["--constraint", draw(CONSTRAINTS)]
    for _ in range(draw(st.integers(0, 3))):
        args += ["--rule", f"{draw(st.sampled_from(RULE_KEYS))}={draw(VALUES)}"]
    for _ in range(draw(st.integers(0, 2))):
        args += ["--strategy", draw(STRATS)]
    if cmd in ("run", "sweep", "compare"):
        unit = "--deals" if draw(st.booleans()) and cmd == "run" else "--games"
        args += [unit, draw(st.sampled_from(["2", "0", "-3", "x", "4"]))]
    if cmd == "sweep":
        args += ["--vary", f"{draw(st.sampled_from(RULE_KEYS + ['0.hold', 'all.margin']))}="
                           f"{draw(VALUES)}"]
    if cmd == "replay":
        args += ["--game-index", draw(st.sampled_from(["0", "-1", "x"]))]
    if draw(st.booleans()):
        args += [draw(st.sampled_from(["--threads", "--seed", "--chunk-size", "--players",
                                       "--precision", "--backend", "--address"])), draw(VALUES)]
    if cmd in ("run", "sweep", "compare") and draw(st.booleans()):
        # a bad address fails before Ray starts (a well-formed one is refused at once)
        args += ["--backend", draw(st.sampled_from(["local", "ray"])), "--address",
                 draw(st.sampled_from(["nohost", "127.0.0.1:0", "127.0.0.1:1", "a:b:c",
                                       "ray://", ""]))]
    return args


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(command_lines())
@example(["run", "fifty-six", "--deals", "4", "--rule", "players=6"])  # ones that work, too
@example(["sweep", "hand-and-foot", "--games", "2", "--vary", "min_meld=0/0/0/0,50/50/50/50"])
@example(["rules", "contract-rummy"])
@example(["hand", "contract-rummy", "--hand", "7S 7H 7D 9C 9D 9H 2S 5S 8D KC", "--deals", "20",
          "--constraint", "hand1:holds=JK"])
def test_random_command_lines_never_crash(tmp_path, capsys, argv):
    out = tmp_path / uuid.uuid4().hex
    if argv[0] in ("run", "sweep", "compare"):
        argv = argv + ["--out", str(out), "--quiet"]
    elif argv[0] == "replay":
        argv = argv + ["--out", str(out)]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
        raise SystemExit(0)
    err = capsys.readouterr().err
    code = exit_.value.code
    assert code in (0, 2), (argv, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cardsim: error:"), (argv, err)
        assert not (out / "run.json").exists() and not (out / "sweep.json").exists()
        assert not (out / "compare.json").exists()


PLUGIN_BODIES = [
    "",
    "def broken(:\n",
    "import nosuchmodule\n",
    "X_bid = 3\nX_play = 4\n",
    "def X_bid(*a):\n    return 0\ndef X_play(*a):\n    return 0\n",
    "from numba import njit\n@njit\ndef X_bid(a):\n    return 0\n@njit\ndef X_play(a):\n"
    "    return 0\n",
    "raise RuntimeError('boom')\n",
    "X_params = 'not a dict'\n",
]


@pytest.mark.parametrize("body", PLUGIN_BODIES)
def test_malformed_plugin_files_are_one_line(tmp_path, capsys, body):
    plugin = tmp_path / "plug.py"
    plugin.write_text(body)
    with pytest.raises(SystemExit) as exit_:
        main(["run", "fifty-six", "--deals", "5", "--strategy", f"0={plugin}:X",
              "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1 and "plug.py" in err[0], err
