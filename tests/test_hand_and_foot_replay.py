"""Hand and Foot replays re-checked by the independent checker
(tests/replay_checker_hand_and_foot.py, standard library only): over random rule options and
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
from replay_checker_hand_and_foot import check_game  # noqa: E402

from cardsim.simulator.batch import RunSpec, Runner  # noqa: E402
from cardsim.simulator.games.hand_and_foot.replay import play_one  # noqa: E402
from tests.helpers_hand_and_foot import GAME  # noqa: E402

STRATS = ["random", "early_melder", "patient_builder", "pile_taker", "waiting_melder",
          "table_reader"]


def _events(rules, strategies, seed, index):
    events, deals, _ = play_one(GAME, rules, strategies, seed, index)
    return events, deals


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), index=st.integers(0, 10**6),
       players=st.sampled_from([2, 3, 4, 6]), strats=st.lists(st.sampled_from(STRATS),
                                                              min_size=3, max_size=3),
       opts=st.fixed_dictionaries({
           "draw_count": st.sampled_from([1, 2]),
           "pile_take": st.sampled_from(["7", "all"]),
           "pickup_wild_top": st.booleans(),
           "one_meld_action_per_turn": st.booleans(),
           "black_threes_meld_going_out": st.booleans(),
           "go_out_without_discard": st.booleans(),
           "upcard_buried": st.sampled_from(["threes_and_jokers", "threes_and_wilds"]),
           "first_player": st.sampled_from(["left_of_hand_dealer", "hand_dealer"]),
           "books_to_go_out": st.sampled_from(["clean=2,dirty=2,wild=1", "clean=1"]),
           "unplayed_foot_counts": st.booleans(),
           "min_meld": st.sampled_from(["50,90,120,150", "0,0,0,0", "120,120,150,150"]),
           "deals": st.integers(1, 2),
       }))
def test_replays_pass_the_independent_checker(seed, index, players, strats, opts):
    rules = GAME.rules.resolve({**opts, "players": players})
    teams = GAME.n_teams(rules)
    spec = [f"{t}={strats[t]}" for t in range(teams)]
    events, deals = _events(rules, spec, seed, index)
    result = check_game(events)
    last = deals.filter(pl.col("deal_index") == rules["deals"] - 1).sort("team")
    assert result["totals"] == last["cumulative"].to_list()


def test_replay_is_the_game_of_the_tables():
    rules = GAME.rules.resolve({})
    spec = ["0=early_melder", "1=pile_taker"]
    deals, games = Runner(RunSpec(GAME, rules, spec, seed=9, count=6)).play_chunk(0, 6, 2)
    for g in (0, 5):
        events, rows = _events(rules, spec, 9, g)
        check_game(events)
        mine = deals.filter(pl.col("game_index") == g)
        assert rows.drop("game_index").equals(mine.drop("game_index"))


@pytest.fixture(scope="module")
def sample():
    rules = GAME.rules.resolve({})
    events, _ = _events(rules, ["early_melder"], 21, 4)
    check_game(events)
    return events


def _corrupt(events, kind, change):
    ev = copy.deepcopy(events)
    for e in ev:
        if e["event"] == kind and change(e):
            return ev
    raise LookupError(kind)


@pytest.mark.parametrize("kind, change, needle", [
    ("draw", lambda e: e.update(card="JK" if e["card"] != "JK" else "AS") or True, "stock top"),
    ("discard", lambda e: e.update(card="3R") or True, ""),
    ("meld", lambda e: e["action"] == "add_natural" and (e.update(naturals=2) or True), ""),
    ("meld", lambda e: e["action"] == "start_3_naturals" and (e.update(counted=e["counted"] + 5)
                                                              or True), "counted"),
    ("score", lambda e: e.update(score=e["score"] + 100) or True, "deal score"),
    ("score", lambda e: e.update(foot_penalty=e["foot_penalty"] + 5) or True, "foot penalty"),
    ("turn", lambda e: e["turn"] == 3 and (e.update(seat=(e["seat"] + 1) % 4) or True), "turn"),
    ("deal_end", lambda e: e.update(end="turn_cap") or True, ""),
])
def test_corrupted_logs_are_caught(sample, kind, change, needle):
    bad = _corrupt(sample, kind, change)
    with pytest.raises((AssertionError, KeyError)) as e:
        check_game(bad)
    assert needle in str(e.value)


def test_rules_other_than_played_are_caught(sample):
    bad = copy.deepcopy(sample)
    bad[0]["rules"]["min_meld"] = [0, 0, 0, 0]
    with pytest.raises(AssertionError):
        check_game(bad)
    bad = copy.deepcopy(sample)
    bad[0]["rules"]["books_to_go_out"] = {"clean": 9, "dirty": 2, "wild": 1}
    if any(e["event"] == "went_out" for e in bad):
        with pytest.raises(AssertionError):
            check_game(bad)


MELD_FIELDS = {"event", "deal", "turn", "seat", "team", "target", "action", "naturals", "twos",
               "jokers", "black_threes", "book", "counted", "meld_after"}


def test_black_threes_meld_event_carries_every_meld_field():
    # `cardsim replay hand-and-foot --seed 12 --game-index 12 --players 2 --strategy random
    #  --rule black_threes_meld_going_out=true --rule books_to_go_out=clean=0,dirty=0,wild=0
    #  --rule hand_size=5 --rule foot_size=6`: a black-threes meld when going out
    rules = GAME.rules.resolve({"players": 2, "black_threes_meld_going_out": True,
                                "books_to_go_out": "clean=0,dirty=0,wild=0", "hand_size": 5,
                                "foot_size": 6})
    events, _ = _events(rules, ["random"], 12, 12)
    melds = [e for e in events if e["event"] == "meld"]
    threes = [e for e in melds if e["target"] == "black_threes"]
    assert threes, "the reproduction no longer melds black threes"
    for e in melds:
        assert set(e) == MELD_FIELDS, (set(e) ^ MELD_FIELDS, e)
    for e in threes:
        assert e["team"] == e["seat"] % events[0]["teams"] and e["meld_after"] == [0, 0, 0]
    check_game(events)
    # the checker requires the fields too
    for field in ("team", "meld_after"):
        bad = copy.deepcopy(events)
        next(e for e in bad if e["event"] == "meld" and e["target"] == "black_threes").pop(field)
        with pytest.raises((AssertionError, KeyError)):
            check_game(bad)
