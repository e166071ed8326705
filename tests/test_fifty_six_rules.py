"""56 rules, each from a hand-made position where a wrong implementation gives another answer."""
import numpy as np
import pytest

from cardsim.simulator.cards import parse
from cardsim.simulator.errors import StrategyError, UsageError
from cardsim.simulator.games.fifty_six import kernel as K
from cardsim.simulator.games.fifty_six.rules import RULES, to_array
from cardsim.simulator.games.fifty_six import view as V
from cardsim.simulator.games.fifty_six.view import DOUBLE, PASS, REDOUBLE
from tests.helpers_fifty_six import GAME, bid, play_deal

# Four hands of 12 (seat 0 leads). Seat 0: all spades + hearts; seat 2 (its partner) diamonds.
H4 = [
    "JS JS 9S 9S AS AS 10S 10S KS KS QS QS",
    "JH JH 9H 9H AH AH 10H 10H KH KH QH QH",
    "JD JD 9D 9D AD AD 10D 10D KD KD QD QD",
    "JC JC 9C 9C AC AC 10C 10C KC KC QC QC",
]


def cards(text):
    return np.array([parse(c) for c in text.split()], np.int16)


# ---- tricks

def test_identical_cards_first_played_wins():
    assert V.trick_winner(cards("JS JS"), 0, 2, -1) == 0
    assert V.trick_winner(cards("QS JH JH 9H"), 0, 4, 1) == 1  # two trump jacks: the first


def test_led_suit_and_rank_order():
    # J 9 A 10 K Q: the 9 beats the ace and ten of the led suit; off-suit jack does not count
    assert V.trick_winner(cards("AS 10S 9S JH"), 0, 4, -1) == 2
    assert V.trick_winner(cards("QD KD"), 0, 2, -1) == 1


def test_trump_wins_over_led_suit_only_when_in_force():
    assert V.trick_winner(cards("JS QH"), 0, 2, 1) == 1
    assert V.trick_winner(cards("JS QH"), 0, 2, -1) == 0
    assert V.trick_winner(cards("9H JS QH 10H"), 0, 4, 1) == 0  # led trumps: highest trump


def test_follow_suit_is_enforced():
    # the reckless strategy offers its highest card (hands are in slot order S H D C, low to
    # high): seat 0 leads QH, seat 1 holds hearts but offers QC -> refused
    hands = ["JS JS 9S 9S AS AS 10S 10S KS KS QH QH",
             "JH JH 9H 9H AH AH 10H 10H KH KH QC QC",
             H4[2], "JC JC 9C 9C AC AC 10C 10C KC KC QS QS"]
    with pytest.raises(StrategyError, match="illegal play"):
        play_deal(hands, strategies=["reckless"])


def test_follow_suit_legal_play_goes_through():
    ev, row = play_deal(H4, calls=[PASS] * 4)
    plays = [e for e in ev if e["event"] == "play"]
    assert len(plays) == 48
    # past its script a player plays its lowest legal card: nobody can follow spades, so
    # seat 0's QS wins and the others throw their lowest cards
    tricks = [e for e in ev if e["event"] == "trick"]
    assert tricks[0]["winner"] == 0 and tricks[0]["points"] == 0
    assert [e["card"] for e in plays[:4]] == ["QS", "QH", "QD", "QC"]


# ---- auction

# Team 1 (seats 1, 3) holds every jack, nine and ace; team 0 only tens, kings and queens.
H_WEAK = [
    "QS QS KS KS QH QH KH KH QD QD KD KD",
    "JS JS 9S 9S AS AS JH JH 9H 9H AH AH",
    "QC QC KC KC 10S 10S 10H 10H 10D 10D 10C 10C",
    "JD JD 9D 9D AD AD JC JC 9C 9C AC AC",
]


def test_all_pass_contracts_team_of_dealers_right_to_28_no_trumps():
    ev, row = play_deal(H4, calls=[PASS] * 4)
    assert row["bidder"] == -1 and row["bid"] == 28 and row["trump"] == "NT"
    assert row["bid_form"] == "all_pass" and row["bidding_team"] == 0  # seat 0, dealer seat 3
    # seat 0 leads spades that nobody can follow and keeps the lead: all 56 points, made
    assert row["bidding_team_points"] == 56 and row["made"] and row["tables_team0"] == 13
    _, row = play_deal(H_WEAK, calls=[PASS] * 4)
    assert row["bidding_team"] == 0 and row["bidding_team_points"] < 28 and not row["made"]
    assert row["tables_team0"] == 10


def test_all_pass_bid_option():
    _, row = play_deal(H4, calls=[PASS] * 4, rules={"all_pass_bid": 56})
    assert row["bid"] == 56 and row["made"] and row["stake"] == 4


def test_double_then_higher_bid_replaces_the_double():
    calls = [bid(28, "S"), DOUBLE, bid(30, "H"), PASS, PASS, PASS]
    ev, row = play_deal(H4, calls=calls)
    assert row["bidder"] == 2 and row["bid"] == 30 and row["trump"] == "H"
    assert row["double_level"] == 1 and row["calls"] == 6


def test_bid_over_double_off_refuses_the_higher_bid():
    calls = [bid(28, "S"), DOUBLE, bid(30, "H")]
    with pytest.raises(StrategyError, match="illegal bid"):
        play_deal(H4, calls=calls, rules={"bid_over_double": False})


def test_redouble_ends_the_auction():
    calls = [bid(28, "S"), DOUBLE, REDOUBLE, bid(40, "D")]
    ev, row = play_deal(H4, calls=calls)
    assert row["calls"] == 3 and row["double_level"] == 4 and row["bidder"] == 0
    assert row["bid"] == 28 and row["trump"] == "S"


def test_partner_may_not_double_and_opponent_may_not_redouble():
    with pytest.raises(StrategyError, match="illegal bid"):
        play_deal(H4, calls=[bid(28, "S"), PASS, DOUBLE])
    with pytest.raises(StrategyError, match="illegal bid"):
        play_deal(H4, calls=[bid(28, "S"), DOUBLE, PASS, REDOUBLE])


def test_bids_must_rise_and_stay_in_range():
    with pytest.raises(StrategyError):
        play_deal(H4, calls=[bid(30, "S"), bid(30, "H")])
    with pytest.raises(StrategyError):
        play_deal(H4, calls=[bid(27, "S")])
    with pytest.raises(StrategyError):
        play_deal(H4, calls=[bid(41, "S")], rules={"max_bid": 40})
    _, row = play_deal(H4, calls=[bid(30, "S"), PASS, PASS, PASS], rules={"min_bid": 30})
    assert row["bid"] == 30


def test_auction_ends_after_players_minus_one_passes():
    calls = [PASS, bid(28, "D"), PASS, PASS, PASS]
    _, row = play_deal(H4, calls=calls)
    assert row["bidder"] == 1 and row["calls"] == 5 and row["bidder_position"] == 1


def test_bid_forms_are_recorded_and_noes_keeps_the_trump():
    # form 3 = noes, 5 = plus_two_noes: they take the trump of the bid they answer
    calls = [bid(28, "D", 1), bid(29, "S", 3), PASS, bid(31, "C", 5), PASS, PASS, PASS]
    ev, row = play_deal(H4, calls=calls)
    got = [(e.get("value"), e.get("trump"), e.get("form")) for e in ev if e["event"] == "call"]
    assert got[:4] == [(28, "D", "suit_number"), (29, "D", "noes"), (None, None, None),
                       (31, "D", "plus_two_noes")]
    assert row["trump"] == "D" and row["bid_form"] == "plus_two_noes"


def test_opening_noes_is_no_trumps_and_plus_forms_need_a_previous_bid():
    _, row = play_deal(H4, calls=[bid(28, "S", 3), PASS, PASS, PASS])
    assert row["trump"] == "NT" and row["bid_form"] == "noes"
    with pytest.raises(StrategyError):
        play_deal(H4, calls=[bid(28, "S", 4)])  # plus_suit as an opening bid


# ---- scoring

BANDS = [(28, 39, 1, 2), (40, 47, 2, 3), (48, 55, 3, 4), (56, 56, 4, 5)]


@pytest.mark.parametrize("level", [1, 2, 4])
def test_payout_every_band_and_level(level):
    r = to_array(RULES.resolve({}))
    for lo, hi, win, lose in BANDS:
        for value in (lo, hi):
            assert K.deal_stake(r, value, False, True, level) == win * level
            assert K.deal_stake(r, value, False, False, level) == lose * level


def test_payout_preset_short_and_custom_bands():
    r = to_array(RULES.resolve({"payout": "short"}))
    assert K.deal_stake(r, 47, False, True, 1) == 2 and K.deal_stake(r, 55, False, False, 1) == 3
    r = to_array(RULES.resolve({"payout": "28-56:5/7"}))
    assert K.deal_stake(r, 50, False, False, 2) == 14
    with pytest.raises(UsageError):
        RULES.resolve({"payout": "28-40:1/2"})  # does not cover 41..56


def test_settle_two_teams_and_pairs():
    t = np.array([12, 12, 0, 0], np.int64)
    assert K.settle(t, 2, 0, True, 3) == 3 and list(t[:2]) == [15, 9]
    t = np.array([12, 12, 12, 0], np.int64)  # pairs, three teams: each other team pays
    assert K.settle(t, 3, 1, True, 2) == 4 and list(t[:3]) == [10, 16, 10]
    t = np.array([12, 12, 12, 0], np.int64)  # lost: pays each other team
    assert K.settle(t, 3, 1, False, 4) == 8 and list(t[:3]) == [16, 4, 16]
    t = np.array([2, 3, 12, 0], np.int64)  # cannot pay everyone: team 2 first, then team 0
    assert K.settle(t, 3, 1, False, 2) == 3 and list(t[:3]) == [3, 0, 14]
    t = np.array([0, 5, 7, 0], np.int64)  # a team that is out neither pays nor receives
    assert K.settle(t, 3, 1, True, 2) == 2 and list(t[:3]) == [0, 7, 5]


def test_made_and_tables_in_a_played_deal():
    # seat 0 bids 28 spades and its team takes spades (28 points) and diamonds: made, doubled
    calls = [bid(28, "S"), DOUBLE, PASS, PASS, PASS]
    _, row = play_deal(H4, calls=calls)
    assert row["made"] and row["double_level"] == 2 and row["stake"] == 2
    assert row["tables_team0"] == 14 and row["tables_team1"] == 10 and row["tables_moved"] == 2
    assert row["bidding_team_points"] + row["opponent_points"] == 56
    assert (row["bidder_jacks"], row["bidder_nines"], row["bidder_trumps"], row["bidder_points"]) == (2, 2, 12, 14)
    assert (row["team_jacks"], row["team_trumps"], row["team_points_held"]) == (4, 12, 28)


def test_failed_contract_pays():
    calls = [bid(40, "S"), PASS, PASS, PASS]
    _, row = play_deal(H_WEAK, calls=calls)
    assert not row["made"] and row["bidding_team_points"] < 40 and row["stake"] == 3
    assert row["tables_team0"] == 9 and row["tables_team1"] == 15


# ---- deck, players, layouts

def test_eight_player_deck_and_deal_size():
    ev, _ = play_one_game(players=8)
    deal = next(e for e in ev if e["event"] == "deal")
    hands = deal["hands"]
    assert len(hands) == 8 and all(len(h) == 8 for h in hands.values())
    every = sorted(c for h in hands.values() for c in h)
    assert len(every) == 64 and every.count("7S") == 2 and every.count("8D") == 2
    assert not any(c[:-1] in ("2", "3", "4", "5", "6") for c in every)


def test_four_and_six_player_decks_strip_eights_and_sevens():
    for players, size in ((4, 12), (6, 8)):
        ev, _ = play_one_game(players=players)
        hands = next(e for e in ev if e["event"] == "deal")["hands"]
        every = [c for h in hands.values() for c in h]
        assert len(every) == 48 and all(len(h) == size for h in hands.values())
        assert not any(c[:-1] in ("7", "8") for c in every)


def play_one_game(players=4, **rules):
    from cardsim.simulator.games.fifty_six.replay import play_one

    r = GAME.rules.resolve({"players": players, **rules})
    return play_one(GAME, r, [], seed=11, game_index=2)[:2]


def test_game_ends_when_a_team_has_no_tables():
    ev, deals = play_one_game(start_tables=1)
    end = ev[-1]
    assert end["event"] == "game_end" and end["deals"] == deals.height
    assert sorted(end["tables"]) == [0, 2] and end["winner_team"] == end["tables"].index(2)
    # with one table a team, the first deal that moves a table empties a team and ends the game
    moved = deals["tables_moved"].to_list()
    assert all(m == 0 for m in moved[:-1]) and moved[-1] > 0


def test_pairs_team_out_leaves_and_play_goes_on():
    from cardsim.simulator.games.fifty_six.replay import play_one

    r = GAME.rules.resolve({"players": 6, "team_layout": "pairs", "start_tables": 2})
    for gi in range(30):
        ev, deals, _ = play_one(GAME, r, [], seed=5, game_index=gi)
        if deals["players"].n_unique() > 1:
            break
    assert set(deals["players"].to_list()) == {6, 4}
    four = next(e for e in ev if e["event"] == "deal" and e["players"] == 4)
    assert all(len(h) == 12 for h in four["hands"].values())
    out_team = next(t for t in range(3) if deals.filter(deals["players"] == 4)[0, f"tables_team{t}"] == 0)
    assert all(int(s) % 3 != out_team for s in four["hands"])
    assert ev[-1]["winner_team"] is not None and sum(ev[-1]["tables"]) == 6


def test_max_deals_caps_the_game():
    from cardsim.simulator.games.fifty_six.replay import play_one

    r = GAME.rules.resolve({"max_deals": 1, "start_tables": 50})
    ev, deals, grow = play_one(GAME, r, [], seed=2, game_index=0)
    assert deals.height == 1 and ev[-1]["capped"] is True


def test_sheet_clockwise_order_puts_the_dealer_second():
    calls = [PASS] * 4
    ev, row = play_deal(H4, calls=calls, rules={"turn_order": "sheet_clockwise"})
    seats = [e["seat"] for e in ev if e["event"] == "call"]
    assert seats == [0, 3, 2, 1]  # dealer is seat 3
    ev, _ = play_deal(H4, calls=calls)
    assert [e["seat"] for e in ev if e["event"] == "call"] == [0, 1, 2, 3]


# ---- options

def test_hidden_trump_is_secret_until_asked_and_then_counts():
    # seat 1 (hearts only) bids 28 clubs; seat 0 leads a spade, seat 1 cannot follow and asks
    calls = [PASS, bid(28, "C"), PASS, PASS, PASS]
    ev, row = play_deal(H4, calls=calls, rules={"hidden_trump": True})
    seen = [e["seen_as"] for e in ev if e["event"] == "call" and e["call"] == "bid"]
    assert seen[0]["trump"] == "hidden"
    reveal = next(e for e in ev if e["event"] == "reveal")
    assert reveal["trick"] == 0 and reveal["seat"] == 1 and reveal["trump"] == "C"
    # after the reveal seat 3 (clubs) must trump: it wins the first trick with a club
    first_trick = [e for e in ev if e["event"] == "play" and e["trick"] == 0]
    assert first_trick[3]["card"][-1] == "C"
    assert next(e for e in ev if e["event"] == "trick")["winner"] == 3
    assert row["trump_revealed_trick"] == 0


def test_without_hidden_trump_trumps_count_from_the_start():
    calls = [PASS, bid(28, "C"), PASS, PASS, PASS]
    ev, row = play_deal(H4, calls=calls)
    assert not any(e["event"] == "reveal" for e in ev) and row["trump_revealed_trick"] is None


def test_thani_partner_sits_out_and_every_trick_is_needed():
    calls = [bid(57, "NT", 6), PASS, PASS, PASS]
    ev, row = play_deal(H4, calls=calls, rules={"thani": True})
    assert row["thani"] and row["bid"] == 57 and row["trump"] == "NT"
    assert not any(e["event"] == "play" and e["seat"] == 2 for e in ev)
    assert row["made"] and row["tricks_won"] == 12 and row["stake"] == 5  # 4 + 1
    with pytest.raises(StrategyError):
        play_deal(H4, calls=calls)  # thani off: no such bid


def test_redeal_weak_hands_redeals_a_pointless_hand():
    # all 8 jacks, nines... seat 3 gets only kings and queens: no card points -> redeal
    hands = ["JS JS 9S 9S AS AS 10S 10S JH JH 9H 9H",
             "AH AH 10H 10H JD JD 9D 9D AD AD 10D 10D",
             "JC JC 9C 9C AC AC 10C 10C KS KS QS QS",
             "KH KH QH QH KD KD QD QD KC KC QC QC"]
    ev, row = play_deal(hands, calls=[PASS] * 4, rules={"redeal_weak_hands": True})
    assert row["redeals"] >= 1 and any(e["event"] == "redeal" for e in ev)
    _, row = play_deal(hands, calls=[PASS] * 4)
    assert row["redeals"] == 0


def test_no_trump_lead_until_broken():
    hands = ["JS JS 9S 9S AS AS 10S 10S KS KS QS QH",
             "JH JH 9H 9H AH AH 10H 10H KH KH QH QS", H4[2], H4[3]]
    calls = [bid(28, "S"), PASS, PASS, PASS]
    # seat 0 (bidder, spades trump) wants to lead JS: with the rule its only legal lead is QH
    ev, _ = play_deal(hands, calls=calls, cards=["JS"], rules={"no_trump_lead_until_broken": True})
    assert next(e for e in ev if e["event"] == "play")["card"] == "QH"
    ev, _ = play_deal(hands, calls=calls, cards=["JS"])
    assert next(e for e in ev if e["event"] == "play")["card"] == "JS"
    # leading trumps once they are broken, or when holding only trumps, is checked on many
    # random games by the replay checker


def test_unknown_and_out_of_range_rules_are_refused():
    for bad in ({"players": 5}, {"min_bid": 0}, {"max_bid": 57}, {"nope": 1},
                {"team_layout": "trios"}, {"min_bid": 40, "max_bid": 30}, {"start_tables": 0}):
        with pytest.raises(UsageError):
            RULES.resolve(bad)


def test_debug_invariants_catch_a_wrong_deck():
    # three jacks of spades and one jack of hearts: every hand plays out, but the deck is not
    # the double stripped deck, and the conservation check must say so
    hands = ["JS JS 9S 9S AS AS 10S 10S KS KS QS QS", H4[1].replace("JH JH", "JH JS"), H4[2], H4[3]]
    with pytest.raises(AssertionError, match="invariant"):
        play_deal(hands, calls=[PASS] * 4)
