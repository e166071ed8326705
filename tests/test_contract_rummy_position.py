"""Contract Rummy positions: what a seat sees, its hidden cards dealt again consistently with
everything it saw (melds, lay-offs, discards, pile takes, buys), and illegal tapes refused."""
import numpy as np
import pytest

from cardsim.simulator import position as P
from cardsim.simulator.games import get_game
from cardsim.simulator.games.contract_rummy import kernel as K
from cardsim.simulator.games.contract_rummy import position as CP

GAME = get_game("contract-rummy")


def _position(rules, gi, share, strategies=("table_reader",)):
    count = P.decisions(GAME, rules, list(strategies), 4, gi, 0)
    return P.snapshot(GAME, rules, list(strategies), 4, gi, 0, int(count * share))


def _deck(pos):
    return pos.header[CP._DECK:CP._DECK + CP._ncards(pos.rules)]


def _find(rules, want, share=0.7, games=40):
    """A position whose deal's events so far satisfy ``want(events, seat)``."""
    for gi in range(games):
        pos = _position(rules, gi, share)
        if pos is not None and want(CP._deal_events(pos), pos.seat):
            return pos
    pytest.fail("no such position in %d games" % games)


def test_the_seat_sees_its_cards_and_draws_and_nobody_else_s():
    rules = GAME.rules.resolve({})
    pos = _find(rules, lambda evs, seat: any(e["event"] == "contract_down" and e["seat"] != seat
                                             for e in evs))
    seat, seats = pos.seat, rules["players"]
    evs = CP._deal_events(pos)
    view = CP.observe(pos, seat)
    deck, truth = _deck(view.position), _deck(pos)
    dealt = CP._dealt(evs[0], seats)
    assert (deck[dealt[seat]] == truth[dealt[seat]]).all()
    assert all((deck[dealt[s]] == -1).all() for s in dealt if s != seat)
    pops = CP._pops(evs, seats)
    mine = [at for s, at in pops.values() if s == seat]
    theirs = [at for s, at in pops.values() if s != seat]
    assert mine and theirs and (deck[mine] >= 0).all() and (deck[theirs] == -1).all()
    for e in view.seen:
        if e["event"] == "draw" and e["seat"] != seat:
            assert e["card"] is None
        if e["event"] == "contract_down" and e["seat"] != seat:
            assert e["penalty_left"] is None
    assert "hands" not in view.seen[0] and len(view.seen[0]["hand"]) == evs[0]["cards_each"]


@pytest.mark.parametrize("options", [{}, {"buying": True}])
def test_resampled_deals_keep_what_was_seen_and_change_the_rest(options):
    rules = GAME.rules.resolve(options)
    if options:  # a position after another seat bought a card
        pos = _find(rules, lambda evs, seat: any(e["event"] == "buy" and e["seat"] != seat
                                                 for e in evs))
    else:
        pos = _position(rules, 3, 0.6)
    seat = pos.seat
    view = CP.observe(pos, seat)
    truth = _deck(pos)
    hidden = _deck(view.position) == -1
    rng = np.random.default_rng(2)
    changed = 0
    for _ in range(8):
        other = CP.resample(view, rng)
        deck = _deck(other)
        assert sorted(deck.tolist()) == sorted(truth.tolist())
        assert (deck[~hidden] == truth[~hidden]).all()
        assert CP.observe(other, seat).seen == view.seen
        changed += not (deck[hidden] == truth[hidden]).all()
        P.resume(other, ["table_reader"])  # plays on, the invariants checked
    assert changed == 8


def test_the_reshuffle_stream_is_drawn_again_unless_a_reshuffle_came_before():
    rules = GAME.rules.resolve({})
    rng = np.random.default_rng(3)
    stream = CP._STREAM
    before = _position(rules, 3, 0.3)
    assert not any(e["event"] == "reshuffle" for e in CP._deal_events(before))
    other = CP.resample(CP.observe(before, before.seat), rng)
    assert other.header[stream] != before.header[stream]
    after = _find(rules, lambda evs, seat: any(e["event"] == "reshuffle" for e in evs),
                  share=0.97, games=60)
    view = CP.observe(after, after.seat)
    assert view.reshuffled and all(len(s) > 0 for s in view.reshuffled)
    other = CP.resample(view, rng)
    assert other.header[stream] == after.header[stream]
    assert CP.observe(other, after.seat).seen == view.seen


def test_a_discard_not_on_the_list_is_refused():
    rules = GAME.rules.resolve({})
    pos = _position(rules, 3, 0.6)
    k = next(i for i in range(len(pos.tape)) if P.snapshot(
        GAME, rules, ["table_reader"], 4, 3, 0, i).kind == K.KD_DISCARD)
    bad = pos.copy()
    bad.tape[k] = 60  # no card's code
    with pytest.raises(P.TapeError, match="not legal"):
        P.resume(bad, ["table_reader"])
