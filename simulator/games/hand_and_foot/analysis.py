"""Hand and Foot minimum-meld study from one or more runs' tables (polars only).

Each run is one arm: its label is its ``min_meld`` schedule and its teams' strategies (from
run.json). For every arm, with 95% intervals:

- ``melded_by_turn``: share of (deal, team) rows whose initial meld came by deal turn t, per
  deal index (Wilson);
- ``deals``: going-out and stock-exhausted rates (Wilson), mean deal length and mean score
  spread between the best and worst team of a deal (normal intervals), and the first player's
  edge: how often the team of the deal's first player scores more than every other team
  (Wilson) and its mean margin;
- ``teams``: how often each team (its strategy and parameters) wins the game (Wilson) and its
  mean game total: with different thresholds per team, which threshold wins.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from cardsim.analysis.io import read_info, run_chunks
from cardsim.analysis.stats import fold, mean_from_sums, sum_cols, wilson_cols
from cardsim.analysis import report as R
from cardsim.analysis.metrics import win_of


def arm_label(info: dict) -> str:
    sched = "/".join(str(v) for v in info["rules"]["min_meld"][: info["rules"]["deals"]])
    return f"{sched} {strategies_label(info)}"


def strategies_label(info: dict) -> str:
    """Strategy names per team; parameters only where teams of one name differ."""
    strats = info["strategies"]
    differing = {k for s in strats for k, v in s["params"].items()
                 if any(o["name"] == s["name"] and o["params"].get(k) != v for o in strats)}
    parts = []
    for s in strats:
        ps = ",".join(f"{k}={v:g}" for k, v in s["params"].items() if k in differing)
        parts.append(s["name"] + (f"({ps})" if ps else ""))
    return parts[0] if len(set(parts)) == 1 else " vs ".join(parts)


def _melded_part(deals: pl.DataFrame, turns: list[int]) -> pl.DataFrame:
    rows = [deals.group_by("deal_index").agg(
        pl.len().cast(pl.Int64).alias("n"),
        (pl.col("initial_meld_turn").fill_null(1 << 30) <= t).sum().cast(pl.Int64)
        .alias("melded")).with_columns(pl.lit(t).alias("turn")) for t in turns]
    return pl.concat(rows)


def _melded_final(part: pl.DataFrame, arm: str) -> pl.DataFrame:
    out = part.with_columns(pl.lit(arm).alias("arm"), *wilson_cols("melded", "n", "share"))
    return out.select("arm", "deal_index", "turn", "n", "melded", "share", "share_lo",
                      "share_hi").sort("deal_index", "turn")


def melded_by_turn(deals: pl.DataFrame, arm: str, turns: list[int]) -> pl.DataFrame:
    """Share of (deal, team) rows with the initial meld made by turn t, per deal index."""
    return _melded_final(_melded_part(deals, turns), arm)


def _deal_part(deals: pl.DataFrame) -> pl.DataFrame:
    per = deals.with_columns((pl.col("team") == pl.col("first_seat") % pl.col("team").max()
                              .over("game_index", "deal_index").add(1)).alias("first_team"))
    agg = per.group_by("game_index", "deal_index").agg(
        (pl.col("end") == "went_out").first().alias("out"),
        (pl.col("end") == "stock_exhausted").first().alias("exhausted"),
        pl.col("turns").first(),
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
        pl.col("score").filter(pl.col("first_team")).first().alias("first_score"),
        pl.col("score").filter(~pl.col("first_team")).max().alias("best_other"),
    ).with_columns(
        (pl.col("first_score") > pl.col("best_other")).alias("first_wins"),
        (pl.col("first_score").cast(pl.Int32) - pl.col("best_other")).alias("first_margin"))
    return agg.group_by("deal_index").agg(
        pl.len().cast(pl.Int64).alias("n"),
        *(pl.col(c).sum().cast(pl.Int64).alias(a) for c, a in (
            ("out", "went_out"), ("exhausted", "exhausted"), ("first_wins", "first_wins"))),
        *sum_cols("turns", "turns"), *sum_cols("spread", "spread"),
        *sum_cols("first_margin", "first_margin"))


def _deal_final(part: pl.DataFrame, arm: str) -> pl.DataFrame:
    out = part.with_columns(*wilson_cols("went_out", "n", "out_rate"),
                            *wilson_cols("exhausted", "n", "exhausted_rate"),
                            *wilson_cols("first_wins", "n", "first_win_rate"),
                            *mean_from_sums("turns"), *mean_from_sums("spread"),
                            *mean_from_sums("first_margin"))
    return out.with_columns(pl.lit(arm).alias("arm")).select(
        "arm", "deal_index", "n", "out_rate", "out_rate_lo", "out_rate_hi", "exhausted_rate",
        "exhausted_rate_lo", "exhausted_rate_hi", "turns", "turns_lo",
        "turns_hi", "spread", "spread_lo", "spread_hi", "first_win_rate", "first_win_rate_lo",
        "first_win_rate_hi", "first_margin", "first_margin_lo", "first_margin_hi",
    ).sort("deal_index")


def deal_summary(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    """Per deal index: going-out rate, length, score spread, the first player's edge."""
    return _deal_final(_deal_part(deals), arm)


def _team_part(games: pl.DataFrame) -> pl.DataFrame:
    teams = int(games["teams"].max())
    return pl.concat([games.select(
        pl.lit(t).alias("team"), pl.len().cast(pl.Int64).alias("n"),
        (pl.col("winner_team") == t).sum().cast(pl.Int64).alias("wins"),
        *sum_cols(f"total_team{t}", "total")) for t in range(teams)])


def _team_final(part: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    names = []
    for t in part["team"]:
        s = info["strategies"][t]
        ps = ",".join(f"{k}={v:g}" for k, v in s["params"].items())
        names.append(s["name"] + (f"({ps})" if ps else ""))
    out = part.with_columns(pl.Series("strategy", names), *wilson_cols("wins", "n", "win_rate"),
                            *mean_from_sums("total"), pl.lit(arm).alias("arm"))
    return out.select("arm", "team", "strategy", "n", "wins", "win_rate", "win_rate_lo",
                      "win_rate_hi", "total", "total_lo", "total_hi").sort("team")


def team_summary(games: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    """Per team: its strategy, game win rate (ties count as not won) and mean total."""
    return _team_final(_team_part(games), info, arm)


def min_meld_study(run_dirs, turns: list[int], labels=None) -> dict[str, pl.DataFrame]:
    """The three tables over runs (arms); ``labels`` name the arms (default: from run.json).
    Each run is read a chunk at a time (memory does not grow with the run)."""
    if labels is not None and len(labels) != len(run_dirs):
        raise ValueError("one label per run")
    curves, deal_tables, team_tables = [], [], []
    for i, rd in enumerate(run_dirs):
        info, chunks = run_chunks(rd, "hand-and-foot")
        arm = arm_label(info) if labels is None else labels[i]
        melded = dealt = team = None
        for deals, games in chunks:
            melded = fold(melded, _melded_part(deals, turns), ["deal_index", "turn"])
            dealt = fold(dealt, _deal_part(deals), ["deal_index"])
            team = fold(team, _team_part(games), ["team"])
        curves.append(_melded_final(melded, arm))
        deal_tables.append(_deal_final(dealt, arm))
        team_tables.append(_team_final(team, info, arm))
    return {"melded_by_turn": pl.concat(curves), "deals": pl.concat(deal_tables),
            "teams": pl.concat(team_tables)}


def best_arm(teams: pl.DataFrame) -> dict[int, dict]:
    """Per team whose strategy or parameters differ between arms, the arm in which it wins
    most often: which threshold wins against the same opponents."""
    out = {}
    for team in sorted(teams["team"].unique()):
        rows = teams.filter(pl.col("team") == team)
        if rows["strategy"].n_unique() > 1:
            out[int(team)] = rows.sort("win_rate", descending=True).row(0, named=True)
    return out


# ---------------------------------------------------------------- what the shared studies ask
# (the adapter's analysis_module: sweeps, --precision, compare, report)

# compare: (games-table column of team t's total, whether higher totals are better,
# the winner column)
OUTCOME = ("total_team{}", True, "winner_team")


def metrics(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    """One row per game index (per deal in deals mode), one column per metric: what
    sweeps and --precision summarise and compare (analysis/metrics.py)."""
    per = deals.group_by("game_index").agg(
        (pl.col("end") == "went_out").cast(pl.Float64).mean().alias("went_out_rate"),
        pl.col("turns").cast(pl.Float64).mean().alias("deal_turns"),
        pl.col("initial_meld_turn").cast(pl.Float64).mean().alias("initial_meld_turn"),
        pl.col("score").filter(pl.col("team") == 0).cast(pl.Float64).mean()
        .alias("team0_deal_score"))
    return per.join(games.select(
        "game_index", win_of("winner_team").alias("team0_win"),
        (pl.col("total_team0") - pl.col("total_team1")).cast(pl.Float64)
        .alias("team0_minus_team1")), on="game_index")


def deal_values(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, team): mean deal score, mean turn of the initial meld, share of deals the
    team went out in."""
    return deals.group_by("game_index", "team").agg(
        pl.col("score").cast(pl.Float64).mean().alias("deal_score"),
        pl.col("initial_meld_turn").cast(pl.Float64).mean().alias("initial_meld_turn"),
        pl.col("went_out").cast(pl.Float64).mean().alias("went_out"))


def report_sections(dirs: list[Path]) -> list:
    """cardsim report's sections for this game's runs (several runs: one comparison)."""
    turns = [1, 2, 4, 6, 8, 12, 16, 20, 30, 40]
    tables = min_meld_study(dirs, turns)
    infos = [read_info(d, "run.json", "run") for d in dirs]
    n = ", ".join(f"{i['games']:,}" for i in infos)
    seeds = ", ".join(str(i["seed"]) for i in infos)
    sec = R.Section("Hand and Foot: initial meld by turn" + (" — schedule comparison"
                                                           if len(dirs) > 1 else ""))
    sec.figures.append(R.curves(
        tables["melded_by_turn"], "deal_index", lambda k: f"deal {k + 1}",
        "teams melded", f"Share of (deal, team) rows with the initial meld made by deal "
        f"turn t, 95% Wilson bands; one line per run; {n} games, seed {seeds}."))
    sec.tables.append(("per deal", tables["deals"]))
    sec.tables.append(("per team", tables["teams"]))
    return [sec]


# ---------------------------------------------------------------- hand analysis (cardsim hand)

HAND_TURNS = 20  # own turns the hand table shows


def hand_setup(g, rules: dict, deal: int) -> dict:
    """The rules of a one-deal game played as deal ``deal`` (its minimum meld): the hand
    analysis of ``cardsim hand``."""
    from cardsim.simulator.errors import UsageError

    if not 0 <= deal < rules["deals"]:
        raise UsageError(f"--deal {deal}: allowed 0..{rules['deals'] - 1} (the rules' deals)")
    one = dict(rules)
    one["deals"] = 1
    one["min_meld"] = [rules["min_meld"][deal]]
    return g.rules.resolve(one)


def hand_rows(frames: dict[str, pl.DataFrame], seat: int, rules: dict) -> dict:
    """The hand's table from the deals of its runs (deal 0 of each game, the hand's team):
    the chance its team has made the minimum meld by the hand's own turn t (t = 1 ...
    HAND_TURNS), of going out first, and the team's expected deal score, each with a 95%
    interval."""
    from cardsim.analysis.stats import mean_interval, rate_interval

    d0 = frames[""].filter(pl.col("deal_index") == 0)  # one run
    players = int(d0["players"][0])
    teams = players // 2 if players in (4, 6) else players
    mine = d0.filter(pl.col("team") == ((pl.col("first_seat") + seat) % players) % teams)
    n = mine.height
    melded = mine["initial_meld_turn"].fill_null(1 << 20).to_numpy()
    rows = []
    for t in range(1, HAND_TURNS + 1):
        r, lo, hi = rate_interval(int((melded <= (t - 1) * players + seat + 1).sum()), n)
        rows.append({"turn": t, "melded_rate": r, "lo": lo, "hi": hi})
    out = rate_interval(int(mine["went_out"].sum()), n)
    score = mean_interval(mine["score"])
    return {"deals": n, "rows": rows,
            **dict(zip(("went_out_rate", "went_out_lo", "went_out_hi"), out)),
            **dict(zip(("score", "score_lo", "score_hi"), score))}


# the outlook of a position (cardsim hand --position, simulator.outlook): the team's deal
# score decides
POSITION_SCORE = ("score", 1)


def position_rules(rules: dict, deal: int) -> tuple[dict, bool]:
    """(rules, deals mode) that end a game resumed at deal ``deal`` with that deal."""
    from cardsim.simulator.games import get_game

    cut = dict(rules)
    cut["deals"] = deal + 1
    cut["min_meld"] = list(rules["min_meld"])[:deal + 1]
    return get_game("hand-and-foot").rules.resolve(cut), False


def position_outcome(deals: pl.DataFrame, seat: int, rules: dict) -> dict:
    """Per resampled deal: whether the seat's team went out and had made its minimum meld by
    the deal's end, and its deal score."""
    from cardsim.simulator.games.hand_and_foot.rules import n_teams

    mine = deals.filter(pl.col("team") == seat % n_teams(int(rules["players"])))
    return {"went_out_rate": mine["went_out"].to_numpy(),
            "melded_rate": mine["initial_meld_turn"].is_not_null().to_numpy(),
            "score": mine["score"].cast(pl.Int64).to_numpy()}
