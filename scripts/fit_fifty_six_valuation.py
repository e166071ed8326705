#!/usr/bin/env python
"""Fit the 56 bidders' hand valuation to the points contract teams actually take.

    python scripts/fit_fifty_six_valuation.py                      # 1M deals per fit
    python scripts/fit_fifty_six_valuation.py --deals 200000 --out /tmp/fit.json

Two runs of 4-player deals under the default rules, both from the deal table alone
(``cardsim schema fifty-six``):

- suit contracts: the given strategy bidding as it does; least squares of
  ``bidding_team_points`` on the bidder's dealt hand (points, jacks, nines, cards of the trump
  suit), each feature centred on an average hand (14 points, 2 jacks, 2 nines, 3 trumps);
- no-trumps: the same strategy with no-trumps valued far above any suit (every contract is
  then no-trumps), least squares on points, jacks and nines.

The centred intercept is what an average hand's team takes once it holds the contract; the
residual spread is how far a take strays from the estimate. The result maps onto the
evaluator's parameters (``base``, ``w_points``, ``w_jack``, ``w_nine``, ``w_trump``,
``nt_penalty``, ``w_nt_jack``, ``spread``) and is written as JSON; the committed fit is
``docs/fits/fifty_six_valuation.json`` and the built-in defaults are its rounded values.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import polars as pl

# the `tuned` preset the committed fit was made with (cautious with ten tuned parameters)
OLD_TUNED = ("cautious:margin=5.97,raise_step=5.51,double_margin=8.24,redouble_margin=11.03,"
             "nt_penalty=4.74,w_trump=2.91,w_trump_top=2.16,w_jack=0,w_partner=0.51,"
             "w_opp_suit=5.25")
AVG = {"bidder_points": 14.0, "bidder_jacks": 2.0, "bidder_nines": 2.0, "bidder_trumps": 3.0}


def ols(d: pl.DataFrame, features: list[str]) -> dict:
    """Least squares of bidding_team_points on the centred features: coefficients, standard
    errors and the residual spread."""
    x = np.column_stack([np.ones(d.height)]
                        + [d[f].cast(pl.Float64).to_numpy() - AVG[f] for f in features])
    y = d["bidding_team_points"].cast(pl.Float64).to_numpy()
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    dof = len(y) - x.shape[1]
    sigma = float(np.sqrt(resid @ resid / dof))
    se = np.sqrt(np.diag(np.linalg.inv(x.T @ x)) * sigma ** 2)
    names = ["intercept"] + features
    return {"n": int(len(y)), "residual_sd": round(sigma, 4),
            "coef": {k: round(float(v), 4) for k, v in zip(names, coef)},
            "se": {k: round(float(v), 4) for k, v in zip(names, se)}}


def contracts(strategy: str, deals: int, seed: int) -> pl.DataFrame:
    from cardsim.simulator.api import simulate

    d = simulate("fifty-six", deals=deals, strategies=[strategy], seed=seed).deals
    return d.filter(pl.col("bidder") >= 0)


def fit(strategy: str, deals: int, seed: int) -> dict:
    suit = contracts(strategy, deals, seed).filter(pl.col("trump") != "NT")
    name, _, fixed = strategy.partition(":")
    kept = [kv for kv in fixed.split(",") if kv and not kv.startswith("nt_penalty=")]
    nt = contracts(f"{name}:{','.join(kept + ['nt_penalty=-28'])}", deals, seed + 1).filter(
        pl.col("trump") == "NT")
    fs = ols(suit, ["bidder_points", "bidder_jacks", "bidder_nines", "bidder_trumps"])
    fn = ols(nt, ["bidder_points", "bidder_jacks", "bidder_nines"])
    cs, cn = fs["coef"], fn["coef"]
    params = {  # valuation = 28 + base + w * (feature - average) [+ trump or no-trump terms]
        "base": cs["intercept"] - 28.0,
        "w_points": cs["bidder_points"],
        "w_jack": cs["bidder_jacks"],
        "w_nine": cs["bidder_nines"],
        "w_trump": cs["bidder_trumps"],
        "nt_penalty": cs["intercept"] - cn["intercept"],
        "w_nt_jack": cn["bidder_jacks"] - cs["bidder_jacks"],
        "spread": (fs["residual_sd"] * fs["n"] + fn["residual_sd"] * fn["n"])
        / (fs["n"] + fn["n"]),
    }
    return {"strategy": strategy, "deals": deals, "seed": seed, "rules": "default, 4 players",
            "suit": fs, "no_trumps": fn,
            "params": {k: round(float(v), 2) for k, v in params.items()}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--strategy", default=OLD_TUNED, help="bidder whose contracts are fitted "
                    "(default: the tuned preset before the fit)")
    ap.add_argument("--out", type=Path, default=Path("docs/fits/fifty_six_valuation.json"))
    a = ap.parse_args()
    result = fit(a.strategy, a.deals, a.seed)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(result, indent=2) + "\n")
    for part in ("suit", "no_trumps"):
        r = result[part]
        terms = ", ".join(f"{k} {v:+.3f} ±{r['se'][k]:.3f}" for k, v in r["coef"].items())
        print(f"{part}: n={r['n']:,} sd={r['residual_sd']:.2f}  {terms}")
    print("parameters:", json.dumps(result["params"]))
    print("written", a.out)


if __name__ == "__main__":
    main()
