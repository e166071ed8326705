"""Contract Rummy rules, each judged by the real kernel on a hand-made position where a wrong
implementation would answer differently."""
import numpy as np
import pytest

from cardsim.simulator.errors import UsageError
from cardsim.simulator.games.contract_rummy import kernel as K
from cardsim.simulator.games.contract_rummy import turn as TU
from cardsim.simulator.games.contract_rummy import view as V
from tests.helpers_contract_rummy import GAME, Position, counts

# ---------------------------------------------------------------- rule options


def test_defaults_are_the_sheets():
    r = GAME.rules.resolve({})
    assert r["players"] == 4 and r["decks"] == 2 and r["jokers"] == 2
    assert r["contracts"] == [[2, 0, 10], [1, 1, 10], [0, 2, 10], [3, 0, 10], [2, 1, 12],
                              [1, 2, 12], [0, 3, 12]]
    assert r["min_run"] == 4 and r["max_contract_meld"] == 4 and r["ace_low"] is True
    assert r["runs_distinct_suits"] is False and r["last_deal_all_at_once"] is True
    assert r["lay_off_sets"] is True and r["buying"] is False and r["buy_limit"] == 3
    assert r["max_reshuffles"] == 1
    three = GAME.rules.resolve({"players": 3})
    assert (three["decks"], three["jokers"]) == (1, 1)
    assert GAME.rules.resolve({"players": 2})["decks"] == 1
    assert GAME.rules.resolve({"players": 7})["decks"] == 2
    single = GAME.rules.resolve({"decks": 1, "jokers": 1})
    assert (single["decks"], single["jokers"]) == (1, 1)


@pytest.mark.parametrize("opts, needle", [
    ({"players": 9}, "rule 'players'"),
    ({"players": 1}, "rule 'players'"),
    ({"contracts": "2x:10"}, "rule 'contracts'"),
    ({"contracts": "3s2r:10"}, "rule 'contracts'"),
    ({"contracts": "2s:0"}, "rule 'contracts'"),
    ({"decks": 4}, "rule 'decks'"),
    ({"jokers": "lots"}, "rule 'jokers'"),
    ({"players": 5, "decks": 1}, "rule 'decks'"),
    ({"min_run": 2}, "rule 'min_run'"),
    ({"max_contract_meld": 3, "min_run": 4}, "rule 'max_contract_meld'"),
    ({"max_contract_meld": 4, "min_run": 5}, "rule 'max_contract_meld'"),
    ({"max_contract_meld": "big"}, "rule 'max_contract_meld'"),
    ({"ace_low": "maybe"}, "rule 'ace_low'"),
    ({"max_turns": 0}, "rule 'max_turns'"),
])
def test_bad_values_are_one_line_errors(opts, needle):
    with pytest.raises(UsageError) as e:
        GAME.rules.resolve(opts)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_max_contract_meld_auto_follows_min_run():
    """auto = max(4, min_run): the sheet's 4, raised so that a run of min_run cards can be a
    contract meld. ``--rule min_run=5`` alone is accepted."""
    assert dict((r[0], r[1]) for r in GAME.rules.listing())["max_contract_meld"] == "auto"
    assert GAME.rules.resolve({})["max_contract_meld"] == 4
    assert GAME.rules.resolve({"min_run": 3})["max_contract_meld"] == 4
    assert GAME.rules.resolve(["min_run=5"])["max_contract_meld"] == 5
    assert GAME.rules.resolve({"min_run": 7, "max_contract_meld": "auto"})["max_contract_meld"] == 7
    assert GAME.rules.resolve(["min_run=5", "max_contract_meld=6"])["max_contract_meld"] == 6
    assert GAME.rules.resolve(["max_contract_meld=none"])["max_contract_meld"] is None
    assert GAME.rules.resolve({"max_contract_meld": None})["max_contract_meld"] is None
    with pytest.raises(UsageError) as e:
        GAME.rules.resolve(["min_run=5", "max_contract_meld=4"])
    msg = str(e.value)
    assert "rule 'max_contract_meld'" in msg and "auto" in msg and "5..14" in msg
    assert "\n" not in msg


def test_contract_list_option():
    r = GAME.rules.resolve({"contracts": "1s:6,2r:8,1s1r:7"})
    assert r["contracts"] == [[1, 0, 6], [0, 2, 8], [1, 1, 7]]


# ---------------------------------------------------------------- melds


def test_a_set_with_two_cards_of_one_suit_is_refused_with_two_decks():
    p = Position(contracts="1s:10").hand(0, "KS KS KH 2C 5D 7H 9S JD QC 3H")
    assert p.lay()[0] == -1  # K K K of only two suits is not a set
    p.hand(0, "KS KS KH KD 5D 7H 9S JD QC 3H")
    pen, melds = p.lay()
    assert pen >= 0 and sorted(melds[0].split()) == ["KD", "KH", "KS"]


def test_set_lay_off_needs_a_missing_suit():
    p = Position().down(0).hand(0, "KS KC 5D")
    m = p.meld(1, "KS KH KD")
    offs = p.layoffs(0)
    assert ("lay", "KC", m, 3) in offs
    assert not any(o[0] == "lay" and o[1] == "KS" for o in offs if o != "STOP")
    # lay_off_sets=false: sets never grow
    q = Position(lay_off_sets=False).down(0).hand(0, "KC 5D")
    q.meld(1, "KS KH KD")
    assert q.layoffs(0) == ["STOP"]


def test_k_a_2_is_not_a_run():
    p = Position(contracts="1r:10").hand(0, "KS AS 2S 3S 7D 8C 9H 5C 6C 10D")
    assert p.lay()[0] == -1
    p.hand(0, "AS 2S 3S 4S 7D 8C 9H 5C 6C 10D")  # ace low
    assert p.lay()[1][0] == "AS 2S 3S 4S"
    p.hand(0, "JS QS KS AS 7D 8C 9H 5C 6C 10D")  # ace high
    assert p.lay()[1][0] == "JS QS KS AS"
    q = Position(contracts="1r:10", ace_low=False).hand(0, "AS 2S 3S 4S 7D 8C 9H 5C 6C 10D")
    assert q.lay()[0] == -1


def test_runs_do_not_wrap_when_laid_off():
    p = Position().down(0).hand(0, "KS 2S 5D")
    low = p.meld(1, "AS 2S 3S 4S")
    high = p.meld(2, "JS QS KS AS")
    offs = p.layoffs(0)
    assert ("lay", "KS", low, 13) not in offs and ("lay", "2S", high, 0) not in offs
    assert ("lay", "KS", high, 10) not in offs  # no slot below J is a K
    assert ("lay", "5S", low, 4) not in offs  # not held
    p.hand(0, "5S 10S")
    offs = p.layoffs(0)
    assert ("lay", "5S", low, 4) in offs and ("lay", "10S", high, 9) in offs


def test_several_runs_of_one_suit_option():
    hand = "3H 4H 5H 6H 9H 10H JH QH 2C 7D"
    p = Position(contracts="2r:10").hand(0, hand)
    assert p.lay()[0] >= 0
    q = Position(contracts="2r:10", runs_distinct_suits=True).hand(0, hand)
    assert q.lay()[0] == -1


def test_contract_melds_are_at_most_four_cards_but_not_in_the_all_at_once_deal():
    p = Position(contracts="1r:10").hand(0, "3H 4H 5H 6H 7H 2C 9D JS QS KC")
    pen, melds = p.lay()
    assert len(melds[0].split()) == 4
    # the last deal: every card but at most one in the contract, melds as long as needed
    hand = "3H 4H 5H 6H 7H 8H 2C 3C 4C 5C 9D 10D JD QD KS"
    q = Position(deal=6, last_deal_all_at_once=True).hand(0, hand)
    assert q.info[TU.I_GO_OUT] == 1
    pen, melds = q.lay()
    assert pen == 10 and sum(len(m.split()) for m in melds) == 14
    q.hand(0, hand + " 2D")  # two loose cards: not all at once
    assert q.lay()[0] == -1
    assert Position(deal=5, last_deal_all_at_once=True).info[TU.I_GO_OUT] == 0
    assert Position(deal=6).info[TU.I_GO_OUT] == 0  # the option off


def test_jokers_declare_the_card_they_stand_for():
    p = Position(contracts="1s1r:10").hand(0, "QS QH JK 5D 6D 8D JK 2C 3S 9H")
    pen, melds = p.lay()
    assert pen >= 0
    run = melds[1].split()
    assert "JK=7D" in run  # the joker in the run stands for the missing 7
    joined = " ".join(melds)
    assert joined.count("JK=") == 2


# ---------------------------------------------------------------- lay-offs and joker swaps


def test_lay_off_before_the_contract_is_down_is_refused():
    p = Position().hand(0, "7H JK")
    p.meld(1, "3H 4H 5H 6H")
    assert p.layoffs(0) == []
    p.down(0)
    offs = p.layoffs(0)
    assert ("lay", "7H", 0, 6) in offs and ("lay", "JK", 0, 1) in offs


def test_a_joker_in_a_set_cannot_be_swapped():
    p = Position().down(0, turn=1).hand(0, "KD 9C")
    p.meld(1, "KS KH JK=KD")
    assert not any(o[0] == "swap" for o in p.layoffs(0) if o != "STOP")
    # while a joker in another player's run can be, once the contract went down earlier
    p.meld(2, "5C 6C JK=7C 8C")
    p.hand(0, "KD 7C")
    swaps = [o for o in p.layoffs(0) if o != "STOP" and o[0] == "swap"]
    assert swaps and all(o[1] == 1 and o[2] == 6 for o in swaps)


def test_joker_swap_only_after_an_earlier_turn_and_the_joker_is_used_at_once():
    p = Position().down(0, turn=5).hand(0, "7C 2D")  # down in this very turn
    p.meld(2, "5C 6C JK=7C 8C")
    assert not any(o[0] == "swap" for o in p.layoffs(0) if o != "STOP")
    p.down(0, turn=4)
    swaps = [o for o in p.layoffs(0) if o != "STOP" and o[0] == "swap"]
    assert ("swap", 0, 6, 0, 3) in swaps and ("swap", 0, 6, 0, 8) in swaps
    # not from one's own run
    q = Position().down(0, turn=1).hand(0, "7C 2D")
    q.meld(0, "5C 6C JK=7C 8C")
    assert not any(o[0] == "swap" for o in q.layoffs(0) if o != "STOP")
    # the swap puts the natural in and the joker on the table in the same action
    p.apply(0, ("swap", 0, 6, 0, 8))
    assert p.meld_text(0) == "5C 6C 7C 8C JK=9C"
    assert p.hand_text(0) == ["2D"]


def test_joker_swap_can_put_the_joker_on_another_meld():
    p = Position().down(0, turn=1).hand(0, "7C")
    p.meld(2, "5C 6C JK=7C 8C")
    p.meld(3, "QS QH QD")
    swaps = {o for o in p.layoffs(0) if o != "STOP"}
    assert ("swap", 0, 6, 1, 3) in swaps  # the joker becomes the QC
    p.apply(0, ("swap", 0, 6, 1, 3))
    assert p.meld_text(1) == "QS QH QD JK=QC" and p.hand_text(0) == []


def test_deep_drawn_card_must_be_laid_off_first():
    p = Position().down(0).hand(0, "7H 9C 2D")
    p.meld(1, "3H 4H 5H 6H")
    offs = p.layoffs(0, forced="7H")
    assert offs == [("lay", "7H", 0, 6)]  # no STOP, nothing else until it is laid


# ---------------------------------------------------------------- draws and discards


def test_deep_draw_only_for_a_card_that_is_melded_and_takes_every_card_above():
    p = Position(contracts="2s:10").hand(0, "5S 5H 9C 9D 9H 2C 3D 4S JS QD")
    p.pile("KC 5D 8H 3C")
    draws = p.draws(0)
    assert "stock" in draws and "top" in draws
    assert ("deep", 1) in draws  # the 5D completes 5 5 5 (with 9 9 9)
    assert ("deep", 0) not in draws and ("deep", 2) not in draws  # KC, 8H are not melded
    assert p.draws(0, deep=False) == ["stock", "top"]
    c = TU.take_pile(0, 1, p.hands, p.public, p.stats)
    assert c == 29  # 5D (suit 2 * 13 + rank 3)
    assert p.public[V.P_PILE_N] == 1 and p.hand_text(0).count("8H") == 1
    assert p.hand_text(0).count("3C") == 1 and p.stats[0, TU.S_PILE_CARDS] == 3


def test_deep_draw_after_the_contract_needs_a_place_on_the_table():
    p = Position().down(0).hand(0, "2D 9C")
    p.meld(1, "3H 4H 5H 6H")
    p.pile("7H KC 8S")
    assert p.draws(0) == ["stock", "top", ("deep", 0)]


def test_the_top_discard_just_taken_cannot_be_thrown_back():
    p = Position().hand(0, "QS 4D 7C")
    assert p.discards(0, top="QS") == ["4D", "7C"]
    assert p.discards(0) == ["4D", "7C", "QS"]
    # not even as the last card (going out with it): the lay-offs and the lay-down never
    # leave it alone in hand, so nothing is legal here
    p.hand(0, "QS")
    assert p.discards(0, top="QS") == []
    # an identical second copy (the other deck's) may go
    p.hand(0, "QS QS 4D")
    assert p.discards(0, top="QS") == ["4D", "QS"]
    p.hand(0, "QS QS")
    assert p.discards(0, top="QS") == ["QS"]


def test_a_lay_off_may_not_leave_only_the_top_discard_just_taken():
    """Seed 1, game 7, deal 2 (index 2), turn 21: a player took the 2S, laid off its last
    other card and went out by discarding the 2S. It must keep another card instead."""
    p = Position().down(0).hand(0, "5S 2S")
    m = p.meld(1, "6S 7S 8S 9S")
    assert ("lay", "5S", m, 4) in p.layoffs(0)
    assert p.layoffs(0, top="2S") == ["STOP"]  # then it discards the 5S, keeping the 2S
    p.hand(0, "5S 4S 2S")  # two other cards: the first may go, the second not
    assert ("lay", "5S", m, 4) in p.layoffs(0, top="2S")
    p.apply(0, ("lay", "5S", m, 4))
    assert p.layoffs(0, top="2S") == ["STOP"]
    # laying off the taken card itself is fine
    p.hand(0, "5S 2S")
    q = p.meld(2, "3S 4S JK=5S 6S")
    assert p.layoffs(0, top="2S") == ["STOP", ("lay", "2S", q, 1)]
    # a joker: neither a joker lay-off nor a swap may leave the taken card alone
    p.hand(0, "JK 2D")
    assert p.layoffs(0, top="2D") == ["STOP"]
    p.hand(0, "JK 2D")
    assert sorted(o for o in p.layoffs(0, top="JK") if o != "STOP") == sorted(
        [("lay", "JK", m, 3), ("lay", "JK", m, 9), ("lay", "JK", q, 1), ("lay", "JK", q, 6)])
    s = Position().down(0, turn=1).hand(0, "7C 2D")
    s.meld(2, "5C 6C JK=7C 8C")
    assert any(o[0] == "swap" for o in s.layoffs(0) if o != "STOP")
    assert s.layoffs(0, top="2D") == ["STOP"]
    assert any(o[0] == "swap" for o in s.layoffs(0, top="7C") if o != "STOP")
    # an identical second copy of the taken card may stay (and be discarded)
    t = Position().down(0).hand(0, "2S 2S")
    r = t.meld(1, "3S 4S 5S 6S")
    assert t.layoffs(0, top="2S") == ["STOP", ("lay", "2S", r, 1)]


def test_a_contract_may_not_leave_only_the_top_discard_just_taken():
    # 3-6 of hearts leaves the taken 2H (2 points); 2-5 leaves the 6H instead
    p = Position(contracts="1r:4").hand(0, "2H 3H 4H 5H 6H")
    assert p.lay(0) == (2, ["3H 4H 5H 6H"])
    assert p.lay_keeping(0, top="6H") == (2, ["3H 4H 5H 6H"])
    assert p.lay_keeping(0, top="2H") == (6, ["2H 3H 4H 5H"])
    # no other laying: no lay-down this turn
    q = Position(contracts="1s:3").hand(0, "KS KH KD 2C")
    assert q.lay(0)[0] == 2
    assert q.lay_keeping(0, top="2C") == (-1, None)
    assert q.lay_keeping(0, top="KS")[0] == 2
    q.hand(0, "KS KH KD 2C 2C")  # two loose cards, or a second copy: nothing changes
    assert q.lay_keeping(0, top="2C")[0] == 4
    # the all-at-once deal: every card but one, and that one not the taken card
    r = Position(contracts="1s:4", last_deal_all_at_once=True).hand(0, "KS KH KD KC 2C")
    assert r.info[TU.I_GO_OUT] == 1 and r.lay(0)[0] == 2
    assert r.lay_keeping(0, top="2C") == (-1, None)
    assert r.lay_keeping(0, top="KC")[0] == 2


# ---------------------------------------------------------------- buying, scoring


def test_buying_priority_and_penalty_card():
    p = Position(buying=True)
    ctx, fns = GAME.prepare(
        p.rules_dict, *GAME.resolve_strategies(["lay_down_at_once:buy_policy=3"],
                                               p.rules_dict)[:2])
    sids, params = ctx.sids, ctx.params
    for s in range(4):
        p.hand(s, "2S 3D 4C 5H 6S 7D 8C 9H 10S JD")
    p.pile("QH")
    p.stock[:3] = [2, 3, 4]  # top is the last: 6S
    p.public[V.P_STOCK_N] = 3
    log = np.zeros((64, K.LOG_W), np.int32)
    maybe = np.zeros(8, np.bool_)
    # seat 0 passes the top discard (draws from the stock); seat 3 threw it: seats 1 and 2 may
    # buy, seat 1 first
    ws = (p.info, p.work, p.rem, p.m1, p.stw, p.lay_out)
    st, _, _ = K.buy_round(0, 4, 3, sids, fns[1], p.hands, p.stock, p.public, p.private,
                           p.legal, params, p.rngs, p.stats, p.rules, maybe, *ws, log, True)
    assert st == K.OK
    assert "QH" in p.hand_text(1) and "6S" in p.hand_text(1)  # the discard + penalty card
    assert p.public[V.P_HAND_N + 1] == 12 and p.public[V.P_HAND_N + 2] == 10
    assert p.public[V.P_PILE_N] == 0 and p.public[V.P_STOCK_N] == 2
    assert p.public[V.P_BUYS + 1] == 1
    # the limit: seat 1 has used its buys, seat 2 buys next
    p.public[V.P_BUYS + 1] = 3
    p.pile("AC")
    K.buy_round(0, 4, 3, sids, fns[1], p.hands, p.stock, p.public, p.private, p.legal,
                params, p.rngs, p.stats, p.rules, maybe, *ws, log, True)
    assert "AC" in p.hand_text(2) and p.public[V.P_STOCK_N] == 1
    # a one-card stock: no buying (the player must still draw)
    p.pile("AD")
    K.buy_round(0, 4, 3, sids, fns[1], p.hands, p.stock, p.public, p.private, p.legal,
                params, p.rngs, p.stats, p.rules, maybe, *ws, log, True)
    assert p.public[V.P_PILE_N] == 1


def test_penalty_count_by_hand():
    assert V.hand_penalty(counts("AS KH QD JC 10S 9H 2D JK")) == 15 + 10 + 10 + 10 + 10 + 9 + 2 + 15
    assert V.hand_penalty(counts("")) == 0


def test_could_join_never_hides_a_laying():
    """The kernel skips the contract search after drawing a card that could not join any meld,
    or when the quick joker bound (could_lay) fails; neither may skip a hand that can lay."""
    rng = np.random.default_rng(5)
    deck = np.array(list(range(52)) * 2 + [52, 52])
    found = refused = 0
    for ns, nr in ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)):
        p = Position(contracts=f"{ns}s{nr}r:11".replace("0s", "").replace("0r", ""))
        for _ in range(60):
            rng.shuffle(deck)
            h = np.zeros(53, np.int64)
            for c in deck[:11]:
                h[c] += 1
            p.hands[0] = h
            for extra in (0, 52, 5, 30):  # the quick bound never refuses a layable hand
                p.hands[0, extra] += 1  # the hand asked about is the one the bound saw
                if not V.could_lay(p.hands[0].copy(), ns, nr, 4, True, np.zeros(4, np.int64)):
                    assert not p.can_lay(0)
                    refused += 1
                p.hands[0, extra] -= 1
            if p.can_lay(0):
                continue
            for c in range(53):
                if V.could_join(h, c, ns, nr, 4, True):
                    continue
                p.hands[0, c] += 1
                assert not p.can_lay(0)
                p.hands[0, c] -= 1
                found += 1
    assert found > 100 and refused > 100
