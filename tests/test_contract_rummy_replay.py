"""Contract Rummy replays re-checked by the independent checker
(tests/replay_checker_contract_rummy.py, standard library only): over random rule options and
strategies, against the batch tables of the same seed, and -- to show it is not vacuous --
on corrupted logs."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay_checker_contract_rummy import check_game  # noqa: E402

from cardsim.simulator.batch import RunSpec, Runner  # noqa: E402
from cardsim.simulator.games.contract_rummy.replay import play_one  # noqa: E402
from tests.helpers_contract_rummy import GAME  # noqa: E402

STRATS = ["random", "lay_down_at_once", "hold_for_more", "pile_hunter",
          "lay_down_at_once:buy_policy=3", "pile_hunter:buy_policy=2", "table_reader",
          "table_reader:buy_policy=2,deep_max=99,safe=8,pairs=20"]

OPTIONS = st.fixed_dictionaries({
    "players": st.integers(2, 8),
    "contracts": st.sampled_from(["2s:10,1s1r:10,2r:10,3s:10,2s1r:12,1s2r:12,3r:12",
                                  "1s:7,1r:7", "2r:12,3r:12", "3s:10"]),
    "min_run": st.sampled_from([3, 4, 5]),
    "ace_low": st.booleans(),
    "runs_distinct_suits": st.booleans(),
    "last_deal_all_at_once": st.booleans(),
    "lay_off_sets": st.booleans(),
    "buying": st.booleans(),
    "buy_limit": st.sampled_from([0, 1, 3]),
    "max_reshuffles": st.sampled_from([0, 1, 3]),
    "max_turns": st.sampled_from([500, 30]),
    "single_deck": st.booleans(),
})


def resolve(opts: dict) -> dict:
    opts = dict(opts)
    if opts.pop("single_deck") and opts["players"] <= 4:
        opts["decks"], opts["jokers"] = 1, 1
    return GAME.rules.resolve(opts)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=OPTIONS, seed=st.integers(0, 2**32), index=st.integers(0, 10**6),
       strats=st.lists(st.sampled_from(STRATS), min_size=8, max_size=8))
def test_replays_pass_the_independent_checker(opts, seed, index, strats):
    rules = resolve(opts)
    spec = [f"{s}={strats[s]}" for s in range(rules["players"])]
    events, deals, _ = play_one(GAME, rules, spec, seed, index)
    result = check_game(events)
    last = deals.filter(pl.col("deal_index") == len(rules["contracts"]) - 1).sort("seat")
    assert result["totals"] == last["cumulative"].to_list()


def test_replay_is_the_game_of_the_tables():
    rules = GAME.rules.resolve({"buying": True})
    spec = ["0=pile_hunter:buy_policy=2", "1=random", "2=hold_for_more", "3=lay_down_at_once"]
    deals, games = Runner(RunSpec(GAME, rules, spec, seed=11, count=8)).play_chunk(0, 8, 2)
    for index in (0, 5):  # duplicate seating (the strategies differ): as in the run
        _, rdeals, grow = play_one(GAME, rules, spec, 11, index)
        assert rdeals.equals(deals.filter(pl.col("game_index") == index))
        assert int(grow[GAME.game_columns.index(
            next(c for c in GAME.game_columns if c.name == "winner"))]) == (
            games["winner"][index] if games["winner"][index] is not None else -1)


@pytest.fixture(scope="module")
def sample_events():
    """A few logged games with lay-offs, swaps, deep draws, top draws and buys."""
    rules = GAME.rules.resolve({"buying": True})
    out = []
    for index in range(12):
        events, _, _ = play_one(GAME, rules, ["pile_hunter:buy_policy=3"], 2, index)
        out.append(events)
    return out


def _first(events_list, pred):
    for events in events_list:
        for i, e in enumerate(events):
            if pred(events, i, e):
                return copy.deepcopy(events), i
    pytest.skip("no such event in the sample")


def _rejects(events):
    with pytest.raises(AssertionError):
        check_game(events)


def test_checker_accepts_the_sample(sample_events):
    for events in sample_events:
        check_game(events)


def test_checker_rejects_a_thrown_back_top_discard(sample_events):
    def pred(evs, i, e):
        return e["event"] == "take" and not e["deep"] and evs[i + 1]["event"] == "discard"
    events, i = _first(sample_events, pred)
    events[i + 1]["card"] = events[i]["card"]
    _rejects(events)


def test_checker_rejects_a_deep_draw_not_melded(sample_events):
    events, i = _first(sample_events, lambda evs, i, e: e["event"] == "take" and e["deep"])
    # drop the lay-down or lay-off that used the card
    j = i + 1
    while events[j]["event"] not in ("contract_down", "lay_off"):
        j += 1
    if events[j]["event"] == "contract_down":
        events[j]["after_deep_draw"] = True
        laid = [k for k in range(i + 1, j) if events[k]["event"] == "meld"]
        card = events[i]["card"]
        assert any(card in events[k]["cards"] or (card == "JK" and events[k]["jok"])
                   for k in laid)
        events[i]["card"] = "ZZ"
    else:
        del events[j]
    _rejects(events)


def test_checker_rejects_a_lay_off_before_the_contract(sample_events):
    """A turn that laid the contract down and then laid off on an older meld: the same
    lay-off moved before the lay-down is refused."""
    def pred(evs, i, e):
        if e["event"] != "contract_down":
            return False
        first_new = min(evs[k]["meld"] for k in range(i - 4, i) if evs[k]["event"] == "meld")
        k = i + 1
        while evs[k]["event"] in ("lay_off", "joker_swap"):
            if evs[k]["event"] == "lay_off" and evs[k]["meld"] < first_new:
                return True
            k += 1
        return False
    events, i = _first(sample_events, pred)
    first_new = min(events[k]["meld"] for k in range(i - 4, i) if events[k]["event"] == "meld")
    k = next(k for k in range(i + 1, len(events)) if events[k]["event"] == "lay_off"
             and events[k]["meld"] < first_new)
    draw = max(m for m in range(i) if events[m]["event"] in ("draw", "take"))
    ok = copy.deepcopy(events)
    check_game(ok)
    events.insert(draw + 1, events.pop(k))
    _rejects(events)


@pytest.fixture(scope="module")
def game7_events():
    """``cardsim replay contract-rummy --seed 1 --game-index 7 --strategy 0=random --strategy
    1=pile_hunter --strategy 2=hold_for_more --strategy 3=lay_down_at_once``: in deal index 2,
    turn 21, seat 3 took the 2S, laid its contract down, laid off its last other card and went
    out by discarding the 2S."""
    spec = ["0=random", "1=pile_hunter", "2=hold_for_more", "3=lay_down_at_once"]
    events, _, _ = play_one(GAME, GAME.rules.resolve({}), spec, 1, 7)
    return events


def _turn(events, deal, turn):
    i = next(k for k, e in enumerate(events) if e["event"] == "turn" and e["deal"] == deal
             and e["turn"] == turn)
    j = i + 1
    while events[j]["event"] not in ("turn", "deal_end", "reshuffle", "stalled"):
        j += 1
    return i, j


def test_going_out_by_discarding_the_top_discard_just_taken_is_refused(game7_events):
    check_game(game7_events)
    taken = None
    for k, e in enumerate(game7_events):
        if e["event"] == "turn":
            taken = None
        elif e["event"] == "take":
            taken = e["card"] if e["count"] == 1 else None
        elif e["event"] == "discard" and e["card"] == taken:
            assert game7_events[k + 1]["event"] != "went_out", f"went out with the taken {taken}"
    i, j = _turn(game7_events, 2, 21)
    turn = game7_events[i:j]
    assert turn[1]["event"] == "take" and turn[1]["card"] == "2S" and turn[1]["count"] == 1
    assert [e["card"] for e in turn if e["event"] == "discard"] != ["2S"]


def test_checker_rejects_going_out_with_the_top_discard_just_taken(game7_events):
    """The fixed game's turn, made as the old kernel played it: the last other card laid off
    (it fits), then the taken 2S discarded."""
    events = copy.deepcopy(game7_events)
    i, j = _turn(events, 2, 21)
    assert events[i + 1]["event"] == "take" and events[i + 1]["card"] == "2S"
    d = next(k for k in range(i, j) if events[k]["event"] == "discard")
    kept = events[d]["card"]
    assert kept != "2S"
    lay = next(e for e in events[i:d] if e["event"] == "lay_off")
    start = next(k for k, e in enumerate(events) if e["event"] == "deal" and e["deal"] == 2)
    slot = _slot_for(events[start:d], kept)
    assert slot is not None, f"{kept} fits no meld: not the reproduced position"
    events.insert(d, dict(lay, card=kept, meld=slot[0], slot=slot[1], joker=False, **{"as": kept}))
    events[d + 1]["card"] = "2S"
    with pytest.raises(AssertionError, match="top discard"):
        check_game(events)


def _slot_for(events, card):
    """(meld, slot) where ``card`` goes at an end of a run of the table after ``events`` (one
    deal's events; positions as in the log)."""
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    occ, kind = {}, {}
    for e in events:
        if e["event"] == "meld":
            occ[e["meld"]] = e["nat"] | e["jok"]
            kind[e["meld"]] = (e["kind"], e["key"])
        elif e["event"] == "lay_off":
            occ[e["meld"]] |= 1 << e["slot"]
        elif e["event"] == "joker_swap":
            occ[e["to_meld"]] |= 1 << e["to_slot"]
    for m, o in occ.items():
        k, key = kind[m]
        if k != "run" or key != card[-1]:
            continue
        lo = min(b for b in range(14) if o >> b & 1)
        hi = max(b for b in range(14) if o >> b & 1)
        for slot in (lo - 1, hi + 1):
            if 1 <= slot <= 12 and ranks[slot - 1] == card[:-1]:
                return m, slot
    return None


def test_checker_rejects_a_swap_from_a_set(sample_events):
    events, i = _first(sample_events, lambda evs, i, e: e["event"] == "meld" and e["kind"] == "set")
    j = next(k for k in range(i, len(events)) if events[k]["event"] == "contract_down")
    events.insert(j + 1, {"event": "joker_swap", "deal": events[i]["deal"], "turn": 0,
                          "seat": events[i]["seat"], "meld": events[i]["meld"], "pos": 0,
                          "card": events[i]["cards"][0], "to_meld": events[i]["meld"],
                          "to_slot": 0, "joker_as": "?"})
    _rejects(events)


def test_checker_rejects_a_wrong_penalty_and_a_wrong_winner(sample_events):
    events = copy.deepcopy(sample_events[0])
    i = next(k for k, e in enumerate(events) if e["event"] == "score" and e["penalty"] > 0)
    events[i]["penalty"] -= 1
    _rejects(events)
    events = copy.deepcopy(sample_events[0])
    end = events[-1]
    totals = end["totals"]
    end["winner"] = max(range(len(totals)), key=lambda s: totals[s])
    _rejects(events)


def test_checker_rejects_a_stock_draw_out_of_order(sample_events):
    events, i = _first(sample_events, lambda evs, i, e: e["event"] == "draw")
    events[i]["card"] = "JK" if events[i]["card"] != "JK" else "2S"
    _rejects(events)


def test_jokers_dealt_are_the_jokers_of_the_dealt_hand():
    rules = GAME.rules.resolve({"jokers": 6})  # many jokers: rows with 0, 1 and 2 of them
    events, rdeals, _ = play_one(GAME, rules, ["random"], 4, 1)
    seen = set()
    for e in (e for e in events if e["event"] == "deal"):
        for seat, hand in e["hands"].items():
            row = rdeals.filter((pl.col("deal_index") == e["deal"])
                                & (pl.col("seat") == int(seat)))
            n = sum(c == "JK" for c in hand)
            assert row["jokers_dealt"].to_list() == [n]
            seen.add(n)
    assert len(seen) >= 2
