"""Fixed contracts (rule contract, `cardsim run fifty-six --contract`): every deal played in one
contract, no auction; the bidder's place, the trump (best: longest suit, then card points, then
S, H, D, C), the double level and the row's fields, from hand-made deals."""
import subprocess
import sys

import polars as pl
import pytest

from cardsim.simulator.errors import UsageError
from cardsim.simulator.games.fifty_six.rules import contract_parts, parse_contract
from tests.helpers_fifty_six import GAME, play_deal

# seats 0..3 (the dealer is seat 3, so seat 0 is first in turn order)
HANDS = [
    "JS JS 9S AS JH 9H AH 10H KC QC 10D KD",   # S 4 cards 9 points, H 4 cards 7 points
    "10S KS QS AS JC 9C AC 10C JD 9D AD QD",   # S, C, D 4 each: C has the most points
    "KS 10S 9S QS QH QH KH 10H 9C AC KC QC",   # S, H, C 4 each; S and C 3 points: S first
    "JC 10C JD 9D AD 10D KD QD JH 9H AH KH",   # D 6 cards
]


def test_parse_contract_accepts_both_forms_and_stores_the_short_one():
    assert parse_contract("seat=1,bid=40,trump=best") == "40best@1"
    assert parse_contract("40C") == "40C@0"
    assert parse_contract("seat=0,bid=44,trump=NT,double=redouble") == "44NTxx@0"
    assert contract_parts("44NTxx@2") == (2, 44, 4, 4)
    assert contract_parts("auction") is None
    for bad in ("40", "40Q", "57C", "40Cxxx", "bid=40", "bid=40,trump=C,when=now",
                "bid=40,trump=C,double=maybe"):
        with pytest.raises(ValueError):
            parse_contract(bad)


@pytest.mark.parametrize("contract, bidder, trump, level", [
    ("40best@0", 0, "S", 1),
    ("40best@1", 1, "C", 1),
    ("40best@2", 2, "S", 1),
    ("40best@3", 3, "D", 1),
    ("44NT@3", 3, "NT", 1),
    ("32Hx@1", 1, "H", 2),
    ("28Dxx@2", 2, "D", 4),
])
def test_the_contract_is_played_as_fixed(contract, bidder, trump, level):
    events, row = play_deal(HANDS, rules={"contract": contract}, strategies=["tuned"])
    _, bid, _, _ = contract_parts(contract)
    assert (row["bidder"], row["bid"], str(row["trump"]), row["double_level"]) == (
        bidder, bid, trump, level)
    assert row["bidder_position"] == bidder  # seat 0 is first in turn order here
    assert row["calls"] == 0 and row["bids"] == 0 and row["opener"] == -1
    assert not any(e["event"] == "call" for e in events)
    win, lose = {28: (1, 2), 32: (1, 2), 40: (2, 3), 44: (2, 3)}[bid]
    assert row["made"] == (row["bidding_team_points"] >= bid)
    assert row["stake"] == (win if row["made"] else lose) * level
    assert row["bidding_team_points"] + row["opponent_points"] == 56


def test_trump_jacks_are_counted_for_the_row():
    _, row = play_deal(HANDS, rules={"contract": "40S@0"}, strategies=["tuned"])
    assert (row["bidder_trumps"], row["bidder_trump_jacks"], row["bidder_jacks"]) == (4, 2, 3)
    _, row = play_deal(HANDS, rules={"contract": "40H@0"}, strategies=["tuned"])
    assert (row["bidder_trumps"], row["bidder_trump_jacks"]) == (4, 1)
    _, row = play_deal(HANDS, rules={"contract": "40NT@0"}, strategies=["tuned"])
    assert (row["bidder_trumps"], row["bidder_trump_jacks"]) == (0, 0)


def test_a_hidden_fixed_trump_is_face_down_to_the_others():
    events, row = play_deal(HANDS, rules={"contract": "40S@0", "hidden_trump": True},
                            strategies=["tuned"])
    # seat 3 holds no spade for the first trick and asks to see the trump
    assert [(e["seat"], e["trick"]) for e in events if e["event"] == "reveal"] == [(3, 0)]
    assert str(row["trump"]) == "S" and row["trump_revealed_trick"] == 0
    events, row = play_deal(HANDS, rules={"contract": "40S@0"}, strategies=["tuned"])
    assert not any(e["event"] == "reveal" for e in events)
    assert row["trump_revealed_trick"] is None


def test_rule_checks_name_the_field():
    with pytest.raises(UsageError, match="contract.*place must be 0..3"):
        GAME.rules.resolve({"contract": "40C@5"})
    with pytest.raises(UsageError, match="no band covers bid 20"):
        GAME.rules.resolve({"contract": "20C"})


def test_run_contract_option_plays_every_deal_in_it(tmp_path):
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "-m", "cardsim", "run", "fifty-six", "--deals", "400",
                        "--contract", "seat=1,bid=40,trump=best", "--out", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    d = pl.read_parquet(out / "deals-*.parquet")
    assert d.height == 400 and (d["bid"] == 40).all() and (d["bidder_position"] == 1).all()
    assert (d["calls"] == 0).all()
    # best is the longest suit: never shorter than a quarter of the hand
    assert (d["bidder_trumps"] >= 3).all()
    p = subprocess.run([sys.executable, "-m", "cardsim", "run", "hand-and-foot", "--games", "2",
                        "--contract", "40C"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 2 and "no fixed contracts" in p.stderr
