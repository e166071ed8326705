"""Each game's deal places (its position module's ``places`` and ``deck``) are where its kernel
deals from: a deck dealt with a seat's hand (and the upcard) fixed, played as the first deal's
preset, shows those cards in that seat's hand, and every other hand is its places' cards."""
from importlib import import_module

import numpy as np
import pytest

from cardsim.simulator import constrained as C
from cardsim.simulator.cards import name
from cardsim.simulator.games import get_game

GAMES = {  # game: (rules, cards fixed for the upcard, if it has one)
    "fifty-six": ({}, None),
    "fifty-six-6": ({"players": 6, "team_layout": "pairs"}, None),
    "hand-and-foot": ({}, "7S"),
    "hand-and-foot-3": ({"players": 3, "first_player": "hand_dealer"}, "KD"),
    "contract-rummy": ({}, "QH"),
    "contract-rummy-5": ({"players": 5}, "4C"),
}


@pytest.mark.parametrize("case", list(GAMES))
def test_fixed_cards_reach_the_seat_the_places_name(case):
    game = get_game(case.rsplit("-", 1)[0] if case[-1].isdigit() else case)
    options, upcard = GAMES[case]
    rules = game.rules.resolve(options)
    pm = import_module(game.position_module)
    replay = import_module(game.kernel_module.rpartition(".")[0] + ".replay")
    events = replay.play_one(game, rules, [game.default_strategy], 9, 0)[0]
    dealer = events[0]["first_dealer"]
    places = pm.places(rules, dealer)
    full = pm.deck(rules)
    size = len(places["hand1"])
    rng = np.random.default_rng(1)
    mine = [int(c) for c in rng.permutation(full)[:size]]
    fixed = {"hand1": mine}
    if upcard:
        fixed["upcard"] = C.parse_cards(upcard)
        if fixed["upcard"][0] in mine:
            mine.remove(fixed["upcard"][0])
            mine.append(next(int(c) for c in full if c not in mine + fixed["upcard"]))
    spec = C.build(full, places, fixed)
    decks, _ = C.deals(spec, seed=9, n=1)
    d = decks[0]
    assert sorted(d[places["hand1"]].tolist()) == sorted(mine)
    events = replay.play_one(game, rules, [game.default_strategy], 9, 0, preset_deck=d)[0]
    deal = next(e for e in events if e["event"] == "deal")
    assert sorted(deal["hands"]["1"]) == sorted(name(c) for c in mine)
    for p, at in places.items():
        if p.startswith("hand"):
            assert sorted(deal["hands"][p[4:]]) == sorted(name(c) for c in d[at]), p
    if upcard:
        assert deal["upcard"] == upcard
