"""Invariants over many random Contract Rummy games with random rule options and strategies
(the kernel's debug mode checks card conservation and every meld after each turn), no hang
(every deal ends: out, stalled or at the turn cap), and reproducibility for any thread count
and chunking."""
import polars as pl
from hypothesis import HealthCheck, given, settings, strategies as st

from cardsim.simulator.batch import RunSpec, Runner, run
from tests.helpers_contract_rummy import GAME
from tests.test_contract_rummy_replay import OPTIONS, STRATS, resolve


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=OPTIONS, seed=st.integers(0, 2**32),
       strats=st.lists(st.sampled_from(STRATS), min_size=8, max_size=8))
def test_conservation_and_tables(opts, seed, strats):
    rules = resolve(opts)
    p = rules["players"]
    n = 3 * p  # duplicate seating when the strategies differ: sets of p games
    spec = [f"{s}={strats[s]}" for s in range(p)]
    deals, games = Runner(RunSpec(GAME, rules, spec, seed=seed, count=n, debug=True)
                          ).play_chunk(0, n, 2)
    nd = len(rules["contracts"])
    assert deals.height == n * nd * p and games.height == n
    # every deal ended one of the documented ways, within the cap
    assert (deals["turns"] <= rules["max_turns"]).all()
    one = deals.filter(pl.col("seat") == 0)
    assert set(one["end"].unique().to_list()) <= {"went_out", "stalled", "turn_cap"}
    assert (one.filter(pl.col("end") == "turn_cap")["turns"] == rules["max_turns"]).all()
    assert (one.filter(pl.col("end") == "stalled")["reshuffles"] <= rules["max_reshuffles"]).all()
    # exactly one player out in a went_out deal, with no cards and a penalty of 0
    out = deals.filter(pl.col("went_out"))
    assert out.height == one.filter(pl.col("end") == "went_out").height
    assert (out["penalty"] == 0).all() and (out["cards_left"] == 0).all()
    assert out["down_turn"].is_not_null().all()
    # all at once: whoever went out in the last deal laid down in that very turn
    if rules["last_deal_all_at_once"]:
        last = out.filter(pl.col("all_at_once"))
        assert (last["down_turn"] == last["out_turn"]).all()
    # buys only with buying on, within the limit
    assert deals["buys"].max() <= (rules["buy_limit"] if rules["buying"] else 0)
    # cumulative = running sum of penalties; game totals and the lowest-total winner
    cum = deals.sort("game_index", "seat", "deal_index").with_columns(
        pl.col("penalty").cast(pl.Int64).cum_sum().over("game_index", "seat").alias("c"))
    assert (cum["c"] == cum["cumulative"]).all()
    for row in games.iter_rows(named=True):
        totals = [row[f"total_seat{s}"] for s in range(p)]
        low = min(totals)
        assert row["tied"] == totals.count(low)
        assert row["winner"] == (totals.index(low) if totals.count(low) == 1 else None)


def test_same_tables_for_any_threads_and_chunks(tmp_path):
    rules = GAME.rules.resolve({"buying": True})
    spec = ["0=pile_hunter", "1=random", "2=hold_for_more:max_left=3", "3=lay_down_at_once"]
    a = run(RunSpec(GAME, rules, spec, seed=9, count=40, threads=1, chunk_size=40),
            tmp_path / "a", progress=False)
    b = run(RunSpec(GAME, rules, spec, seed=9, count=40, threads=2, chunk_size=7),
            tmp_path / "b", progress=False)
    assert a["games"] == b["games"] == 40
    frames = {}
    for kind in ("deals", "games"):
        da = pl.read_parquet(sorted((tmp_path / "a").glob(f"{kind}-*.parquet")))
        db = pl.read_parquet(sorted((tmp_path / "b").glob(f"{kind}-*.parquet")))
        assert da.equals(db)
        frames[kind] = da
    other = Runner(RunSpec(GAME, rules, spec, seed=10, count=8)).play_chunk(0, 8, 2)[0]
    same = Runner(RunSpec(GAME, rules, spec, seed=9, count=8)).play_chunk(0, 8, 1)[0]
    assert not other.equals(same)
    assert same.equals(frames["deals"].filter(pl.col("game_index") < 8))


def test_duplicate_seating_plays_every_strategy_from_every_seat_on_the_same_deals():
    rules = GAME.rules.resolve({})
    spec = ["0=pile_hunter", "1=hold_for_more"]  # seats 2, 3: the default table_reader
    runner = Runner(RunSpec(GAME, rules, spec, seed=5, count=8))
    assert runner.rotations == 4
    deals, games = runner.play_chunk(0, 8, 2)
    assert games["rotation"].to_list() == [0, 1, 2, 3] * 2
    d = deals.with_columns((pl.col("game_index") // 4).alias("board"),
                           (pl.col("game_index") % 4).alias("rot"))
    assert (d["strategy"] == (d["seat"] + d["rot"]) % 4).all()
    same = d.group_by("board", "deal_index", "seat").agg(
        pl.col("dealt_can_lay").n_unique().alias("a"), pl.col("dealer").n_unique().alias("b"))
    assert (same["a"] == 1).all() and (same["b"] == 1).all()
    won = games.filter(pl.col("winner").is_not_null())
    assert (won["winner_strategy"] == (won["winner"] + won["rotation"]) % 4).all()
    # the replay of a game of the run is that game (seating auto -> duplicate)
    from cardsim.simulator.games.contract_rummy.replay import play_one

    _, rdeals, _ = play_one(GAME, rules, spec, 5, 6)
    assert rdeals.equals(deals.filter(pl.col("game_index") == 6))
