"""Shared helpers for the 56 tests: hand-made deals played by the real kernel."""
import numpy as np

from cardsim.simulator.cards import parse
from cardsim.simulator.games import get_game
from cardsim.simulator.games.fifty_six.replay import play_one
from cardsim.simulator.games.fifty_six.view import bid_code
from tests.fifty_six_scripted import reckless, scripted

GAME = get_game("fifty-six")
REGISTRY = {"scripted": scripted(), "reckless": reckless()}
TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}


def bid(value, trump, form=None):
    t = TRUMPS[trump]
    if form is None:
        form = 2 if t == 4 else 0
    return bid_code(value, t, form)


def script_spec(calls, cards=()):
    vec = [len(calls), *calls, *[parse(c) for c in cards]]
    return "scripted:" + ",".join(f"p{i}={v}" for i, v in enumerate(vec))


def deck_from_hands(hands):
    """hands: list of space-separated card strings, seat 0 first (dealer = last seat)."""
    return np.concatenate([np.array([parse(c) for c in h.split()], np.int8) for h in hands])


def play_deal(hands, calls=(), cards=(), rules=None, strategies=None):
    """One deal from hand-made hands. With deals mode and game index = players - 1 the dealer
    is the last seat, so seat 0 speaks and leads first and hands[k] goes to seat k."""
    rules = GAME.rules.resolve(rules or {})
    seats = rules["players"]
    strategies = strategies or [script_spec(calls, cards)]
    events, deals, _ = play_one(GAME, rules, strategies, seed=1, game_index=seats - 1,
                                deals_mode=True, preset_deck=deck_from_hands(hands),
                                registry=REGISTRY, seating="fixed")
    return events, deals.row(0, named=True)
