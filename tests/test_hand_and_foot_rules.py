"""Hand and Foot rules, each judged by the real kernel on a hand-made position where a wrong
implementation would answer differently."""
import numpy as np
import pytest

from cardsim.simulator.errors import UsageError
from cardsim.simulator.games.hand_and_foot import view as V
from tests.helpers_hand_and_foot import GAME, Position, kinds


# ---------------------------------------------------------------- rule options


def test_defaults_are_the_sheets():
    r = GAME.rules.resolve({})
    assert r["players"] == 4 and r["decks"] == 5 and r["hand_size"] == 13
    assert r["foot_size"] == 13 and r["deals"] == 4 and r["min_meld"] == [50, 90, 120, 150]
    assert r["draw_count"] == 2 and r["pile_take"] == 7
    assert r["books_to_go_out"] == {"clean": 2, "dirty": 2, "wild": 1}
    assert r["upcard_buried"] == "threes_and_jokers"
    assert r["first_player"] == "left_of_hand_dealer"
    assert r["unplayed_foot_counts"] is True
    assert not (r["pickup_wild_top"] or r["one_meld_action_per_turn"]
                or r["black_threes_meld_going_out"] or r["go_out_without_discard"])


@pytest.mark.parametrize("opts, needle", [
    ({"players": 5}, "rule 'players'"),
    ({"players": 7}, "rule 'players'"),
    ({"min_meld": "50,x"}, "rule 'min_meld'"),
    ({"min_meld": "50,90"}, "2 values for 4 deals"),
    ({"pile_take": "some"}, "rule 'pile_take'"),
    ({"pile_take": 0}, "rule 'pile_take'"),
    ({"books_to_go_out": "clean=2,muddy=1"}, "rule 'books_to_go_out'"),
    ({"decks": 1}, "rule 'decks'"),
    ({"draw_count": 0}, "rule 'draw_count'"),
    ({"upcard_buried": "nothing"}, "rule 'upcard_buried'"),
    ({"first_player": "youngest"}, "rule 'first_player'"),
])
def test_bad_values_are_one_line_errors(opts, needle):
    with pytest.raises(UsageError) as e:
        GAME.rules.resolve(opts)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_option_parsing():
    r = GAME.rules.resolve({"min_meld": "0,0,0", "deals": "3", "pile_take": "all",
                            "books_to_go_out": "clean=1,wild=0", "players": "6"})
    assert r["min_meld"] == [0, 0, 0] and r["pile_take"] == "all"
    assert r["books_to_go_out"] == {"clean": 1, "dirty": 0, "wild": 0}
    assert GAME.n_teams(r) == 3
    assert GAME.n_teams(GAME.rules.resolve({"players": 3})) == 3
    assert GAME.n_teams(GAME.rules.resolve({"players": 2})) == 2


# ---------------------------------------------------------------- melds


def test_meld_shapes():
    ok = V.rank_meld_ok
    assert ok(3, 0) and ok(2, 1) and ok(7, 0) and ok(5, 2) and ok(4, 2)
    assert not ok(2, 2)  # a dirty meld of 4 with 2 wilds
    assert not ok(3, 2)  # two wilds below 6 cards
    assert not ok(1, 2) and not ok(2, 0) and not ok(4, 3) and not ok(6, 2)


def test_dirty_meld_of_four_with_two_wilds_is_refused():
    p = Position().melded(0).hand(0, "K 2 2 5 9").meld(0, "K", 2, twos=1)
    legal, _ = p.legal_melds()
    assert "K add_two" not in legal  # would make 2 naturals + 2 wilds
    assert "K add_natural" in legal
    p = Position().melded(0).hand(0, "K 2 2 5 9").meld(0, "K", 4, twos=1)
    legal, _ = p.legal_melds()
    assert "K add_two" in legal  # 4 naturals + 2 wilds = 6 cards: allowed


def test_one_unfinished_meld_per_rank_and_books_close():
    p = Position().melded(0).hand(0, "Q Q Q 5 9").meld(0, "Q", 3)
    legal, _ = p.legal_melds()
    assert "Q start3" not in legal and "Q add_natural" in legal
    p = Position().melded(0).hand(0, "Q Q Q 5 9").meld(0, "Q", 6)
    assert p.apply(0, "Q add_natural") == (10, 0)  # the seventh card: a clean book
    assert p.public[V.team_base(0) + V.T_CLEAN] == 1
    legal, _ = p.legal_melds()
    assert "Q start3" not in legal  # only two Qs left
    p.hand(0, "Q Q Q Q 5 9")
    legal, _ = p.legal_melds()
    assert "Q start3" in legal  # a new meld once the old one is a book


def test_wild_melds_and_book_kinds():
    p = Position().melded(0).hand(0, "2 2 JK 2 JK 5 5")
    legal, _ = p.legal_melds()
    assert {"wild start 3+0", "wild start 2+1", "wild start 1+2"} <= legal
    assert "wild start 0+3" not in legal  # only two jokers
    p.meld(0, "wild", 0, twos=4, jokers=2)
    assert p.apply(0, "wild add_two")[1] == 2  # 7 wild cards: a wild book
    p.meld(0, "9", 5, twos=1)
    assert p.apply(0, "9 add_joker")[1] == 1  # dirty book
    assert p.public[V.team_base(0) + V.T_WILD] == 1 and p.public[V.team_base(0) + V.T_DIRTY] == 1


# ---------------------------------------------------------------- the discard pile


def test_pile_take_with_one_matching_natural_is_refused():
    p = Position().melded(0).hand(0, "Q 5 9 K").pile_of("7 8 Q")
    assert not p.pile_ok()
    p.hand(0, "Q Q 5 9 K")
    assert p.pile_ok()


def test_black_three_and_wild_tops_block_the_pile():
    p = Position().melded(0).hand(0, "Q Q 2 2 3B 3B").pile_of("Q 3B")
    assert not p.pile_ok()
    p.pile_of("Q 2")
    assert not p.pile_ok()  # a wild top is refused by default
    p = Position(pickup_wild_top=True).melded(0).hand(0, "Q Q 2 2").pile_of("Q 2")
    assert p.pile_ok()  # with the option: two wilds from hand


def test_pile_meld_must_fit_the_unfinished_meld():
    p = Position().melded(0).hand(0, "Q Q 5").pile_of("8 Q").meld(0, "Q", 5)
    assert not p.pile_ok()  # 5 + 3 cards would pass 7
    p.meld(0, "Q", 4)
    assert p.pile_ok()


def test_initial_meld_counts_the_top_card_not_the_six_others():
    # Q Q in hand, top Q: 30 points count; six kings below it count for nothing
    p = Position(need=50).hand(0, "Q Q 5 9 J").pile_of("A K K K K K K Q")
    assert not p.pile_ok()  # 30 < 50 without the kings
    p = Position(need=50).hand(0, "Q Q 2 5 9 J").pile_of("A K K K K K K Q")
    assert p.reach() == 40  # Q Q + 2 (a wild) ... the hand alone
    assert p.pile_ok()  # Q Q Q + the 2 = 50
    counted = p.take_pile()
    assert counted == 30  # the top card and the two from hand
    assert p.hands[0][V.KIND_NAMES.index("K")] == 6
    assert p.private[0, V.V_EXTRA + V.KIND_NAMES.index("K")] == 6
    assert p.private[0, V.V_EXTRA + V.KIND_NAMES.index("A")] == 0  # not among the top 7
    assert p.apply(0, "K start3") == (0, -1)  # pile kings meld but do not count
    assert p.apply(0, "Q add_two")[0] == 20


def test_before_the_minimum_only_actions_that_can_still_reach_it():
    p = Position(need=50).hand(0, "K K K 5 5 5 9")
    legal, _ = p.legal_melds()
    assert legal == {"STOP"}  # 30 + 15 = 45 < 50: nothing may start
    p = Position(need=50).hand(0, "K K K 5 5 5 9 2")
    legal, _ = p.legal_melds()
    assert "K start3" in legal and "STOP" in legal
    p.private[0, V.V_STAGED] = 30  # K K K already down this turn
    p.hand(0, "5 5 5 9 2").meld(0, "K", 3).melded(0, False)
    legal, _ = p.legal_melds()
    assert "STOP" not in legal  # 30 < 50 once started
    assert "K add_two" in legal and "5 start3" in legal


def test_one_meld_action_per_turn():
    p = Position(one_meld_action_per_turn=True).melded(0).hand(0, "Q Q Q K 5").meld(0, "K", 3)
    legal, _ = p.legal_melds(mode=1)  # melds were started this turn
    assert "Q start3" in legal and "K add_natural" not in legal
    legal, _ = p.legal_melds(mode=2)  # cards were added to older melds this turn
    assert "Q start3" not in legal and "K add_natural" in legal
    p = Position().melded(0).hand(0, "Q Q Q K 5").meld(0, "K", 3)
    legal, _ = p.legal_melds(mode=1)
    assert "Q start3" in legal and "K add_natural" in legal


# ---------------------------------------------------------------- feet and going out


def _ready(books=(2, 2, 1), **rules):
    p = Position(**rules).books(0, *books).hand(0, "K 5").foot(0, "", picked=True)
    p.meld(0, "K", 4)
    p.foot(2, "", picked=True, turns=1).hand(2, "9 9")
    return p


def test_going_out_refused_without_a_wild_book():
    p = _ready(books=(2, 2, 0))
    p.private[0, V.V_PERMISSION] = 1
    legal, want = p.legal_melds()
    assert "K add_natural" not in legal and not want  # would leave one card: going out
    p = _ready(books=(2, 2, 1))
    p.private[0, V.V_PERMISSION] = 1
    legal, _ = p.legal_melds()
    assert "K add_natural" in legal


def test_going_out_needs_the_partner_in_the_foot_and_permission():
    p = _ready()
    p.public[V.P_FOOT_TURNS + 2] = 0  # partner picked up the foot but has not played from it
    legal, want = p.legal_melds()
    assert "K add_natural" not in legal and not want
    p = _ready()
    legal, want = p.legal_melds()
    assert "K add_natural" not in legal and want  # the partner must be asked first
    p.private[0, V.V_PERMISSION] = 0  # refused
    legal, want = p.legal_melds()
    assert "K add_natural" not in legal and not want
    p.private[0, V.V_PERMISSION] = 1
    assert "K add_natural" in p.legal_melds()[0]


def test_solo_players_go_out_without_asking():
    p = Position(players=2).books(0, 2, 2, 1).hand(0, "K 5").foot(0, "", picked=True, turns=1)
    p.meld(0, "K", 4)
    legal, want = p.legal_melds()
    assert "K add_natural" in legal and not want
    p.public[V.P_FOOT_TURNS + 0] = 0  # alone: the player must have played a turn from the foot
    assert "K add_natural" not in p.legal_melds()[0]


def test_a_foot_is_never_emptied_without_going_out():
    p = _ready(go_out_without_discard=True)
    p.hand(0, "K K")
    p.private[0, V.V_PERMISSION] = 1
    legal, _ = p.legal_melds()
    assert "K add_natural" in legal  # K K -> one card left, or with the option none
    p = _ready(books=(0, 0, 0))
    p.hand(0, "K K")
    legal, _ = p.legal_melds()
    assert "K add_natural" not in legal  # would leave one card, and going out is not allowed
    p.hand(0, "K K 7")
    assert "K add_natural" in p.legal_melds()[0]  # keeps two


def test_hand_may_be_melded_empty_to_reach_the_foot():
    p = Position().melded(0).hand(0, "K").meld(0, "K", 3)
    assert "K add_natural" in p.legal_melds()[0]


def test_black_threes_meld_only_when_going_out_with_the_option():
    p = _ready(black_threes_meld_going_out=True)
    p.hand(0, "3B 3B 3B 5")
    p.private[0, V.V_PERMISSION] = 1
    assert "3B meld3" in p.legal_melds()[0]
    p.hand(0, "3B 3B 3B 5 9")
    assert "3B meld3" not in p.legal_melds()[0]  # two cards would stay: not the way out
    p = _ready()
    p.hand(0, "3B 3B 3B 5")
    p.private[0, V.V_PERMISSION] = 1
    assert "3B meld3" not in p.legal_melds()[0]


def test_black_threes_meld_is_a_start_under_one_meld_action_per_turn():
    # melding black threes lays a new meld down: under one_meld_action_per_turn it belongs to a
    # turn that starts melds, not to one that added cards to melds older than the turn
    p = _ready(black_threes_meld_going_out=True, one_meld_action_per_turn=True)
    p.hand(0, "3B 3B 3B 5")
    p.private[0, V.V_PERMISSION] = 1
    assert "3B meld3" in p.legal_melds(mode=0)[0]  # nothing melded yet this turn
    assert "3B meld3" in p.legal_melds(mode=1)[0]  # melds started this turn
    assert "3B meld3" not in p.legal_melds(mode=2)[0]  # cards added to older melds
    p = _ready(black_threes_meld_going_out=True)  # without the option the mode is ignored
    p.hand(0, "3B 3B 3B 5")
    p.private[0, V.V_PERMISSION] = 1
    assert "3B meld3" in p.legal_melds(mode=2)[0]


# ---------------------------------------------------------------- scoring


def test_red_threes_in_an_unpicked_foot_cost_100():
    p = Position().foot(1, "3R 3R 5 K").foot(3, "A", picked=False).hand(1, "").hand(3, "")
    s = p.score(1)
    assert s["caught"] == 2 and s["red3_pen"] == 200
    assert s["foot_pen"] == 5 + 10 + 20  # the other cards of unpicked feet
    assert s["score"] == -235
    p = Position(unplayed_foot_counts=False).foot(1, "3R 3R 5 K").foot(3, "A").hand(1, "")
    p.hand(3, "")
    s = p.score(1)
    assert s["red3_pen"] == 200 and s["foot_pen"] == 0 and s["score"] == -200


def test_scoring_a_finished_deal_by_hand():
    p = Position().hand(0, "K K K K K K K 7 7 7 7 7 7 7 9 9 9 9 9 2 2 2 2 JK JK JK JK JK A A A")
    for action in ["K start3"] + ["K add_natural"] * 4:
        p.apply(0, action)  # seven kings: clean book
    for action in ["7 start3"] + ["7 add_natural"] * 4:
        p.apply(0, action)  # seven sevens: clean book
    for action in ["9 start2+joker", "9 add_natural", "9 add_natural", "9 add_two",
                   "9 add_natural"]:
        p.apply(0, action)  # 5 nines + joker + two: dirty book
    for action in ["wild start 2+1", "wild add_joker", "wild add_joker", "wild add_two",
                   "wild add_joker"]:
        p.apply(0, action)  # 2 2 JK JK JK 2 JK: seven wilds, a wild book
    p.apply(0, "A start3")  # unfinished meld of three aces
    assert p.hands[0].sum() == 0 and p.hands[0].min() == 0
    tb = V.team_base(0)
    p.public[tb + V.T_RED3] = 2
    p.stats[0, 4] = 1  # this team went out
    p.hand(2, "Q 3B 2").foot(2, "", picked=True)
    p.foot(0, "", picked=True)
    s = p.score(0)
    melded = 7 * 10 + 7 * 5 + (5 * 10 + 50 + 20) + (3 * 20 + 4 * 50) + 3 * 20
    assert s["melded"] == melded == 545
    assert (s["clean"], s["dirty"], s["wild"]) == (2, 1, 1)
    assert s["book_bonus"] == 2 * 500 + 300 + 1500
    assert s["red3_bonus"] == 200 and s["out_bonus"] == 100
    assert s["hand_pen"] == 10 + 5 + 20 and s["foot_pen"] == 0
    assert s["score"] == 545 + 2800 + 200 + 100 - 35
    assert p.tbl[0].sum() == 31


def test_reach_is_exact_on_small_hands():
    assert Position(need=0).hand(0, "K K K").reach() == 30
    assert Position(need=0).hand(0, "K K 2").reach() == 40
    assert Position(need=0).hand(0, "K K 2 2").reach() == 40  # the second 2 has nowhere to go
    assert Position(need=0).hand(0, "K K 2 2 2").reach() == 60  # a wild meld, or K K 2
    assert Position(need=0).hand(0, "K K 2 2 2 2").reach() == 100  # both
    assert Position(need=0).hand(0, "K 2 2 JK").reach() == 90  # a wild meld; the K stays
    assert Position(need=0).hand(0, "5 5 5 5 2 2").reach() == 60  # 4 naturals + 2 wilds
    assert Position(need=0).hand(0, "3B 3R 5 5").reach() == 0
    assert np.array_equal(kinds("K K"), kinds("K K"))


# ---------------------------------------------------------------- a whole deal from a preset deck


def test_a_deal_that_ends_on_an_empty_stock_scored_by_hand():
    from cardsim.simulator.games.hand_and_foot.replay import play_one
    from tests.helpers_hand_and_foot import REGISTRY, deck_codes

    deck = deck_codes(
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S JK 3S "    # first player's hand
        "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 2H 3C "    # second player's hand
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 2D 3D "    # first player's foot (a red three)
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 2C 3H "    # second player's foot (a red three)
        "2S JK")                                       # upcard (a 2 is not buried), stock
    rules = GAME.rules.resolve({"players": 2, "decks": 1, "deals": 1})
    events, deals, game_row = play_one(GAME, rules, ["cautious"], seed=5, game_index=0,
                                       preset_deck=deck, registry=REGISTRY)
    first = next(e for e in events if e["event"] == "deal")["first_seat"]
    second = 1 - first
    kinds_seen = [(e["event"], e.get("seat"), e.get("card")) for e in events
                  if e["event"] in ("draw", "discard")]
    assert kinds_seen == [("draw", first, "JK"), ("discard", first, "4")]
    end = next(e for e in events if e["event"] == "deal_end")
    assert end["end"] == "stock_exhausted" and end["turns"] == 2  # 2nd player cannot draw
    rows = {r["team"]: r for r in deals.iter_rows(named=True)}
    a, b = rows[first], rows[second]
    # first: A + six tens + four fives + joker + black 3, drew a joker, threw a 4
    assert a["hand_penalty"] == 20 + 60 + 20 + 50 + 5 + 50 - 5 == 200
    assert a["foot_penalty"] == 20 + 60 + 20 + 20 == 120  # A, K..8, 7..4, the 2
    assert a["red_three_penalty"] == 100 and a["red_threes_caught"] == 1
    assert a["score"] == -420
    assert b["hand_penalty"] == 20 + 60 + 20 + 20 + 5 == 125
    assert b["score"] == -125 - 120 - 100
    assert a["initial_meld_turn"] is None and a["initial_meld_source"] == "never"


def test_a_tied_game_has_no_winner():
    """Both players hold the same points in hand and foot: the game ends level, and the kernel
    names no winner (winner -1: null in the games table, None in the replay)."""
    import sys
    from pathlib import Path

    from cardsim.simulator.games.hand_and_foot import outcomes as O
    from cardsim.simulator.games.hand_and_foot.replay import play_one
    from tests.helpers_hand_and_foot import REGISTRY, deck_codes

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from replay_checker_hand_and_foot import check_game

    deck = deck_codes(
        "4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S 3S "    # first player's hand: 125 points
        "4H 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 3C "    # second player's hand: 125 points
        "5H 6H 7H 8H 9H 10H JH QH KH AH 2H JK 3H "    # first player's foot: 165 + a red three
        "5D 6D 7D 8D 9D 10D JD QD KD AD 2D JK 3D "    # second player's foot: the same
        "4D 4C")                                       # upcard, then the one stock card
    rules = GAME.rules.resolve({"players": 2, "decks": 1, "deals": 1})
    events, deals, game_row = play_one(GAME, rules, ["cautious"], seed=5, game_index=0,
                                       preset_deck=deck, registry=REGISTRY)
    # the first player draws the 4 and throws a 4; the second cannot draw: the deal ends
    end = next(e for e in events if e["event"] == "deal_end")
    assert end["end"] == "stock_exhausted" and end["turns"] == 2
    scores = [e["score"] for e in events if e["event"] == "score"]
    assert scores == [-125 - 165 - 100] * 2
    assert int(game_row[O.G_WINNER]) == -1
    assert int(game_row[O.G_TOTAL0]) == int(game_row[O.G_TOTAL1]) == -390
    assert events[-1]["event"] == "game_end" and events[-1]["winner_team"] is None
    assert check_game(events)["totals"] == [-390, -390]
    _, games = GAME.frames(np.zeros((O.D_NCOLS, 0), np.int32), game_row[None, :], 0, False)
    assert games["winner_team"].to_list() == [None]


# ---------------------------------------------------------------- reach() against brute force


def _brute_reach(hand: dict, melds: dict) -> int:
    """Most points meldable from ``hand`` (kind -> count) given unfinished melds (target ->
    (naturals, wilds)), by trying every sequence of one-card additions and three-card starts
    (a plain search, written from the meld rules alone)."""
    from functools import lru_cache

    value = {k: int(V.VALUE[i]) for i, k in enumerate(V.KIND_NAMES)}
    nat = [k for k in V.KIND_NAMES[:11]]

    def ok(target, n, w):
        z = n + w
        if target == "wild":
            return n == 0 and 3 <= z <= 7
        return 3 <= z <= 7 and 2 * w <= n and (z >= 6 or w <= 1)

    @lru_cache(maxsize=None)
    def best(state):
        h, m = dict(state[0]), dict(state[1])
        top = 0
        moves = []
        for t in nat + ["wild"]:
            n0, w0 = m.get(t, (0, 0))
            kinds_ = ([t] if t != "wild" else []) + ["2", "JK"]
            if n0 + w0 == 0:
                combos = [(t, t, t), (t, t, "2"), (t, t, "JK")] if t != "wild" else [
                    ("2", "2", "2"), ("2", "2", "JK"), ("2", "JK", "JK"), ("JK", "JK", "JK")]
            else:
                combos = [(k,) for k in kinds_]
            for cards in combos:
                need = {}
                for c in cards:
                    need[c] = need.get(c, 0) + 1
                if any(h.get(c, 0) < k for c, k in need.items()):
                    continue
                dn = need.get(t, 0) if t != "wild" else 0
                dw = len(cards) - dn
                if not ok(t, n0 + dn, w0 + dw):
                    continue
                moves.append((t, need, (n0 + dn, w0 + dw)))
        for t, need, after in moves:
            h2 = dict(h)
            for c, k in need.items():
                h2[c] -= k
            m2 = dict(m)
            m2[t] = after if sum(after) < 7 else (0, 0)
            gain = sum(value[c] * k for c, k in need.items())
            top = max(top, gain + best((tuple(sorted(h2.items())), tuple(sorted(m2.items())))))
        return top

    return best((tuple(sorted(hand.items())), tuple(sorted(melds.items()))))


@pytest.mark.parametrize("seed", range(60))
def test_reach_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    names = ["5", "9", "A", "2", "JK", "3B"]
    hand = {}
    for _ in range(int(rng.integers(3, 10))):
        k = names[int(rng.integers(0, len(names)))]
        hand[k] = hand.get(k, 0) + 1
    melds = {}
    p = Position(need=0).melded(0, False)
    if rng.random() < 0.5:
        n, w = [(3, 0), (2, 1), (4, 1), (4, 2), (5, 1), (6, 0)][int(rng.integers(0, 6))]
        melds["9"] = (n, w)
        p.meld(0, "9", n, twos=w)
    if rng.random() < 0.3:
        melds["wild"] = (0, 3)
        p.meld(0, "wild", 0, twos=3)
    p.hand(0, " ".join(k for k, c in hand.items() for _ in range(c)))
    K_ = __import__("cardsim.simulator.games.hand_and_foot.kernel", fromlist=["x"])
    K_._counting(0, p.hands, p.private, p.work)
    lb = int(V.reach_lower_bound(p.work, p.public, 0))
    exact = p.reach()
    assert exact == _brute_reach(hand, melds), (hand, melds)
    assert lb <= exact
