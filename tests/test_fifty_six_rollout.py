"""56 play-outs (simulator/games/fifty_six/rollout.py) against the kernel: from a deal's first
lead, on the true hands, the heuristic's play-out is the kernel's deal card for card."""
import numpy as np
import pytest

from cardsim.simulator.cards import parse
from cardsim.simulator.games import get_game
from cardsim.simulator.games.fifty_six import rollout as RO
from cardsim.simulator.games.fifty_six import view as V
from cardsim.simulator.games.fifty_six.replay import play_one
from cardsim.strategies.fifty_six import REGISTRY

GAME = get_game("fifty-six")
TRUMP = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}


def first_lead(rules, events, deal=0):
    """(public record, hand masks, plays) at deal ``deal``'s first lead, as the kernel keeps
    the record (the fields card play reads), from a replay's events."""
    game = events[0]
    d = next(e for e in events if e["event"] == "deal" and e["deal"] == deal)
    c = next(e for e in events if e["event"] == "contract" and e["deal"] == deal)
    plays = [(e["seat"], parse(e["card"])) for e in events
             if e["event"] == "play" and e["deal"] == deal]
    seats, teams = game["seats"], game["teams"]
    pub = np.zeros(V.PB_LEN, np.int16)
    pub[V.PB_SEATS] = seats
    pub[V.PB_ACTIVE_N] = len(d["hands"])
    pub[V.PB_NTEAMS] = teams
    pub[V.PB_STEP] = d["direction"]
    pub[V.PB_PHASE] = 1
    pub[V.PB_BIDDER] = c["bidder"]
    pub[V.PB_CONTRACT_TEAM] = c["team"]
    pub[V.PB_BID] = c["bid"]
    pub[V.PB_LEVEL] = c["double_level"]
    pub[V.PB_TRUMP] = TRUMP[c["trump"]]
    pub[V.PB_THANI] = c["form"] == "thani"
    pub[V.PB_LEADER] = plays[0][0]
    pub[V.PB_LED_SUIT] = -1
    pub[V.PB_TRICK_BEST] = -1
    pub[V.PB_REVEALED_BY] = -1
    pub[V.PB_RULE_NO_TRUMP_LEAD] = rules["no_trump_lead_until_broken"]
    hands = np.zeros(seats, np.uint64)
    for s, cards in d["hands"].items():
        s = int(s)
        pub[V.PB_ACTIVE + s] = 1
        pub[V.PB_HAND_N + s] = len(cards)
        for code in (parse(x) for x in cards):
            b = int(V.SLOT_OF[code])
            b += int(hands[s] >> np.uint64(b)) & 1
            hands[s] |= np.uint64(1) << np.uint64(b)
    for s in range(seats):
        pub[V.PB_TEAM_OF + s] = s % teams
    return pub, hands, plays


@pytest.mark.parametrize("players,extra", [(4, {}), (6, {}), (4, {
    "no_trump_lead_until_broken": True}), (8, {"team_layout": "pairs"})])
def test_play_out_is_the_kernels_deal(players, extra):
    rules = GAME.rules.resolve({"players": players, **extra})
    params = REGISTRY["tuned"].param_vector({}, len(REGISTRY["tuned"].params))
    deck = V.DECK_MASK_64 if players == 8 else V.DECK_MASK_48
    checked = 0
    for g in range(12):
        events, deals, _ = play_one(GAME, rules, ["tuned"], seed=11, game_index=g,
                                    deals_mode=True)
        pub, hands, plays = first_lead(rules, events)
        privs = np.zeros((players, V.PV_LEN), np.int16)
        RO.views(pub, privs)
        lost = RO.play_out(pub, hands, np.uint64(0), privs, params, deck)
        n = len(plays)
        got = [(int(pub[V.PB_PLAYS + 2 * k]), int(pub[V.PB_PLAYS + 2 * k + 1]))
               for k in range(n)]
        assert got == plays, f"game {g}"
        row = deals.row(0, named=True)
        assert pub[V.PB_TEAM_POINTS + row["bidding_team"]] == row["bidding_team_points"]
        assert lost == (row["tricks_won"] < n // pub[V.PB_ACTIVE_N])
        assert all(h == 0 for h in hands)
        checked += 1
    assert checked == 12
