"""The recipes of docs/big_runs.md run as written on a small run of several chunks, and give
what loading the run whole gives."""
import re
from pathlib import Path

import polars as pl
import pytest

from cardsim.simulator.batch import RunSpec, run
from cardsim.simulator.games import get_game

DOC = Path(__file__).resolve().parents[1] / "docs" / "big_runs.md"


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("big") / "run"
    g = get_game("fifty-six")
    run(RunSpec(g, g.rules.resolve({}), ["tuned"], seed=8, count=60, chunk_size=20), out,
        progress=False)
    assert len(list(out.glob("deals-*.parquet"))) == 3
    return out


def _blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_streaming_recipe(small_run, capsys):
    env = {"RUN": str(small_run)}
    exec(_blocks()[0], env)
    whole = pl.read_parquet(small_run / "deals-*.parquet").filter(pl.col("bidder") >= 0)
    want = whole.group_by("bid", "trump").agg(pl.len().alias("contracts"),
                                              pl.col("made").mean().alias("made_rate"))
    got = env["table"]
    assert got["contracts"].sum() == whole.height
    assert got.sort("bid", "trump").equals(want.sort("bid", "trump"))


def test_chunk_by_chunk_recipe(small_run):
    env = {"RUN": str(small_run), "pl": pl}
    exec(_blocks()[1], env)
    got = env["acc"].select(*env["mean_from_sums"]("deals")).row(0, named=True)
    per_game = pl.read_parquet(small_run / "deals-*.parquet").group_by("game_index").len()
    assert got["deals"] == pytest.approx(per_game["len"].mean())
    assert got["deals_lo"] < got["deals"] < got["deals_hi"]
