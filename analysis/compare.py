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

from cardsim.analysis.io import read_info, write_tables
from cardsim.analysis.stats import Z95
from cardsim.simulator.errors import UsageError

def _analysis(game: str):
    """The game's analysis module: its OUTCOME and deal_values (simulator/adapter.py)."""
    from cardsim.simulator.games import get_game

    return get_game(game).analysis()


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
    col, higher, winner = _analysis(game).OUTCOME
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


def _run_side(info: dict, r: dict, games_file: Path, deal_file: Path | None) -> pl.DataFrame:
    """One chunk of one run: per game, A's win share and total difference (and the per-deal
    metrics when the run kept its deals), from A's side."""
    teams, a = info["teams"], r["a_team"]
    side = a_side(pl.read_parquet(games_file), info["game"], a, teams).select(
        pl.lit(r["pair"]).alias("pair"), pl.lit(a).alias("rotation"), pl.all())
    if deal_file is not None:
        values = _analysis(info["game"]).deal_values(pl.read_parquet(deal_file), teams)
        side = side.join(_side_of(values, a, teams), on="game_index", how="left")
    return side


def load_parts(compare_dir):
    """(compare.json, an iterator over parts): part k is chunk k of every run of the
    comparison (every run plays the same boards in the same chunks), so the statistics can be
    folded a part at a time and memory does not grow with the number of boards."""
    compare_dir = Path(compare_dir)
    info = read_info(compare_dir, "compare.json", "comparison")
    chunks = None
    for r in info["runs"]:
        folder = compare_dir / r["folder"]
        names = sorted(f.name.removeprefix("games-") for f in folder.glob("games-*.parquet"))
        if not names:
            raise UsageError(f"{folder}: no games-*.parquet files")
        if chunks is not None and names != chunks:
            raise UsageError(f"{folder}: its chunks are not those of {info['runs'][0]['folder']}"
                             " (every run of a comparison plays the same boards)")
        chunks = names

    def parts():
        for name in chunks:
            frames = []
            for r in info["runs"]:
                folder = compare_dir / r["folder"]
                deal = folder / f"deals-{name}"
                frames.append(_run_side(info, r, folder / f"games-{name}",
                                        deal if deal.is_file() else None))
            yield pl.concat(frames, how="diagonal")

    return info, parts()


def load(compare_dir) -> tuple[pl.DataFrame, dict]:
    """Per (pair, rotation, game): A's win share and total difference, from A's side (the
    whole comparison in memory; ``study`` folds it a chunk at a time instead)."""
    info, parts = load_parts(compare_dir)
    return pl.concat(list(parts), how="diagonal"), info


def _z_p(mean: float, se: float, null: float) -> float:
    if math.isnan(se):
        return math.nan
    if se <= 0:  # every board gave the same value
        return 1.0 if mean == null else 0.0
    return math.erfc(abs(mean - null) / se / math.sqrt(2.0))


class _Moments:
    """Count, mean and sum of squared deviations of a sample seen a part at a time (parts
    merged as Chan, Golub and LeVeque do; one part gives numpy's two-pass values)."""

    def __init__(self):
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, x: np.ndarray) -> None:
        m = x.size
        if m == 0:
            return
        mean = float(x.mean())
        m2 = float(((x - mean) ** 2).sum())
        if self.n == 0:
            self.n, self.mean, self.m2 = m, mean, m2
            return
        n = self.n + m
        d = mean - self.mean
        self.mean += d * m / n
        self.m2 += m2 + d * d * self.n * m / n
        self.n = n

    def var(self) -> float:
        return self.m2 / (self.n - 1) if self.n > 1 else math.nan


class PairFold:
    """pair_table a part at a time: add() the rows of some boards (every rotation of them)."""

    def __init__(self, info: dict):
        self.info = info
        self.acc: dict = {}  # pair -> {"games", "k", metric -> (board moments, per rotation)}

    def add(self, games: pl.DataFrame) -> None:
        for pair in sorted(games["pair"].unique().to_list()):
            # numpy on a fixed row order: the same numbers to the last bit on every run
            part = games.filter(pl.col("pair") == pair).sort("rotation", "game_index")
            k = part["rotation"].n_unique()
            n = part.height // k
            acc = self.acc.setdefault(pair, {"games": 0, "k": k, "metrics": {}})
            if n * k != part.height or k != acc["k"]:
                raise UsageError(f"comparison pair {pair}: its seatings played different "
                                 "boards")
            acc["games"] += part.height
            for metric in ["win", "diff"] + [c for c in part.columns if c.startswith("deal:")]:
                by_rot = part[metric].cast(pl.Float64).fill_null(np.nan).to_numpy().reshape(k, n)
                # a board counts when every seating has a value (e.g. a team held a contract)
                by_rot = by_rot[:, ~np.isnan(by_rot).any(axis=0)]
                boards, rots = acc["metrics"].setdefault(
                    metric, (_Moments(), [_Moments() for _ in range(k)]))
                boards.add(by_rot.mean(axis=0))
                for r in range(k):
                    rots[r].add(by_rot[r])

    def table(self) -> pl.DataFrame:
        """One row per match and metric (win, diff): estimate, paired 95% interval, p-value,
        the unpaired half-width and how much narrower the paired interval is."""
        names = self.info["strategies"]
        fair = 1.0 / self.info["teams"]
        pairs = {r["pair"]: (names[r["a"]], names[r["b"]]) for r in self.info["runs"]}
        rows = []
        for pair in sorted(self.acc):
            acc = self.acc[pair]
            k = acc["k"]
            for metric, (boards, rots) in acc["metrics"].items():
                null = fair if metric == "win" else 0.0
                m = boards.n
                mean = boards.mean if m else math.nan
                se = math.sqrt(boards.var()) / math.sqrt(m) if m > 1 else math.nan
                # unpaired: the rotations' games as if each came from its own deals
                se_u = math.sqrt(sum(r.var() / m for r in rots)) / k if m > 1 else math.nan
                a, b = pairs[pair]
                rows.append({"a": a, "b": b, "metric": metric, "boards": m,
                             "games": acc["games"], "estimate": mean, "lo": mean - Z95 * se,
                             "hi": mean + Z95 * se, "null": null,
                             "p_value": _z_p(mean, se, null),
                             "unpaired_half_width": Z95 * se_u,
                             "narrowing": se_u / se if se > 0 else math.nan})
        return pl.DataFrame(rows)


def pair_table(games: pl.DataFrame, info: dict) -> pl.DataFrame:
    """One row per match and metric (win, diff): estimate, paired 95% interval, p-value, the
    unpaired half-width and how much narrower the paired interval is."""
    fold = PairFold(info)
    fold.add(games)
    return fold.table()


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


class RatingFold:
    """ratings a part at a time. The bootstrap is a Poisson one: in each resample board g
    weighs Poisson(1), drawn from a stream fixed by (seed, g // BLOCK), so the draws, and the
    weighted win sums (exact in floating point), do not depend on how the boards are cut."""

    BLOCK = 4096

    def __init__(self, info: dict, resamples: int = 200, seed: int = 0):
        self.info, self.resamples, self.seed = info, resamples, seed
        self.pair_ab = {r["pair"]: (r["a"], r["b"]) for r in info["runs"]}
        self.pairs = sorted(self.pair_ab)
        # row 0: every board once (the estimate); rows 1..: the resamples
        self.won = np.zeros((1 + resamples, len(self.pairs)))
        self.played = np.zeros((1 + resamples, len(self.pairs)))
        self.boards = 0
        self._block = (None, None)

    def _weights(self, index: np.ndarray) -> np.ndarray:
        w = np.empty((self.resamples, index.size))
        blocks = index // self.BLOCK
        for b in np.unique(blocks):
            if self._block[0] != b:
                rng = np.random.default_rng([self.seed, int(b)])
                self._block = (b, rng.poisson(1.0, (self.resamples, self.BLOCK)).astype(float))
            at = blocks == b
            w[:, at] = self._block[1][:, index[at] % self.BLOCK]
        return w

    def add(self, games: pl.DataFrame) -> None:
        index = np.sort(games["game_index"].unique().to_numpy())
        self.boards += index.size
        # per match and board: A's wins summed over the rotations, and the rotations played
        a_wins = np.zeros((len(self.pairs), index.size))
        played = np.zeros((len(self.pairs), index.size))
        for p, pair in enumerate(self.pairs):
            part = games.filter(pl.col("pair") == pair).group_by("game_index").agg(
                pl.col("win").sum(), pl.len().alias("n")).sort("game_index")
            at = np.searchsorted(index, part["game_index"].to_numpy())
            a_wins[p, at] = part["win"].to_numpy()
            played[p, at] = part["n"].to_numpy()
        self.won[0] += a_wins.sum(axis=1)
        self.played[0] += played.sum(axis=1)
        if self.resamples > 0:
            w = self._weights(index)
            self.won[1:] += w @ a_wins.T
            self.played[1:] += w @ played.T

    def table(self, iterations: int = 500, prior: float = 0.5) -> pl.DataFrame:
        names = self.info["strategies"]
        k = len(names)

        def matrix(won: np.ndarray, n: np.ndarray) -> np.ndarray:  # (draws, pairs) -> wins
            w = np.zeros((won.shape[0], k, k))
            for p, pair in enumerate(self.pairs):
                a, b = self.pair_ab[pair]
                w[:, a, b] += won[:, p] + prior
                w[:, b, a] += n[:, p] - won[:, p] + prior
            return w

        def elo(strength):
            return 400.0 * np.log10(strength)

        point = elo(_bradley_terry(matrix(self.won[:1], self.played[:1]), iterations))[0]
        lo = hi = np.full(k, math.nan)
        if self.resamples > 0 and self.boards > 1:
            boot = elo(_bradley_terry(matrix(self.won[1:], self.played[1:]), iterations))
            lo, hi = np.quantile(boot, [0.025, 0.975], axis=0)
        won_all, played_all = np.zeros(k), np.zeros(k)
        for p, pair in enumerate(self.pairs):
            a, b = self.pair_ab[pair]
            won_all[a] += self.won[0, p]
            won_all[b] += self.played[0, p] - self.won[0, p]
            played_all[a] += self.played[0, p]
            played_all[b] += self.played[0, p]
        out = pl.DataFrame({
            "strategy": names, "rating": point, "lo": lo, "hi": hi,
            "win_share": np.where(played_all > 0, won_all / np.maximum(played_all, 1),
                                  math.nan),
            "games": played_all.astype(np.int64),
        }).sort("rating", descending=True)
        return out.with_columns(pl.int_range(1, k + 1).alias("rank")).select(
            "rank", "strategy", "rating", "lo", "hi", "win_share", "games")


def ratings(games: pl.DataFrame, info: dict, iterations: int = 500, prior: float = 0.5,
            resamples: int = 200, seed: int = 0) -> pl.DataFrame:
    """Bradley-Terry strengths from every match's win shares (ties count half), on the Elo
    scale (400 log10, mean 0), with a 95% interval, each strategy's mean win share over its
    matches and its rank. ``prior`` games are added as won by each side of every match, so a
    strategy that never wins still gets a finite rating. The interval is a bootstrap over
    boards, the same weights for a board in every match (board g is the same deal in all of
    them), so it keeps the pairing; ``seed`` fixes the draws (see RatingFold)."""
    fold = RatingFold(info, resamples, seed)
    fold.add(games)
    return fold.table(iterations, prior)


def study(compare_dir) -> dict[str, pl.DataFrame]:
    """The comparison's tables, also written as Parquet under ``compare_dir/studies``."""
    info, parts = load_parts(compare_dir)
    pairs, rated = PairFold(info), RatingFold(info)
    for part in parts:  # a chunk of every run at a time: memory does not grow with the boards
        pairs.add(part)
        rated.add(part)
    tables = {"pairs": pairs.table(), "ratings": rated.table()}
    write_tables(Path(compare_dir) / "studies", "compare", tables)
    return tables
