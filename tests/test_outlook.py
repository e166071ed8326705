"""A position's outlook (simulator.outlook, `cardsim hand --position`): the seat's choices, each
played on over deals of the cards it cannot see. It never reads a hidden card, it lists only
legal choices, the strategies' own choice scores as their row, a position with nothing hidden
gives the deal's true outcome, and it reproduces for a seed."""
import json
import subprocess
import sys
from importlib import import_module

import numpy as np
import pytest

from cardsim.simulator import position as P
from cardsim.simulator.games import get_game
from cardsim.simulator.outlook import STRATEGY, outlook, outlook_lines
from cardsim.simulator.positionfile import dumps

CLI = [sys.executable, "-m", "cardsim"]
# (game, game index, decision): a card play, a discard, a discard
CASES = {"fifty-six": (3, 15), "contract-rummy": (3, 11), "hand-and-foot": (3, 8)}


def _pos(name_, index, k):
    g = get_game(name_)
    return P.snapshot(g, g.rules.resolve({}), [], 7, index, 0, k)


@pytest.mark.parametrize("game", list(CASES))
def test_the_outlook_never_reads_a_hidden_card(game):
    """The true position and one resampled from the seat's view (other hidden cards, the same
    view) give the same outlook for a seed: only what the seat saw is used."""
    pos = _pos(game, *CASES[game])
    pm = import_module(get_game(game).position_module)
    other = pm.resample(pm.observe(pos, pos.seat), np.random.default_rng(3))
    assert not np.array_equal(other.header, pos.header)  # hidden cards moved
    a = outlook(pos, 12, seed=4)
    b = outlook(other, 12, seed=4)
    assert a == b
    assert outlook(pos, 12, seed=4) == a  # and it reproduces
    assert outlook(pos, 12, seed=5) != a


@pytest.mark.parametrize("game", list(CASES))
def test_the_strategies_row_is_the_row_of_the_choice_they_make(game):
    r = outlook(_pos(game, *CASES[game]), 15, seed=2)
    rows = {row["choice"]: row for row in r["rows"]}
    assert r["rows"][0]["choice"] == STRATEGY and rows[STRATEGY]["chosen"] is None
    assert len(rows) >= 3  # a choice that matters
    assert sum(row["chosen"] for row in r["rows"][1:]) == pytest.approx(1.0)
    picked = [row for row in r["rows"][1:] if row["chosen"] == 1.0]
    assert len(picked) == 1  # the built-in players decide from the view alone
    skip = {"choice", "chosen"}
    s = r["score"]
    for k, v in rows[STRATEGY].items():
        if k not in skip:
            assert picked[0][k] == v, k
    assert picked[0][f"{s}_diff"] == 0 == picked[0][f"{s}_diff_hi"]
    # best first after the strategies' row, by the game's score
    sign = 1 if r["higher_is_better"] else -1
    scores = [sign * row[s] for row in r["rows"][1:]]
    assert scores == sorted(scores, reverse=True)
    for row in r["rows"]:
        assert row[f"{s}_lo"] <= row[s] <= row[f"{s}_hi"]
    assert len(outlook_lines(r)) == len(r["rows"]) + 2


def test_56_lists_the_cards_the_seat_may_play_and_no_other():
    """Seat to play holding cards of the suit led: only those are listed."""
    pos = _pos("fifty-six", *CASES["fifty-six"])
    evs = [e for e in P.events(pos) if e.get("deal") == 0]
    hand = [c for c in next(e for e in evs if e["event"] == "deal")["hands"][str(pos.seat)]]
    held = [c for c in hand if c not in [e["card"] for e in evs
                                         if e["event"] == "play" and e["seat"] == pos.seat]]
    trick = [e for e in evs if e["event"] in ("play", "trick")]
    last = max((i for i, e in enumerate(trick) if e["event"] == "trick"), default=-1)
    led = trick[last + 1]["card"][-1] if last + 1 < len(trick) else None
    assert led is not None and any(c[-1] == led for c in held)  # the case this test is for
    r = outlook(pos, 5, seed=1)
    listed = {row["choice"] for row in r["rows"][1:]}
    assert listed == {c for c in held if c[-1] == led}


def test_56_with_nothing_hidden_gives_the_deals_true_outcome():
    """At the deal's last play every card is known to the seat: each resampled deal is the
    true one, so the outlook is the deal's own result, with no spread."""
    g = get_game("fifty-six")
    rules = g.rules.resolve({})
    n = P.decisions(g, rules, [], 7, 3, 0)
    pos = P.snapshot(g, rules, [], 7, 3, 0, n - 1)
    assert pos.kind == 1  # a play
    one = P.snapshot(g, rules, [], 7, 3, 0, n - 1)
    one.deals_mode = True
    deals, _ = P.resume(one, [])
    row = deals.row(0, named=True)
    r = outlook(pos, 6, seed=3)
    assert [x["choice"] for x in r["rows"]][1:] == [x["choice"] for x in r["rows"]][1:2]
    mine = row["bidding_team"] == pos.seat % 2
    want = row["bidding_team_points"] if mine else row["opponent_points"]
    for x in r["rows"]:
        assert x["points"] == x["points_lo"] == x["points_hi"] == want
        assert x["win_rate"] == (1.0 if mine == row["made"] else 0.0)


def test_rummy_discards_listed_are_the_cards_held():
    pos = _pos("contract-rummy", *CASES["contract-rummy"])
    evs = [e for e in P.events(pos) if e.get("deal") == 0]
    assert pos.kind == 4  # a discard
    r = outlook(pos, 4, seed=1)
    listed = {row["choice"] for row in r["rows"][1:]}
    # the seat's hand now: dealt, plus its draws, less its discards (no melds yet here)
    hand = list(next(e for e in evs if e["event"] == "deal")["hands"][str(pos.seat)])
    for e in evs:
        if e.get("seat") == pos.seat and e["event"] == "draw":
            hand.append(e["card"])
        if e.get("seat") == pos.seat and e["event"] == "discard":
            hand.remove(e["card"])
    assert listed == set(hand)


def test_hand_and_foot_draw_lists_stock_and_pile_when_both_are_legal():
    g = get_game("hand-and-foot")
    rules = g.rules.resolve({})
    for k in range(40):
        pos = P.snapshot(g, rules, [], 7, 3, 0, k)
        if pos.kind == 0:
            r = outlook(pos, 4, seed=1)
            listed = {row["choice"] for row in r["rows"][1:]}
            assert listed in ({"stock"}, {"stock", "pile"})
            return
    pytest.fail("no draw decision in the first 40")


def test_cli_hand_position_table_json_report_and_refusals(tmp_path):
    pos = _pos("fifty-six", *CASES["fifty-six"])
    f = tmp_path / "p.toml"
    f.write_text(dumps(pos, ["tuned"], P.events(pos)))
    out = subprocess.run(CLI + ["hand", "fifty-six", "--position", str(f), "--samples", "20",
                                "--json", "--out", str(tmp_path / "o")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["rows"][0]["choice"] == STRATEGY and got["samples"] == 20
    assert got == outlook(pos, 20, ["tuned"], 0) | {"position": str(f)}
    assert json.loads((tmp_path / "o" / "hand.json").read_text()) == got
    rep = subprocess.run(CLI + ["report", str(tmp_path / "o"), "--out",
                                str(tmp_path / "r")], capture_output=True, text=True)
    assert rep.returncode == 0, rep.stderr
    assert "position outlook" in (tmp_path / "r" / "report.html").read_text()
    for extra, word in ((["--deal", "1"], "--deal"), (["--hand", "JC"], "--hand or"),
                        (["--rule", "thani=true"], "--rule"), (["--samples", "0"],
                                                               "--samples")):
        bad = subprocess.run(CLI + ["hand", "fifty-six", "--position", str(f)] + extra,
                             capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and word in bad.stderr
    wrong = subprocess.run(CLI + ["hand", "contract-rummy", "--position", str(f)],
                           capture_output=True, text=True)
    assert wrong.returncode == 2 and "a fifty-six position" in wrong.stderr
