"""Hand and Foot positions: what a seat sees, its hidden cards dealt again consistently with
everything it saw (melds, discards, pile takes, red threes), and illegal tapes refused."""
import numpy as np
import pytest

from cardsim.simulator import position as P
from cardsim.simulator.games import get_game
from cardsim.simulator.games.hand_and_foot import kernel as K
from cardsim.simulator.games.hand_and_foot import position as HP
from cardsim.simulator.games.hand_and_foot.view import KIND_OF, RED3

GAME = get_game("hand-and-foot")
RULES = GAME.rules.resolve({})


def _position(gi=2, share=0.6):
    count = P.decisions(GAME, RULES, ["table_reader"], 8, gi, 0)
    return P.snapshot(GAME, RULES, ["table_reader"], 8, gi, 0, int(count * share))


def _deck(pos):
    return pos.header[HP._DECK:HP._DECK + 54 * RULES["decks"]]


def test_the_seat_sees_its_hand_and_draws_and_nobody_else_s():
    pos = _position()
    evs = HP._deal_events(pos)
    lay = HP._layout(pos, evs[0])
    seat = pos.seat
    view = HP.observe(pos, seat)
    deck = _deck(view.position)
    assert (deck[list(lay.hands[seat])] == _deck(pos)[list(lay.hands[seat])]).all()
    for s in lay.hands:
        if s != seat:
            assert (deck[list(lay.hands[s])] == -1).all()
    mine = [at for _, s, at in HP._draws(evs, lay) if s == seat]
    theirs = [at for _, s, at in HP._draws(evs, lay) if s != seat]
    assert mine and theirs
    assert (deck[mine] >= 0).all() and (deck[theirs] == -1).all()
    assert deck[lay.upcard] >= 0
    # the others' draws are seen as draws, their cards not
    draws = [e for e in view.seen if e["event"] == "draw" and e["seat"] != seat]
    assert draws and all(e["card"] in (None, "red_three") for e in draws)


def test_resampled_deals_keep_what_was_seen_and_change_the_rest():
    pos = _position()
    seat = pos.seat
    view = HP.observe(pos, seat)
    rng = np.random.default_rng(5)
    truth = _deck(pos)
    hidden = _deck(view.position) == -1
    changed = 0
    for _ in range(10):
        other = HP.resample(view, rng)
        deck = _deck(other)
        assert sorted(deck.tolist()) == sorted(truth.tolist())  # the same cards in all
        assert (deck[~hidden] == truth[~hidden]).all()
        assert HP.observe(other, seat).seen == view.seen
        changed += not (deck[hidden] == truth[hidden]).all()
        deals, _ = P.resume(other, ["table_reader"])  # plays on, the invariants checked
        assert deals["deal_index"].min() == 0
    assert changed == 10


def test_a_red_three_drawn_by_another_player_stays_where_it_was_drawn():
    """Find a position after another seat drew a red three from the stock: every resample
    has a red three at that deck place."""
    for gi in range(30):
        pos = _position(gi, 0.9)
        evs = HP._deal_events(pos)
        lay = HP._layout(pos, evs[0])
        places = {i: at for i, _, at in HP._draws(evs, lay)}
        drawn = [places[i] for i, e in enumerate(evs) if e["event"] == "draw"
                 and e["seat"] != pos.seat and KIND_OF[HP._code(e["card"])] == RED3]
        if drawn:
            break
    else:
        pytest.fail("no red three drawn by another seat in 30 games")
    view = HP.observe(pos, pos.seat)
    rng = np.random.default_rng(1)
    for _ in range(5):
        deck = _deck(HP.resample(view, rng))
        assert all(KIND_OF[deck[at]] == RED3 for at in drawn)


def test_a_discard_of_a_kind_not_held_is_refused():
    pos = _position()
    # the first discard decision on the tape: its kind replaced by a red three (never held:
    # laid at once, so never discarded)
    k = next(i for i in range(len(pos.tape)) if P.snapshot(
        GAME, RULES, ["table_reader"], 8, 2, 0, i).kind == K.KD_DISCARD)
    bad = pos.copy()
    bad.tape[k] = RED3
    with pytest.raises(P.TapeError, match="not legal"):
        P.resume(bad, ["table_reader"])
