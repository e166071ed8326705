"""Independent checker for 56 replay logs (the JSON Lines of ``cardsim replay fifty-six``).

Written from the rules (docs/rules/fifty_six.md) and the log format (docs/replay.md) alone:
it imports nothing from ``simulator`` or ``strategies`` -- only the standard library -- so a bug
in the simulator cannot hide itself by being shared with the checker.

``check_game(events)`` replays the whole game from the logged starting hands and raises
``AssertionError`` with a precise message at the first event that breaks a rule: deck and hands,
dealer rotation and turn order, every call, the contract, every card, every trick, every score,
the running table count and the end of the game (and, with redeal_weak_hands, every redeal).
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

# ---------------------------------------------------------------- cards

SUITS = ("S", "H", "D", "C")
TRUMPS = SUITS + ("NT",)
RANKS_HIGH_TO_LOW = ("J", "9", "A", "10", "K", "Q", "8", "7")
STRENGTH = {r: len(RANKS_HIGH_TO_LOW) - i for i, r in enumerate(RANKS_HIGH_TO_LOW)}
POINTS = {"J": 3, "9": 2, "A": 1, "10": 1, "K": 0, "Q": 0, "8": 0, "7": 0}
RANKS_4_6 = ("J", "9", "A", "10", "K", "Q")
RANKS_8 = RANKS_4_6 + ("8", "7")

FORMS = ("number_suit", "suit_number", "number_nt", "noes", "plus_suit", "plus_two_noes",
         "thani", "all_pass")
BID_FORMS = FORMS[:-1]

PAYOUT_PRESETS = {
    "sheet": "28-39:1/2,40-47:2/3,48-55:3/4,56:4/5",
    "short": "28-39:1/2,40-55:2/3,56:3/4",
}

RULE_DEFAULTS = {
    "players": 4, "team_layout": "two_teams", "turn_order": "anticlockwise",
    "start_tables": 12, "max_deals": None, "min_bid": 28, "max_bid": 56,
    "bid_over_double": True, "all_pass_bid": 28, "hidden_trump": False,
    "payout": PAYOUT_PRESETS["sheet"], "thani": False, "thani_extra": 1,
    "redeal_weak_hands": False, "no_trump_lead_until_broken": False,
}

MAX_REDEALS = 10_000  # the simulator gives up redealing after this many attempts


def card_rank(card: str) -> str:
    return card[:-1]


def card_suit(card: str) -> str:
    return card[-1]


def card_points(card: str) -> int:
    return POINTS[card_rank(card)]


def valid_card(card) -> bool:
    return (isinstance(card, str) and len(card) >= 2 and card[-1] in SUITS
            and card[:-1] in STRENGTH)


def deck(players: int) -> Counter:
    """The stripped double deck for ``players`` active players (48 or 64 cards)."""
    ranks = RANKS_8 if players == 8 else RANKS_4_6
    return Counter({r + s: 2 for s in SUITS for r in ranks})


def hand_size(players: int) -> int:
    return 12 if players == 4 else 8


def parse_payout(text: str) -> tuple[dict[int, int], dict[int, int]]:
    """'28-39:1/2,40-47:2/3,...' (or a preset name) -> (win, lose) keyed by bid value."""
    text = PAYOUT_PRESETS.get(str(text).strip(), str(text).strip())
    win: dict[int, int] = {}
    lose: dict[int, int] = {}
    for part in text.split(","):
        span, sep, stakes = part.strip().partition(":")
        assert sep, f"payout band {part!r} has no ':'"
        lo, _, hi = span.partition("-")
        w, sep, lo_ = stakes.partition("/")
        assert sep, f"payout band {part!r} has no '/'"
        for v in range(int(lo), int(hi or lo) + 1):
            assert v not in win, f"payout bands overlap at {v}"
            win[v] = int(w)
            lose[v] = int(lo_)
    return win, lose


def load_jsonl(path) -> list[dict]:
    with open(Path(path)) as fh:
        return [json.loads(line) for line in fh if line.strip()]


# ---------------------------------------------------------------- checker


class _Checker:
    def __init__(self, events: list[dict]):
        self.events = events
        self.i = 0
        self.deal = None  # deal number being checked (for messages)

    # -- event cursor and messages
    def fail(self, msg: str, ev: dict | None = None):
        where = f"deal {self.deal}: " if self.deal is not None else ""
        at = ""
        if ev is not None:
            text = json.dumps(ev)
            if len(text) > 300:
                text = text[:300] + "..."
            idx = next((i for i, e in enumerate(self.events) if e is ev), "?")
            at = f"\n  at event #{idx}: {text}"
        raise AssertionError(f"{where}{msg}{at}")

    def ensure(self, cond, msg: str, ev: dict | None = None):
        if not cond:
            self.fail(msg, ev)

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def take(self, kind: str, what: str = "") -> dict:
        ev = self.peek()
        if ev is None:
            self.fail(f"log ends early: expected a {kind!r} event{what}")
        if ev.get("event") != kind:
            self.fail(f"expected a {kind!r} event{what}, got {ev.get('event')!r}", ev)
        if kind not in ("game", "game_end"):
            self.ensure(ev.get("deal") == self.deal,
                        f"{kind} event carries deal {ev.get('deal')!r}, expected {self.deal}", ev)
        self.i += 1
        return ev

    def field(self, ev: dict, name: str, expected, label: str | None = None):
        got = ev.get(name, "<missing>")
        # bool vs int: True == 1 in Python; be strict about types that matter
        same = got == expected and (isinstance(got, bool) == isinstance(expected, bool))
        self.ensure(same, f"{ev.get('event')} {label or name}: log says {got!r}, "
                          f"rules give {expected!r}", ev)

    # -- game
    def run(self):
        self.ensure(isinstance(self.events, list) and self.events, "empty event list")
        head = self.take("game", " (header)")
        self.ensure(head.get("game") == "fifty-six", f"not a 56 log: game={head.get('game')!r}",
                    head)
        rules = dict(RULE_DEFAULTS)
        rules.update(head.get("rules") or {})
        self.rules = rules
        seats = rules["players"]
        self.ensure(seats in (4, 6, 8), f"players must be 4, 6 or 8, got {seats!r}", head)
        self.field(head, "seats", seats)
        self.pairs = rules["team_layout"] == "pairs"
        self.ensure(rules["team_layout"] in ("two_teams", "pairs"),
                    f"unknown team_layout {rules['team_layout']!r}", head)
        self.ensure(rules["turn_order"] in ("anticlockwise", "sheet_clockwise"),
                    f"unknown turn_order {rules['turn_order']!r}", head)
        self.seats = seats
        self.nteams = seats // 2 if self.pairs else 2
        self.field(head, "teams", self.nteams)
        self.field(head, "start_tables", rules["start_tables"])
        # duplicate seating: sets of `teams` games share a board, strategies one team on
        self.ensure(head.get("seating") in ("fixed", "duplicate"),
                    f"unknown seating {head.get('seating')!r}", head)
        k = self.nteams if head["seating"] == "duplicate" else 0
        gi = head["game_index"]
        self.field(head, "board", gi // k if k else gi)
        rot = gi % k if k else 0
        self.field(head, "rotation", rot)
        self.field(head, "team_strategy", [(t + rot) % self.nteams for t in range(self.nteams)])
        self.step = -1 if rules["turn_order"] == "sheet_clockwise" else 1
        self.win_pay, self.lose_pay = parse_payout(rules["payout"])
        self.deals_mode = head.get("mode") == "deals"
        self.ensure(head.get("mode") in ("games", "deals"), f"unknown mode {head.get('mode')!r}",
                    head)
        dealer = head.get("first_dealer")
        self.ensure(isinstance(dealer, int) and 0 <= dealer < seats,
                    f"first_dealer {dealer!r} is not a seat", head)
        if self.deals_mode:
            self.field(head, "first_dealer", head["board"] % seats,
                       "first_dealer (deals mode: board % players)")

        self.tables = [rules["start_tables"]] * self.nteams
        self.active = [True] * seats
        max_deals = rules["max_deals"] or 0
        d = 0
        capped = False
        while True:
            self.deal = d
            self.play_deal(d, dealer)
            d += 1
            if self.deals_mode:
                break
            alive = sum(1 for t in self.tables if t > 0)
            if alive <= 1:
                break
            if self.pairs:
                for s in range(seats):
                    if self.tables[self.team_of(s)] <= 0:
                        self.active[s] = False
            if max_deals and d >= max_deals:
                capped = True
                break
            dealer = self.next_active(dealer, 1)
        self.deal = None
        ev = self.peek()
        if ev is not None and ev.get("event") != "game_end":
            self.fail(f"the game is over after {d} deal(s) (tables {self.tables}"
                      f"{', cap reached' if capped else ''}) but the log goes on with "
                      f"{ev.get('event')!r}", ev)
        end = self.take("game_end")
        self.field(end, "deals", d)
        self.field(end, "capped", capped)
        self.field(end, "tables", list(self.tables))
        best = max(self.tables)
        leaders = [t for t, v in enumerate(self.tables) if v == best]
        self.field(end, "winner_team", leaders[0] if len(leaders) == 1 else None)
        self.ensure(self.i == len(self.events),
                    f"{len(self.events) - self.i} event(s) after game_end", self.peek())

    # -- seats
    def team_of(self, s: int) -> int:
        return s % self.nteams

    def next_active(self, s: int, step: int) -> int:
        s = (s + step) % self.seats
        while not self.active[s]:
            s = (s + step) % self.seats
        return s

    # -- one deal
    def check_hands(self, ev: dict, order: list[int], n_act: int) -> dict[int, list[str]]:
        hands_raw = ev.get("hands")
        self.ensure(isinstance(hands_raw, dict), "hands missing", ev)
        try:
            hands = {int(k): list(v) for k, v in hands_raw.items()}
        except (TypeError, ValueError):
            self.fail("hands must map seat numbers to card lists", ev)
        self.ensure(sorted(hands) == sorted(order),
                    f"hands dealt to seats {sorted(hands)}, but the active seats are "
                    f"{sorted(order)}", ev)
        size = hand_size(n_act)
        allc: Counter = Counter()
        for s in order:
            h = hands[s]
            for c in h:
                self.ensure(valid_card(c), f"seat {s} holds {c!r}, not a 56 card", ev)
            self.ensure(len(h) == size, f"seat {s} was dealt {len(h)} cards, {n_act} players "
                                        f"get {size} each", ev)
            allc.update(h)
        want = deck(n_act)
        if allc != want:
            extra = allc - want
            missing = want - allc
            self.fail(f"dealt cards are not the {sum(want.values())}-card deck for {n_act} "
                      f"players: extra {dict(extra)}, missing {dict(missing)}", ev)
        return hands

    def weak(self, hands: dict[int, list[str]]) -> str | None:
        for s, h in hands.items():
            if sum(card_points(c) for c in h) == 0:
                return f"seat {s} holds no card points"
        jacks: Counter = Counter()
        teams = set()
        for s, h in hands.items():
            teams.add(self.team_of(s))
            jacks[self.team_of(s)] += sum(1 for c in h if card_rank(c) == "J")
        for t in sorted(teams):
            if jacks[t] == 0:
                return f"team {t} holds no jack"
        return None

    def play_deal(self, d: int, dealer: int):
        rules = self.rules
        n_act = sum(self.active)
        first = self.next_active(dealer, 1)
        order = [first]
        for _ in range(n_act - 1):
            order.append(self.next_active(order[-1], self.step))
        size = hand_size(n_act)

        # redeals (cancelled weak hands), then the deal
        nred = 0
        while self.peek() is not None and self.peek().get("event") == "redeal":
            ev = self.take("redeal")
            self.ensure(rules["redeal_weak_hands"],
                        "a redeal although redeal_weak_hands is off", ev)
            self.field(ev, "attempt", nred)
            hands = self.check_hands(ev, order, n_act)
            why = self.weak(hands)
            self.ensure(why is not None, "redeal of hands that are not weak (every hand has "
                                         "card points and every team a jack)", ev)
            nred += 1
        ev = self.take("deal")
        self.field(ev, "dealer", dealer, "dealer (next active seat after the last dealer)")
        self.field(ev, "players", n_act)
        self.field(ev, "first", first, "first (next active seat after the dealer)")
        self.field(ev, "direction", self.step)
        self.field(ev, "redeals", nred)
        hands = self.check_hands(ev, order, n_act)
        if rules["redeal_weak_hands"] and nred < MAX_REDEALS:
            why = self.weak(hands)
            self.ensure(why is None, f"weak hands were played, not redealt: {why}", ev)

        # ---- auction
        min_bid, max_bid = rules["min_bid"], rules["max_bid"]
        hidden_rule = rules["hidden_trump"]
        high = None  # (value, trump, form, seat)
        level = 1
        passes = 0
        k = 0
        while True:
            seat = order[k % n_act]
            ev = self.peek()
            if ev is None or ev.get("event") != "call":
                self.fail(f"auction stops after {k} call(s) but is not over (high bid "
                          f"{high}, level {level}, {passes} consecutive passes)", ev)
            ev = self.take("call")
            self.field(ev, "seat", seat, f"seat (call {k} in turn order)")
            kind = ev.get("call")
            team = self.team_of(seat)
            done = False
            if kind == "pass":
                self.ensure(set(ev) <= {"event", "deal", "seat", "call", "seen_as"},
                            "pass with extra fields", ev)
                passes += 1
                done = passes == (n_act if high is None else n_act - 1)
                seen = {"call": "pass"}
            elif kind == "double":
                self.ensure(high is not None, "double with no bid to double", ev)
                self.ensure(level == 1, "double of a bid already doubled", ev)
                self.ensure(self.team_of(high[3]) != team,
                            f"seat {seat} doubles the bid of seat {high[3]}, its own team", ev)
                level = 2
                passes = 0
                seen = {"call": "double"}
            elif kind == "redouble":
                self.ensure(high is not None and level == 2,
                            "redouble of a bid that is not doubled", ev)
                self.ensure(self.team_of(high[3]) == team,
                            f"seat {seat} redoubles the bid of seat {high[3]} (not its team)",
                            ev)
                level = 4
                done = True
                seen = {"call": "redouble"}
            elif kind == "bid":
                value, trump, form = ev.get("value"), ev.get("trump"), ev.get("form")
                self.ensure(isinstance(value, int) and not isinstance(value, bool),
                            f"bid value {value!r} is not a number", ev)
                self.ensure(trump in TRUMPS, f"bid trump {trump!r} unknown", ev)
                self.ensure(form in BID_FORMS, f"bid form {form!r} unknown", ev)
                self.ensure(level == 1 or rules["bid_over_double"],
                            "a bid after a double with bid_over_double off", ev)
                if high is not None:
                    self.ensure(value > high[0], f"bid {value} is not higher than the last bid "
                                                 f"{high[0]}", ev)
                if form == "thani":
                    self.ensure(rules["thani"], "thani bid with rule thani off", ev)
                    self.ensure(value == max_bid + 1,
                                f"thani bid value {value}, must be max_bid + 1 = {max_bid + 1}",
                                ev)
                    self.ensure(trump == "NT", "thani is played with no trumps", ev)
                else:
                    self.ensure(min_bid <= value <= max_bid,
                                f"bid {value} outside min_bid..max_bid = {min_bid}..{max_bid}",
                                ev)
                    if form in ("number_suit", "suit_number", "plus_suit"):
                        self.ensure(trump in SUITS, f"form {form} needs a suit trump", ev)
                    if form == "number_nt":
                        self.ensure(trump == "NT", "form number_nt needs no-trumps", ev)
                    if form in ("plus_suit", "plus_two_noes"):
                        self.ensure(high is not None, f"form {form} as the opening bid", ev)
                    if form == "plus_two_noes":
                        self.ensure(value == high[0] + 2,
                                    f"plus_two_noes bids {value}, must be last bid + 2 = "
                                    f"{high[0] + 2}", ev)
                    if form in ("noes", "plus_two_noes"):
                        want = "NT" if high is None else high[1]
                        self.ensure(trump == want, f"{form} takes the trump of the bid it "
                                                   f"answers ({want}), log says {trump}", ev)
                high = (value, trump, form, seat)
                level = 1
                passes = 0
                seen = {"call": "bid", "value": value,
                        "trump": "hidden" if (hidden_rule and trump != "NT") else trump,
                        "form": form}
            else:
                self.fail(f"unknown call {kind!r}", ev)
            self.ensure(ev.get("seen_as") == seen,
                        f"seen_as {ev.get('seen_as')!r}, others should see {seen!r}", ev)
            k += 1
            if done:
                break
        nxt = self.peek()
        if nxt is not None and nxt.get("event") == "call":
            self.fail("a call after the auction ended", nxt)

        # ---- contract
        ev = self.take("contract")
        if high is None:
            # all passed: the team of the player on the dealer's right (with two teams: the
            # team without the dealer) plays all_pass_bid in no-trumps
            bidder, cteam, value, trump, form = -1, self.team_of(first), rules["all_pass_bid"], \
                "NT", "all_pass"
            if not self.pairs:
                self.ensure(cteam != self.team_of(dealer),
                            "all passed: the dealer's team would be contracted")
        else:
            value, trump, form, bidder = high
            cteam = self.team_of(bidder)
        self.field(ev, "bidder", bidder)
        self.field(ev, "team", cteam)
        self.field(ev, "bid", value)
        self.field(ev, "trump", trump)
        self.field(ev, "form", form)
        self.field(ev, "double_level", level)
        thani = form == "thani"
        hidden = hidden_rule and trump != "NT" and bidder >= 0
        sits_out = {s for s in order if thani and s != bidder and self.team_of(s) == cteam}
        players = [s for s in order if s not in sits_out]

        # ---- play
        trump_suit = trump if trump in SUITS else None
        revealed_at = None  # trick in which a hidden trump was shown
        trump_played = False
        leader = players[0]
        team_points = Counter()
        tricks_won = 0
        total_points = 0
        for t in range(size):
            start = order.index(leader)
            seq = [order[(start + j) % n_act] for j in range(n_act)]
            seq = [s for s in seq if s not in sits_out]
            cards: list[str] = []
            led = None
            for pos, seat in enumerate(seq):
                hand = hands[seat]
                must_trump = False
                ev = self.peek()
                if ev is not None and ev.get("event") == "reveal":
                    ev = self.take("reveal")
                    self.field(ev, "seat", seat, f"seat (next to play in trick {t})")
                    self.field(ev, "trick", t)
                    self.ensure(hidden, "reveal of a trump that is not hidden", ev)
                    self.ensure(revealed_at is None,
                                f"trump revealed again (already in trick {revealed_at})", ev)
                    self.ensure(led is not None, "the leader asks for the trump", ev)
                    self.ensure(not any(card_suit(c) == led for c in hand),
                                f"seat {seat} asks for the trump but can follow {led}", ev)
                    self.field(ev, "trump", trump)
                    revealed_at = t
                    must_trump = any(card_suit(c) == trump_suit for c in hand)
                ev = self.take("play", f" (trick {t}, seat {seat})")
                self.field(ev, "trick", t)
                self.field(ev, "seat", seat, f"seat (turn {pos} of trick {t})")
                card = ev.get("card")
                self.ensure(card in hand, f"seat {seat} plays {card!r}, not in hand {hand}", ev)
                if led is None:
                    knows = (not hidden) or seat == bidder or revealed_at is not None
                    if (rules["no_trump_lead_until_broken"] and trump_suit and knows
                            and not trump_played and card_suit(card) == trump_suit):
                        self.ensure(all(card_suit(c) == trump_suit for c in hand),
                                    f"seat {seat} leads trump {card} before trumps are broken "
                                    f"while holding other suits {hand}", ev)
                    led = card_suit(card)
                else:
                    if card_suit(card) != led:
                        self.ensure(not any(card_suit(c) == led for c in hand),
                                    f"seat {seat} plays {card} on a {led} lead holding "
                                    f"{[c for c in hand if card_suit(c) == led]}", ev)
                    if must_trump:
                        self.ensure(card_suit(card) == trump_suit,
                                    f"seat {seat} asked for the trump ({trump_suit}) and holds "
                                    f"one but plays {card}", ev)
                hand.remove(card)
                cards.append(card)
                if card_suit(card) == trump_suit:
                    trump_played = True
            # winner
            in_force = trump_suit is not None and (not hidden or revealed_at is not None)
            cand = [j for j, c in enumerate(cards) if in_force and card_suit(c) == trump_suit]
            if not cand:
                cand = [j for j, c in enumerate(cards) if card_suit(c) == led]
            best = cand[0]
            for j in cand[1:]:
                if STRENGTH[card_rank(cards[j])] > STRENGTH[card_rank(cards[best])]:
                    best = j
            winner = seq[best]
            pts = sum(card_points(c) for c in cards)
            ev = self.peek()
            if ev is not None and ev.get("event") == "reveal":
                self.fail(f"reveal after every player played to trick {t}", ev)
            ev = self.take("trick", f" (end of trick {t})")
            self.field(ev, "trick", t)
            self.field(ev, "winner", winner, f"winner of {list(zip(seq, cards))} "
                                             f"(trump {trump_suit if in_force else None})")
            self.field(ev, "points", pts)
            team_points[self.team_of(winner)] += pts
            total_points += pts
            if self.team_of(winner) == cteam:
                tricks_won += 1
            leader = winner
        for s in players:
            self.ensure(not hands[s], f"seat {s} still holds {hands[s]} after the last trick")
        idle = sum(card_points(c) for s in sits_out for c in hands[s])
        self.ensure(total_points + idle == 56,
                    f"card points in tricks ({total_points}) + sitting out ({idle}) != 56")

        # ---- score
        ev = self.take("score")
        bpts = team_points[cteam]
        opts = total_points - bpts
        made = tricks_won == size if thani else bpts >= value
        if thani:
            base = (self.win_pay if made else self.lose_pay).get(56)
            self.ensure(base is not None, "payout has no band for 56 (thani)", ev)
            base += rules["thani_extra"]
        else:
            base = (self.win_pay if made else self.lose_pay).get(value)
            self.ensure(base is not None, f"payout has no band for bid {value}", ev)
        stake = base * level
        moved = 0
        for k2 in range(1, self.nteams):
            o = (cteam + k2) % self.nteams
            if self.tables[o] <= 0:
                continue
            if made:
                amt = min(stake, self.tables[o])
                self.tables[o] -= amt
                self.tables[cteam] += amt
            else:
                amt = min(stake, self.tables[cteam])
                self.tables[cteam] -= amt
                self.tables[o] += amt
            moved += amt
        self.field(ev, "bidding_team_points", bpts)
        self.field(ev, "opponent_points", opts)
        self.field(ev, "made", made)
        self.field(ev, "tricks_won", tricks_won)
        self.field(ev, "stake", stake)
        self.field(ev, "tables_moved", moved)
        self.field(ev, "tables", list(self.tables), "tables (after the deal)")


def check_game(events: list[dict]) -> None:
    """Re-check one replayed 56 game; AssertionError at the first violation."""
    _Checker(events).run()


def check_file(path) -> None:
    check_game(load_jsonl(path))


if __name__ == "__main__":  # python tests/replay_checker.py game.jsonl ...
    import sys

    for p in sys.argv[1:]:
        check_file(p)
        print(f"{p}: ok")
