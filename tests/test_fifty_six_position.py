"""56 positions: what a seat sees of a position with the trump face down, its hidden cards and
hidden bid suits dealt again, and tapes that are not legal on their cards refused."""
import numpy as np
import pytest

from cardsim.simulator import position as P
from cardsim.simulator.cards import parse
from cardsim.simulator.games import get_game
from cardsim.simulator.games.fifty_six import position as FP
from cardsim.simulator.games.fifty_six import view as V

GAME = get_game("fifty-six")
HIDDEN = GAME.rules.resolve({"hidden_trump": True, "redeal_weak_hands": True})


def _in_play(rules, strategies=("tuned",), seed=21, plays=3):
    """Positions a few plays into the first deal, the contract a suit bid, no trump shown:
    (position, contract event) for the first games that have one."""
    for gi in range(40):
        count = P.decisions(GAME, rules, list(strategies), seed, gi, 0)
        pos = P.snapshot(GAME, rules, list(strategies), seed, gi, 0, count - 1)
        evs = P.events(pos)
        ct = next(e for e in evs if e["event"] == "contract")
        calls = sum(e["event"] == "call" for e in evs)
        if ct["bidder"] < 0 or ct["trump"] in ("NT", None):
            continue
        pos = P.snapshot(GAME, rules, list(strategies), seed, gi, 0, calls + plays)
        if not any(e["event"] == "reveal" for e in P.events(pos)):
            yield pos, ct, calls


def test_a_hidden_bid_suit_is_face_down_to_the_others_and_drawn_again():
    pos, ct, calls = next(_in_play(HIDDEN))
    bidder = ct["bidder"]
    defender = (bidder + 1) % 4
    last_bid = max(k for k in range(calls) if pos.tape[k] >= 64 and
                   V.call_value(int(pos.tape[k])) == ct["bid"])
    real = V.call_trump(int(pos.tape[last_bid]))
    assert real < 4
    seen = FP.observe(pos, defender)
    assert V.call_trump(int(seen.position.tape[last_bid])) == V.TRUMP_HIDDEN
    assert last_bid in seen.hidden_calls
    own = FP.observe(pos, bidder)  # the bidder sees its own suit
    assert V.call_trump(int(own.position.tape[last_bid])) == real
    assert last_bid not in own.hidden_calls
    rng = np.random.default_rng(4)
    trumps = set()
    for _ in range(25):
        other = FP.resample(seen, rng)
        assert other.header[seen.blocks[defender]].tolist() == \
            pos.header[seen.blocks[defender]].tolist()
        for s, b in seen.blocks.items():  # every seat holds what it was seen to play
            held = other.header[b].tolist()
            assert all(c in held for p, c in seen.plays if p == s)
            assert not any(c // 13 in seen.voids[s] for c in held
                           if (s, c) not in seen.plays)
        hands = [other.header[seen.blocks[s]].tolist() for s in range(4)]
        assert not FP._weak(hands, [s % 2 for s in range(4)])  # the table would redeal it
        trumps.add(V.call_trump(int(other.tape[last_bid])))
        assert FP.observe(other, defender).position.tape.tolist() == \
            seen.position.tape.tolist()
        P.resume(other, ["tuned"])  # plays on to the end, the invariants checked
    assert trumps <= {0, 1, 2, 3} and len(trumps) > 1


def test_with_the_trump_face_up_the_view_keeps_every_call():
    rules = GAME.rules.resolve({})
    pos, ct, calls = next(_in_play(rules))
    seen = FP.observe(pos, (ct["bidder"] + 1) % 4)
    assert seen.hidden_calls == [] and seen.position.tape.tolist() == pos.tape.tolist()


def test_the_weak_hand_rule_of_the_resampler():
    """No card points in a hand, or a team without a jack: weak (kernel._weak's rule)."""
    def hands(*texts):
        return [[parse(c) for c in t.split()] for t in texts]

    teams = [0, 1, 0, 1]
    assert not FP._weak(hands("JS KS", "JH QH", "JD 8D", "JC 7C"), teams)
    assert not FP._weak(hands("JS JH", "9H QH", "AD 8D", "JC 7C"), teams)
    assert FP._weak(hands("JS JH", "KH QH", "9D 8D", "JC 7C"), teams)  # KH QH: no points
    assert FP._weak(hands("JS JH", "9H QH", "AD 8D", "10C 7C"), teams)  # team 1: no jack


@pytest.mark.parametrize("place", ["call", "play"])
def test_a_tape_answer_not_legal_on_the_cards_is_refused(place):
    pos, ct, calls = next(_in_play(GAME.rules.resolve({})))
    bad = pos.copy()
    if place == "call":
        bad.tape[0] = V.bid_code(5, 0, 0)  # below the lowest bid
    else:  # the first lead, a card its player was not dealt
        leader = next(e["seat"] for e in P.events(pos) if e["event"] == "play")
        held = {int(c) for c in pos.header[FP.observe(pos, leader).blocks[leader]]}
        bad.tape[calls] = next(c for c in range(52) if c not in held and c % 13 >= 5)
    with pytest.raises(P.TapeError, match="not legal"):
        P.resume(bad, ["tuned"])
