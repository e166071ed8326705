"""Dealt-hand mode: counts independent of threads and blocks, and checked by hand."""
import numpy as np

from cardsim.simulator.games.contract_rummy import dealt as D
from cardsim.simulator.games.contract_rummy import search as S
from cardsim.simulator.rng import below, game_key, substream

CONTRACTS = np.array([(2, 0), (1, 1), (0, 2), (0, 0), (1, 2), (0, 3)], np.int64)
N_CARDS = np.array([10, 10, 10, 10, 12, 12], np.int64)
GO_OUT = np.array([False, False, False, False, False, True])


def run(**kw):
    args = dict(seed=3, hands=3000, n_cards=N_CARDS, decks=2, jokers_in_deck=2,
                contracts=CONTRACTS, min_run=4, max_meld=4, ace_low=True, runs_distinct=False,
                go_out_flags=GO_OUT)
    args.update(kw)
    return D.dealt_counts(**args)


def test_same_counts_for_threads_and_blocks():
    a = run(threads=1, blocks=1)
    for kw in (dict(threads=2), dict(threads=2, blocks=7), dict(threads=1, blocks=13)):
        b = run(**kw)
        for key in ("holds", "one_away", "pen_sum", "hist"):
            assert np.array_equal(a[key], b[key]), (key, kw)
    assert a["holds"][3] == 3000  # the empty contract always holds, leaving the whole hand
    assert a["holds"][0] > 0 and a["one_away"][0] > a["holds"][0]
    assert (a["hist"].sum(axis=1) + a["holds"] == 3000).all()
    assert (a["hist"][:, 1:].sum(axis=1) == a["one_away"]).all()


def deal(seed, i, n, decks, jokers):
    """The hand ``dealt_counts`` deals, rebuilt in Python from the same stream."""
    deck = list(range(52)) * decks + [52] * jokers
    rng = np.zeros(2, np.uint64)
    substream(rng, np.uint64(game_key(np.uint64(seed), i)), D.SUB_DEALT, n)
    for t in range(n):
        j = t + below(rng, len(deck) - t)
        deck[t], deck[j] = deck[j], deck[t]
    cnt = np.zeros((4, 13), np.int64)
    for c in deck[:n]:
        if c < 52:
            cnt[c // 13, c % 13] += 1
    return cnt, deck[:n].count(52)


def test_counts_match_the_search_hand_by_hand():
    hands, decks, jokers = 400, 1, 1
    r = run(hands=hands, decks=decks, jokers_in_deck=jokers, threads=2)
    holds = np.zeros(len(CONTRACTS), np.int64)
    one = np.zeros(len(CONTRACTS), np.int64)
    pen = np.zeros(len(CONTRACTS), np.int64)
    out = np.zeros((4, S.MELD_W), np.int64)
    buf = np.zeros(53, np.int64)
    for i in range(hands):
        for c, (ns, nr) in enumerate(CONTRACTS):
            cnt, j = deal(3, i, int(N_CARDS[c]), decks, jokers)
            go = bool(GO_OUT[c])
            args = (ns, nr, 4, 0 if go else 4, True, False, go)
            v = S.lay_contract(cnt, j, *args, out)
            if v >= 0:
                holds[c] += 1
                pen[c] += v
            elif S.completing_cards(cnt, j, *args, buf, decks, jokers) > 0:
                one[c] += 1
    assert np.array_equal(r["holds"], holds)
    assert np.array_equal(r["pen_sum"], pen)
    assert np.array_equal(r["one_away"], one)


def test_dealt_table():
    t = D.dealt_table(1, 500, 10, 1, 1, np.array([(2, 0), (0, 0)]), 4, 4, True, False,
                      np.array([False, False]), threads=1)
    assert t.height == 2 and t["holds"][1] == 500 and t["hands"][0] == 500
    assert t["mean_penalty_left"][1] > 50  # nothing laid: the whole 10-card hand counts


def test_rare_dealt_rates_are_printed_readably(capsys):
    """1 hand in 5,000 (0.02%) printed with 3 significant digits in %, never as 0.0."""
    import polars as pl

    from cardsim.analysis.stats import wilson_cols
    from cardsim.simulator.games.contract_rummy.cli import _echo_tables

    t = pl.DataFrame({"deal_index": [0, 1, 2], "n_sets": [2, 0, 1], "n_runs": [0, 3, 1],
                      "n_cards": [10, 12, 10], "decks": [2, 2, 2], "jokers": [2, 2, 2],
                      "hands": [5000, 5000, 5000], "holds": [140, 1, 0],
                      "one_away": [900, 4, 2]})
    t = t.with_columns(*wilson_cols("holds", "hands", "p_holds"),
                       *wilson_cols("one_away", "hands", "p_one_away"))
    _echo_tables({"dealt": t})
    out = capsys.readouterr().out
    assert "0.0 [" not in out and "[0.0," not in out
    assert "2.80 [2.38, 3.29]" in out  # 140 / 5000
    assert "0.0200 [" in out  # 1 / 5000 = 0.02%
    assert "0.0800 [" in out and "0.0400 [" in out  # one away: 4 and 2 in 5000
    assert "0 [0, 0.0768]" in out  # none in 5000: the interval still reads
    from cardsim.simulator.games.contract_rummy.analysis import pct_text

    assert pct_text(0.5) == "50.0" and pct_text(1.0) == "100" and pct_text(0.0) == "0"
    assert pct_text(2.3e-7) == "0.0000230" and pct_text(0.000123456) == "0.0123"
    assert pct_text(float("nan")) == "nan" and pct_text(None) == ""
