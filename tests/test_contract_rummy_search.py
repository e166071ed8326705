"""Contract search: hand-made positions and a pure-Python brute force on random hands."""
import itertools
import random

import numpy as np
import pytest

from cardsim.simulator.cards import parse
from cardsim.simulator.games.contract_rummy import search as S

PEN = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15]
DEFAULT_CONTRACTS = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]


def hand(text):
    cnt = np.zeros((4, 13), np.int64)
    jokers = 0
    for word in text.split():
        c = parse(word)
        if c == 52:
            jokers += 1
        else:
            cnt[c // 13, c % 13] += 1
    return cnt, jokers


def lay(text, n_sets, n_runs, min_run=4, max_meld=4, ace_low=True, distinct=False, go_out=False):
    cnt, j = hand(text)
    out = np.zeros((max(n_sets + n_runs, 1), S.MELD_W), np.int64)
    before = cnt.copy()
    v = S.lay_contract(cnt, j, n_sets, n_runs, min_run, max_meld, ace_low, distinct, go_out, out)
    ok = S.can_lay(cnt, j, n_sets, n_runs, min_run, max_meld, ace_low, distinct, go_out)
    assert (v >= 0) == ok
    assert (cnt == before).all()
    return v, out[: n_sets + n_runs]


# ---- hand-made positions ---------------------------------------------------------------


def test_set_refuses_two_cards_of_one_suit():
    assert lay("7S 7S 7H", 1, 0)[0] == -1
    assert lay("7S 7S 7H 7D", 1, 0)[0] == 7  # 7S 7H 7D, one 7S left


def test_two_sets_of_one_rank_with_two_decks():
    v, out = lay("7S 7S 7H 7H 7D 7D", 2, 0)
    assert v == 0 and out[0, 1] == 7 - 2 and out[1, 1] == 5


def test_run_no_wrap_and_ace_ends():
    assert lay("KS AS 2S 3S", 0, 1)[0] == -1
    assert lay("AS 2S 3S 4S", 0, 1)[0] == 0
    assert lay("AS 2S 3S 4S", 0, 1, ace_low=False)[0] == -1
    v, out = lay("JS QS KS AS", 0, 1, ace_low=False)
    assert v == 0 and out[0].tolist() == [S.RUN, 0, 0b1111 << 10, 0]


def test_run_may_not_use_the_ace_twice():
    # A-2-...-K-A would need 14 positions; with one ace the 13-card run is fine
    full = " ".join(r + "S" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    assert lay(full + " AS", 0, 1, min_run=14, max_meld=0)[0] == -1
    assert lay(full, 0, 1, min_run=13, max_meld=0)[0] == 0


def test_joker_fills_a_run_gap_and_a_set_suit():
    v, out = lay("5H 6H 8H JK JK 9C 9D", 1, 1)
    assert v == 0
    assert out[0].tolist() == [S.SET, 7, 0b1100, 0b0001]  # 9D 9C + joker as 9S
    assert out[1].tolist() == [S.RUN, 1, (1 << 4) | (1 << 5) | (1 << 7), 1 << 6]  # 7H joker
    assert lay("5H 6H 8H JK 9C 9D", 1, 1)[0] == -1  # one joker cannot do both


def test_meld_of_jokers_only_refused():
    assert lay("JK JK JK 2S", 1, 0)[0] == 0  # 2S and three jokers
    assert lay("JK JK JK 2S", 1, 0, max_meld=3)[0] == 15
    assert lay("JK JK JK JK", 1, 0)[0] == -1
    assert lay("JK JK JK JK", 0, 1)[0] == -1
    assert lay("JK JK JK JK JK 2S", 2, 0)[0] == -1  # six cards, but one set would be jokers
    assert lay("JK JK JK JK 2S 3S", 2, 0)[0] == 0
    # one natural cannot anchor two runs, even when the jokers could cover its window
    assert lay("JK JK JK JK JK JK 7S", 0, 2, min_run=3, max_meld=0)[0] == -1
    assert lay("JK JK JK JK JK JK 7S 9H", 0, 2, min_run=3, max_meld=0)[0] == 0


def test_runs_distinct_refuses_two_spade_runs():
    text = "5S 6S 7S 8S 5S 6S 7S 8S"
    assert lay(text, 0, 2)[0] == 0
    assert lay(text, 0, 2, distinct=True)[0] == -1
    assert lay(text + " 2H 3H 4H 5H", 0, 2, distinct=True)[0] == 26


def test_max_meld_and_go_out():
    text = "4S 5S 6S 7S 8S"
    v, out = lay(text, 0, 1)
    assert v == 4 and out[0, 2] == 0b1111 << 4  # keeps the 4, lays 5-8
    assert lay(text, 0, 1, max_meld=0, go_out=True)[0] == 0
    assert lay(text + " 2H", 0, 1, max_meld=0, go_out=True)[0] == 2  # one card left
    assert lay(text + " 2H 3H", 0, 1, max_meld=0, go_out=True)[0] == -1  # two left
    assert lay("QD " + text, 0, 1, max_meld=4, go_out=True)[0] == -1  # 5-card run too long


def test_penalty_counting():
    cnt, j = hand("AS KH 7D JK")
    assert S.penalty_of(cnt, j) == 15 + 10 + 7 + 15


def test_best_laying_keeps_the_low_cards():
    # 3-set of kings or of fours: laying the kings leaves 4+4+4+2
    v, out = lay("KS KH KD 4S 4H 4D 2C", 1, 0)
    assert v == 14 and out[0, 1] == 11
    # a joker is worth more laid than any card: it replaces the cheapest natural
    v, out = lay("7S 8S 9S 10S JK", 0, 1)
    assert v == 7 and out[0, 2] == 0b111 << 7  # 8-9-10 and the joker, below or above


def test_tie_break_uses_fewer_jokers():
    # three aces, or two and the joker: both leave 15
    v, out = lay("AS AH AD JK", 1, 0, max_meld=3)
    assert v == 15 and out[0].tolist() == [S.SET, 12, 0b0111, 0]
    assert lay("AS AH AD JK", 1, 0)[0] == 0
    # the joker replaces the cheapest natural of a run at its size limit
    v, out = lay("AS 2S 3S 4S JK", 0, 1)
    assert v == 2 and out[0].tolist() == [S.RUN, 0, 0b1101, 0b0010]


def test_completing_cards_near_miss():
    buf = np.zeros(53, np.int64)
    # a run is down; the set of nines or of kings needs a third suit (or a joker, code 52)
    cnt, j = hand("5S 6S 7S 8S 9H 9D 2C KD KH QC")
    k = S.completing_cards(cnt, j, 1, 1, 4, 4, True, False, False, buf)
    assert buf[:k].tolist() == sorted(parse(c) for c in ("9S", "9C", "KS", "KC")) + [52]
    # a set is down; the run 5-6-?-8 needs the 7S or a joker (4S or 9S make no 4-card run)
    cnt, j = hand("5S 6S 8S 9H 9D 9C 2C KH QC")
    k = S.completing_cards(cnt, j, 1, 1, 4, 4, True, False, False, buf)
    assert buf[:k].tolist() == [parse("7S"), 52]
    # with one deck a card already held cannot be drawn: max_copies skips it
    cnt, j = hand("5S 6S 7S 8S 9H 9D")
    k = S.completing_cards(cnt, j, 2, 0, 4, 4, True, False, False, buf, 1, 1)
    assert buf[:k].tolist() == []


def test_meld_helpers():
    rec = np.array([S.RUN, 2, 0b111 << 0, 1 << 3], np.int64)  # A-2-3 of diamonds + joker as 4
    codes = np.zeros(14, np.int64)
    k = S.meld_cards(rec, codes)
    assert sorted(codes[:k].tolist()) == sorted([parse("AD"), parse("2D"), parse("3D")])
    assert S.is_valid_meld(rec, 4, 4, True)
    assert not S.is_valid_meld(rec, 4, 4, False)
    assert not S.is_valid_meld(rec, 5, 4, True)
    assert not S.is_valid_meld(np.array([S.RUN, 0, 0b1011, 0], np.int64), 3, 0, True)
    assert not S.is_valid_meld(np.array([S.SET, 0, 0, 0b111], np.int64), 3, 0, True)
    assert S.is_valid_meld(np.array([S.SET, 0, 0b1, 0b110], np.int64), 3, 4, True)


# ---- brute force -----------------------------------------------------------------------


def brute_melds(cnt, jokers, min_run, max_meld, ace_low):
    """Every meld this hand could lay on its own: (kind, key, natural cards, jokers)."""
    cap = max_meld if max_meld > 0 else 99
    melds = []
    for r in range(13):
        held = [s for s in range(4) if cnt[s][r] > 0]
        for size in range(1, 5):
            for nat in itertools.combinations(held, size):
                for k in range(0, 5 - size):
                    if 3 <= size + k <= cap and k <= jokers:
                        melds.append((0, r, tuple((s, r) for s in nat), k))
    for s in range(4):
        for a in range(0 if ace_low else 1, 14):
            for b in range(a + min_run - 1, 14):
                if b - a + 1 > cap or (a == 0 and b == 13):
                    continue
                cards = [(s, 12 if p in (0, 13) else p - 1) for p in range(a, b + 1)]
                held = [c for c in cards if cnt[c[0]][c[1]] > 0]
                for size in range(1, len(held) + 1):
                    if len(cards) - size > jokers:
                        continue
                    for nat in itertools.combinations(held, size):
                        melds.append((1, s, nat, len(cards) - size))
    return melds


def brute_lay(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, distinct, go_out):
    """(penalty left, jokers used, cards used) of the best laying, or None."""
    melds = brute_melds(cnt, jokers, min_run, max_meld, ace_low)
    sets = [m for m in melds if m[0] == 0]
    runs = [m for m in melds if m[0] == 1]
    best = [None]
    rem = [list(row) for row in cnt]

    def leaf(jused):
        left = sum(rem[s][r] * PEN[r] for s in range(4) for r in range(13))
        ncards = sum(map(sum, rem)) + jokers - jused
        if go_out and ncards > 1:
            return
        total = sum(map(sum, cnt)) + jokers
        key = (left + 15 * (jokers - jused), jused, total - ncards)
        if best[0] is None or key < best[0]:
            best[0] = key

    def go(pool, start, need, jused, suits, rest):
        if need == 0:
            if rest is None:
                leaf(jused)
            else:
                go(rest[0], 0, rest[1], jused, suits, None)
            return
        for i in range(start, len(pool)):
            kind, key, nat, k = pool[i]
            if jused + k > jokers or (kind == 1 and distinct and key in suits):
                continue
            if any(rem[s][r] == 0 for s, r in nat):
                continue
            for s, r in nat:
                rem[s][r] -= 1
            go(pool, i, need - 1, jused + k, suits + ((key,) if kind == 1 else ()), rest)
            for s, r in nat:
                rem[s][r] += 1

    go(sets, 0, n_sets, 0, (), (runs, n_runs))
    return best[0]


def planted_hand(rng, n_sets, n_runs, min_run, decks, jokers):
    """The cards of a laying of the contract, then a few jokers in, cards out and noise."""
    cards = []
    for _ in range(n_sets):
        r = rng.randrange(13)
        cards += [s * 13 + r for s in rng.sample(range(4), rng.randint(3, 4))]
    for _ in range(n_runs):
        s = rng.randrange(4)
        ln = rng.randint(min_run, min_run + 2)
        a = rng.randint(0, 14 - ln)
        cards += [s * 13 + (12 if p in (0, 13) else p - 1) for p in range(a, a + ln)]
    for _ in range(rng.randint(0, jokers)):
        cards[rng.randrange(len(cards))] = 52
    for _ in range(rng.randint(0, 1)):
        cards.pop(rng.randrange(len(cards)))
    cards += [rng.randrange(52) for _ in range(rng.randint(0, 2))]
    cnt = np.zeros((4, 13), np.int64)
    for c in cards:
        if c < 52:
            cnt[c // 13, c % 13] = min(decks, cnt[c // 13, c % 13] + 1)
    return cnt, min(cards.count(52), jokers)


def random_hand(rng, n, decks, jokers):
    if rng.random() < 0.5:
        # a crowded corner of the deck, so that contracts are often close
        suits = rng.sample(range(4), rng.randint(1, 4))
        lo = rng.randint(0, 8)
        pool = [s * 13 + r for s in suits for r in range(lo, lo + 5)] * decks
        pool += [s * 13 + 12 for s in suits] * decks
    else:
        pool = list(range(52)) * decks
    pool += [52] * jokers
    cards = rng.sample(pool, min(n, len(pool)))
    cnt = np.zeros((4, 13), np.int64)
    for c in cards:
        if c < 52:
            cnt[c // 13, c % 13] += 1
    return cnt, cards.count(52)


def check_laying(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, distinct, go_out, v,
                 out):
    rem = cnt.copy()
    jused = 0
    codes = np.zeros(14, np.int64)
    for i in range(n_sets + n_runs):
        rec = out[i]
        assert rec[0] == (S.SET if i < n_sets else S.RUN)
        assert S.is_valid_meld(rec, min_run, max_meld, ace_low)
        k = S.meld_cards(rec, codes)
        for c in codes[:k]:
            rem[c // 13, c % 13] -= 1
        jused += bin(int(rec[3])).count("1")
    assert (rem >= 0).all() and jused <= jokers
    if distinct:
        suits = [int(out[i, 1]) for i in range(n_sets, n_sets + n_runs)]
        assert len(set(suits)) == len(suits)
    assert S.penalty_of(rem, jokers - jused) == v
    if go_out:
        assert rem.sum() + jokers - jused <= 1
    return jused, int(cnt.sum() - rem.sum()) + jused


@pytest.mark.parametrize("go_out", [False, True])
def test_against_brute_force(go_out):
    rng = random.Random(5 + go_out)
    out = np.zeros((4, S.MELD_W), np.int64)
    held = 0
    n_hands = 1500
    for _ in range(n_hands):
        decks = rng.randint(1, 2)
        jokers = rng.choice([0, 0, 1, 1, 2, 2, 3, 4])  # hands hold up to 2 by default
        n_sets, n_runs = rng.choice(DEFAULT_CONTRACTS)
        min_run = rng.randint(3, 5)
        ace_low = rng.random() < 0.8
        distinct = rng.random() < 0.3
        if go_out:
            max_meld = 0
            n = rng.randint(6, 11)
        else:
            max_meld = rng.choice([0, 4])
            n = rng.choice([10, 11, 12])
        if rng.random() < 0.5:
            cnt, j = planted_hand(rng, n_sets, n_runs, min_run, decks, jokers)
        else:
            cnt, j = random_hand(rng, n, decks, jokers)
        args = (n_sets, n_runs, min_run, max_meld, ace_low, distinct, go_out)
        want = brute_lay(cnt, j, *args)
        v = S.lay_contract(cnt, j, *args, out)
        ok = S.can_lay(cnt, j, *args)
        assert ok == (want is not None), (cnt, j, args)
        if want is None:
            assert v == -1
            continue
        held += 1
        assert v == want[0], (cnt, j, args, want, out)
        assert check_laying(cnt, j, *args, v, out) == want[1:], (cnt, j, args, want, out)
    assert held > n_hands // 5  # planted hands make layings common


def test_completing_cards_and_one_card_away_match_can_lay():
    rng = random.Random(11)
    buf = np.zeros(53, np.int64)
    near = 0
    for _ in range(1500):
        n_sets, n_runs = rng.choice(DEFAULT_CONTRACTS)
        go_out = rng.random() < 0.2
        min_run = rng.randint(3, 5)
        decks = rng.randint(1, 2)
        if rng.random() < 0.7:
            cnt, j = planted_hand(rng, n_sets, n_runs, min_run, decks, 2)
        else:
            cnt, j = random_hand(rng, rng.randint(8, 11), decks, 2)
        args = (n_sets, n_runs, min_run, 0 if go_out else 4, rng.random() < 0.8,
                rng.random() < 0.3, go_out)
        k = S.completing_cards(cnt, j, *args, buf)
        want = []
        for c in range(53):
            more = cnt.copy()
            if c < 52:
                more[c // 13, c % 13] += 1
            if S.can_lay(more, j + (c == 52), *args):
                want.append(c)
        assert buf[:k].tolist() == want
        # only cards left in the decks: held fewer than `decks` times, jokers below 2
        k = S.completing_cards(cnt, j, *args, buf, decks, 2)
        kept = [c for c in want if (c == 52 and j < 2) or (c < 52 and cnt[c // 13, c % 13] < decks)]
        assert buf[:k].tolist() == kept
        assert S.one_card_away(cnt, j, *args, decks, 2) == (k > 0), (cnt, j, args)
        near += k > 0 and not S.can_lay(cnt, j, *args)
    assert near > 200


def _can_lay_counts(h, ns, nr, min_run, ace_low, max_meld=4):
    return S.can_lay(h[:52].reshape((4, 13)).copy(), int(h[52]), ns, nr, min_run, max_meld,
                     ace_low, False, False)


def test_could_lay_refuses_what_the_old_joker_bound_let_through():
    """Sets of one rank share its suits: k sets of a rank hold at most min(held, k) cards of
    each suit (the bound once charged each further set of a rank only 3 - suits held)."""
    from cardsim.simulator.games.contract_rummy import view as V
    best = np.zeros(4, np.int64)

    def cl(text, ns, nr=0):
        cnt, j = hand(text)
        h = np.zeros(53, np.int64)
        h[:52] = cnt.reshape(-1)
        h[52] = j
        return V.could_lay(h, ns, nr, 4, True, best), _can_lay_counts(h, ns, nr, 4, True)

    # four fives give one set and a lone five (two jokers short of a second set)
    assert cl("5S 5H 5D 5C 9S 9H JK", 3) == (False, False)
    assert cl("5S 5H 5D 5C 9S 9H JK JK JK", 3) == (True, True)
    # two sets of fives from 5S 5S 5H 5D 5C: S H D and S C + a joker
    assert cl("5S 5S 5H 5D 5C", 2) == (False, False)
    assert cl("5S 5S 5H 5D 5C JK", 2) == (True, True)
    # a set and a run may not count the same joker twice
    assert cl("5S 5H 6D 7D 8D 9C", 1, 1) == (False, False)
    assert cl("5S 5H 6D 7D 8D 9C JK JK", 1, 1) == (True, True)


@pytest.mark.parametrize("min_run,ace_low", [(4, True), (3, True), (4, False), (5, True)])
def test_could_lay_never_refuses_a_hand_that_lays(min_run, ace_low):
    """The quick joker bound before every contract search (view.could_lay) against the plain
    search, contract by contract, on random hands of 10-30 cards from two decks and two
    jokers (a hand plus a discard pile) and on hands planted up to two cards short of the
    contract; it must refuse no hand that lays, and most that do not."""
    from cardsim.simulator.games.contract_rummy import view as V
    rng = random.Random(min_run * 10 + ace_low)
    deck = [c % 52 for c in range(104)] + [52, 52]
    best = np.zeros(4, np.int64)
    for ns, nr in DEFAULT_CONTRACTS + [(4, 0), (0, 4), (2, 2)]:
        lays = cannot = refused = 0
        for k in range(300):
            rng.shuffle(deck)
            cards = deck[:rng.randrange(10, 31)]
            if k % 2 == 0:  # planted: the contract's melds (no jokers) less 0-2 cards
                cards = []
                for r in rng.sample(range(13), ns):
                    cards += [s * 13 + r for s in rng.sample(range(4), 3)]
                for _ in range(nr):
                    s, lo = rng.randrange(4), rng.randrange(0, 14 - min_run)
                    cards += [s * 13 + lo + i for i in range(min_run)]
                rng.shuffle(cards)
                cards = cards[rng.randrange(0, 3):] + deck[:rng.randrange(0, 8)]
            h = np.zeros(53, np.int64)
            for c in cards:
                h[c] += 1
            can = _can_lay_counts(h, ns, nr, min_run, ace_low, max(4, min_run))
            quick = V.could_lay(h, ns, nr, min_run, ace_low, best)
            assert quick or not can, (ns, nr, sorted(cards))
            lays += can
            cannot += not can
            refused += not quick
        assert lays >= 20 and cannot >= 20, (ns, nr, lays, cannot)
        # it must matter: most hands that cannot lay never reach the search
        assert refused >= 0.5 * cannot, (ns, nr, refused, cannot)
