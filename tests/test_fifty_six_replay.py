"""56 replays re-checked by an independent checker (tests/replay_checker.py).

The checker is written from docs/rules/fifty_six.md and docs/replay.md and imports nothing
from the simulator; here it checks replays over random rule options, replays against the batch
tables of the same seed, the CLI output, and -- to show it is not vacuous -- corrupted logs and
logs checked under other rules than they were played with.
"""
from __future__ import annotations

import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay_checker import (  # noqa: E402
    card_suit, check_game, deck, load_jsonl, parse_payout,
)

from cardsim.simulator.games import get_game  # noqa: E402
from cardsim.simulator.games.fifty_six.replay import play_one  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=None)
def _game():
    return get_game("fifty-six")


def _rules(**opts) -> dict:
    return _game().rules.resolve(opts)


def _replay(rules: dict, seed: int, index: int, deals_mode: bool = False,
            strategies=("random",)) -> list[dict]:
    """Random play by default: it reaches every corner of the rules (thani, redoubles)."""
    events, _, _ = play_one(_game(), rules, list(strategies), seed, index,
                            deals_mode=deals_mode)
    return events


# ---------------------------------------------------------------- the checker's own parts


def test_parse_payout_bands_and_presets():
    win, lose = parse_payout("28-39:1/2,40-47:2/3,48-55:3/4,56:4/5")
    assert (win[28], lose[28], win[39], lose[39]) == (1, 2, 1, 2)
    assert (win[40], lose[47], win[48], lose[55], win[56], lose[56]) == (2, 3, 3, 4, 4, 5)
    assert 27 not in win and 57 not in win
    win, lose = parse_payout("short")
    assert (win[47], lose[47], win[55], lose[55], win[56], lose[56]) == (2, 3, 2, 3, 3, 4)


def test_deck_composition():
    d48, d64 = deck(4), deck(8)
    assert sum(d48.values()) == 48 and deck(6) == d48 and sum(d64.values()) == 64
    assert set(d48.values()) == {2} and "8S" not in d48 and "7C" in d64
    points = {"J": 3, "9": 2, "A": 1, "10": 1}
    for d in (d48, d64):
        assert sum(n * points.get(c[:-1], 0) for c, n in d.items()) == 56


# ---------------------------------------------------------------- random rule options

PRESET_BIDS = [(28, 56), (28, 40), (40, 56), (30, 35), (50, 55), (56, 56), (28, 28)]
# custom payout bands covering 1..56, so lower bids are allowed too (stakes kept small)
CUSTOM_PAYOUTS = ["1-56:1/1", "1-30:0/1,31-47:2/2,48-56:3/5"]
LOW_BIDS = [(1, 56), (10, 20), (20, 30), (27, 29)]

PAYOUT_AND_BIDS = st.one_of(
    st.tuples(st.sampled_from(["sheet", "short"]), st.sampled_from(PRESET_BIDS),
              st.just(28)),
    st.tuples(st.sampled_from(CUSTOM_PAYOUTS), st.sampled_from(PRESET_BIDS + LOW_BIDS),
              st.sampled_from([28, 1, 40])),
)

RULE_OPTIONS = st.fixed_dictionaries({
    "players": st.sampled_from([4, 6, 8]),
    "team_layout": st.sampled_from(["two_teams", "pairs"]),
    "turn_order": st.sampled_from(["anticlockwise", "sheet_clockwise"]),
    "hidden_trump": st.booleans(),
    "thani": st.booleans(),
    "thani_extra": st.integers(0, 3),
    "redeal_weak_hands": st.booleans(),
    "no_trump_lead_until_broken": st.booleans(),
    "bid_over_double": st.booleans(),
    "payout_bids": PAYOUT_AND_BIDS,
    "start_tables": st.integers(1, 6),
    "max_deals": st.one_of(st.none(), st.none(), st.integers(1, 6)),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=RULE_OPTIONS, seed=st.integers(0, 2**64 - 1), index=st.integers(0, 10**6),
       deals_mode=st.sampled_from([False, False, False, True]),
       names=st.lists(st.sampled_from(["random", "evaluator", "conventional", "aggressive"]),
                      min_size=1, max_size=2))
def test_random_rules_replays_pass_the_checker(opts, seed, index, deals_mode, names):
    opts = dict(opts)
    opts["payout"], (opts["min_bid"], opts["max_bid"]), opts["all_pass_bid"] = \
        opts.pop("payout_bids")
    rules = _rules(**opts)
    specs = [names[0]] + [f"1={n}" for n in names[1:]]
    events = _replay(rules, seed, index, deals_mode, specs)
    check_game(events)
    json.loads(json.dumps(events))  # plain JSON all the way down


# a few fixed configurations, several games each, so every option is seen on every run
FIXED = [
    dict(start_tables=4),
    dict(players=6, team_layout="pairs", hidden_trump=True, thani=True, start_tables=3),
    dict(players=8, team_layout="pairs", turn_order="sheet_clockwise", redeal_weak_hands=True,
         no_trump_lead_until_broken=True, start_tables=2),
    dict(players=8, hidden_trump=True, no_trump_lead_until_broken=True, payout="short",
         start_tables=5, max_deals=4),
    dict(players=4, thani=True, bid_over_double=False, min_bid=40, max_bid=50, start_tables=6),
    dict(players=6, turn_order="sheet_clockwise", redeal_weak_hands=True, hidden_trump=True,
         start_tables=3),
]


@pytest.mark.parametrize("opts", FIXED, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_fixed_configurations_pass_the_checker(opts):
    rules = _rules(**opts)
    for index in range(15):
        check_game(_replay(rules, 11, index))


@pytest.mark.parametrize("opts", [
    dict(min_bid=56),
    dict(min_bid=56, players=6, team_layout="pairs", turn_order="sheet_clockwise",
         hidden_trump=True),
], ids=["4p", "6p-pairs-sheet"])
def test_all_pass_deals_pass_the_checker(opts):
    """All-pass deals are rare with random bidding: find some in a deals-mode batch."""
    from cardsim.simulator.batch import RunSpec, Runner

    g = _game()
    rules = _rules(**opts)
    n = 100_000
    deals, _ = Runner(RunSpec(g, rules, ["random"], seed=5, count=n, deals_mode=True)).play_chunk(0, n, 2)
    found = deals.filter(pl.col("bidder") == -1)["game_index"].to_list()[:4]
    assert found, "no all-pass deal found"
    for index in found:
        events = _replay(rules, 5, index, deals_mode=True)
        contract = next(e for e in events if e["event"] == "contract")
        assert contract["form"] == "all_pass" and contract["bidder"] == -1
        check_game(events)


# ---------------------------------------------------------------- replay == batch tables

BATCH_CONFIGS = [
    dict(start_tables=30, no_trump_lead_until_broken=True, hidden_trump=True),
    dict(players=6, team_layout="pairs", hidden_trump=True, thani=True, start_tables=2),
    dict(players=8, team_layout="pairs", turn_order="sheet_clockwise", redeal_weak_hands=True,
         start_tables=2, max_deals=5),
]


def _deal_facts(events: list[dict]) -> list[dict]:
    """Per deal, from the replay: the columns the batch table also has."""
    facts = []
    cur: dict = {}
    for e in events:
        if e["event"] == "deal":
            cur = {"deal_index": e["deal"], "dealer": e["dealer"], "players": e["players"],
                   "redeals": e["redeals"]}
        elif e["event"] == "contract":
            cur.update(bidder=e["bidder"], bid=e["bid"], trump=e["trump"],
                       bid_form=e["form"], double_level=e["double_level"],
                       bidding_team=e["team"])
        elif e["event"] == "score":
            cur.update(bidding_team_points=e["bidding_team_points"],
                       opponent_points=e["opponent_points"], made=e["made"],
                       stake=e["stake"], tables_moved=e["tables_moved"],
                       tricks_won=e["tricks_won"])
            for t, v in enumerate(e["tables"]):
                cur[f"tables_team{t}"] = v
            facts.append(cur)
    return facts


MIXED = ("conventional", "1=random")  # duplicate seating; heuristics and random both checked


def _batch(rules: dict, seed: int, n: int, deals_mode: bool):
    """Games (or deals) 0..n-1 as `cardsim run` plays them: (deals, games) frames."""
    from cardsim.simulator.batch import RunSpec, Runner

    spec = RunSpec(_game(), rules, list(MIXED), seed=seed, count=n, deals_mode=deals_mode)
    deals, games = Runner(spec).play_chunk(0, n, 2)
    deals = deals.with_columns(pl.col("trump").cast(pl.String),
                               pl.col("bid_form").cast(pl.String))
    return deals, games


@pytest.mark.parametrize("opts", BATCH_CONFIGS, ids=["4p", "6p-pairs", "8p-pairs-capped"])
def test_replay_agrees_with_batch_tables(opts):
    rules = _rules(**opts)
    seed, n = 21, 12
    deals, games = _batch(rules, seed, n, deals_mode=False)
    for index in range(n):
        events = _replay(rules, seed, index, strategies=MIXED)
        check_game(events)
        mine = _deal_facts(events)
        rows = deals.filter(pl.col("game_index") == index).sort("deal_index").to_dicts()
        assert len(rows) == len(mine), \
            f"game {index}: {len(mine)} deals replayed, {len(rows)} in the table"
        for a, b in zip(mine, rows):
            for key, v in a.items():
                assert b[key] == v, (f"game {index} deal {a['deal_index']}: {key} replay={v!r} "
                                     f"table={b[key]!r}")
        grow = games.filter(pl.col("game_index") == index).to_dicts()[0]
        end = events[-1]
        assert (grow["deals"], grow["winner_team"], grow["capped"]) == \
            (end["deals"], end["winner_team"], end["capped"])


@pytest.mark.parametrize("opts", [{}, {"players": 6, "team_layout": "pairs",
                                        "hidden_trump": True}], ids=["4p", "6p-pairs-hidden"])
def test_the_default_player_passes_the_checker(opts):
    # tuned bids stake bands, no-trumps and jumps, and plays from who has shown out
    for index in range(8):
        check_game(_replay(_rules(**opts), 31, index, strategies=("tuned", "1=conventional")))


def test_deals_mode_replay_agrees_with_batch_tables():
    rules = _rules(players=6, hidden_trump=True, redeal_weak_hands=True)
    seed, n = 4, 12
    deals, _ = _batch(rules, seed, n, deals_mode=True)
    for index in range(n):
        events = _replay(rules, seed, index, deals_mode=True, strategies=MIXED)
        check_game(events)
        (mine,) = _deal_facts(events)
        row = deals.filter(pl.col("game_index") == index).to_dicts()[0]
        for key, v in mine.items():
            assert row[key] == v, f"deal {index}: {key} replay={v!r} table={row[key]!r}"


# ---------------------------------------------------------------- the CLI


def test_cli_replay_file_passes_the_checker(tmp_path):
    out = tmp_path / "g5.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "cardsim", "replay", "fifty-six", "--seed", "3",
         "--game-index", "5", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    events = load_jsonl(out)
    check_game(events)
    assert events == _replay(_rules(), 3, 5, strategies=[])  # as the Python API, defaults


# ---------------------------------------------------------------- the checker can fail


@functools.lru_cache(maxsize=None)
def _find(opts_key: tuple, want: str) -> tuple:
    """A valid replay (as a JSON string, so each test corrupts its own copy) with a property."""
    rules = _rules(**dict(opts_key))
    for index in range(300):
        events = _replay(rules, 13, index)
        if _has(events, want):
            check_game(events)
            return json.dumps(events), index
    raise AssertionError(f"no game with {want} among 300")


def _has(events, want):
    kinds = [e["event"] for e in events]
    if want == "two bids":
        return any(_consecutive_bids(events))
    if want == "reveal":
        return "reveal" in kinds
    if want == "two deals":
        return kinds.count("deal") >= 2
    if want == "partner pass":
        return _partner_pass(events) is not None
    return True


def _consecutive_bids(events):
    """(earlier, later) bids of one auction, the later one answering the earlier."""
    last = None
    for e in events:
        if e["event"] == "deal":
            last = None
        if e["event"] == "call" and e["call"] == "bid":
            if last is not None:
                yield last, e
            last = e


def _partner_pass(events):
    """A pass by a partner of the current high bidder while that bid is undoubled."""
    teams = events[0]["teams"]
    high = None
    level = 1
    for e in events:
        if e["event"] == "deal":
            high, level = None, 1
        if e["event"] != "call":
            continue
        if e["call"] == "bid":
            high, level = e, 1
        elif e["call"] == "double":
            level = 2
        elif e["call"] == "pass" and high is not None and level == 1 \
                and e["seat"] % teams == high["seat"] % teams:
            return e
    return None


def _base(want="", **opts):
    text, _ = _find(tuple(sorted(opts.items())), want)
    return json.loads(text)


def _hand_at(events, play_ev):
    """The hand of play_ev's seat just before play_ev, from its deal's hands and its plays."""
    deal = next(e for e in events if e["event"] == "deal" and e["deal"] == play_ev["deal"])
    hand = list(deal["hands"][str(play_ev["seat"])])
    for e in events:
        if e is play_ev:
            return hand
        if e["event"] == "play" and e["deal"] == play_ev["deal"] and e["seat"] == play_ev["seat"]:
            hand.remove(e["card"])
    raise AssertionError("play not in events")


def _corrupt_play_not_in_hand(events):
    play = next(e for e in events if e["event"] == "play")
    hand = _hand_at(events, play)
    play["card"] = next(c for c in deck(events[0]["seats"]) if c not in hand)
    return "not in hand"


def _corrupt_follow_suit(events):
    led = None
    for e in events:
        if e["event"] == "trick":
            led = None
        if e["event"] != "play":
            continue
        if led is None:
            led = card_suit(e["card"])
            continue
        if card_suit(e["card"]) == led:
            other = [c for c in _hand_at(events, e) if card_suit(c) != led]
            if other:
                e["card"] = other[0]
                return "lead holding"
    raise AssertionError("no follow to corrupt")


def _corrupt_trick_winner(events):
    trick = next(e for e in events if e["event"] == "trick")
    deal = next(e for e in events if e["event"] == "deal")
    trick["winner"] = next(int(s) for s in deal["hands"] if int(s) != trick["winner"])
    return "trick winner"


def _corrupt_trick_points(events):
    trick = next(e for e in events if e["event"] == "trick")
    trick["points"] += 1
    return "trick points"


def _corrupt_score_tables(events):
    score = next(e for e in events if e["event"] == "score")
    score["tables"][0] += 1
    score["tables"][1] -= 1
    return "score tables"


def _corrupt_score_made(events):
    score = next(e for e in events if e["event"] == "score")
    score["made"] = not score["made"]
    return "score made"


def _corrupt_bid_not_higher(events):
    earlier, later = next(_consecutive_bids(events))
    later["value"] = earlier["value"] - 1  # lower than the bid it answers
    later["seen_as"]["value"] = later["value"]
    return "not higher"


def _corrupt_end_auction_early(events):
    i = next(i for i, e in enumerate(events) if e["event"] == "contract")
    assert events[i - 1]["event"] == "call"
    del events[i - 1]
    return "auction stops"


def _corrupt_deck(events):
    deal = next(e for e in events if e["event"] == "deal")
    hand = deal["hands"][str(deal["first"])]
    hand[0] = hand[1] if hand[1] != hand[0] else hand[2]
    return "deck"


def _corrupt_dealer(events):
    second = [e for e in events if e["event"] == "deal"][1]
    second["dealer"] = (second["dealer"] + 1) % events[0]["seats"]
    return "dealer"


def _corrupt_seen_as(events):
    call = next(e for e in events if e["event"] == "call" and e["call"] == "bid"
                and e["trump"] != "NT")
    call["seen_as"]["trump"] = call["trump"]
    return "seen_as"


def _corrupt_reveal_seat(events):
    i = next(i for i, e in enumerate(events) if e["event"] == "reveal")
    # the reveal moves to the trick's lead: the leader cannot ask
    j = i
    while not (events[j - 1]["event"] in ("trick", "contract")):
        j -= 1
    ev = events.pop(i)
    ev["seat"] = events[j]["seat"]
    events.insert(j, ev)
    return "leader asks"


def _corrupt_double_partner(events):
    ev = _partner_pass(events)
    ev["call"] = "double"
    ev["seen_as"] = {"call": "double"}
    return "its own team"


def _corrupt_game_end(events):
    end = events[-1]
    end["winner_team"] = 1 - end["winner_team"] if end["winner_team"] in (0, 1) else 0
    return "winner_team"


CORRUPTIONS = [
    (_corrupt_play_not_in_hand, "", {}),
    (_corrupt_follow_suit, "", {}),
    (_corrupt_trick_winner, "", {}),
    (_corrupt_trick_points, "", {}),
    (_corrupt_score_tables, "", {}),
    (_corrupt_score_made, "", {}),
    (_corrupt_bid_not_higher, "two bids", {}),
    (_corrupt_end_auction_early, "", {}),
    (_corrupt_deck, "", {"players": 6}),
    (_corrupt_dealer, "two deals", {"start_tables": 12}),
    (_corrupt_seen_as, "", {"hidden_trump": True}),
    (_corrupt_reveal_seat, "reveal", {"hidden_trump": True}),
    (_corrupt_double_partner, "partner pass", {}),
    (_corrupt_game_end, "", {}),
]


@pytest.mark.parametrize("corrupt,want,opts", CORRUPTIONS,
                         ids=[c[0].__name__.removeprefix("_corrupt_") for c in CORRUPTIONS])
def test_checker_rejects_corrupted_logs(corrupt, want, opts):
    events = _base(want, **opts)
    check_game(copy.deepcopy(events))  # the untouched log is valid
    bad = copy.deepcopy(events)
    fragment = corrupt(bad)
    assert bad != events
    with pytest.raises(AssertionError) as err:
        check_game(bad)
    assert fragment in str(err.value), str(err.value)


def test_checker_rejects_truncated_and_padded_logs():
    events = _base()
    with pytest.raises(AssertionError, match="log ends early"):
        check_game(events[:-1])
    with pytest.raises(AssertionError, match="after game_end"):
        check_game(events + [events[-1]])
    with pytest.raises(AssertionError, match="header"):
        check_game(events[1:])


def test_replay_with_large_payout_values():
    """Stakes above 127 (payout 100 x redouble) must fit the tables (was an Int8 overflow)."""
    rules = _rules(payout="28-56:100/100", start_tables=1000, max_deals=2)
    events = _replay(rules, 0, 0)
    check_game(events)
    assert max(e["stake"] for e in events if e["event"] == "score") > 127


RULE_FLIPS = [
    # (rules played, header claims, what the checker then objects to)
    (dict(), dict(no_trump_lead_until_broken=True), "before trumps are broken"),
    (dict(), dict(bid_over_double=False), "bid_over_double off"),
    (dict(), dict(hidden_trump=True), "seen_as"),
    (dict(hidden_trump=True), dict(hidden_trump=False), "seen_as"),
    (dict(), dict(redeal_weak_hands=True), "weak hands were played"),
    (dict(), dict(turn_order="sheet_clockwise"), "direction"),
    (dict(thani=True), dict(thani=False), "thani bid with rule thani off"),
    (dict(players=6, team_layout="pairs"), dict(team_layout="two_teams"), "teams"),
    (dict(), dict(payout="short"), "stake"),
]


@pytest.mark.parametrize("played,claimed,fragment", RULE_FLIPS,
                         ids=[",".join(f"{k}={v}" for k, v in c.items()) for _, c, _ in RULE_FLIPS])
def test_checker_notices_other_rules_than_played(played, claimed, fragment):
    """Games played under one option, checked as if under another: some game must fail."""
    rules = _rules(start_tables=12, **played)
    for index in range(200):
        events = _replay(rules, 17, index)
        # a new dict: the header's rules may be the very dict the game was played with
        events[0]["rules"] = {**events[0]["rules"], **claimed}
        try:
            check_game(events)
        except AssertionError as err:
            assert fragment in str(err), str(err)
            return
    pytest.fail(f"the checker accepted 200 games played with {played} as played with {claimed}")
