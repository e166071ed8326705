"""Position files (simulator.positionfile, `cardsim replay --stop-at` / `--position`): a position
cut out of a replayed game round-trips through its TOML text, and playing on from it with the
run's strategies gives the replay's own events; every malformed file is refused in one line."""
import json
import subprocess
import sys
import tomllib

import numpy as np
import pytest
import tomli_w

from cardsim.simulator import position as P
from cardsim.simulator.errors import UsageError
from cardsim.simulator.games import get_game, get_replay
from cardsim.simulator.positionfile import dumps, loads

CLI = [sys.executable, "-m", "cardsim"]
CASES = {"fifty-six": (True, 3, 10), "hand-and-foot": (False, 2, 25),
         "contract-rummy": (False, 2, 25)}


def _strip(events):
    return [e for e in events if e["event"] != "game"]


@pytest.mark.parametrize("name", list(CASES))
def test_a_cut_position_round_trips_and_plays_on_as_the_replay(name):
    deals_mode, index, k = CASES[name]
    g = get_game(name)
    rules = g.rules.resolve({})
    strategies = [g.default_strategy]
    pos = P.snapshot(g, rules, strategies, 5, index, 0, k, deals_mode=deals_mode)
    text = dumps(pos, strategies, P.events(pos))
    back, saved = loads(text)
    assert saved == strategies and back.rules == pos.rules
    assert (back.seed, back.game_index, back.deal, back.deals_mode) == (5, index, 0, deals_mode)
    assert np.array_equal(back.tape, pos.tape) and np.array_equal(back.header, pos.header)
    assert np.array_equal(back.stash, pos.stash)
    whole, _, _ = get_replay(name)(g, rules, strategies, 5, index, deals_mode=deals_mode,
                                   seating="fixed")
    assert _strip(P.play_on_events(back, strategies)) == _strip(whole)
    # without the streams the players draw afresh: the same start, then the game's own end
    doc = tomllib.loads(text)
    del doc["streams"]
    fresh, _ = loads(tomli_w.dumps(doc))
    assert fresh.stash is None
    on = P.play_on_events(fresh, ["random"])
    assert _strip(on)[:k // 2] == _strip(whole)[:k // 2] and on[-1]["event"] == "game_end"


def test_replay_writes_and_reads_position_files(tmp_path):
    f = tmp_path / "p.toml"
    p = subprocess.run(CLI + ["replay", "fifty-six", "--game-index", "3", "--mode", "deals",
                              "--stop-at", "0:10", "--out", str(f)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    text = f.read_text()
    assert text.startswith("# cardsim position: fifty-six") and '"event": "call"' in text
    on = subprocess.run(CLI + ["replay", "fifty-six", "--position", str(f)],
                        capture_output=True, text=True, timeout=600)
    full = subprocess.run(CLI + ["replay", "fifty-six", "--game-index", "3", "--mode", "deals"],
                          capture_output=True, text=True, timeout=600)
    assert on.returncode == 0 and full.returncode == 0, on.stderr + full.stderr
    read = [json.loads(x) for x in on.stdout.splitlines()]
    assert _strip(read) == _strip([json.loads(x) for x in full.stdout.splitlines()])


def _cut_text():
    g = get_game("fifty-six")
    pos = P.snapshot(g, g.rules.resolve({}), ["tuned"], 0, 3, 0, 10, deals_mode=True)
    return dumps(pos, ["tuned"])


@pytest.mark.parametrize("change, says", [
    (lambda t: t.replace("format = 1", "format = 2"), "position format 2"),
    (lambda t: t.replace("tape = ", "tapes = "), "has no 'tape'"),
    (lambda t: t.replace("header = [", "header = [1, "), "'header' must be"),
    (lambda t: t.replace('mode = "deals"', 'mode = "both"'), "'mode' is 'both'"),
    (lambda t: t.replace("players = 4", "players = 5"), "rule 'players'"),
    (lambda t: t + "\n[[[", "not a TOML position file"),
    (lambda t: t.replace("streams = [", 'streams = ["zz", '), "'streams' must be"),
])
def test_malformed_files_are_refused_naming_the_field(change, says):
    with pytest.raises(UsageError, match=None) as e:
        loads(change(_cut_text()), "p.toml")
    assert says in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("args, says", [
    (["fifty-six", "--game-index", "3", "--mode", "deals", "--stop-at", "900"],
     "has 54 decisions"),
    (["fifty-six", "--game-index", "3", "--stop-at", "x"], "--stop-at x"),
    (["fifty-six"], "--game-index: needed"),
    (["hand-and-foot", "--position", "tests/no_such.toml"], "cannot read"),
])
def test_replay_bad_input_is_one_line(args, says):
    p = subprocess.run(CLI + ["replay", *args], capture_output=True, text=True, timeout=600)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and says in lines[0], p.stderr
    assert p.stdout == ""


# hand-written files: a [cards] table instead of the header
WRITTEN = {
    "fifty-six": ({"hand1": "JS JS 9S AS 10S KS JH 9H AH KC QC 10D"}, 0, 0),
    "hand-and-foot": ({"hand2": "3H 3H 5S 5S 5S 7C 8C 9C JK JK 2D KS KH",
                       "foot2": "AS AS AS 4D 4D 6H 6H 6H 10C 10C QD QD QS",
                       "upcard": "9D"}, 3, 2),
    "contract-rummy": ({"hand0": "7S 7H 7D 9C 9D 9H 2S 5S 8D KC", "upcard": "QH"}, 1, 1),
}


def _written(game, cards, dealer, deal, **extra):
    doc = {"format": 1, "game": game, "deal": deal, **extra,
           "cards": {**cards, "dealer": dealer}}
    return tomli_w.dumps(doc)


def _deal_event(pos):
    return next(e for e in P.events(pos) if e["event"] == "deal" and e["deal"] == pos.deal)


@pytest.mark.parametrize("game", list(WRITTEN))
def test_a_hand_written_deal_holds_its_cards_where_they_were_put(game):
    cards, dealer, deal = WRITTEN[game]
    pos, strategies = loads(_written(game, cards, dealer, deal))
    g = get_game(game)
    assert strategies == [g.default_strategy] and len(pos.tape) == 0 and pos.deal == deal
    e = _deal_event(pos)
    assert e.get("dealer", e.get("hand_dealer")) == dealer
    if game == "fifty-six":
        assert sorted(e["hands"]["1"]) == sorted(cards["hand1"].split())
    else:  # the rummies log the deck as dealt: the places' positions
        from importlib import import_module
        places = import_module(g.position_module).places(pos.rules, dealer, deal)
        for place, text in cards.items():
            assert sorted(e["deck"][i] for i in places[place]) == sorted(text.split()), place
    if game == "hand-and-foot":
        assert e["min_meld"] == pos.rules["min_meld"][deal]  # deal 2's meld: 120
    # the other cards: random from the seed, the same for the same file
    again, _ = loads(_written(game, cards, dealer, deal))
    assert np.array_equal(again.header, pos.header)
    other, _ = loads(_written(game, cards, dealer, deal, seed=9))
    assert not np.array_equal(other.header, pos.header)
    # and the deal plays out from there
    assert P.play_on_events(pos, strategies)[-1]["event"] == "game_end"


def test_a_hand_written_part_of_a_hand_and_a_tape():
    pos, _ = loads(_written("fifty-six", {"hand2": "JC JC"}, 3, 0))
    hand = _deal_event(pos)["hands"]["2"]
    assert hand.count("JC") == 2 and len(hand) == 12
    g = get_game("fifty-six")
    cut = P.snapshot(g, pos.rules, ["tuned"], pos.seed, pos.game_index, 0, 0, preset=None)
    assert cut.header.tolist() != pos.header.tolist()  # not the game's own shuffle
    # a tape on it: the first calls of the deal as the strategies made them
    on = P.resume(pos, ["tuned"], stop=3)
    doc = tomllib.loads(_written("fifty-six", {"hand2": "JC JC"}, 3, 0))
    doc["tape"] = [int(x) for x in on.tape]
    taped, _ = loads(tomli_w.dumps(doc))
    assert taped.stash is None and taped.tape.tolist() == on.tape.tolist()
    assert np.array_equal(P.resume(taped, ["tuned"], stop=3).header, on.header)


@pytest.mark.parametrize("cards, says", [
    ({"hand1": "JS JS JS"}, "more often than the deck has it"),
    ({"hand1": "JS 9S AS 10S KS JH 9H AH KC QC 10D QD 9D"}, "13 cards fixed"),
    ({"hand7": "JS"}, "no place 'hand7'"),
    ({"hand1": "ZZ"}, "cards.hand1: 'ZZ' is not a card"),
    ({"hand1": 5}, "cards.hand1 must be a text"),
    ({"dealer": 4}, "cards.dealer must be a seat 0..3"),
])
def test_bad_hand_written_cards_are_refused_naming_the_field(cards, says):
    doc = {"format": 1, "game": "fifty-six", "cards": cards}
    with pytest.raises(UsageError) as e:
        loads(tomli_w.dumps(doc), "p.toml")
    assert says in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_file_with_header_and_cards_is_refused():
    doc = tomllib.loads(_cut_text())
    doc["cards"] = {"hand0": "JS"}
    with pytest.raises(UsageError, match="not both"):
        loads(tomli_w.dumps(doc))
    del doc["cards"], doc["header"]
    with pytest.raises(UsageError, match="not neither"):
        loads(tomli_w.dumps(doc))
