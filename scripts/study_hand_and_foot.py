#!/usr/bin/env python
"""Hand and Foot study "how should the minimum meld grow, and should a team wait to meld?":
runs (or reuses) one run per minimum-meld schedule with the studied player on both teams, the
old player on the sheet's schedule, and a sweep of how long team 0 waits before its initial
meld; writes the Markdown tables of docs/hand_and_foot.md, each with its 95% intervals and
the command behind it.

    python scripts/study_hand_and_foot.py                            # 200,000 games, print
    python scripts/study_hand_and_foot.py --update-doc docs/hand_and_foot.md
    python scripts/study_hand_and_foot.py --games 5000 --markdown out.md

Runs are made once and reused while the sources are unchanged (scripts/studylib.py).
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import polars as pl

from cardsim.simulator.games.hand_and_foot.analysis import min_meld_study
from cardsim.analysis.sweep import sweep_table
from studylib import ci, ci_col, common_args, emit, ensure, header, section, shown

GAME = "hand-and-foot"
SHEET = "50,90,120,150"  # the default schedule
SCHEDULES = (SHEET, "0,0,0,0", "50,75,100,150")
OLD_DEFAULT = "early_melder"  # the player the earlier tables were made with
TURNS = [2, 4, 8, 12, 16]


def run_arm(strategy: str, schedule: str, games: int, seed: int, out: Path, fresh: bool):
    folder = out / f"{re.sub(r'[^A-Za-z0-9.]+', '_', strategy)}-{schedule.replace(',', '_')}" \
                   f"-seed{seed}-{games}"
    args = ["run", GAME, "--games", str(games), "--seed", str(seed), "--strategy", strategy]
    if schedule != SHEET:
        args += ["--rule", f"min_meld={schedule}"]
    return folder, ensure(args, folder, fresh)


def melded_table(curves: pl.DataFrame) -> pl.DataFrame:
    """Rows: schedule and deal; columns: share melded by deal turn t, % [95% CI]."""
    cells = curves.with_columns(pl.Series("cell", ci_col(curves, "share", digits=1)),
                                pl.format("turn {}", "turn").alias("col"))
    wide = cells.pivot("col", index=["arm", "deal_index"], values="cell")
    return wide.rename({"arm": "schedule", "deal_index": "deal"}).with_columns(
        (pl.col("deal") + 1).cast(pl.String))


def deals_table(deals: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "schedule": deals["arm"], "deal": (deals["deal_index"] + 1).cast(pl.String),
        "went out %": ci_col(deals, "out_rate"),
        "stock exhausted %": ci_col(deals, "exhausted_rate"),
        "turns": ci_col(deals, "turns", scale=1.0, digits=2),
        "spread (points)": ci_col(deals, "spread", scale=1.0, digits=0),
        "first team wins %": ci_col(deals, "first_win_rate"),
        "first team's margin": ci_col(deals, "first_margin", scale=1.0, digits=0)})


def hold_table(sweep_dir: Path, param: str) -> pl.DataFrame:
    t = sweep_table(sweep_dir)
    rows = {m: t.filter(pl.col("metric") == m).sort("setting") for m in
            ("team0_win", "went_out_rate", "initial_meld_turn", "team0_minus_team1")}
    win = rows["team0_win"]
    return pl.DataFrame({
        f"team 0's {param}": [str(v) for v in win[f"0.{param}"]],
        "team 0 wins %": [ci(*r) for r in win.select("estimate", "lo", "hi").rows()],
        "difference from the first row": ["–" if s == 0 else ci(*r) for s, *r in
                                          win.select("setting", "diff", "diff_lo",
                                                     "diff_hi").rows()],
        "team 0 − team 1 (points per game)": [ci(*r, scale=1.0, digits=0) for r in
                                              rows["team0_minus_team1"].select(
                                                  "estimate", "lo", "hi").rows()],
        "deals going out %": [ci(*r) for r in rows["went_out_rate"].select(
            "estimate", "lo", "hi").rows()],
        "initial meld turn": [ci(*r, scale=1.0, digits=2) for r in
                              rows["initial_meld_turn"].select("estimate", "lo", "hi").rows()]})


def favour_table(sweep_dir: Path) -> pl.DataFrame:
    t = sweep_table(sweep_dir)
    win = t.filter(pl.col("metric") == "team0_win").sort("setting")
    pts = t.filter(pl.col("metric") == "team0_minus_team1").sort("setting")
    return pl.DataFrame({
        "schedule": [str(v) for v in win["min_meld"]],
        "studied player wins %": [ci(*r) for r in win.select("estimate", "lo", "hi").rows()],
        "difference from the first row": ["–" if s == 0 else ci(*r) for s, *r in
                                          win.select("setting", "diff", "diff_lo",
                                                     "diff_hi").rows()],
        "points per game ahead": [ci(*r, scale=1.0, digits=0)
                                  for r in pts.select("estimate", "lo", "hi").rows()]})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200_000)
    common_args(ap, GAME, OLD_DEFAULT)
    ap.add_argument("--hold-param", default="hold",
                    help="the studied player's parameter for waiting before the initial meld")
    ap.add_argument("--holds", default="0,50,100,150,200",
                    help="values of --hold-param for team 0 in the wait-or-meld sweep")
    a = ap.parse_args()
    arms = [run_arm(a.strategy, s, a.games, a.seed, a.out, a.fresh) for s in SCHEDULES]
    old = run_arm(a.old_strategy, SHEET, a.games, a.seed, a.out, a.fresh)
    sweep_dir = a.out / f"hold-sweep-seed{a.seed}-{a.games}"
    sweep_cmd = ensure(["sweep", GAME, "--vary", f"0.{a.hold_param}={a.holds}", "--strategy",
                        a.strategy, "--games", str(a.games), "--seed", str(a.seed),
                        "--seating", "fixed"], sweep_dir, a.fresh)
    labels = [s.replace(",", "/") for s in SCHEDULES]
    favour_dir = a.out / f"schedule-sweep-seed{a.seed}-{a.games}"
    favour_cmd = ensure(["sweep", GAME, "--vary", f"min_meld={','.join(labels)}",
                         "--strategy", f"0={a.strategy}", "--strategy", f"1={a.old_strategy}",
                         "--games", str(a.games), "--seed", str(a.seed), "--seating", "fixed"],
                        favour_dir, a.fresh)
    st = min_meld_study([f for f, _ in arms], TURNS, labels=labels)
    analyze = (f"cardsim analyze min-meld {' '.join(shown(f) for f, _ in arms)} "
               f"--turns {','.join(map(str, TURNS))}")
    runs = [c for _, c in arms]
    info = json.loads((arms[0][0] / "run.json").read_text())
    argv = ["--games", str(a.games), "--seed", str(a.seed), "--strategy", a.strategy,
            "--old-strategy", a.old_strategy, "--hold-param", a.hold_param, "--holds", a.holds]
    study = [
        header("study_hand_and_foot.py", argv, info,
               f"{a.games:,} games per schedule, seed {a.seed} (the same deals under every "
               f"schedule), default rules but the minimum meld, `{a.strategy}` on both teams"),
        section("Teams melded by deal turn t",
                "Share of (game, deal, team) rows whose initial meld came by the deal's turn "
                "t (turns of all players counted), per schedule and deal, in %.",
                melded_table(st["melded_by_turn"]), [*runs, analyze]),
        section("How deals end, how long they last, who wins them",
                "Per schedule and deal: deals ending by going out and with the stock "
                "exhausted (the rest hit the turn cap), turns per deal, the score spread "
                "between the best and worst team, and how often (and by how much) the team "
                "of the deal's first player outscores the other.",
                deals_table(st["deals"]), [analyze]),
        section("Wait or meld?",
                f"Team 0 waits until its hand can meld `{a.hold_param}` points above the "
                f"minimum before its initial meld (a pile take may open it earlier); team 1 "
                f"plays `{a.strategy}` as it is. Same deals in every row, seats fixed; the "
                f"difference is paired game by game.",
                hold_table(sweep_dir, a.hold_param),
                [sweep_cmd, f"cardsim report {shown(sweep_dir)} --out report"]),
        section("Which schedule favours whom",
                f"The studied player (team 0) against the old one, `{a.old_strategy}` (team "
                f"1), under each schedule: a schedule that makes melding harder rewards the "
                f"player that copes with it better. Same deals in every row, seats fixed.",
                favour_table(favour_dir), [favour_cmd]),
    ]
    both = min_meld_study([old[0], arms[0][0]], TURNS,
                          labels=[f"old: {a.old_strategy}", f"new: {a.strategy}"])
    cmds = [old[1], arms[0][1]]
    compare = [
        section("Old and new player on the sheet's schedule: melding",
                "Teams melded by deal turn t for the player of the earlier tables and the "
                "studied one, on the same deals.",
                melded_table(both["melded_by_turn"]).rename({"schedule": "player"}), cmds),
        section("Old and new player on the sheet's schedule: deals",
                "How deals end and last, as above, for both players.",
                deals_table(both["deals"]).rename({"schedule": "player"}), cmds),
    ]
    emit({"study": "\n".join(study), "compare": "\n".join(compare)}, a.markdown, a.update_doc)


if __name__ == "__main__":
    main()
