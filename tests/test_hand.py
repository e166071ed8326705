"""`cardsim hand` (simulator.api.hand): a hand's chances over random deals of the other cards.
Contract Rummy: the chance the contract is down by each own turn, of going out first, the
expected penalty; Hand and Foot: the chance the team has made the minimum meld by each own
turn, of going out first, the expected deal score."""
import json
import subprocess
import sys

import pytest

from cardsim.simulator.api import hand

CLI = [sys.executable, "-m", "cardsim"]
TWO_SETS = "7S 7H 7D 9C 9D 9H 2S 5S 8D KC"  # contract 1 (two sets) already held
LOOSE = "7S 7H 2D 9C QD 4H 2S 5S 8D KC"


def test_a_hand_holding_its_contract_is_down_at_once():
    r = hand("contract-rummy", TWO_SETS, deals=400, strategies=["lay_down_at_once"], seed=3)
    assert r["deals"] == 400
    assert r["rows"][0]["turn"] == 1 and r["rows"][0]["down_rate"] == 1.0
    assert r["rows"][0]["hi"] >= 1.0 - 1e-9 and r["rows"][0]["lo"] > 0.98


def test_the_table_rises_with_the_turn_and_reproduces():
    a = hand("contract-rummy", LOOSE, deals=600, seed=5, threads=1)
    b = hand("contract-rummy", LOOSE, deals=600, seed=5, threads=2)
    assert a == b
    rates = [r["down_rate"] for r in a["rows"]]
    assert rates == sorted(rates) and rates[0] < rates[-1]
    assert all(r["lo"] <= r["down_rate"] <= r["hi"] for r in a["rows"])
    assert 0 <= a["went_out_lo"] <= a["went_out_rate"] <= a["went_out_hi"] <= 1
    assert a["penalty_lo"] <= a["penalty"] <= a["penalty_hi"]
    other = hand("contract-rummy", LOOSE, deals=600, seed=6)
    assert other["rows"] != a["rows"]


def test_constraints_on_the_other_hands_change_the_answer():
    free = hand("contract-rummy", LOOSE, deals=500, seed=2)
    # every opponent holding both jokers' worth of help: the next player holds two jokers
    held = hand("contract-rummy", LOOSE, deals=500, seed=2,
                constraints=["hand1:holds=JK:2..2"])
    assert held["constraints"] == ["hand1:holds=JK:2..2"]
    assert held["rows"] != free["rows"]
    # points are the game's penalty points: a next player with few of them
    low = hand("contract-rummy", LOOSE, deals=500, seed=2, constraints=["hand1:points:0..40"])
    assert low["rows"] != free["rows"]


STRONG_HF = "JK JK 2S 2H AS AS AH KS KS KH QS QS QH"  # well over the first minimum meld
WEAK_HF = "4S 5H 6D 7C 8S 9H 10D 3C 4H 5D 6C 7S 8H"


def test_hand_and_foot_a_strong_hand_melds_at_once_and_beats_a_weak_one():
    strong = hand("hand-and-foot", STRONG_HF, deals=300, seed=1)
    weak = hand("hand-and-foot", WEAK_HF, deals=300, seed=1)
    assert strong["rows"][0]["melded_rate"] >= 0.99
    assert weak["rows"][0]["melded_rate"] <= 0.05  # nothing to meld before a draw helps
    rates = [r["melded_rate"] for r in weak["rows"]]
    assert rates == sorted(rates)
    assert strong["went_out_rate"] > weak["went_out_rate"]
    assert strong["score_lo"] <= strong["score"] <= strong["score_hi"]
    # a later deal asks more: the same weak hand melds later against deal 3's minimum
    late = hand("hand-and-foot", WEAK_HF, deals=300, seed=1, deal=3)
    assert late["rows"][4]["melded_rate"] < weak["rows"][4]["melded_rate"]


def test_the_command_prints_one_json_object():
    p = subprocess.run(CLI + ["hand", "contract-rummy", "--hand", TWO_SETS, "--deals", "300",
                              "--strategy", "lay_down_at_once", "--json"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert len(out["rows"]) == 20
    assert {"turn", "down_rate", "lo", "hi"} <= set(out["rows"][0])
    assert out["rows"][0]["down_rate"] == 1.0


@pytest.mark.parametrize("args, says", [
    (["--hand", "7S 7H 1D"], "'1D' is not a card"),
    (["--hand", "7S 7H 7D"], "3 cards, but a hand in this deal has 10"),
    (["--hand", "7S 7S 7S 9C 9D 9H 2S 5S 8D KC"], "7S is fixed more often"),
    (["--hand", TWO_SETS, "--seat", "4"], "--seat 4: allowed 0..3"),
    (["--hand", TWO_SETS, "--deal", "9"], "--deal 9: allowed 0..6"),
    (["--hand", TWO_SETS, "--constraint", "hand5:points:1..2"], "no place 'hand5'"),
    (["--hand", TWO_SETS, "--deals", "0"], "--deals 0"),
    (["--hand", WEAK_HF, "--deal", "4"], "--deal 4: allowed 0..3"),
    (["--hand", "JK JK 2S"], "3 cards, but a hand in this deal has 13"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    game = "hand-and-foot" if args[1] in (WEAK_HF, "JK JK 2S") else "contract-rummy"
    p = subprocess.run(CLI + ["hand", game, *args], capture_output=True, text=True,
                       timeout=600)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and says in lines[0], p.stderr
    assert p.stdout == ""


ALL_SPADES = "JS JS 9S 9S AS AS 10S 10S KS KS QS QS"
MIXED_56 = "JS JS 9S AS 10S JH 9H AH KC QC 10D KD"


def test_fifty_six_every_trick_with_every_trump_in_hand():
    # the first player holding all twelve spades takes every trick in spades and in no-trumps
    r = hand("fifty-six", ALL_SPADES, deals=200, seed=1)
    cell = {(x["trump"], x["bid"]): x for x in r["rows"]}
    assert len(r["rows"]) == 5 * 29 and {x["trump"] for x in r["rows"]} == set("SHDC") | {"NT"}
    assert cell["S", 56]["made_rate"] == 1.0 and cell["NT", 56]["made_rate"] == 1.0
    assert cell["H", 56]["made_rate"] < 1.0  # the others trump the spades
    assert r["best"]["bid"] == 56 and r["best"]["stake"] == 4.0  # the sheet's 56 band
    assert cell["S", 40]["stake_doubled"] == 2 * cell["S", 40]["stake"] == 4.0


def test_fifty_six_rates_fall_with_the_bid_and_reproduce():
    a = hand("fifty-six", MIXED_56, deals=1500, seed=4, threads=1)
    b = hand("fifty-six", MIXED_56, deals=1500, seed=4, threads=2)
    assert a == b
    for t in ("S", "H", "D", "C", "NT"):
        rates = [x["made_rate"] for x in a["rows"] if x["trump"] == t]
        assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]
        assert all(x["lo"] <= x["made_rate"] <= x["hi"] for x in a["rows"])
    best = max(a["rows"], key=lambda x: x["stake"])
    assert a["best"]["stake"] == best["stake"] and a["best"]["trump"] == best["trump"]
    # one contract, played at its own bid, on the same deals: the same as the table's cell
    # (the built-in players never look at the bid's value)
    one = hand("fifty-six", MIXED_56, deals=1500, seed=4, contract="40S")
    cell = next(x for x in a["rows"] if (x["trump"], x["bid"]) == ("S", 40))
    assert len(one["rows"]) == 1 and one["rows"][0]["made_rate"] == cell["made_rate"]
    assert one["rows"][0]["stake"] == cell["stake"]
    doubled = hand("fifty-six", MIXED_56, deals=1500, seed=4, contract="40Sx")
    assert doubled["rows"][0]["double_level"] == 2
    assert doubled["rows"][0]["stake"] == 2 * cell["stake"]


def test_fifty_six_seat_and_constraints_matter():
    first = hand("fifty-six", MIXED_56, deals=800, seed=2)
    last = hand("fifty-six", MIXED_56, deals=800, seed=2, seat=3)
    assert first["rows"] != last["rows"]
    # the partner (place 2) holding both jacks of hearts
    held = hand("fifty-six", MIXED_56, deals=800, seed=2, constraints=["hand2:holds=JH:1..1"])
    h = {x["bid"]: x["made_rate"] for x in held["rows"] if x["trump"] == "H"}
    f = {x["bid"]: x["made_rate"] for x in first["rows"] if x["trump"] == "H"}
    assert h[40] > f[40]


@pytest.mark.parametrize("game, args, says", [
    ("fifty-six", ["--hand", MIXED_56, "--deal", "1"], "--deal 1: allowed 0"),
    ("fifty-six", ["--hand", MIXED_56, "--rule", "redeal_weak_hands=true"],
     "rule 'redeal_weak_hands'"),
    ("fifty-six", ["--hand", MIXED_56, "--contract", "40Q"], "rule 'contract'"),
    ("fifty-six", ["--hand", "JS JS"], "2 cards, but a hand in this deal has 12"),
    ("contract-rummy", ["--hand", TWO_SETS, "--contract", "40C"], "no fixed contracts"),
])
def test_fifty_six_bad_input_is_one_line(game, args, says):
    p = subprocess.run(CLI + ["hand", game, *args], capture_output=True, text=True,
                       timeout=600)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and says in lines[0], p.stderr
    assert p.stdout == ""


def test_fifty_six_table_on_a_terminal_and_as_json():
    p = subprocess.run(CLI + ["hand", "fifty-six", "--hand", ALL_SPADES, "--deals", "100"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "best contract: 56 S" in p.stdout and p.stdout.count("\n") > 30
    p = subprocess.run(CLI + ["hand", "fifty-six", "--hand", ALL_SPADES, "--deals", "100",
                              "--json", "--contract", "44NT"],
                       capture_output=True, text=True, timeout=600)
    out = json.loads(p.stdout)
    assert [(r["trump"], r["bid"], r["made_rate"]) for r in out["rows"]] == [("NT", 44, 1.0)]


def test_a_saved_hand_table_is_drawn_by_the_report(tmp_path):
    for game, cards in (("fifty-six", MIXED_56), ("contract-rummy", TWO_SETS)):
        out = tmp_path / game
        p = subprocess.run(CLI + ["hand", game, "--hand", cards, "--deals", "200", "--out",
                                  str(out), "--json"], capture_output=True, text=True,
                           timeout=600)
        assert p.returncode == 0, p.stderr
        assert json.loads((out / "hand.json").read_text()) == json.loads(p.stdout)
        p = subprocess.run(CLI + ["report", str(out), "--out", str(tmp_path / f"r-{game}")],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        page = (tmp_path / f"r-{game}" / "report.html").read_text()
        assert "data:image/png;base64," in page and f"hand {cards}" in page
        assert "hand table" in page
    again = subprocess.run(CLI + ["hand", "contract-rummy", "--hand", TWO_SETS, "--deals", "20",
                                  "--out", str(tmp_path / "contract-rummy")],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 2 and "not a new or empty folder" in again.stderr


def test_hand_and_foot_a_given_foot_is_dealt_to_the_hand():
    foot = "JK 2C 2D AD AC KD KC QD QC JD JC 10D 10C"
    free = hand("hand-and-foot", WEAK_HF, deals=200, seed=7)
    given = hand("hand-and-foot", WEAK_HF, deals=200, seed=7, foot=foot)
    assert given["foot"] == foot and given["rows"] != free["rows"]
    assert given == hand("hand-and-foot", WEAK_HF, deals=200, seed=7, foot=foot, threads=1)
    for game, cards, f, says in (("hand-and-foot", WEAK_HF, "JK 2C", "--foot: 2 cards, but a "
                                  "foot in this deal has 13"),
                                 ("contract-rummy", TWO_SETS, "JK", "--foot: contract-rummy "
                                  "deals no foot")):
        p = subprocess.run(CLI + ["hand", game, "--hand", cards, "--foot", f],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 2 and says in p.stderr, p.stderr
