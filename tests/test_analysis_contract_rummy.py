"""Contract Rummy study helpers on hand-made tables with known answers."""
import json

import polars as pl
import pytest

from cardsim.simulator.games.contract_rummy.analysis import joker_worth


def test_joker_worth_compares_within_each_contract(tmp_path):
    # contract 0: no joker 10, 20 (mean 15), one joker 5 -> -10;
    # contract 1: no joker 40, 60 (mean 50), one joker 30 x3 -> -20;
    # weighted by the one-joker rows (1 and 3): -17.5, where pooling all rows would say
    # 23.75 - 32.5 = -8.75 (the 12-card contract holds more jokers and more penalty)
    pl.DataFrame({
        "deal_index": [0, 0, 0, 1, 1, 1, 1, 1],
        "jokers_dealt": [0, 0, 1, 0, 0, 1, 1, 1],
        "penalty": [10, 20, 5, 40, 60, 30, 30, 30],
        "down_turn": [None, 3, 2, None, None, 4, 5, None],
        "went_out": [False, True, False, False, False, True, False, False],
    }).write_parquet(tmp_path / "deals-000000.parquet")
    (tmp_path / "run.json").write_text(json.dumps({"game": "contract-rummy"}))
    t = joker_worth(tmp_path)
    none, one = t.row(0, named=True), t.row(1, named=True)
    assert (none["jokers_dealt"], none["n"], one["n"]) == (0, 4, 4)
    assert none["penalty"] == pytest.approx(32.5) and one["penalty"] == pytest.approx(23.75)
    assert none["penalty_diff"] == pytest.approx(0.0)
    assert one["penalty_diff"] == pytest.approx(-17.5)
    assert one["penalty_diff_lo"] < -17.5 < one["penalty_diff_hi"]
    assert (none["down_rate"], one["down_rate"]) == (0.25, 0.75)
    assert (none["out_rate"], one["out_rate"]) == (0.25, 0.25)
