"""A position's outlook from the seat to decide: what ``cardsim hand --position FILE`` prints.

The seat cannot see the others' cards, so the position is not played on as it stands: its
hidden cards are dealt again (the game's ``resample``, consistent with everything the seat saw)
``samples`` times, and the rest of the deal is played on each, once per choice the seat has
(each card it may play or discard, each place it may draw from) and once as the strategies
would choose. Every choice meets the same resampled deals and the same strategy streams, so
the differences between choices are paired. The strategies only play on: nothing here reads a
hidden card of the true position (the outlook of a resampled deal is the same whichever deal
the file holds, given what the seat saw).
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from cardsim.simulator import position as P
from cardsim.simulator import track as T
from cardsim.simulator.errors import UsageError

STRATEGY = "(strategy)"  # the row of the strategies' own choice


def _at_decision(g, pos: P.Position, strategies) -> P.Position:
    """``pos`` stopped again at its own tape's end: the seat and decision kind the kernel
    finds there (a file's seat is not trusted)."""
    try:
        at = P.resume(pos, strategies, stop=len(pos.tape))
    except P.TapeError as e:
        raise UsageError(f"position: {e}") from None
    if at is None:
        raise UsageError("position: the deal is over at the end of its tape; nothing is left "
                         "to decide")
    if at.deal != pos.deal:
        raise UsageError("position: its deal ends with its tape")
    return at


def _run_on(g, ctx, fns, described, pos: P.Position, forced: int | None):
    """The deal of ``pos`` played to its end with ``forced`` (a tape value) as the seat's
    answer, or the strategy's. Returns (deal columns, the answer given) or None when
    ``forced`` is not legal there."""
    if forced is not None:
        pos = pos.copy()
        pos.tape = np.append(pos.tape, np.int32(forced))
    trk, tape, stash = P._resume_arrays(g, pos)
    trk[T.T_RECORD] = 1
    try:
        _, deal_cols, _, _, tape_o, _ = P._run(g, ctx, fns, described, pos.game_index, trk,
                                               tape, stash, False)
    except P.TapeError:
        return None
    return deal_cols, int(tape_o[len(pos.tape) - (forced is not None)])


def outlook(pos: P.Position, samples: int = 1000, strategies=(), seed: int = 0,
            choices: bool = True, registry=None, progress=None) -> dict:
    """The outlook of ``pos`` for its seat to decide: one row per choice (``choices``) and one
    for the strategies' own (``STRATEGY``), each with the game's outcome rates and mean score
    over ``samples`` resampled deals (95% intervals), the score's paired difference from the
    strategies' row, and how often the strategies chose that way. ``progress(done, total)``
    is called as the samples are played."""
    from cardsim.analysis.stats import mean_interval, rate_interval
    from cardsim.simulator.games import get_game
    import polars as pl

    if samples < 1:
        raise UsageError(f"--samples {samples}: must be a positive whole number")
    g = get_game(pos.game)
    strategies = list(strategies)
    pm = import_module(g.position_module)
    an = g.analysis()
    at = _at_decision(g, pos, strategies)
    seat, kind = at.seat, at.kind
    view = pm.observe(at, seat)
    rng = np.random.default_rng([int(seed), int(pos.game_index), int(pos.deal)])
    rules_k, deals_mode = an.position_rules(pos.rules, pos.deal)
    ctx, fns, described = P._prepared(g, rules_k, strategies, seed, deals_mode, pos.rot_k,
                                      registry)
    deals = []
    for i in range(samples):  # one stream for the draws: the same deals for any choice list
        p = pm.resample(view, rng)
        p.rules, p.seed, p.game_index, p.deals_mode, p.stash = (rules_k, int(seed), i,
                                                                deals_mode, None)
        deals.append(p)
    cands = pm.choices(at, kind) if choices else []
    legal, first = {STRATEGY: None}, {}
    for label, v in cands:  # legal on one deal the seat cannot tell apart: legal on all
        r = _run_on(g, ctx, fns, described, deals[0], v)
        if r is not None:
            legal[label], first[label] = v, r
    cols, total, done = {}, samples * len(legal), len(first)
    for label, v in legal.items():
        got = [first[label]] if label in first else []
        for p in deals[len(got):]:
            r = _run_on(g, ctx, fns, described, p, v)
            if r is None:
                raise AssertionError(f"choice {label} legal on one resampled deal, not on "
                                     "another")
            got.append(r)
            done += 1
            if progress is not None and done % 50 == 0:
                progress(done, total)
        cols[label] = got
    picked = [a for _, a in cols[STRATEGY]]
    by_value = {v: label for label, v in legal.items() if v is not None}
    score_name, sign = an.POSITION_SCORE
    scores = {}
    rows = []
    for label, got in cols.items():
        frame = g.frames(np.concatenate([c for c, _ in got], axis=1),
                         np.zeros((1, g.game_ncols), np.int32), 0, True)[0]
        frame = frame.filter(pl.col("deal_index") == pos.deal)
        out = an.position_outcome(frame, seat, pos.rules)
        row = {"choice": label}
        for name, values in out.items():
            if values.dtype == bool:
                row[name], row[f"{name}_lo"], row[f"{name}_hi"] = rate_interval(
                    int(values.sum()), len(values))
            else:
                row[name], row[f"{name}_lo"], row[f"{name}_hi"] = mean_interval(
                    pl.Series(values))
        scores[label] = out[score_name].astype(np.float64)
        v = legal[label]
        row["chosen"] = (None if v is None else
                         sum(by_value.get(a) == label for a in picked) / samples)
        rows.append(row)
    for row in rows:
        diff = scores[row["choice"]] - scores[STRATEGY]
        m, lo, hi = mean_interval(pl.Series(diff))
        row.update({f"{score_name}_diff": m, f"{score_name}_diff_lo": lo,
                    f"{score_name}_diff_hi": hi})
    rows.sort(key=lambda r: (r["choice"] != STRATEGY, -sign * r[score_name]))
    names = P.decision_names(g)
    return {"game": g.name, "seat": seat, "deal": pos.deal,
            "decision": names[kind] if 0 <= kind < len(names) else str(kind),
            "after": len(pos.tape), "samples": samples, "seed": seed,
            "strategies": described, "score": score_name, "higher_is_better": sign > 0,
            "rows": rows}


def outlook_lines(result: dict) -> list[str]:
    """The outlook as terminal lines: one per choice, best first, the strategies' row on top."""
    rows = result["rows"]
    s = result["score"]
    rates = [k for k in rows[0] if k.endswith("_rate")]
    head = (f"  {'choice':<12}" + "".join(f"{k:>18}" for k in rates)
            + f"{s:>22}{'vs strategy':>22}{'chosen':>8}")
    out = [head]
    for r in rows:
        cells = "".join(f"{r[k]:>10.3f}+/-{(r[k + '_hi'] - r[k + '_lo']) / 2:.3f}"
                        for k in rates)
        d = f"{s}_diff"
        chosen = "" if r["chosen"] is None else f"{r['chosen']:.0%}"
        out.append(f"  {r['choice']:<12}{cells}"
                   f"{r[s]:>13.2f}+/-{(r[s + '_hi'] - r[s + '_lo']) / 2:<6.2f}"
                   f"{r[d]:>+13.2f}+/-{(r[d + '_hi'] - r[d + '_lo']) / 2:<6.2f}{chosen:>8}")
    better = "higher" if result["higher_is_better"] else "lower"
    out.append(f"  ({s}: {better} is better; +/- the 95% interval's half-width; vs strategy: "
               "paired over the same deals)")
    return out
