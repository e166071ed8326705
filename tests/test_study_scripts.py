"""The rummy study scripts (scripts/study_*.py) on small runs: they write every table between
the doc's markers, each with the command that reproduces it, and reuse their runs."""
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parents[1] / "scripts"
DOC = ("intro\n<!-- study:begin -->\nold\n<!-- study:end -->\nmiddle\n"
       "<!-- compare:begin -->\nold\n<!-- compare:end -->\nend\n")


def run_twice(tmp_path, script, args):
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    cmd = [sys.executable, str(SCRIPTS / script), *args, "--out", str(tmp_path / "runs"),
           "--update-doc", str(doc)]
    for reused in (False, True):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, p.stderr
        assert ("reusing" in p.stderr) == reused
        assert ("cardsim run" in p.stderr) != reused  # nothing run again the second time
    text = doc.read_text()
    assert "\nold\n" not in text and text.startswith("intro\n") and text.endswith("end\n")
    study, compare = text.split("\nmiddle\n")
    return study, compare


@pytest.mark.parametrize("script", ["study_hand_and_foot.py"])
def test_hand_and_foot_study(tmp_path, script):
    study, compare = run_twice(tmp_path, script, ["--games", "200", "--holds", "0,100"])
    titles = [line for line in study.splitlines() if line.startswith("### ")]
    assert titles == ["### Teams melded by deal turn t",
                      "### How deals end, how long they last, who wins them",
                      "### Wait or meld?", "### Which schedule favours whom"]
    assert study.count("Reproduce:") == 4 and "cardsim analyze min-meld" in study
    assert "cardsim sweep hand-and-foot --vary 0.hold=0,100" in study
    # three schedules x four deals in the melding table, each cell with an interval
    table = study.split("### How deals end")[0]
    rows = [r for r in table.splitlines() if r.startswith("| 50/") or r.startswith("| 0/")]
    assert len(rows) == 12 and all(r.count("[") == 5 for r in rows)
    assert compare.count("### ") == 2 and "old: early_melder" in compare


def test_contract_rummy_study(tmp_path):
    study, compare = run_twice(tmp_path, "study_contract_rummy.py",
                               ["--games", "40", "--buy-values", "0,3"])
    titles = [line for line in study.splitlines() if line.startswith("### ")]
    assert titles == ["### Contracts down by the player's own turn t",
                      "### How deals end, and the first seat's edge", "### The worth of a joker",
                      "### The worth of buying (the rule)",
                      "### The worth of buying (one player's policy)"]
    assert study.count("Reproduce:") == 5 and "cardsim analyze contract-completion" in study
    assert "--vary 0.buy_policy=0,3" in study and "--vary buying=false,true" in study
    # seven contracts, each with its nine turns and an interval in every cell
    table = study.split("### How deals end")[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and "cards)" in r]
    assert len(rows) == 7 and all(r.count("[") == len(
        [0, 1, 2, 4, 6, 8, 10, 15, 20]) for r in rows)
    # jokers dealt: 0, 1 and 2 (two jokers per deck pair) with player-deal counts
    joker = study.split("### The worth of a joker")[1].split("Reproduce:")[0]
    assert "| 0 " in joker and "| 1 " in joker
    assert compare.count("### ") == 2 and "old: lay_down_at_once" in compare
    assert "new: table_reader" in compare
