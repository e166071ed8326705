"""Contract Rummy contract-completion study from one or more runs' tables (polars only), plus
the dealt-hand tables of simulator/games/contract_rummy/dealt.py with intervals.

Each run is one arm (its strategies, players and deck setting, from run.json). Per arm and
contract (deal index, sets, runs, cards dealt, decks, jokers), with 95% intervals:

- ``laid_down_by_turn``: share of (deal, player) rows whose contract was down by the player's
  own turn t; t = 0 is the dealt hand (it already held the contract) (Wilson);
- ``deals``: how deals ended (went out / stalled / turn cap), turns, the own turn in which the
  winner of the deal went out (mean and quartiles), the first seat's edge (how often the
  player who plays first goes out, against 1 / players; its mean penalty against the
  others');
- ``penalty``: penalty distribution per contract (mean, share of zero, quartiles, p90);
- ``strategies``: per contract and strategy: contract down rate, going-out rate, mean
  penalty, mean own turn of the lay-down;
- ``games``: per strategy (seat): game win rate and mean total (lowest total wins).
"""
from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from cardsim.analysis.io import read_info, run_chunks
from cardsim.analysis.stats import (
    fold, mean_from_sums, quantile_from_counts, sum_cols, wilson_cols,
)
from cardsim.analysis import report as R
from cardsim.analysis.metrics import win_of

CONTRACT_KEYS = ["deal_index", "contract", "cards_dealt", "decks", "jokers_in_deck"]


def strategy_names(info: dict) -> list[str]:
    out = []
    for s in info["strategies"]:
        ps = ",".join(f"{k}={v:g}" for k, v in s["params"].items())
        out.append(s["name"] + (f"({ps})" if ps and _differs(info, s) else ""))
    return out


def _differs(info, s) -> bool:
    same = [o for o in info["strategies"] if o["name"] == s["name"]]
    return any(o["params"] != s["params"] for o in same)


def arm_label(info: dict) -> str:
    names = strategy_names(info)
    strat = names[0] if len(set(names)) == 1 else " vs ".join(names)
    r = info["rules"]
    return f"{r['players']}p {r['decks']}d+{r['jokers']}j {strat}"


def with_contract(deals: pl.DataFrame) -> pl.DataFrame:
    """Adds ``contract`` ('2s', '1s1r', '3r' ..., '*' for the all-at-once deal)."""
    def part(col, suffix):
        return pl.when(pl.col(col) > 0).then(pl.col(col).cast(pl.Utf8) + suffix) \
            .otherwise(pl.lit(""))

    label = (part("sets", "s") + part("runs", "r")
             + pl.when(pl.col("all_at_once")).then(pl.lit("*")).otherwise(pl.lit("")))
    return deals.with_columns(label.alias("contract"))


def _count(expr: pl.Expr, name: str) -> pl.Expr:
    return expr.sum().cast(pl.Int64).alias(name)


def _n() -> pl.Expr:
    return pl.len().cast(pl.Int64).alias("n")


def _laid_part(deals: pl.DataFrame, turns: list[int]) -> pl.DataFrame:
    rows = []
    for t in turns:
        done = pl.col("dealt_can_lay") if t == 0 else (
            pl.col("down_turn").fill_null(1 << 30) <= t)
        rows.append(deals.group_by(CONTRACT_KEYS).agg(_n(), _count(done, "down"))
                    .with_columns(pl.lit(t).alias("turn")))
    return pl.concat(rows)


def _laid_final(part: pl.DataFrame, arm: str) -> pl.DataFrame:
    out = part.with_columns(pl.lit(arm).alias("arm"), *wilson_cols("down", "n", "share"))
    return out.select("arm", *CONTRACT_KEYS, "turn", "n", "down", "share", "share_lo",
                      "share_hi").sort("deal_index", "turn")


def laid_down_by_turn(deals: pl.DataFrame, arm: str, turns: list[int]) -> pl.DataFrame:
    return _laid_final(_laid_part(deals, turns), arm)


def _deal_part(deals: pl.DataFrame) -> pl.DataFrame:
    per = deals.group_by("game_index", *CONTRACT_KEYS).agg(
        pl.col("players").first(), pl.col("turns").first(), pl.col("end").first(),
        pl.col("out_turn").max().alias("out_turn"),
        (pl.col("went_out") & (pl.col("seat_order") == 0)).any().alias("first_out"),
        pl.col("penalty").filter(pl.col("seat_order") == 0).first().alias("first_pen"),
        pl.col("penalty").filter(pl.col("seat_order") != 0).mean().alias("other_pen"))
    per = per.with_columns((pl.col("first_pen") - pl.col("other_pen")).alias("first_pen_edge"))
    return per.group_by(*CONTRACT_KEYS, "players").agg(
        _n(), _count(pl.col("end") == "went_out", "went_out"),
        _count(pl.col("end") == "stalled", "stalled"),
        _count(pl.col("end") == "turn_cap", "capped"), _count(pl.col("first_out"), "first_out"),
        *sum_cols("turns", "turns"), *sum_cols("out_turn", "out_turn"),
        *sum_cols("first_pen_edge", "first_pen_edge"))


def _deal_final(part: pl.DataFrame, out_turns: pl.DataFrame, arm: str) -> pl.DataFrame:
    """``out_turns``: _out_part's counts of the own turn in which the deal was won."""
    quart = {}
    for key, g in out_turns.group_by(CONTRACT_KEYS):
        vals, cnts = g["out_turn"].to_list(), g["count"].to_list()
        quart[key] = [quantile_from_counts(vals, cnts, q, linear=q == 0.5)
                      for q in (0.25, 0.5, 0.75)]
    keys = part.select(CONTRACT_KEYS).rows()
    q = [quart.get(k, [None] * 3) for k in keys]
    out = part.with_columns(*wilson_cols("went_out", "n", "out_rate"),
                            *wilson_cols("stalled", "n", "stall_rate"),
                            *wilson_cols("first_out", "n", "first_out_rate"),
                            *mean_from_sums("turns"), *mean_from_sums("out_turn"),
                            *mean_from_sums("first_pen_edge"),
                            *(pl.Series(name, [r[i] for r in q], pl.Float64) for i, name in
                              enumerate(("out_turn_q1", "out_turn_median", "out_turn_q3"))),
                            (1.0 / pl.col("players")).alias("fair_share"),
                            pl.lit(arm).alias("arm"))
    return out.select("arm", *CONTRACT_KEYS, "n", "out_rate", "out_rate_lo", "out_rate_hi",
                      "stall_rate", "stall_rate_lo", "stall_rate_hi", "capped", "turns",
                      "turns_lo", "turns_hi", "out_turn", "out_turn_lo", "out_turn_hi",
                      "out_turn_q1", "out_turn_median", "out_turn_q3", "first_out_rate",
                      "first_out_rate_lo", "first_out_rate_hi", "fair_share", "first_pen_edge",
                      "first_pen_edge_lo", "first_pen_edge_hi").sort("deal_index")


def deal_summary(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    return _deal_final(_deal_part(deals), _out_part(deals)[0], arm)


def _out_part(deals: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(deals won in each own turn of the player who went out, deals per contract)."""
    won = deals.filter(pl.col("went_out")).group_by(*CONTRACT_KEYS, "out_turn").agg(
        pl.len().cast(pl.Int64).alias("count"))
    n = deals.filter(pl.col("seat") == 0).group_by(CONTRACT_KEYS).agg(
        pl.len().cast(pl.Int64).alias("deals"))
    return won, n


def _out_final(won: pl.DataFrame, n: pl.DataFrame, arm: str) -> pl.DataFrame:
    return (won.join(n, on=CONTRACT_KEYS).with_columns(*wilson_cols("count", "deals", "share"),
                                                       pl.lit(arm).alias("arm"))
            .select("arm", *CONTRACT_KEYS, "out_turn", "count", "deals", "share", "share_lo",
                    "share_hi").sort("deal_index", "out_turn"))


def out_turn_distribution(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    """Share of deals won by going out in each own turn of the player who went out."""
    return _out_final(*_out_part(deals), arm)


def _penalty_part(deals: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(sums per contract, counts of each penalty value per contract: its quantiles)."""
    sums = deals.group_by(CONTRACT_KEYS).agg(_n(), _count(pl.col("penalty") == 0, "zero"),
                                             *sum_cols("penalty", "penalty"))
    hist = deals.group_by(*CONTRACT_KEYS, "penalty").agg(pl.len().cast(pl.Int64).alias("count"))
    return sums, hist


def _penalty_final(sums: pl.DataFrame, hist: pl.DataFrame, arm: str) -> pl.DataFrame:
    stats = {}
    for key, g in hist.group_by(CONTRACT_KEYS):
        vals, cnts = g["penalty"].to_list(), g["count"].to_list()
        stats[key] = [quantile_from_counts(vals, cnts, q, linear=q == 0.5)
                      for q in (0.25, 0.5, 0.75, 0.9)] \
            + [max(vals)]
    rows = [stats[k] for k in sums.select(CONTRACT_KEYS).rows()]
    out = sums.with_columns(
        *mean_from_sums("penalty"), *wilson_cols("zero", "n", "zero_share"),
        *(pl.Series(name, [r[i] for r in rows], pl.Float64)
          for i, name in enumerate(("q1", "median", "q3", "p90"))),
        pl.Series("max", [r[4] for r in rows]), pl.lit(arm).alias("arm"))
    return out.select(
        "arm", *CONTRACT_KEYS, "n", "penalty", "penalty_lo", "penalty_hi", "zero_share",
        "zero_share_lo", "zero_share_hi", "q1", "median", "q3", "p90", "max").sort("deal_index")


def penalty_summary(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    return _penalty_final(*_penalty_part(deals), arm)


def _strategy_part(deals: pl.DataFrame) -> pl.DataFrame:
    by = "strategy" if "strategy" in deals.columns else "seat"
    return deals.group_by(*CONTRACT_KEYS, pl.col(by).alias("strategy")).agg(
        _n(), _count(pl.col("down_turn").is_not_null(), "down"),
        _count(pl.col("went_out"), "went_out"), *sum_cols("penalty", "penalty"),
        *sum_cols("down_turn", "down_turn"))


def _strategy_final(part: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    names = strategy_names(info)
    # seats playing one strategy (same name and parameters) are one row
    part = part.with_columns(pl.col("strategy").replace_strict(
        dict(enumerate(names)), return_dtype=pl.Utf8))
    part = part.group_by(*CONTRACT_KEYS, "strategy").agg(pl.exclude(*CONTRACT_KEYS,
                                                                    "strategy").sum())
    out = part.with_columns(
        *wilson_cols("down", "n", "down_rate"), *wilson_cols("went_out", "n", "out_rate"),
        *mean_from_sums("penalty"),
        pl.when(pl.col("down_turn_n") > 0).then(pl.col("down_turn_s") / pl.col("down_turn_n"))
        .alias("mean_down_turn"),
        pl.lit(arm).alias("arm"))
    return out.select("arm", *CONTRACT_KEYS, "strategy", "n", "down_rate", "down_rate_lo",
                      "down_rate_hi", "out_rate", "out_rate_lo", "out_rate_hi", "penalty",
                      "penalty_lo", "penalty_hi", "mean_down_turn").sort("deal_index", "strategy")


def strategy_summary(deals: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    return _strategy_final(_strategy_part(deals), info, arm)


def _game_part(games: pl.DataFrame, deals: pl.DataFrame, info: dict) -> pl.DataFrame:
    rows = []
    dup = "winner_strategy" in games.columns and info.get("rotations", 0)
    # each strategy's game total is its cumulative after the game's last deal
    last = deals.filter(pl.col("deal_index") == pl.col("deal_index").max().over("game_index"))
    for s in range(len(info["strategies"])):
        if dup:
            wins = games.select(_count(pl.col("winner_strategy") == s, "wins"))
            tot = last.filter(pl.col("strategy") == s).select(_n(), *sum_cols("cumulative",
                                                                                "total"))
            g = pl.concat([tot, wins], how="horizontal")
        else:
            g = games.select(_n(), _count(pl.col("winner") == s, "wins"),
                             *sum_cols(f"total_seat{s}", "total"))
        rows.append(g.with_columns(pl.lit(s).alias("seat")))
    return pl.concat(rows).select("seat", "n", "wins", "total_n", "total_s", "total_ss")


def _game_final(part: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    names = strategy_names(info)
    out = part.with_columns(pl.col("seat").replace_strict(dict(enumerate(names)),
                                                          return_dtype=pl.Utf8).alias("strategy"),
                            *wilson_cols("wins", "n", "win_rate"), *mean_from_sums("total"),
                            pl.lit(arm).alias("arm"))
    return out.select("arm", "seat", "strategy", "n", "wins", "win_rate", "win_rate_lo",
                      "win_rate_hi", "total", "total_lo", "total_hi").sort("seat")


def game_summary(games: pl.DataFrame, deals: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    """Per strategy (its seat number in --strategy): game win rate and mean total. With
    duplicate seating each strategy played every seat; its totals come from the deal rows."""
    return _game_final(_game_part(games, deals, info), info, arm)


def completion_study(run_dirs, turns: list[int]) -> dict[str, pl.DataFrame]:
    """The study's tables over runs (arms), each run read a chunk at a time (memory does not
    grow with the run)."""
    parts: dict[str, list[pl.DataFrame]] = {k: [] for k in (
        "laid_down_by_turn", "deals", "out_turns", "penalty", "strategies", "games")}
    ck = list(CONTRACT_KEYS)
    for rd in run_dirs:
        info, chunks = run_chunks(rd, "contract-rummy")
        arm = arm_label(info)
        acc: dict[str, pl.DataFrame | None] = dict.fromkeys(
            ("laid", "deal", "won", "n", "pen", "hist", "strat", "game"))
        for deals, games in chunks:
            deals = with_contract(deals)
            won, n = _out_part(deals)
            pen, hist = _penalty_part(deals)
            for name, part, keys in (
                    ("laid", _laid_part(deals, turns), [*ck, "turn"]),
                    ("deal", _deal_part(deals), [*ck, "players"]),
                    ("won", won, [*ck, "out_turn"]), ("n", n, ck), ("pen", pen, ck),
                    ("hist", hist, [*ck, "penalty"]),
                    ("strat", _strategy_part(deals), [*ck, "strategy"]),
                    ("game", _game_part(games, deals, info), ["seat"])):
                acc[name] = fold(acc[name], part, keys)
        parts["laid_down_by_turn"].append(_laid_final(acc["laid"], arm))
        parts["deals"].append(_deal_final(acc["deal"], acc["won"], arm))
        parts["out_turns"].append(_out_final(acc["won"], acc["n"], arm))
        parts["penalty"].append(_penalty_final(acc["pen"], acc["hist"], arm))
        parts["strategies"].append(_strategy_final(acc["strat"], info, arm))
        parts["games"].append(_game_final(acc["game"], info, arm))
    return {k: pl.concat(v) for k, v in parts.items()}


def joker_worth(run_dir) -> pl.DataFrame:
    """Players by jokers in their dealt hand (``jokers_dealt``), all contracts pooled: contract
    down and going-out rates (Wilson) and mean penalty, and the penalty against players dealt
    none, compared within each contract and then averaged with the row's weights (12-card
    deals hold more jokers and more penalty, so a pooled difference would mix the two)."""
    from cardsim.analysis.stats import Z95

    run_dir = Path(run_dir)
    read_info(run_dir, "run.json", "run")
    lf = pl.scan_parquet(sorted(run_dir.glob("deals-*.parquet")))
    cell = lf.group_by("deal_index", "jokers_dealt").agg(
        pl.len().alias("n"), pl.col("down_turn").is_not_null().sum().alias("down"),
        pl.col("went_out").sum().alias("went_out"),
        pl.col("penalty").cast(pl.Float64).sum().alias("pen_sum"),
        pl.col("penalty").cast(pl.Float64).mean().alias("pen"),
        pl.col("penalty").cast(pl.Float64).var().alias("pen_var")
    ).collect(engine="streaming")
    none = cell.filter(pl.col("jokers_dealt") == 0).select(
        "deal_index", pl.col("pen").alias("pen0"), (pl.col("pen_var") / pl.col("n"))
        .alias("se0"))
    per = cell.join(none, on="deal_index", how="left").with_columns(
        (pl.col("pen") - pl.col("pen0")).alias("d"),
        (pl.col("pen_var").fill_null(0.0) / pl.col("n") + pl.col("se0")).alias("dvar"),
        (pl.col("n") / pl.col("n").sum().over("jokers_dealt")).alias("w"))
    out = per.group_by("jokers_dealt").agg(
        pl.col("n").sum(), pl.col("down").sum(), pl.col("went_out").sum(),
        (pl.col("pen_sum").sum() / pl.col("n").sum()).alias("penalty"),
        (pl.col("w") * pl.col("d")).sum().alias("penalty_diff"),
        ((pl.col("w") ** 2) * pl.col("dvar")).sum().sqrt().alias("diff_se"))
    # the pooled mean's interval from the cells' variances (between-contract spread included)
    spread = lf.group_by("jokers_dealt").agg(
        pl.col("penalty").cast(pl.Float64).std().alias("sd")
    ).collect(engine="streaming")
    out = out.join(spread, on="jokers_dealt").with_columns(
        *wilson_cols("down", "n", "down_rate"), *wilson_cols("went_out", "n", "out_rate"),
        (pl.col("penalty") - Z95 * pl.col("sd") / pl.col("n").sqrt()).alias("penalty_lo"),
        (pl.col("penalty") + Z95 * pl.col("sd") / pl.col("n").sqrt()).alias("penalty_hi"),
        (pl.col("penalty_diff") - Z95 * pl.col("diff_se")).alias("penalty_diff_lo"),
        (pl.col("penalty_diff") + Z95 * pl.col("diff_se")).alias("penalty_diff_hi"))
    return out.select("jokers_dealt", "n", "down_rate", "down_rate_lo", "down_rate_hi",
                      "out_rate", "out_rate_lo", "out_rate_hi", "penalty", "penalty_lo",
                      "penalty_hi", "penalty_diff", "penalty_diff_lo",
                      "penalty_diff_hi").sort("jokers_dealt")


def pct_text(x) -> str:
    """A share (0..1) as a percentage with 3 significant digits, in fixed notation so rare
    rates stay readable: 0.028 -> '2.80', 0.0002 -> '0.0200', 2.3e-7 -> '0.0000230';
    0 -> '0', 1 -> '100'."""
    if x is None:
        return ""
    p = float(x) * 100.0
    if math.isnan(p):
        return "nan"
    if p == 0.0:
        return "0"
    mag = math.floor(math.log10(abs(p)))
    dec = max(0, 2 - mag)
    r = round(p, dec)
    if r != 0.0 and math.floor(math.log10(abs(r))) > mag:  # 9.996 -> 10.0, not 10.00
        dec = max(0, dec - 1)
    return f"{p:.{dec}f}"


def pct_table(df: pl.DataFrame, estimates: list[str], keep: list[str]) -> pl.DataFrame:
    """For printing: each share estimate with its interval as 'x [lo, hi]' in % (pct_text),
    in a column '<estimate> %'."""
    cols = {k: df[k] for k in keep}
    for e in estimates:
        cols[f"{e} %"] = [f"{pct_text(v)} [{pct_text(lo)}, {pct_text(hi)}]" for v, lo, hi in
                          zip(df[e], df[f"{e}_lo"], df[f"{e}_hi"])]
    return pl.DataFrame(cols)


def dealt_study(rules: dict, hands: int, seed: int, threads=None, near=True) -> pl.DataFrame:
    """P(the dealt hand already holds the contract) per contract of ``rules``, with Wilson
    intervals, from dealt.py (no play)."""
    import numpy as np

    from cardsim.simulator.games.contract_rummy.dealt import dealt_table

    cs = rules["contracts"]
    contracts = np.array([[s, r] for s, r, _ in cs], np.int64)
    n_cards = np.array([n for _, _, n in cs], np.int64)
    go_out = np.array([rules["last_deal_all_at_once"] and i == len(cs) - 1
                       for i in range(len(cs))], np.bool_)
    t = dealt_table(seed, hands, n_cards, rules["decks"], rules["jokers"], contracts,
                    rules["min_run"], rules["max_contract_meld"] or 0, rules["ace_low"],
                    rules["runs_distinct_suits"], go_out, threads=threads, near=near,
                    count_cards=False)
    t = t.with_columns(*wilson_cols("holds", "hands", "p_holds"), *wilson_cols("one_away", "hands",
                                                                       "p_one_away"))
    return t.rename({"contract": "deal_index"})


# ---------------------------------------------------------------- what the shared studies ask
# (the adapter's analysis_module: sweeps, --precision, compare, report)

# compare: (games-table column of team t's total, whether higher totals are better,
# the winner column)
OUTCOME = ("total_seat{}", False, "winner")


def metrics(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    """One row per game index (per deal in deals mode), one column per metric: what
    sweeps and --precision summarise and compare (analysis/metrics.py)."""
    # by strategy, not seat: duplicate seating moves the strategies round the table
    per = deals.group_by("game_index").agg(
        pl.col("penalty").filter(pl.col("strategy") == 0).cast(pl.Float64).mean()
        .alias("strategy0_penalty"),
        pl.col("down_turn").is_not_null().cast(pl.Float64).mean().alias("laid_down_rate"),
        (pl.col("end") == "went_out").cast(pl.Float64).mean().alias("went_out_rate"))
    return per.join(games.select(
        "game_index", win_of("winner_strategy").alias("strategy0_win")), on="game_index")


def deal_values(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, seat): mean penalty per deal, share of deals with the contract down, share
    of deals the player went out in."""
    return deals.group_by("game_index", pl.col("seat").alias("team")).agg(
        pl.col("penalty").cast(pl.Float64).mean().alias("penalty"),
        pl.col("down_turn").is_not_null().cast(pl.Float64).mean().alias("laid_down"),
        pl.col("went_out").cast(pl.Float64).mean().alias("went_out"))


def report_sections(dirs: list[Path]) -> list:
    """cardsim report's sections for this game's runs (several runs: one comparison)."""
    turns = [0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 20]
    tables = completion_study(dirs, turns)
    infos = [read_info(d, "run.json", "run") for d in dirs]
    n = ", ".join(f"{i['games']:,}" for i in infos)
    seeds = ", ".join(str(i["seed"]) for i in infos)
    curve = tables["laid_down_by_turn"].with_columns(
        (pl.col("deal_index") + 1).cast(pl.Utf8).alias("deal"))
    sec = R.Section("Contract Rummy: contracts laid down by turn")
    sec.figures.append(R.curves(
        curve.with_columns(pl.format("deal {} ({})", "deal", "contract").alias("panel")),
        "panel", str, "players down", f"Share of (deal, player) rows whose contract is down "
        f"by the player's own turn t (turn 0: the dealt hand holds it), 95% Wilson bands; "
        f"{n} games, seed {seeds}."))
    for name in ("deals", "games"):
        if name in tables:
            sec.tables.append((name, tables[name]))
    return [sec]


# ---------------------------------------------------------------- hand analysis (cardsim hand)

HAND_TURNS = 20  # own turns the hand table shows


def hand_setup(g, rules: dict, deal: int) -> dict:
    """The rules of a one-deal game played in deal ``deal``'s contract (the hand analysis of
    ``cardsim hand``): the contract and its cards, and all at once only if that deal is."""
    from cardsim.simulator.errors import UsageError

    contracts = rules["contracts"]
    if not 0 <= deal < len(contracts):
        raise UsageError(f"--deal {deal}: allowed 0..{len(contracts) - 1} (the deals of the "
                         "rules' contracts)")
    one = dict(rules)
    one["contracts"] = [contracts[deal]]
    one["last_deal_all_at_once"] = bool(rules["last_deal_all_at_once"]
                                        and deal == len(contracts) - 1)
    return g.rules.resolve(one)


def hand_rows(frames: dict[str, pl.DataFrame], seat: int, rules: dict) -> dict:
    """The hand's table from the deals of its runs (one per game, deal 0): the chance its
    contract is down by its own turn t (t = 1 ... HAND_TURNS), of going out first, and its
    expected penalty, each with a 95% interval."""
    from cardsim.analysis.stats import mean_interval, rate_interval

    deals = frames[""]  # one run
    mine = deals.filter((pl.col("deal_index") == 0) & (pl.col("seat_order") == seat))
    n = mine.height
    down = mine["down_turn"].fill_null(1 << 20).to_numpy()
    rows = []
    for t in range(1, HAND_TURNS + 1):
        r, lo, hi = rate_interval(int((down <= t).sum()), n)
        rows.append({"turn": t, "down_rate": r, "lo": lo, "hi": hi})
    out = rate_interval(int(mine["went_out"].sum()), n)
    pen = mean_interval(mine["penalty"])
    return {"deals": n, "rows": rows,
            **dict(zip(("went_out_rate", "went_out_lo", "went_out_hi"), out)),
            **dict(zip(("penalty", "penalty_lo", "penalty_hi"), pen))}


# the outlook of a position (cardsim hand --position, simulator.outlook): penalty points
# decide (fewer is better)
POSITION_SCORE = ("penalty", -1)


def position_rules(rules: dict, deal: int) -> tuple[dict, bool]:
    """(rules, deals mode) that end a game resumed at deal ``deal`` with that deal."""
    from cardsim.simulator.games import get_game

    cut = dict(rules)
    cut["contracts"] = list(rules["contracts"])[:deal + 1]
    return get_game("contract-rummy").rules.resolve(cut), False


def position_outcome(deals: pl.DataFrame, seat: int, rules: dict) -> dict:
    """Per resampled deal: whether the seat went out and had its contract down by the deal's
    end, and the penalty it took."""
    mine = deals.filter(pl.col("seat") == seat)
    return {"went_out_rate": mine["went_out"].to_numpy(),
            "down_rate": mine["down_turn"].is_not_null().to_numpy(),
            "penalty": mine["penalty"].cast(pl.Int64).to_numpy()}
