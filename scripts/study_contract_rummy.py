#!/usr/bin/env python
"""Contract Rummy study "how fast is each contract laid down, and what helps?": runs (or
reuses) the studied player on all four seats, the old player likewise, and two sweeps (the
buying rule; one seat's buying policy); writes the Markdown tables of docs/contract_rummy.md,
each with its 95% intervals and the command behind it.

    python scripts/study_contract_rummy.py                           # 100,000 games, print
    python scripts/study_contract_rummy.py --update-doc docs/contract_rummy.md
    python scripts/study_contract_rummy.py --games 2000 --markdown out.md

Runs are made once and reused while the sources are unchanged (scripts/studylib.py).
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import polars as pl

from cardsim.simulator.games.contract_rummy.analysis import completion_study, joker_worth
from cardsim.analysis.sweep import sweep_table
from studylib import ci, ci_col, common_args, emit, ensure, header, section, shown

GAME = "contract-rummy"
OLD_DEFAULT = "lay_down_at_once"  # the player the earlier tables were made with
TURNS = [0, 1, 2, 4, 6, 8, 10, 15, 20]


def run_arm(strategy: str, games: int, seed: int, out: Path, fresh: bool):
    folder = out / f"{re.sub(r'[^A-Za-z0-9.]+', '_', strategy)}-seed{seed}-{games}"
    args = ["run", GAME, "--games", str(games), "--seed", str(seed), "--strategy", strategy]
    return folder, ensure(args, folder, fresh)


def contract_label(t: pl.DataFrame) -> pl.Series:
    return pl.Series("contract", [f"{d + 1}: {c} ({n} cards)" for d, c, n in
                                  t.select("deal_index", "contract", "cards_dealt").rows()])


def curves_table(curves: pl.DataFrame) -> pl.DataFrame:
    """Rows: arm and contract; columns: % of players down by own turn t [95% CI]."""
    cells = curves.with_columns(contract_label(curves),
                                pl.Series("cell", ci_col(curves, "share", digits=1)),
                                pl.format("t={}", "turn").alias("col"))
    return cells.pivot("col", index=["arm", "contract"], values="cell")


def deals_table(deals: pl.DataFrame) -> pl.DataFrame:
    q = deals.select("out_turn_median", "out_turn_q1", "out_turn_q3").rows()
    return pl.DataFrame({
        "player": deals["arm"], "contract": contract_label(deals),
        "went out %": ci_col(deals, "out_rate"), "stalled %": ci_col(deals, "stall_rate"),
        "turns": ci_col(deals, "turns", scale=1.0, digits=1),
        "going-out own turn, median [quartiles]": [
            "–" if m is None else f"{m:g} [{a:g}, {b:g}]" for m, a, b in q],
        "first seat goes out %": ci_col(deals, "first_out_rate"),
        "fair share %": [f"{100 * f:.0f}" for f in deals["fair_share"]],
        "first seat's penalty − others'": ci_col(deals, "first_pen_edge", scale=1.0,
                                                 digits=2)})


def joker_table(t: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "jokers dealt": t["jokers_dealt"].cast(pl.String), "player-deals": t["n"],
        "contract down %": ci_col(t, "down_rate"), "went out %": ci_col(t, "out_rate"),
        "penalty": ci_col(t, "penalty", scale=1.0, digits=2),
        "penalty − no joker": ["–" if j == 0 else c for j, c in zip(
            t["jokers_dealt"], ci_col(t, "penalty_diff", scale=1.0, digits=2))]})


def sweep_rows(sweep_dir: Path, key: str, label: str) -> pl.DataFrame:
    """One row per setting: the per-game metrics of seat (strategy) 0 and of the table."""
    t = sweep_table(sweep_dir)
    get = {m: t.filter(pl.col("metric") == m).sort("setting") for m in
           ("strategy0_win", "strategy0_penalty", "laid_down_rate", "went_out_rate")}
    win = get["strategy0_win"]

    def cells(m, scale=100.0, digits=1):
        return [ci(*r, scale=scale, digits=digits)
                for r in get[m].select("estimate", "lo", "hi").rows()]

    def diffs(m, scale=100.0, digits=1):
        return ["–" if s == 0 else ci(*r, scale=scale, digits=digits) for s, *r in
                get[m].select("setting", "diff", "diff_lo", "diff_hi").rows()]

    return pl.DataFrame({
        label: [str(v) for v in win[key]],
        "seat 0 wins %": cells("strategy0_win"), "difference": diffs("strategy0_win"),
        "seat 0 penalty per deal": cells("strategy0_penalty", 1.0, 2),
        "difference ": diffs("strategy0_penalty", 1.0, 2),
        "contracts down %": cells("laid_down_rate"), "deals going out %": cells(
            "went_out_rate")})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    common_args(ap, GAME, OLD_DEFAULT)
    ap.add_argument("--buy-param", default="buy_policy",
                    help="the studied player's buying parameter (swept for seat 0 with "
                         "buying on)")
    ap.add_argument("--buy-values", default="0,1,2,3", help="values of --buy-param")
    a = ap.parse_args()
    new = run_arm(a.strategy, a.games, a.seed, a.out, a.fresh)
    old = run_arm(a.old_strategy, a.games, a.seed, a.out, a.fresh)
    rule_dir = a.out / f"buying-rule-seed{a.seed}-{a.games}"
    rule_cmd = ensure(["sweep", GAME, "--vary", "buying=false,true", "--strategy", a.strategy,
                       "--games", str(a.games), "--seed", str(a.seed)], rule_dir, a.fresh)
    policy_dir = a.out / f"buy-policy-seed{a.seed}-{a.games}"
    policy_cmd = ensure(["sweep", GAME, "--vary", f"0.{a.buy_param}={a.buy_values}",
                         "--rule", "buying=true", "--strategy", a.strategy, "--games",
                         str(a.games), "--seed", str(a.seed), "--seating", "fixed"],
                        policy_dir, a.fresh)
    st = completion_study([new[0]], TURNS)
    analyze = f"cardsim analyze contract-completion {shown(new[0])}"
    info = json.loads((new[0] / "run.json").read_text())
    argv = ["--games", str(a.games), "--seed", str(a.seed), "--strategy", a.strategy,
            "--old-strategy", a.old_strategy, "--buy-param", a.buy_param, "--buy-values",
            a.buy_values]
    study = [
        header("study_contract_rummy.py", argv, info,
               f"{a.games:,} games, seed {a.seed}, default rules, `{a.strategy}` in every "
               "seat"),
        section("Contracts down by the player's own turn t",
                "Share of (game, deal, player) rows whose contract was down by the player's "
                "own turn t, per deal's contract, in %; t = 0: the dealt hand already held "
                "it.", curves_table(st["laid_down_by_turn"]).drop("arm"),
                [new[1], f"{analyze} --turns {','.join(map(str, TURNS))}"]),
        section("How deals end, and the first seat's edge",
                "Per contract: deals ending by going out, stalled (the stock ran out after "
                "the allowed reshuffles), turns per deal (all players), the own turn in "
                "which the player who went out did so, how often the first seat (the "
                "dealer's left) goes out against a fair share, and its penalty against the "
                "mean of the others' (negative: the first seat does better).",
                deals_table(st["deals"]).drop("player"), [analyze]),
        section("The worth of a joker",
                "Per contract pooled: players by jokers in their dealt hand. The jokers a "
                "player is dealt are chance alone, so the differences are what a joker is "
                "worth to this player.",
                joker_table(joker_worth(new[0])),
                [new[1], f"python -c \"from cardsim.simulator.games.contract_rummy.analysis import joker_worth; "
                         f"print(joker_worth('{shown(new[0])}'))\""]),
        section("The worth of buying (the rule)",
                "The same deals with buying off and on, every seat the studied player.",
                sweep_rows(rule_dir, "buying", "buying").drop(
                    "seat 0 wins %", "difference"), [rule_cmd]),
        section("The worth of buying (one player's policy)",
                f"Buying on; seat 0 buys by `{a.buy_param}` (0 never, 1 when the discard "
                f"completes its contract, 2 also when it fits its hand, 3 always; see `cardsim "
                f"strategies contract-rummy`), the other seats play `{a.strategy}` as it "
                f"is. Same deals in every row; differences paired game by game.",
                sweep_rows(policy_dir, f"0.{a.buy_param}", a.buy_param), [policy_cmd]),
    ]
    st_old = completion_study([old[0]], TURNS)
    cmds = [old[1], new[1]]

    def side_by_side(table, key: str) -> pl.DataFrame:
        """The old and the new player's rows of one table, contract by contract."""
        parts = [table(t[key]).with_columns(pl.lit(who).alias("arm")) for who, t in
                 ((f"old: {a.old_strategy}", st_old), (f"new: {a.strategy}", st))]
        both = pl.concat(parts).rename({"arm": "player"})
        return both.select("player", pl.exclude("player")).sort("contract", maintain_order=True)

    compare = [
        section("Old and new player: contracts down by own turn t",
                "As above, for the player of the earlier tables and the studied one, on the "
                "same deals.", side_by_side(curves_table, "laid_down_by_turn"), cmds),
        section("Old and new player: how deals end",
                "As above, for both players.",
                side_by_side(lambda d: deals_table(d).drop("player"), "deals"), cmds),
    ]
    emit({"study": "\n".join(study), "compare": "\n".join(compare)}, a.markdown, a.update_doc)


if __name__ == "__main__":
    main()
