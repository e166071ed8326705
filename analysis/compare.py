"""Statistics of a strategy comparison (see simulator/compare.py) from its runs' game tables.

For a match (A, B), board g is game g seen from every rotation (A on each team in turn).
Per game, from A's side: ``win`` (1 if A's team wins, 1/2 if it shares the win with a B team,
0 otherwise) and ``diff`` (A's game total minus the mean of the B teams' totals, signed so
that positive is good for A even where the lowest total wins). Per board these are averaged
over the rotations, which cancels the luck of the cards and of the seat; intervals and tests
use the board averages (paired). The unpaired half-width is what the same number of games
would give from independent deals, so their ratio shows what the pairing bought.
Tests are two-sided z tests on the board means (boards are many; the normal approximation
is then exact enough): win rate against a fair share of 1/teams, diff against 0.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from analysis.io import read_info
from analysis.stats import Z95
from simulator.errors import UsageError

# game -> (games-table column of team t's total, whether higher totals are better, winner col)
OUTCOME = {
    "fifty-six": ("tables_team{}", True, "winner_team"),
    "hand-and-foot": ("total_team{}", True, "winner_team"),
    "contract-rummy": ("total_seat{}", False, "winner"),
}


def _deal_values_56(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, team): share of the game's deals in which the team held the contract, and
    how often it made the contracts it held."""
    parts = []
    for t in range(teams):
        held = pl.col("bidding_team") == t
        parts.append(deals.group_by("game_index").agg(
            held.cast(pl.Float64).mean().alias("held"),
            pl.col("made").filter(held).cast(pl.Float64).mean().alias("made_when_held"))
            .with_columns(pl.lit(t).alias("team")))
    return pl.concat(parts)


def _deal_values_hf(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, team): mean deal score, mean turn of the initial meld, share of deals the
    team went out in."""
    return deals.group_by("game_index", "team").agg(
        pl.col("score").cast(pl.Float64).mean().alias("deal_score"),
        pl.col("initial_meld_turn").cast(pl.Float64).mean().alias("initial_meld_turn"),
        pl.col("went_out").cast(pl.Float64).mean().alias("went_out"))


def _deal_values_cr(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, seat): mean penalty per deal, share of deals with the contract down, share
    of deals the player went out in."""
    return deals.group_by("game_index", pl.col("seat").alias("team")).agg(
        pl.col("penalty").cast(pl.Float64).mean().alias("penalty"),
        pl.col("down_turn").is_not_null().cast(pl.Float64).mean().alias("laid_down"),
        pl.col("went_out").cast(pl.Float64).mean().alias("went_out"))


# per-deal metrics of a team, compared as (A's value - the B teams' mean) per game
DEAL_VALUES = {"fifty-six": _deal_values_56, "hand-and-foot": _deal_values_hf,
               "contract-rummy": _deal_values_cr}


def _side_of(values: pl.DataFrame, a: int, teams: int) -> pl.DataFrame:
    names = [c for c in values.columns if c not in ("game_index", "team")]
    own = values.filter(pl.col("team") == a).drop("team")
    rest = values.filter(pl.col("team") != a).group_by("game_index").agg(
        [pl.col(m).mean() for m in names])
    joined = own.join(rest, on="game_index", suffix="__rest")
    return joined.select("game_index", *[(pl.col(m) - pl.col(f"{m}__rest")).alias(f"deal:{m}")
                                         for m in names])


def a_side(g: pl.DataFrame, game: str, a: int, teams: int) -> pl.DataFrame:
    """Per game of a games table with strategy A at team (or seat) ``a``: A's ``win`` (1, 1/2
    when tied for first, 0) and ``diff`` (A's total minus the others' mean, signed so that
    positive is good for A)."""
    col, higher, winner = OUTCOME[game]
    sign = 1.0 if higher else -1.0
    others = [t for t in range(teams) if t != a]
    own = pl.col(col.format(a)).cast(pl.Float64)
    rest = pl.mean_horizontal([pl.col(col.format(t)).cast(pl.Float64) for t in others])
    best_rest = (pl.max_horizontal if higher else pl.min_horizontal)(
        [pl.col(col.format(t)) for t in others])
    # a null winner is a tie for first: half a win when A is among the tied
    tie_with_a = pl.col(winner).is_null() & (pl.col(col.format(a)) == best_rest)
    return g.select(
        "game_index",
        pl.when(pl.col(winner) == a).then(1.0).when(tie_with_a).then(0.5).otherwise(0.0)
        .alias("win"),
        (sign * (own - rest)).alias("diff"))


def load(compare_dir) -> tuple[pl.DataFrame, dict]:
    """Per (pair, rotation, game): A's win share and total difference, from A's side."""
    compare_dir = Path(compare_dir)
    info = read_info(compare_dir, "compare.json", "comparison")
    teams = info["teams"]
    frames = []
    for r in info["runs"]:
        files = sorted((compare_dir / r["folder"]).glob("games-*.parquet"))
        if not files:
            raise UsageError(f"{compare_dir / r['folder']}: no games-*.parquet files")
        a = r["a_team"]
        side = a_side(pl.read_parquet(files), info["game"], a, teams).select(
            pl.lit(r["pair"]).alias("pair"), pl.lit(a).alias("rotation"), pl.all())
        deal_files = sorted((compare_dir / r["folder"]).glob("deals-*.parquet"))
        if deal_files:
            values = DEAL_VALUES[info["game"]](pl.read_parquet(deal_files), teams)
            side = side.join(_side_of(values, a, teams), on="game_index", how="left")
        frames.append(side)
    return pl.concat(frames, how="diagonal"), info


def _z_p(mean: float, se: float, null: float) -> float:
    if math.isnan(se):
        return math.nan
    if se <= 0:  # every board gave the same value
        return 1.0 if mean == null else 0.0
    return math.erfc(abs(mean - null) / se / math.sqrt(2.0))


def pair_table(games: pl.DataFrame, info: dict) -> pl.DataFrame:
    """One row per match and metric (win, diff): estimate, paired 95% interval, p-value, the
    unpaired half-width and how much narrower the paired interval is."""
    names = info["strategies"]
    fair = 1.0 / info["teams"]
    pairs = {r["pair"]: (names[r["a"]], names[r["b"]]) for r in info["runs"]}
    rows = []
    for pair in sorted(games["pair"].unique().to_list()):
        # numpy on a fixed row order: the same numbers to the last bit on every run
        part = games.filter(pl.col("pair") == pair).sort("rotation", "game_index")
        k = part["rotation"].n_unique()
        n = part.height // k
        if n * k != part.height:
            raise UsageError(f"comparison pair {pair}: its seatings played different boards")
        metrics = [("win", fair), ("diff", 0.0)] + [
            (c, 0.0) for c in part.columns if c.startswith("deal:")]
        for metric, null in metrics:
            by_rot = part[metric].cast(pl.Float64).fill_null(np.nan).to_numpy().reshape(k, n)
            # a board counts when every seating has a value (e.g. a team held a contract)
            by_rot = by_rot[:, ~np.isnan(by_rot).any(axis=0)]
            m = by_rot.shape[1]
            boards = by_rot.mean(axis=0)
            mean = float(boards.mean()) if m else math.nan
            se = float(boards.std(ddof=1)) / math.sqrt(m) if m > 1 else math.nan
            # unpaired: the rotations' games as if each came from its own deals
            se_u = math.sqrt(float((by_rot.var(axis=1, ddof=1) / m).sum())) / k \
                if m > 1 else math.nan
            a, b = pairs[pair]
            rows.append({"a": a, "b": b, "metric": metric, "boards": m, "games": part.height,
                         "estimate": mean, "lo": mean - Z95 * se, "hi": mean + Z95 * se,
                         "null": null, "p_value": _z_p(mean, se, null),
                         "unpaired_half_width": Z95 * se_u,
                         "narrowing": se_u / se if se > 0 else math.nan})
    return pl.DataFrame(rows)


def _bradley_terry(wins: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Strengths (geometric mean 1) from win counts ``wins[..., i, j]`` (i over j), for a
    stack of matrices at once: the minorise-maximise update of Hunter (2004)."""
    k = wins.shape[-1]
    games = wins + np.swapaxes(wins, -1, -2)
    total = np.maximum(wins.sum(axis=-1), 1e-9)
    strength = np.ones(wins.shape[:-1])
    for _ in range(iterations):
        pair_sum = strength[..., :, None] + strength[..., None, :]
        denom = (games / pair_sum).sum(axis=-1)  # the diagonal of ``games`` is 0
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), strength)
        strength = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
    return strength.reshape(wins.shape[:-2] + (k,))


def ratings(games: pl.DataFrame, info: dict, iterations: int = 500, prior: float = 0.5,
            resamples: int = 200, seed: int = 0) -> pl.DataFrame:
    """Bradley-Terry strengths from every match's win shares (ties count half), on the Elo
    scale (400 log10, mean 0), with a 95% interval, each strategy's mean win share over its
    matches and its rank. ``prior`` games are added as won by each side of every match, so a
    strategy that never wins still gets a finite rating. The interval is a bootstrap over
    boards, the same boards drawn for every match (board g is the same deal in all of them),
    so it keeps the pairing; ``seed`` fixes the draws."""
    names = info["strategies"]
    k = len(names)
    pair_ab = {r["pair"]: (r["a"], r["b"]) for r in info["runs"]}
    pairs = sorted(pair_ab)
    index = np.sort(games["game_index"].unique().to_numpy())
    # per match and board: A's wins summed over the rotations, and the rotations played
    a_wins = np.zeros((len(pairs), index.size))
    played = np.zeros((len(pairs), index.size))
    for p, pair in enumerate(pairs):
        part = games.filter(pl.col("pair") == pair).group_by("game_index").agg(
            pl.col("win").sum(), pl.len().alias("n")).sort("game_index")
        at = np.searchsorted(index, part["game_index"].to_numpy())
        a_wins[p, at] = part["win"].to_numpy()
        played[p, at] = part["n"].to_numpy()

    def matrix(weights: np.ndarray) -> np.ndarray:  # weights: (draws, boards) -> wins
        w = np.zeros((weights.shape[0], k, k))
        won, n = weights @ a_wins.T, weights @ played.T
        for p, pair in enumerate(pairs):
            a, b = pair_ab[pair]
            w[:, a, b] += won[:, p] + prior
            w[:, b, a] += n[:, p] - won[:, p] + prior
        return w

    def elo(strength):
        return 400.0 * np.log10(strength)

    point = elo(_bradley_terry(matrix(np.ones((1, index.size))), iterations))[0]
    lo = hi = np.full(k, math.nan)
    if resamples > 0 and index.size > 1:
        rng = np.random.default_rng(seed)
        draws = rng.multinomial(index.size, np.full(index.size, 1.0 / index.size),
                                size=resamples).astype(float)
        boot = elo(_bradley_terry(matrix(draws), iterations))
        lo, hi = np.quantile(boot, [0.025, 0.975], axis=0)
    won_all, played_all = np.zeros(k), np.zeros(k)
    for p, pair in enumerate(pairs):
        a, b = pair_ab[pair]
        won_all[a] += a_wins[p].sum()
        won_all[b] += (played[p] - a_wins[p]).sum()
        played_all[a] += played[p].sum()
        played_all[b] += played[p].sum()
    out = pl.DataFrame({
        "strategy": names, "rating": point, "lo": lo, "hi": hi,
        "win_share": np.where(played_all > 0, won_all / np.maximum(played_all, 1), math.nan),
        "games": played_all.astype(np.int64),
    }).sort("rating", descending=True)
    return out.with_columns(pl.int_range(1, k + 1).alias("rank")).select(
        "rank", "strategy", "rating", "lo", "hi", "win_share", "games")


def study(compare_dir) -> dict[str, pl.DataFrame]:
    """The comparison's tables, also written as Parquet under ``compare_dir/studies``."""
    games, info = load(compare_dir)
    tables = {"pairs": pair_table(games, info), "ratings": ratings(games, info)}
    out = Path(compare_dir) / "studies"
    out.mkdir(exist_ok=True)
    for name, df in tables.items():
        df.write_parquet(out / f"compare-{name}.parquet")
    return tables
