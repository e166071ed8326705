"""The defects a review of `tuned`'s replays found (issue 29, item 1), each as a hand-made
position taken from the replay named in its test: the card or call `tuned` gives now, and
(through the parameter whose old value restores the old logic) the one it gave before."""
from tests.helpers_fifty_six import play_deal
from tests.test_fifty_six_heuristics import calls_of, hands_with
from tests.test_fifty_six_play import play

# `cardsim replay fifty-six --mode deals --seed 5 --game-index 31`: seat 2 declares 32 in
# hearts; seat 3 shows out of trumps at trick 4, seat 1 out of clubs at trick 1
DEAL_31 = [[(0, "JC"), (1, "QC"), (2, "JC"), (3, "KC")],
           [(0, "9C"), (1, "10C"), (2, "QS"), (3, "KC")],
           [(0, "QD"), (1, "10D"), (2, "JD"), (3, "QD")],
           [(2, "JH"), (3, "KH"), (0, "AH"), (1, "10H")],
           [(2, "JH"), (3, "QS"), (0, "QH"), (1, "9H")],
           [(2, "10S"), (3, "KS"), (0, "KS"), (1, "AS")],
           [(1, "JS"), (2, "9S"), (3, "AS"), (0, "KH")]]


def tuned(hand, tricks, **kw):
    return play(hand, tricks, strategy="tuned", **kw)


def test_ruffs_partners_lead_when_the_only_seat_still_to_play_has_no_trump():
    """Deal 31, trick 7: partner leads QC, seat 1 throws; I am void in clubs. The one unseen
    trump (a 9H) is seat 1's, who has played: seat 3, the last to play, is known void in
    trumps, so my lowest trump wins for sure. The old test counted the 9H as a threat and
    threw the 10D, and seat 3 took the trick with a club."""
    trick = DEAL_31 + [[(0, "QC"), (1, "10S")]]
    hand = "AH 10H QH 9D 10D"
    assert tuned(hand, trick, me=2) == "QH"
    assert tuned(hand, trick, me=2, to_play=0) == "10D"


def test_a_card_is_sure_when_the_stronger_unseen_one_is_not_with_a_seat_to_play():
    """Third hand, an opponent winning with the 10S: the one unseen stronger spade than my 9S
    (a jack) cannot be with seat 1, the last to play, known void in spades and in trumps, so
    the nine wins for sure. The old test needed a master against every unseen card."""
    tricks = [[(0, "JH"), (1, "QD"), (2, "9H"), (3, "KH")],  # seat 1: no trump
              [(0, "JS"), (1, "KD"), (2, "AS"), (3, "QS")],  # seat 1: no spade
              [(2, "KS"), (3, "10S")]]
    hand = "9S QS AC 10C"
    assert tuned(hand, tricks) == "9S"
    assert tuned(hand, tricks, to_play=0) == "QS"
    # seat 1 might hold a trump: it is void in spades, so it may ruff; no sure winner
    tricks[0] = [(0, "JH"), (1, "9H"), (2, "9H"), (3, "KH")]
    assert tuned(hand, tricks) == "QS"


def test_the_trump_is_the_suit_holding_its_jack_not_its_nine():
    """`cardsim replay fifty-six --mode deals --seed 5 --game-index 3`: the opener holds four
    spades with the nine and four hearts with the jack. Both counted one top, and the tie went
    to the suit with fewer points (spades): 28 in spades went down 27-29. The jack is the
    trump nothing beats, so hearts it is; w_trump_jack=0 restores the old choice."""
    hand = "JC 10H 9S JD KH 10C 9C 10S KS 10H QS JH"
    for spec, trump in (("tuned", "H"), ("tuned:w_trump_jack=0", "S")):
        first = calls_of(play_deal(hands_with(seat0=hand), strategies=[spec])[0])[0]
        assert (first["seat"], first["call"], first["trump"]) == (0, "bid", trump), spec
