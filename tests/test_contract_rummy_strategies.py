"""Contract Rummy strategies: the presets behave as their names say, buying policies, and an
illegal answer from a strategy is one clear error naming the strategy and the decision."""
import numpy as np
import polars as pl
import pytest
from numba import njit

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.errors import StrategyError
from cardsim.simulator.strategy import StrategyDef
from cardsim.strategies.contract_rummy import heuristic_discard, heuristic_draw
from tests.helpers_contract_rummy import GAME


def _play(spec, n=60, seed=4, **rules):
    r = GAME.rules.resolve(rules)
    return Runner(RunSpec(GAME, r, spec, seed=seed, count=n, seating="fixed")).play_chunk(0, n, 2)


def test_presets_differ_as_documented():
    spec = ["0=lay_down_at_once", "1=hold_for_more:max_left=1,wait_turns=0",
            "2=pile_hunter", "3=random"]
    deals, _ = _play(spec, n=80)
    by = deals.group_by("seat").agg(
        pl.col("down_turn").is_not_null().mean().alias("down"),
        pl.col("top_draws").mean().alias("top"), pl.col("deep_draws").mean().alias("deep"),
        pl.col("cards_left").mean().alias("left")).sort("seat")
    down, top, deep = by["down"].to_list(), by["top"].to_list(), by["deep"].to_list()
    assert down[0] > down[1]  # holding for a nearly empty hand lays down less often
    assert top[2] > 3 * top[0] and deep[2] > 0 and deep[0] == deep[1] == 0
    assert deals.filter(pl.col("seat") == 1)["dealt_can_lay"].sum() >= 0


def test_buying_policies():
    never = _play(["lay_down_at_once:buy_policy=0"], buying=True)[0]
    always = _play(["lay_down_at_once:buy_policy=3"], buying=True)[0]
    off = _play(["lay_down_at_once:buy_policy=3"], buying=False)[0]
    assert never["buys"].sum() == 0 and off["buys"].sum() == 0
    assert always["buys"].sum() > 0 and always["buys"].max() <= 3
    limited = _play(["lay_down_at_once:buy_policy=3"], buying=True, buy_limit=1)[0]
    assert limited["buys"].max() == 1


@njit(cache=True)
def _bad_discard(mine, public, private, legal, params, rng):
    return legal[0]  # one past the last choice


def test_an_illegal_answer_names_the_strategy_and_decision():
    bad = StrategyDef("off_by_one", "test", {"draw": heuristic_draw, "buy": heuristic_draw,
                                             "lay": heuristic_draw, "layoff": heuristic_draw,
                                             "discard": _bad_discard}, plugin=True)
    rules = GAME.rules.resolve({})
    runner = Runner(RunSpec(GAME, rules, ["1=off_by_one"], seed=1, count=2, seating="fixed",
                            registry={"off_by_one": bad}))
    with pytest.raises(StrategyError) as e:
        runner.play_chunk(0, 2, 1)
    msg = str(e.value)
    assert "off_by_one" in msg and "discard" in msg and "seat 1" in msg
    # duplicate seating: game 1 puts strategy 1 in seat 0, and the error still names it
    runner = Runner(RunSpec(GAME, rules, ["1=off_by_one"], seed=1, count=4,
                            registry={"off_by_one": bad}))
    with pytest.raises(StrategyError) as e:
        runner.play_chunk(1, 3, 1)
    assert "off_by_one" in str(e.value) and "seat 0" in str(e.value)


def test_discard_heuristic_keeps_jokers_and_pairs():
    from cardsim.simulator.games.contract_rummy.view import P_LEN, V_LEN, P_NSETS
    from tests.helpers_contract_rummy import counts, codes

    mine = counts("KS KH 7D JK 2C")
    public = np.zeros(P_LEN, np.int32)
    public[P_NSETS] = 2
    private = np.zeros(V_LEN, np.int32)
    legal = np.zeros(16, np.int32)
    cs = sorted(set(codes("KS KH 7D JK 2C")))
    legal[0] = len(cs)
    legal[1:1 + len(cs)] = cs
    from cardsim.strategies.contract_rummy import REGISTRY
    params = np.array([q.default for q in REGISTRY["lay_down_at_once"].params], np.float64)
    i = heuristic_discard(mine, public, private, legal, params, np.zeros(2, np.uint64))
    from cardsim.simulator.cards import name
    assert name(legal[1 + i]) == "7D"  # the higher of the two loners; never the joker or a K
