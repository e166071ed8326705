"""Runs whose first deals are constrained (RunSpec.fixed_deal, simulator.constrained): the same
tables for any thread count or chunking, and each game's first deal is the constrained deck of
its index (a replay given that deck plays the run's rows and deals the fixed hand to the first
player)."""
from importlib import import_module

import numpy as np
import polars as pl
import pytest

from cardsim.simulator import constrained as C
from cardsim.simulator.cards import name
from cardsim.simulator.games import get_game
from cardsim.simulator.runner import RunSpec, Runner

CASES = {  # game: (deals mode, count, fixed first hand)
    "fifty-six": (True, 300, "JC JC JS JS JH JH JD JD 9C 9C 9S 9S"),
    "hand-and-foot": (False, 12, "JK JK 2S 2H AS AS AH KS KS KH QS QS QH"),
    "contract-rummy": (False, 12, "7S 7H 7D 9C 9D 9H 2S 3S 4S 5S"),
}


def _spec(game, rules, hand):
    pm = import_module(game.position_module)
    places = pm.places(rules, int(rules["players"]) - 1)  # the first player is "hand0"
    return C.build(pm.deck(rules), places, {"hand0": C.parse_cards(hand)}), places


@pytest.mark.parametrize("name_", list(CASES))
def test_fixed_first_deals_are_reproducible_and_dealt_as_specified(name_):
    deals_mode, n, hand = CASES[name_]
    game = get_game(name_)
    rules = game.rules.resolve({})
    spec, places = _spec(game, rules, hand)
    run = RunSpec(game, rules, [game.default_strategy], seed=4, count=n, deals_mode=deals_mode,
                  seating="fixed", fixed_deal=spec)
    whole = Runner(run).play_chunk(0, n, 1)
    two = Runner(run).play_chunk(0, n, 2)
    half = n // 2
    a, b = Runner(run).play_chunk(0, half, 1), Runner(run).play_chunk(half, n - half, 2)
    assert whole[0].equals(two[0]) and whole[0].equals(pl.concat([a[0], b[0]]))
    plain = Runner(RunSpec(game, rules, [game.default_strategy], seed=4, count=n,
                           deals_mode=deals_mode, seating="fixed")).play_chunk(0, n, 1)
    assert not whole[0].equals(plain[0])  # the fixed hand changed the deals
    replay = import_module(game.kernel_module.rpartition(".")[0] + ".replay")
    for g in (0, n // 3, n - 1):
        deck = C.board_deals(spec, 4, g, 1)[0]
        assert sorted(deck[places["hand0"]].tolist()) == sorted(C.parse_cards(hand))
        kw = {"deals_mode": True} if deals_mode else {}
        events, rows, _ = replay.play_one(game, rules, [game.default_strategy], 4, g,
                                          preset_deck=deck, seating="fixed", **kw)
        deal = next(e for e in events if e["event"] == "deal")
        first = deal.get("first", deal.get("first_seat"))
        assert sorted(deal["hands"][str(first)]) == sorted(name(c) for c in
                                                           C.parse_cards(hand))
        mine = whole[0].filter(pl.col("game_index") == g)
        if not deals_mode:
            mine = mine.filter(pl.col("deal_index") == 0)
            rows = rows.filter(pl.col("deal_index") == 0)
        assert rows.equals(mine), g
