"""Studies read runs a chunk at a time and fold what each chunk adds (so memory does not
grow with the run): the folded tables equal the same functions on the whole tables at once,
and the folding statistics equal polars' own on the sample."""
import random
from collections import Counter

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import cardsim.simulator.games.contract_rummy.analysis as cr
import cardsim.simulator.games.hand_and_foot.analysis as hf
from cardsim.analysis.io import load_run
from cardsim.analysis.stats import fold, mean_ci, mean_from_sums, quantile_from_counts, sum_cols
from cardsim.simulator.batch import RunSpec, run
from cardsim.simulator.games import get_game


def _run(tmp_path, game, strategies, count, chunk):
    g = get_game(game)
    spec = RunSpec(g, g.rules.resolve({}), strategies, seed=11, count=count, chunk_size=chunk)
    run(spec, tmp_path, progress=False)
    assert len(list(tmp_path.glob("deals-*.parquet"))) >= 3  # several chunks to fold
    return tmp_path


def _same(a: pl.DataFrame, b: pl.DataFrame, keys):
    assert a.columns == b.columns
    assert_frame_equal(a.sort(keys), b.sort(keys), check_dtypes=False, rel_tol=1e-9,
                       abs_tol=1e-9)


def test_hand_and_foot_study_folds_chunks(tmp_path):
    d = _run(tmp_path, "hand-and-foot", ["0=early_melder", "1=pile_taker"], 240, 70)
    folded = hf.min_meld_study([d], [2, 6, 12], labels=["arm"])
    deals, games, info = load_run(d, "hand-and-foot")
    _same(folded["melded_by_turn"], hf.melded_by_turn(deals, "arm", [2, 6, 12]),
          ["deal_index", "turn"])
    _same(folded["deals"], hf.deal_summary(deals, "arm"), ["deal_index"])
    _same(folded["teams"], hf.team_summary(games, info, "arm"), ["team"])


@pytest.mark.parametrize("seating", ["duplicate", "fixed"])
def test_contract_rummy_study_folds_chunks(tmp_path, seating):
    g = get_game("contract-rummy")
    spec = RunSpec(g, g.rules.resolve({}), ["0=pile_hunter", "1=hold_for_more",
                                            "2=lay_down_at_once", "3=lay_down_at_once"],
                   seed=11, count=96, chunk_size=30, seating=seating)
    run(spec, tmp_path, progress=False)
    folded = cr.completion_study([tmp_path], [0, 3, 8])
    deals, games, info = load_run(tmp_path, "contract-rummy")
    deals = cr.with_contract(deals)
    arm = cr.arm_label(info)
    ck = ["deal_index"]
    _same(folded["laid_down_by_turn"], cr.laid_down_by_turn(deals, arm, [0, 3, 8]),
          [*ck, "turn"])
    _same(folded["deals"], cr.deal_summary(deals, arm), ck)
    _same(folded["out_turns"], cr.out_turn_distribution(deals, arm), [*ck, "out_turn"])
    _same(folded["penalty"], cr.penalty_summary(deals, arm), ck)
    _same(folded["strategies"], cr.strategy_summary(deals, info, arm), [*ck, "strategy"])
    _same(folded["games"], cr.game_summary(games, deals, info, arm), ["seat"])
    # the whole-table medians and quartiles, as polars computes them on the sample
    per = deals.group_by("game_index", "deal_index").agg(pl.col("out_turn").max())
    want = per.group_by("deal_index").agg(pl.col("out_turn").median().alias("m"),
                                          pl.col("out_turn").quantile(0.25).alias("q1"))
    got = folded["deals"].join(want, on="deal_index")
    assert got["out_turn_median"].to_list() == got["m"].to_list()
    assert got["out_turn_q1"].to_list() == got["q1"].to_list()


def test_folded_sums_give_the_whole_sample_mean_and_interval():
    rng = random.Random(3)
    df = pl.DataFrame({"k": [rng.randrange(3) for _ in range(500)],
                       "x": [rng.gauss(10, 4) if rng.random() > 0.1 else None
                             for _ in range(500)]})
    acc = None
    for i in range(0, 500, 73):
        acc = fold(acc, df[i:i + 73].group_by("k").agg(*sum_cols("x", "x")), ["k"])
    got = acc.with_columns(*mean_from_sums("x")).sort("k")
    want = df.group_by("k").agg(*mean_ci("x", "x")).sort("k")
    for c in ("x", "x_lo", "x_hi"):
        assert got[c].to_list() == pytest.approx(want[c].to_list(), rel=1e-12)


def test_quantiles_from_counts_match_polars():
    rng = random.Random(5)
    for _ in range(400):
        xs = [rng.randrange(25) for _ in range(rng.randrange(1, 50))]
        c = Counter(xs)
        s = pl.Series(xs)
        for q in (0.1, 0.25, 0.5, 0.75, 0.9):
            assert quantile_from_counts(list(c), list(c.values()), q) == s.quantile(q)
        assert quantile_from_counts(list(c), list(c.values()), 0.5, linear=True) == s.median()
    assert quantile_from_counts([], [], 0.5) is None


def test_sweep_table_folds_chunks(tmp_path):
    from cardsim.analysis.metrics import paired_difference, run_per_game, summary
    from cardsim.analysis.sweep import sweep_table
    from cardsim.simulator.sweep import expand, parse_vary, run_sweep

    g = get_game("hand-and-foot")
    settings = expand(g, [], ["early_melder"], [parse_vary("0.hold=0,90")])
    run_sweep(g, settings, 4, 200, tmp_path, chunk_size=60, seating="fixed", progress=False)
    got = sweep_table(tmp_path)
    base = None
    for s, folder in enumerate(sorted(tmp_path.glob("s[0-9][0-9][0-9]"))):
        assert len(list(folder.glob("deals-*.parquet"))) >= 3
        per, _ = run_per_game(folder)
        base = per if base is None else base
        want = summary(per).join(paired_difference(per, base), on="metric")
        mine = got.filter(pl.col("setting") == s).select(want.columns)
        _same(mine, want, ["metric"])
