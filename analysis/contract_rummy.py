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

import polars as pl

from analysis.io import load_run
from analysis.stats import mean_ci, wilson_cols

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
    label = (pl.when(pl.col("sets") > 0).then(pl.col("sets").cast(pl.Utf8) + "s").otherwise(pl.lit(""))
             + pl.when(pl.col("runs") > 0).then(pl.col("runs").cast(pl.Utf8) + "r").otherwise(pl.lit(""))
             + pl.when(pl.col("all_at_once")).then(pl.lit("*")).otherwise(pl.lit("")))
    return deals.with_columns(label.alias("contract"))


def laid_down_by_turn(deals: pl.DataFrame, arm: str, turns: list[int]) -> pl.DataFrame:
    rows = []
    for t in turns:
        done = pl.col("dealt_can_lay") if t == 0 else (
            pl.col("down_turn").fill_null(1 << 30) <= t)
        rows.append(deals.group_by(CONTRACT_KEYS).agg(
            pl.len().alias("n"), done.sum().alias("down")).with_columns(pl.lit(t).alias("turn")))
    out = pl.concat(rows).with_columns(pl.lit(arm).alias("arm"), *wilson_cols("down", "n", "share"))
    return out.select("arm", *CONTRACT_KEYS, "turn", "n", "down", "share", "share_lo",
                      "share_hi").sort("deal_index", "turn")


def deal_summary(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    per = deals.group_by("game_index", *CONTRACT_KEYS).agg(
        pl.col("players").first(), pl.col("turns").first(), pl.col("end").first(),
        pl.col("out_turn").max().alias("out_turn"),
        (pl.col("went_out") & (pl.col("seat_order") == 0)).any().alias("first_out"),
        pl.col("penalty").filter(pl.col("seat_order") == 0).first().alias("first_pen"),
        pl.col("penalty").filter(pl.col("seat_order") != 0).mean().alias("other_pen"))
    per = per.with_columns((pl.col("first_pen") - pl.col("other_pen")).alias("first_pen_edge"))
    out = per.group_by(CONTRACT_KEYS).agg(
        pl.len().alias("n"), pl.col("players").first(),
        (pl.col("end") == "went_out").sum().alias("went_out"),
        (pl.col("end") == "stalled").sum().alias("stalled"),
        (pl.col("end") == "turn_cap").sum().alias("capped"),
        pl.col("first_out").sum().alias("first_out"),
        *mean_ci("turns", "turns"), *mean_ci("out_turn", "out_turn"),
        pl.col("out_turn").quantile(0.25).alias("out_turn_q1"),
        pl.col("out_turn").median().alias("out_turn_median"),
        pl.col("out_turn").quantile(0.75).alias("out_turn_q3"),
        *mean_ci("first_pen_edge", "first_pen_edge"))
    out = out.with_columns(*wilson_cols("went_out", "n", "out_rate"),
                           *wilson_cols("stalled", "n", "stall_rate"),
                           *wilson_cols("first_out", "n", "first_out_rate"),
                           (1.0 / pl.col("players")).alias("fair_share"),
                           pl.lit(arm).alias("arm"))
    return out.select("arm", *CONTRACT_KEYS, "n", "out_rate", "out_rate_lo", "out_rate_hi",
                      "stall_rate", "stall_rate_lo", "stall_rate_hi", "capped", "turns",
                      "turns_lo", "turns_hi", "out_turn", "out_turn_lo", "out_turn_hi",
                      "out_turn_q1", "out_turn_median", "out_turn_q3", "first_out_rate",
                      "first_out_rate_lo", "first_out_rate_hi", "fair_share", "first_pen_edge",
                      "first_pen_edge_lo", "first_pen_edge_hi").sort("deal_index")


def out_turn_distribution(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    """Share of deals won by going out in each own turn of the player who went out."""
    out = deals.filter(pl.col("went_out"))
    n = deals.filter(pl.col("seat") == 0).group_by(CONTRACT_KEYS).agg(pl.len().alias("deals"))
    d = out.group_by(*CONTRACT_KEYS, "out_turn").agg(pl.len().alias("count"))
    return (d.join(n, on=CONTRACT_KEYS).with_columns(*wilson_cols("count", "deals", "share"),
                                                     pl.lit(arm).alias("arm"))
            .select("arm", *CONTRACT_KEYS, "out_turn", "count", "deals", "share", "share_lo",
                    "share_hi").sort("deal_index", "out_turn"))


def penalty_summary(deals: pl.DataFrame, arm: str) -> pl.DataFrame:
    out = deals.group_by(CONTRACT_KEYS).agg(
        pl.len().alias("n"), (pl.col("penalty") == 0).sum().alias("zero"),
        *mean_ci("penalty", "penalty"),
        pl.col("penalty").quantile(0.25).alias("q1"), pl.col("penalty").median().alias("median"),
        pl.col("penalty").quantile(0.75).alias("q3"), pl.col("penalty").quantile(0.9).alias("p90"),
        pl.col("penalty").max().alias("max"))
    return out.with_columns(*wilson_cols("zero", "n", "zero_share"), pl.lit(arm).alias("arm")).select(
        "arm", *CONTRACT_KEYS, "n", "penalty", "penalty_lo", "penalty_hi", "zero_share",
        "zero_share_lo", "zero_share_hi", "q1", "median", "q3", "p90", "max").sort("deal_index")


def strategy_summary(deals: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    names = strategy_names(info)
    by = "strategy" if "strategy" in deals.columns else "seat"
    d = deals.with_columns(pl.col(by).replace_strict(
        dict(enumerate(names)), return_dtype=pl.Utf8).alias("strategy"))
    out = d.group_by(*CONTRACT_KEYS, "strategy").agg(
        pl.len().alias("n"), pl.col("down_turn").is_not_null().sum().alias("down"),
        pl.col("went_out").sum().alias("went_out"), *mean_ci("penalty", "penalty"),
        pl.col("down_turn").mean().alias("mean_down_turn"))
    out = out.with_columns(*wilson_cols("down", "n", "down_rate"), *wilson_cols("went_out", "n", "out_rate"),
                           pl.lit(arm).alias("arm"))
    return out.select("arm", *CONTRACT_KEYS, "strategy", "n", "down_rate", "down_rate_lo",
                      "down_rate_hi", "out_rate", "out_rate_lo", "out_rate_hi", "penalty",
                      "penalty_lo", "penalty_hi", "mean_down_turn").sort("deal_index", "strategy")


def game_summary(games: pl.DataFrame, deals: pl.DataFrame, info: dict, arm: str) -> pl.DataFrame:
    """Per strategy (its seat number in --strategy): game win rate and mean total. With
    duplicate seating each strategy played every seat; its totals come from the deal rows."""
    names = strategy_names(info)
    rows = []
    dup = "winner_strategy" in games.columns and info.get("rotations", 0)
    last = deals.filter(pl.col("deal_index") == pl.col("deal_index").max())
    for s, name in enumerate(names):
        if dup:
            wins = games.select((pl.col("winner_strategy") == s).sum().alias("wins"))
            tot = last.filter(pl.col("strategy") == s).select(
                pl.len().alias("n"), *mean_ci("cumulative", "total"))
            g = pl.concat([tot, wins], how="horizontal")
        else:
            g = games.select(pl.len().alias("n"), (pl.col("winner") == s).sum().alias("wins"),
                             *mean_ci(f"total_seat{s}", "total"))
        rows.append(g.with_columns(pl.lit(s).alias("seat"), pl.lit(name).alias("strategy")))
    out = pl.concat(rows).with_columns(*wilson_cols("wins", "n", "win_rate"), pl.lit(arm).alias("arm"))
    return out.select("arm", "seat", "strategy", "n", "wins", "win_rate", "win_rate_lo",
                      "win_rate_hi", "total", "total_lo", "total_hi")


def completion_study(run_dirs, turns: list[int]) -> dict[str, pl.DataFrame]:
    parts: dict[str, list[pl.DataFrame]] = {k: [] for k in (
        "laid_down_by_turn", "deals", "out_turns", "penalty", "strategies", "games")}
    for rd in run_dirs:
        deals, games, info = load_run(rd, "contract-rummy")
        deals = with_contract(deals)
        arm = arm_label(info)
        parts["laid_down_by_turn"].append(laid_down_by_turn(deals, arm, turns))
        parts["deals"].append(deal_summary(deals, arm))
        parts["out_turns"].append(out_turn_distribution(deals, arm))
        parts["penalty"].append(penalty_summary(deals, arm))
        parts["strategies"].append(strategy_summary(deals, info, arm))
        parts["games"].append(game_summary(games, deals, info, arm))
    return {k: pl.concat(v) for k, v in parts.items()}


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

    from simulator.games.contract_rummy.dealt import dealt_table

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
