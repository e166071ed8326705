"""Independent checker for Hand and Foot replay logs (``cardsim replay hand-and-foot``).

Written from docs/rules/hand_and_foot.md and the log format (docs/hand_and_foot.md) alone: it
imports only the standard library, so a bug in the simulator cannot hide by being shared.

``check_game(events)`` replays the game from the logged deck and raises ``AssertionError`` at
the first event that breaks a rule: the deck and the deal, every red three and its
replacement, turn order, every draw against the stock order, every pile take (its three
conditions and the cards it gives), every meld (shape, one unfinished meld per rank, books,
the minimum initial meld with pile cards not counting, the one-action option), feet, going out
(books, feet, permission), every discard, how each deal ended, every score and the game totals.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NATURALS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
VALUE = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10,
         "K": 10, "A": 20, "2": 20, "JK": 50, "3B": 5, "3R": 100}
WILDS = ("2", "JK")


def kind(card: str) -> str:
    """'QH' -> 'Q', '3D' -> '3R', '3S' -> '3B', 'JK' -> 'JK'."""
    if card == "JK":
        return "JK"
    rank, suit = card[:-1], card[-1]
    if rank == "3":
        return "3R" if suit in "HD" else "3B"
    return rank


def one_deck() -> Counter:
    c = Counter(r + s for r in RANKS for s in "SHDC")
    c["JK"] = 2
    return c


def load_jsonl(path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


class Deal:
    def __init__(self, ev: dict, rules: dict, players: int, teams: int):
        self.rules = rules
        self.players = players
        self.teams = teams
        self.min_meld = ev["min_meld"]
        deck = ev["deck"]
        want = Counter()
        for _ in range(rules["decks"]):
            want.update(one_deck())
        assert Counter(deck) == want, "the deck is not decks x 54 cards"
        h, f = rules["hand_size"], rules["foot_size"]
        first = ev["first_seat"]
        first_ok = ev["hand_dealer"] if rules["first_player"] == "hand_dealer" else (
            (ev["hand_dealer"] + 1) % players)
        assert first == first_ok, "wrong first player"
        self.first = first
        pos = 0
        self.hand = {}
        self.foot = {}
        for k in range(players):
            s = (first + k) % players
            assert ev["hands"][str(s)] == deck[pos:pos + h], f"hand of seat {s}"
            self.hand[s] = Counter(kind(c) for c in deck[pos:pos + h])
            pos += h
        for k in range(players):
            s = (first + k) % players
            assert ev["feet"][str(s)] == deck[pos:pos + f], f"foot of seat {s}"
            self.foot[s] = Counter(kind(c) for c in deck[pos:pos + f])
            pos += f
        stock = list(deck[pos:])
        bury = ("3B", "3R", "JK") + (("2",) if rules["upcard_buried"] == "threes_and_wilds" else ())
        for b in ev["buried"]:
            top = stock.pop(0)
            assert top == b["card"] and kind(top) in bury, "a buried upcard that is not buriable"
            assert 1 <= b["under"] <= len(stock), "buried on top or outside the stock"
            stock.insert(b["under"], top)
        up = stock.pop(0)
        assert up == ev["upcard"] and (kind(up) not in bury or not stock), "upcard not buried"
        assert stock == ev["stock"], "stock order"
        self.stock = stock
        self.pile = [kind(up)]
        self.in_foot = {s: False for s in range(players)}
        self.foot_turns = {s: 0 for s in range(players)}
        self.melds = {t: {} for t in range(teams)}  # target -> [naturals, twos, jokers]
        self.books = {t: Counter() for t in range(teams)}
        self.red3 = Counter()
        self.melded_points = Counter()
        self.initial = {t: False for t in range(teams)}
        self.went_out = None
        self.turn = 0
        self.seat = None

    def team(self, s):
        return s % self.teams

    def partner(self, s):
        return (s + self.teams) % self.players if self.teams < self.players else None

    def cards(self, s):
        return sum(self.hand[s].values())


def _shape_ok(target, n, w):
    z = n + w
    if target == "wild":
        return n == 0 and 3 <= z <= 7
    return 3 <= z <= 7 and 2 * w <= n and (z >= 6 or w <= 1)


def check_game(events: list[dict]) -> dict:
    """Check a whole game; returns the totals per team."""
    head = events[0]
    assert head["event"] == "game" and head["game"] == "hand-and-foot"
    rules = head["rules"]
    players, teams = head["players"], head["teams"]
    assert players == rules["players"]
    assert teams == (players // 2 if players in (4, 6) else players)
    totals = [0] * teams
    i = 1
    n_deals = 0
    while events[i]["event"] == "deal":
        ev = events[i]
        assert ev["deal"] == n_deals
        assert ev["hand_dealer"] == (head["first_dealer"] + n_deals) % players, "deal passes left"
        assert ev["min_meld"] == rules["min_meld"][n_deals]
        i = _check_deal(events, i, rules, players, teams, totals)
        n_deals += 1
    end = events[i]
    assert end["event"] == "game_end" and i == len(events) - 1
    assert n_deals == rules["deals"] == end["deals"]
    assert end["totals"] == totals, "game totals"
    best = max(totals)
    assert end["winner_team"] == (totals.index(best) if totals.count(best) == 1 else None)
    return {"totals": totals}


def _out_conditions(d: Deal, s: int, books) -> bool:
    need = d.rules["books_to_go_out"]
    if any(books[k] < need[k] for k in ("clean", "dirty", "wild")):
        return False
    if not d.in_foot[s]:
        return False
    q = d.partner(s)
    q = s if q is None else q
    return d.in_foot[q] and d.foot_turns[q] >= 1


def _check_deal(events, i, rules, players, teams, totals) -> int:
    d = Deal(events[i], rules, players, teams)
    i += 1
    draw_count = rules["draw_count"]
    take_n = rules["pile_take"]
    turn = None  # per-turn facts

    def lay_red3(ev, s):
        assert d.hand[s]["3R"] >= 1, "a red three laid down that is not held"
        d.hand[s]["3R"] -= 1
        d.red3[d.team(s)] += 1
        rep = ev["replacement"]
        if d.stock:
            assert rep == d.stock[0], "red three replaced by a card that is not the stock top"
            d.stock.pop(0)
            d.hand[s][kind(rep)] += 1
        else:
            assert rep is None, "a replacement from an empty stock"

    # red threes in the dealt hands, in turn order
    while events[i]["event"] == "red_three":
        ev = events[i]
        assert ev["source"] in ("dealt", "stock"), ev
        lay_red3(ev, ev["seat"])
        i += 1
    for s in range(players):
        assert d.hand[s]["3R"] == 0, "a red three left in a dealt hand"

    expect_seat = d.first
    ended = None
    while True:
        ev = events[i]
        e = ev["event"]
        if e == "turn":
            _end_turn(d, turn, rules)
            d.turn += 1
            assert ev["turn"] == d.turn and ev["seat"] == expect_seat, "turn order"
            s = ev["seat"]
            turn = {"seat": s, "draws": 0, "pile": False, "melded": False, "staged": 0,
                    "extra": Counter(), "mode": None, "started": set(), "permission": None,
                    "snap": None, "discarded": False, "preinit": not d.initial[d.team(s)]}
            expect_seat = (s + 1) % players
        elif e == "draw":
            s = ev["seat"]
            assert s == turn["seat"] and not turn["pile"] and not turn["melded"]
            assert d.stock and ev["card"] == d.stock[0], "draw is not the stock top"
            d.stock.pop(0)
            d.hand[s][kind(ev["card"])] += 1
            turn["draws"] += 1
            assert turn["draws"] <= draw_count
        elif e == "red_three":
            s = ev["seat"]
            assert s == turn["seat"]
            lay_red3(ev, s)
        elif e == "pile_take":
            s = ev["seat"]
            assert s == turn["seat"] and turn["draws"] == 0 and not turn["pile"]
            top = d.pile[-1]
            assert ev["top"] == top and top not in ("3B", "3R"), "pile top may not be taken"
            if top in WILDS:
                assert rules["pickup_wild_top"], "a wild top card taken without the option"
                assert d.hand[s]["2"] + d.hand[s]["JK"] >= 2
            else:
                assert d.hand[s][top] >= 2, "pile taken without two naturals of its rank"
            n = len(d.pile) if take_n == "all" else min(take_n, len(d.pile))
            taken = d.pile[-n:]
            del d.pile[-n:]
            assert ev["taken"] == n and Counter(taken) == Counter(ev["cards"]), "pile cards"
            d.hand[s].update(taken)
            extra = Counter(taken)
            extra[top] -= 1
            turn["extra"] = +extra
            turn["pile"] = True
            turn["pile_top"] = top
        elif e == "meld":
            _check_meld(d, turn, ev, rules)
        elif e == "meld_cancelled":
            assert turn["preinit"] and turn["snap"] is not None
            (d.melds[d.team(turn["seat"])], d.books[d.team(turn["seat"])], d.hand[turn["seat"]],
             turn["extra"], mp) = turn["snap"]
            d.melded_points[d.team(turn["seat"])] = mp
            turn["staged"] = 0
            turn["melded"] = False
        elif e == "permission":
            s = ev["seat"]
            assert s == turn["seat"] and d.partner(s) == ev["partner"] is not None
            assert turn["permission"] is None, "asked twice in a turn"
            assert d.in_foot[s]
            turn["permission"] = bool(ev["asked"] and ev["granted"])
        elif e == "foot":
            s = ev["seat"]
            assert s == turn["seat"] and not d.in_foot[s] and d.cards(s) == 0
            assert (ev["way"] == "after_discard") == turn["discarded"]
            d.hand[s] = d.foot[s]
            d.foot[s] = Counter()
            d.in_foot[s] = True
            turn["extra"] = Counter()
        elif e == "discard":
            s = ev["seat"]
            assert s == turn["seat"] and not turn["discarded"]
            assert turn["draws"] > 0 or turn["pile"], "discard without drawing"
            k = ev["card"]
            assert d.hand[s][k] >= 1 and k != "3R"
            d.hand[s][k] -= 1
            d.pile.append(k)
            turn["discarded"] = True
            if d.in_foot[s]:
                d.foot_turns[s] += 1
                if d.cards(s) == 0:
                    _assert_may_go_out(d, turn, s)
            _check_minimum(d, turn)
        elif e == "no_discard":
            s = ev["seat"]
            assert ev["cards"] == d.cards(s) and (d.cards(s) == 0 or d.in_foot[s])
        elif e == "went_out":
            s = ev["seat"]
            assert s == turn["seat"] and d.in_foot[s] and d.cards(s) == 0
            if not turn["discarded"]:
                assert rules["go_out_without_discard"], "went out without a discard"
                _assert_may_go_out(d, turn, s)
            _check_minimum(d, turn)
            d.went_out = s
        elif e == "deal_end":
            _end_turn(d, turn, rules)
            assert ev["turns"] == d.turn
            if d.went_out is not None:
                assert ev["end"] == "went_out" and ev["out_seat"] == d.went_out
            elif ev["end"] == "stock_exhausted":
                assert not d.stock and turn["draws"] == 0 and not turn["pile"], \
                    "deal ended with cards in the stock or after a draw"
            else:
                assert ev["end"] == "turn_cap" and d.turn == rules["max_turns"]
            ended = ev
            i += 1
            break
        elif e == "score":
            raise AssertionError("score before the end of the deal")
        else:
            raise AssertionError(f"unexpected event {e}")
        i += 1
    assert ended is not None
    for t in range(teams):
        ev = events[i]
        assert ev["event"] == "score" and ev["team"] == t
        _check_score(d, t, ev, rules)
        totals[t] += ev["score"]
        assert ev["cumulative"] == totals[t]
        i += 1
    return i


def _assert_may_go_out(d: Deal, turn, s):
    assert _out_conditions(d, s, d.books[d.team(s)]), "went out without the books or feet"
    if d.partner(s) is not None:
        assert turn["permission"], "went out without the partner's permission"


def _check_minimum(d: Deal, turn):
    if turn["preinit"] and turn["melded"]:
        assert turn["staged"] >= d.min_meld, \
            f"initial meld of {turn['staged']} below the minimum {d.min_meld}"


def _end_turn(d: Deal, turn, rules):
    if turn is None:
        return
    _check_minimum(d, turn)
    s = turn["seat"]
    if turn["melded"] and turn["preinit"]:
        d.initial[d.team(s)] = True
    if turn["pile"] and turn["preinit"]:
        assert turn["melded"], "the pile taken before the initial meld without melding"


MELD_FIELDS = {"event", "deal", "turn", "seat", "team", "target", "action", "naturals", "twos",
               "jokers", "black_threes", "book", "counted", "meld_after"}


def _check_meld(d: Deal, turn, ev, rules):
    assert set(ev) == MELD_FIELDS, f"meld event fields: {sorted(set(ev) ^ MELD_FIELDS)}"
    s = ev["seat"]
    assert s == turn["seat"] and (turn["draws"] > 0 or turn["pile"]) and not turn["discarded"]
    t = d.team(s)
    assert ev["team"] == t, "meld team"
    forced = ev["action"] in ("pile_start", "pile_add")
    if forced:
        assert turn["pile"] and not turn["melded"], "pile meld not first"
    elif turn["pile"] and not turn["melded"]:
        raise AssertionError("the pile's top card was not melded at once")
    if turn["preinit"] and turn["snap"] is None and not forced:
        turn["snap"] = ({k: list(v) for k, v in d.melds[t].items()}, Counter(d.books[t]),
                        Counter(d.hand[s]), Counter(turn["extra"]), d.melded_points[t])
    hand = d.hand[s]
    target = ev["target"]
    use = Counter()
    if target == "black_threes":
        assert rules["black_threes_meld_going_out"] and d.in_foot[s]
        assert ev["black_threes"] in (3, 4) and ev["action"] == "black_threes"
        assert ev["naturals"] == ev["twos"] == ev["jokers"] == 0
        assert ev["meld_after"] == [0, 0, 0], "a black-threes meld stays open"
        use["3B"] = ev["black_threes"]
        if rules["one_meld_action_per_turn"]:
            # a black-threes meld is a new meld: it starts, so no adding in the same turn
            if turn["mode"] is None:
                turn["mode"] = True
            assert turn["mode"], "black threes melded in a turn that added to older melds"
    else:
        if target != "wild":
            assert target in NATURALS
            use[target] = ev["naturals"]
        else:
            assert ev["naturals"] == 0
        use["2"] = ev["twos"]
        use["JK"] = ev["jokers"]
    # cards from the hand (the forced meld's top card was added to the hand with the pile)
    for k, m in use.items():
        assert hand[k] >= m, f"melds {m} x {k} but holds {hand[k]}"
    counted = 0
    for k, m in use.items():
        own = hand[k] - turn["extra"][k]
        c = min(m, own)
        counted += c * VALUE[k]
        turn["extra"][k] -= m - c
        hand[k] -= m
        d.melded_points[t] += m * VALUE[k]
    assert ev["counted"] == counted, "counted points toward the minimum"
    turn["staged"] += counted
    turn["melded"] = True
    book = None
    if target != "black_threes":
        cur = d.melds[t].get(target, [0, 0, 0])
        existed = sum(cur) > 0
        if forced:
            assert ev["action"] == ("pile_add" if existed else "pile_start")
            if turn["pile_top"] in WILDS:
                assert target == "wild" and ev["twos"] + ev["jokers"] == 3
            else:
                assert target == turn["pile_top"] and ev["naturals"] == 3
        else:
            starting = ev["action"].startswith("start")
            assert starting != existed, "a second unfinished meld of a rank, or adding to none"
            size = sum(use.values())
            assert size == (3 if starting else 1)
        new = [cur[0] + use.get(target, 0) if target != "wild" else 0, cur[1] + ev["twos"],
               cur[2] + ev["jokers"]]
        assert _shape_ok(target, new[0], new[1] + new[2]), f"bad meld {target} {new}"
        if rules["one_meld_action_per_turn"]:
            start_mode = (not existed) or target in turn["started"]
            if turn["mode"] is None:
                turn["mode"] = start_mode
            assert turn["mode"] == start_mode, "started and added in one turn"
        if not existed:
            turn["started"].add(target)
        if sum(new) == 7:
            book = "wild" if target == "wild" else ("clean" if new[1] + new[2] == 0 else "dirty")
            d.books[t][book] += 1
            d.melds[t].pop(target, None)
            assert ev["meld_after"] == [0, 0, 0]
        else:
            d.melds[t][target] = new
            assert ev["meld_after"] == new, "meld state"
    assert ev["book"] == book, "book kind"
    left = d.cards(s)
    if target == "black_threes":
        assert left <= 1, "black threes melded when not going out"
    if d.in_foot[s] and left < 2:
        if left == 0:
            assert rules["go_out_without_discard"]
        _assert_may_go_out(d, turn, s)


def _check_score(d: Deal, t: int, ev: dict, rules: dict):
    clean, dirty, wild = d.books[t]["clean"], d.books[t]["dirty"], d.books[t]["wild"]
    assert (ev["books_clean"], ev["books_dirty"], ev["books_wild"]) == (clean, dirty, wild)
    assert ev["melded_points"] == d.melded_points[t]
    assert ev["book_bonus"] == 500 * clean + 300 * dirty + 1500 * wild
    assert ev["red_threes_table"] == d.red3[t] and ev["red_three_bonus"] == 100 * d.red3[t]
    out = d.went_out is not None and d.team(d.went_out) == t
    assert ev["going_out_bonus"] == (100 if out else 0)
    hand_pen = foot_pen = caught = 0
    for s in range(d.players):
        if d.team(s) != t:
            continue
        hand_pen += sum(VALUE[k] * n for k, n in d.hand[s].items() if k != "3R")
        caught += d.hand[s]["3R"]
        if not d.in_foot[s]:
            caught += d.foot[s]["3R"]
            if rules["unplayed_foot_counts"]:
                foot_pen += sum(VALUE[k] * n for k, n in d.foot[s].items() if k != "3R")
    assert ev["hand_penalty"] == hand_pen, "hand penalty"
    assert ev["foot_penalty"] == foot_pen, "foot penalty"
    assert ev["red_threes_caught"] == caught and ev["red_three_penalty"] == 100 * caught
    score = (d.melded_points[t] + ev["book_bonus"] + 100 * d.red3[t] + ev["going_out_bonus"]
             - hand_pen - foot_pen - 100 * caught)
    assert ev["score"] == score, "deal score"
