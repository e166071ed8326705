"""Dealt-hand mode: how often a freshly dealt hand already holds a contract, or is one card off.

Hand ``i`` of a run is dealt from its own stream (``game_key(seed, i)``, sub-stream
``SUB_DEALT`` with the deal size as index), so every count is the same for any thread count
or block split, and a 10-card and a 12-card hand of one index are independent deals while all
contracts of one deal size are judged on the same hands.
"""
from __future__ import annotations

import numba
import numpy as np
import polars as pl
from numba import njit, prange

from cardsim.simulator.games.contract_rummy.search import (
    MELD_W,
    _completing,
    can_lay_ws,
    lay_contract_ws,
    one_away_ws,
)
from cardsim.simulator.rng import below, game_key, substream

SUB_DEALT = np.uint64(0xC0DE_0000)
N_HIST = 54  # completing cards: 0..53


@njit(cache=True)
def _block(seed, lo, hi, deck, sizes, contracts, size_of, min_run, max_meld, ace_low,
           runs_distinct, go_out, near, count_cards, decks, jokers_in_deck, holds, one_away,
           pen_sum, hist):
    """Hands lo..hi-1: add this block's counts into the per-contract rows given."""
    k = contracts.shape[0]
    n_deck = deck.shape[0]
    nmax = 1
    for c in range(k):
        nmax = max(nmax, contracts[c, 0] + contracts[c, 1])
    cnt = np.zeros((4, 13), np.int64)
    rem = np.empty((4, 13), np.int64)
    m1 = np.empty(4, np.int64)
    st = np.empty((nmax, 3), np.int64)
    out = np.empty((nmax, MELD_W), np.int64)
    buf = np.empty(53, np.int64)
    swaps = np.empty(n_deck, np.int64)
    rng = np.zeros(2, np.uint64)
    for i in range(lo, hi):
        key = game_key(seed, i)
        for d in range(sizes.shape[0]):
            n = sizes[d]
            substream(rng, key, SUB_DEALT, n)
            cnt[:] = 0
            jokers = np.int64(0)
            # partial Fisher-Yates: the first n cards of a shuffled deck
            for t in range(n):
                j = t + below(rng, n_deck - t)
                swaps[t] = j
                x = deck[j]
                deck[j] = deck[t]
                deck[t] = x
                if x == 52:
                    jokers += 1
                else:
                    cnt[x // 13, x % 13] += 1
            for t in range(n - 1, -1, -1):  # undo, so the next hand starts from the same deck
                j = swaps[t]
                x = deck[j]
                deck[j] = deck[t]
                deck[t] = x
            for c in range(k):
                if size_of[c] != d:
                    continue
                ns = contracts[c, 0]
                nr = contracts[c, 1]
                g = go_out[c]
                mm = 0 if g else max_meld  # going out all at once: melds of any length
                if can_lay_ws(cnt, jokers, ns, nr, min_run, mm, ace_low, runs_distinct, g, rem,
                              m1, st, out):
                    holds[c] += 1
                    pen_sum[c] += lay_contract_ws(cnt, jokers, ns, nr, min_run, mm, ace_low,
                                          runs_distinct, g, rem, m1, st, out)
                elif near:
                    # one search says whether any card completes; only then count them
                    m = 0
                    if one_away_ws(cnt, jokers, ns, nr, min_run, mm, ace_low,
                                   runs_distinct, g, decks, jokers_in_deck, rem, m1, st, out):
                        one_away[c] += 1
                        m = 1
                        if count_cards:
                            m = _completing(cnt, jokers, ns, nr, min_run, mm, ace_low,
                                            runs_distinct, g, buf, decks, jokers_in_deck, rem,
                                            m1, st, out, np.int64(0))
                    hist[c, m] += 1


@njit(parallel=True, cache=True)
def _kernel(seed, hands, n_blocks, deck, sizes, contracts, size_of, min_run, max_meld, ace_low,
            runs_distinct, go_out, near, count_cards, decks, jokers_in_deck):
    k = contracts.shape[0]
    holds = np.zeros((n_blocks, k), np.int64)
    one_away = np.zeros((n_blocks, k), np.int64)
    pen_sum = np.zeros((n_blocks, k), np.int64)
    hist = np.zeros((n_blocks, k, N_HIST), np.int64)
    for b in prange(n_blocks):
        lo = hands * b // n_blocks
        hi = hands * (b + 1) // n_blocks
        _block(seed, lo, hi, deck.copy(), sizes, contracts, size_of, min_run, max_meld,
               ace_low, runs_distinct, go_out, near, count_cards, decks, jokers_in_deck, holds[b],
               one_away[b], pen_sum[b], hist[b])
    return holds.sum(axis=0), one_away.sum(axis=0), pen_sum.sum(axis=0), hist.sum(axis=0)


def dealt_counts(seed, hands, n_cards, decks, jokers_in_deck, contracts, min_run, max_meld,
                 ace_low, runs_distinct, go_out_flags, threads=None, near=True, count_cards=True,
                 blocks=None):
    """Deal ``hands`` hands per deal size and count, for each contract (row of ``contracts``):

    ``holds`` (the dealt hand lays it), ``one_away`` (it does not, but one more card of those
    left in the deck — a card held ``decks`` times or a joker held ``jokers_in_deck`` times
    cannot come — would), ``pen_sum`` (penalty left after the best laying, summed over the
    hands that hold) and ``hist`` (k, 54): hands that do not hold by how many distinct cards
    complete them (``count_cards=False``: bins 0 and 1 only, one search per hand instead of
    one per candidate card). ``n_cards`` is one deal size or one per contract; a go-out
    contract (``go_out_flags``) is laid with no meld size limit. ``near=False`` skips the one-away counts (the hot path).
    ``blocks`` (default 64 per thread) never changes the counts.
    """
    contracts = np.ascontiguousarray(contracts, dtype=np.int64).reshape(-1, 2)
    k = contracts.shape[0]
    n_cards = np.broadcast_to(np.asarray(n_cards, dtype=np.int64), (k,))
    sizes, size_of = np.unique(n_cards, return_inverse=True)
    go_out = np.broadcast_to(np.asarray(go_out_flags, dtype=np.bool_), (k,)).copy()
    n_deck = 52 * decks + jokers_in_deck
    if sizes.size and (sizes.min() < 0 or sizes.max() > n_deck):
        raise ValueError(f"deal sizes {sizes.tolist()} do not fit a {n_deck}-card deck")
    deck = np.array(list(range(52)) * decks + [52] * jokers_in_deck, dtype=np.int64)
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        n_blocks = blocks or max(1, min(hands, 64 * numba.get_num_threads()))
        holds, one_away, pen_sum, hist = _kernel(
            np.uint64(seed), int(hands), int(n_blocks), deck, sizes.astype(np.int64),
            contracts, size_of.astype(np.int64), int(min_run), int(max_meld), bool(ace_low),
            bool(runs_distinct), go_out, bool(near), bool(near and count_cards), int(decks),
            int(jokers_in_deck))
    finally:
        numba.set_num_threads(old)
    return {"holds": holds, "one_away": one_away, "pen_sum": pen_sum, "hist": hist,
            "hands": int(hands), "n_cards": n_cards.copy(), "contracts": contracts.copy(),
            "go_out": go_out}


def dealt_table(seed, hands, n_cards, decks, jokers_in_deck, contracts, min_run, max_meld,
                ace_low, runs_distinct, go_out_flags, threads=None, near=True,
                count_cards=True) -> pl.DataFrame:
    """``dealt_counts`` as one row per contract (counts; intervals are the caller's)."""
    r = dealt_counts(seed, hands, n_cards, decks, jokers_in_deck, contracts, min_run, max_meld,
                     ace_low, runs_distinct, go_out_flags, threads=threads, near=near,
                     count_cards=count_cards)
    holds = r["holds"]
    mean_pen = np.where(holds > 0, r["pen_sum"] / np.maximum(holds, 1), np.nan)
    misses = r["hist"].sum(axis=1)
    mean_completing = np.where(misses > 0, (r["hist"] * np.arange(N_HIST)).sum(axis=1)
                               / np.maximum(misses, 1), np.nan)
    return pl.DataFrame({
        "contract": np.arange(len(holds), dtype=np.int64),
        "n_sets": r["contracts"][:, 0],
        "n_runs": r["contracts"][:, 1],
        "go_out": r["go_out"],
        "n_cards": r["n_cards"],
        "decks": np.full(len(holds), decks, np.int64),
        "jokers": np.full(len(holds), jokers_in_deck, np.int64),
        "hands": np.full(len(holds), hands, np.int64),
        "holds": holds,
        "one_away": r["one_away"],
        "mean_penalty_left": mean_pen,
        "mean_completing_cards": mean_completing,
    })
