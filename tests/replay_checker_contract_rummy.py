"""Independent checker for Contract Rummy replay logs (``cardsim replay contract-rummy``).

Written from docs/rules/contract_rummy.md and the log format (docs/contract_rummy.md) alone:
it imports only the standard library, so a bug in the simulator cannot hide by being shared.

``check_game(events)`` replays the game from the logged deck and raises ``AssertionError`` at
the first event that breaks a rule: the deck and the deal, turn order, every stock draw
against the stock order, every take from the pile (top or deep, with every card above), every
buy (who may, the penalty card), every contract laid (its melds, sizes, distinct suits, the
all-at-once last deal, a deep-drawn card melded), every lay-off (run ends without wrapping,
sets of distinct suits), every joker swap (only a natural from a player whose contract went
down on an earlier turn, only in another player's run, the joker re-laid at once), every
discard (not the top card just taken), reshuffles and stalls, going out, every penalty and the
game totals and winner.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "SHDC"


def penalty(card: str) -> int:
    if card == "JK":
        return 15
    r = card[:-1]
    if r == "A":
        return 15
    if r in ("J", "Q", "K", "10"):
        return 10
    return int(r)


def slot_card(kind: str, key: str, slot: int) -> str:
    if kind == "set":
        return key + SUITS[slot]
    rank = "A" if slot in (0, 13) else RANKS[slot - 1]
    return rank + key


def bits(mask: int) -> list[int]:
    return [i for i in range(14) if (mask >> i) & 1]


def load_jsonl(path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


class Meld:
    def __init__(self, kind: str, key: str, nat: int, jok: int, owner: int):
        self.kind, self.key, self.nat, self.jok, self.owner = kind, key, nat, jok, owner

    def size(self) -> int:
        return bin(self.nat).count("1") + bin(self.jok).count("1")

    def valid(self, min_run: int, max_meld: int, ace_low: bool) -> bool:
        occ = self.nat | self.jok
        if self.nat == 0 or self.nat & self.jok:
            return False
        n = self.size()
        if max_meld and n > max_meld:
            return False
        if self.kind == "set":
            return occ < 16 and n >= 3
        if n < min_run or occ >= 1 << 14:
            return False
        if occ & 1 and (not ace_low or occ & (1 << 13)):
            return False
        pos = bits(occ)
        return pos[-1] - pos[0] + 1 == n

    def slot_open(self, slot: int, ace_low: bool, sets_ok: bool) -> bool:
        occ = self.nat | self.jok
        if self.kind == "set":
            return sets_ok and 0 <= slot < 4 and not (occ >> slot) & 1
        if not 0 <= slot <= 13 or (slot == 0 and not ace_low):
            return False
        pos = bits(occ)
        if slot not in (pos[0] - 1, pos[-1] + 1):
            return False
        return not ((slot == 0 and occ & (1 << 13)) or (slot == 13 and occ & 1))

    def naturals(self) -> list[str]:
        return [slot_card(self.kind, self.key, s) for s in bits(self.nat)]


def check_game(events: list[dict]) -> dict:
    g = events[0]
    assert g["event"] == "game", "the log must start with a game event"
    rules = g["rules"]
    players = g["players"]
    assert players == rules["players"]
    contracts = rules["contracts"]
    assert g["deals"] == len(contracts)
    totals = [0] * players
    i = 1
    deals_seen = 0
    while i < len(events) and events[i]["event"] == "deal":
        i = _check_deal(events, i, g, rules, totals)
        deals_seen += 1
    assert deals_seen == len(contracts), "not every deal was played"
    end = events[i]
    assert end["event"] == "game_end" and i == len(events) - 1, "game_end must close the log"
    assert end["totals"] == totals, f"game totals {end['totals']} != {totals}"
    low = min(totals)
    tied = totals.count(low)
    assert end["tied"] == tied
    assert end["winner"] == (totals.index(low) if tied == 1 else None), "wrong winner"
    return {"totals": totals}


def _check_deal(events, i, g, rules, totals) -> int:
    ev = events[i]
    players = g["players"]
    d = ev["deal"]
    sets, runs, each = rules["contracts"][d]
    assert (ev["sets"], ev["runs"], ev["cards_each"]) == (sets, runs, each)
    dealer = (g["first_dealer"] + d) % players
    assert ev["dealer"] == dealer and ev["first_seat"] == (dealer + 1) % players
    last = d == len(rules["contracts"]) - 1
    at_once = bool(rules["last_deal_all_at_once"]) and last
    assert ev["all_at_once"] == at_once
    max_meld = 0 if at_once else (rules["max_contract_meld"] or 0)
    min_run = rules["min_run"]
    ace_low = rules["ace_low"]
    sets_ok = rules["lay_off_sets"]
    deck = ev["deck"]
    want = Counter({slot_card("set", r, s): rules["decks"] for r in RANKS for s in range(4)})
    want["JK"] = rules["jokers"]
    assert Counter(deck) == +want, "the deck is not decks x 52 cards + jokers"
    first = ev["first_seat"]
    hands = [Counter() for _ in range(players)]
    for k in range(players * each):
        hands[(first + k) % players][deck[k]] += 1
    for s in range(players):
        assert Counter(ev["hands"][str(s)]) == hands[s], f"seat {s}'s hand is not as dealt"
    pile = [deck[players * each]]
    assert ev["upcard"] == pile[0]
    stock = list(deck[players * each + 1:])  # top first
    assert ev["stock"] == stock
    melds: list[Meld] = []
    down: dict[int, int] = {}  # seat -> deal turn its contract went down
    buys = [0] * players
    reshuffles = 0
    last_discarder = -1
    turn = 0
    seat = None
    out_seat = None
    stalled = False
    i += 1
    t = None  # the turn in progress
    while events[i]["event"] not in ("deal_end",):
        e = events[i]
        kind = e["event"]
        if kind == "turn":
            _end_turn(t, hands)
            assert stock, "a turn started with an empty stock (no reshuffle, no stall)"
            turn += 1
            expect = first if seat is None else (seat + 1) % players
            assert e["seat"] == expect and e["turn"] == turn, f"turn order broken at {e}"
            seat = e["seat"]
            t = {"seat": seat, "drawn": False, "top": None, "forced": None, "laid": [],
                 "discarded": False, "out": False, "turn": turn}
        elif kind == "buy":
            assert rules["buying"], "a buy with buying off"
            b = e["seat"]
            assert t and not t["drawn"] and b != t["seat"] and b != last_discarder
            assert buys[b] < rules["buy_limit"], "buy limit exceeded"
            assert len(stock) >= 2 and pile and pile[-1] == e["card"]
            assert stock[0] == e["penalty_card"], "the penalty card is not the stock's top"
            hands[b][pile.pop()] += 1
            hands[b][stock.pop(0)] += 1
            buys[b] += 1
            assert events[i + 1]["event"] == "draw", "a buy must come before a stock draw"
        elif kind == "draw":
            assert t and not t["drawn"] and e["seat"] == t["seat"]
            assert stock and stock[0] == e["card"], "the stock draw is not the stock's top"
            hands[t["seat"]][stock.pop(0)] += 1
            t["drawn"] = True
        elif kind == "take":
            assert t and not t["drawn"] and e["seat"] == t["seat"]
            idx = e["index"]
            assert 0 <= idx < len(pile) and pile[idx] == e["card"]
            assert e["count"] == len(pile) - idx, "a take must include every card above"
            for c in pile[idx:]:
                hands[t["seat"]][c] += 1
            del pile[idx:]
            t["drawn"] = True
            if e["count"] == 1:
                t["top"] = e["card"]
            else:
                t["forced"] = e["card"]
        elif kind == "meld":
            assert t and t["drawn"] and e["seat"] == t["seat"] and t["seat"] not in down
            m = Meld(e["kind"], e["key"], e["nat"], e["jok"], t["seat"])
            assert e["meld"] == len(melds) + len(t["laid"])
            t["laid"].append(m)
        elif kind == "contract_down":
            s = t["seat"]
            assert e["seat"] == s and s not in down and e["turn"] == turn
            laid = t["laid"]
            assert [m.kind for m in laid] == ["set"] * sets + ["run"] * runs, \
                "the melds are not exactly the contract"
            for m in laid:
                assert m.valid(min_run, max_meld, ace_low), f"invalid contract meld {vars(m)}"
                for c in m.naturals():
                    assert hands[s][c] > 0, f"melded {c} not in hand"
                    hands[s][c] -= 1
                nj = bin(m.jok).count("1")
                assert hands[s]["JK"] >= nj, "melded a joker not in hand"
                hands[s]["JK"] -= nj
            if rules["runs_distinct_suits"]:
                suits = [m.key for m in laid if m.kind == "run"]
                assert len(suits) == len(set(suits)), "two runs of one suit"
            if at_once:
                assert sum(hands[s].values()) <= 1, "all-at-once: more than one card left"
            if t["forced"] is not None:
                f = t["forced"]
                ok = any(m.jok for m in laid) if f == "JK" else any(
                    f in m.naturals() for m in laid)
                assert ok, f"the deep-drawn {f} is not in the contract laid"
                t["forced"] = None
            if t["top"] is not None and (any(m.jok for m in laid) if t["top"] == "JK" else any(
                    t["top"] in m.naturals() for m in laid)):
                t["top"] = None  # the taken top discard (or its twin: the same) was melded
            melds.extend(laid)
            t["laid"] = []
            down[s] = turn
        elif kind == "lay_off":
            s = t["seat"]
            assert e["seat"] == s and s in down, "lay-off before the contract is down"
            m = melds[e["meld"]]
            slot = e["slot"]
            assert m.slot_open(slot, ace_low, sets_ok), f"no room at slot {slot} of {vars(m)}"
            card = "JK" if e["joker"] else slot_card(m.kind, m.key, slot)
            assert e["card"] == card and e["as"] == slot_card(m.kind, m.key, slot)
            assert hands[s][card] > 0, f"laid off {card} not in hand"
            hands[s][card] -= 1
            if e["joker"]:
                m.jok |= 1 << slot
            else:
                m.nat |= 1 << slot
            if t["forced"] is not None and t["forced"] == card:
                t["forced"] = None
            if t["top"] == card:
                t["top"] = None  # the taken top discard was laid off
        elif kind == "joker_swap":
            s = t["seat"]
            assert e["seat"] == s and s in down and down[s] < turn, \
                "joker swap by a player whose contract did not go down on an earlier turn"
            m = melds[e["meld"]]
            p = e["pos"]
            assert m.kind == "run", "a joker in a set is dead (no swap)"
            assert m.owner != s, "a swap only from another player's run"
            assert (m.jok >> p) & 1, "no joker there"
            card = slot_card("run", m.key, p)
            assert e["card"] == card and hands[s][card] > 0, "the swapped natural is not held"
            assert t["forced"] is None
            hands[s][card] -= 1
            if t["top"] == card:
                t["top"] = None
            m.jok &= ~(1 << p)
            m.nat |= 1 << p
            m2 = melds[e["to_meld"]]
            assert m2.slot_open(e["to_slot"], ace_low, sets_ok), "the swapped joker was not used"
            m2.jok |= 1 << e["to_slot"]
            assert e["joker_as"] == slot_card(m2.kind, m2.key, e["to_slot"])
        elif kind == "discard":
            s = t["seat"]
            assert e["seat"] == s and t["drawn"] and not t["discarded"]
            assert t["forced"] is None, "the deep-drawn card was not melded"
            c = e["card"]
            assert hands[s][c] > 0, f"discarded {c} not in hand"
            # the single top discard taken this turn may not be discarded, not even as the
            # last card (going out); an identical second copy held may
            assert not (t["top"] == c and hands[s][c] < 2), \
                "threw back the top discard just taken"
            hands[s][c] -= 1
            pile.append(c)
            last_discarder = s
            t["discarded"] = True
        elif kind == "went_out":
            s = t["seat"]
            assert e["seat"] == s and s in down and sum(hands[s].values()) == 0
            assert t["forced"] is None
            out_seat = s
            t["out"] = True
        elif kind == "reshuffle":
            assert not stock and reshuffles < rules["max_reshuffles"] and len(pile) >= 2
            assert e["count"] == len(pile) - 1
            assert Counter(e["stock"]) == Counter(pile[:-1]), "reshuffled stock is not the pile"
            stock = list(e["stock"])
            pile = pile[-1:]
            reshuffles += 1
        elif kind == "stalled":
            assert not stock and (reshuffles >= rules["max_reshuffles"] or len(pile) < 2)
            stalled = True
        else:
            raise AssertionError(f"unexpected event {kind} inside deal {d}")
        i += 1
    if t is not None and not t["out"]:
        _end_turn(t, hands)
    e = events[i]
    assert e["turns"] == turn, "turn count"
    if out_seat is not None:
        assert e["end"] == "went_out" and e["out_seat"] == out_seat
    elif stalled:
        assert e["end"] == "stalled"
    else:
        assert e["end"] == "turn_cap" and turn == rules["max_turns"], "a deal ended early"
    assert e["reshuffles"] == reshuffles
    i += 1
    for s in range(players):
        sc = events[i]
        assert sc["event"] == "score" and sc["seat"] == s and sc["deal"] == d
        pen = sum(penalty(c) * n for c, n in hands[s].items())
        assert sc["penalty"] == pen, f"seat {s}: penalty {sc['penalty']} != {pen}"
        assert sc["cards_left"] == sum(hands[s].values())
        assert sc["jokers_held"] == hands[s]["JK"]
        totals[s] += pen
        assert sc["cumulative"] == totals[s]
        i += 1
    for m in melds:
        assert m.valid(min_run, 0, ace_low), f"a meld became invalid: {vars(m)}"
    # card conservation
    everything = Counter()
    for h in hands:
        everything += h
    everything += Counter(stock) + Counter(pile)
    for m in melds:
        everything += Counter(m.naturals())
        everything["JK"] += bin(m.jok).count("1")
    assert +everything == Counter(deck), "cards not conserved"
    return i


def _end_turn(t, hands) -> None:
    if t is None:
        return
    assert t["drawn"], "a turn without a draw"
    assert t["forced"] is None, "the deep-drawn card was not melded that turn"
    assert not t["laid"], "melds laid without the contract going down"
    assert t["discarded"] or t["out"], "a turn without a discard"
