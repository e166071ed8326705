"""Shared helpers for the Contract Rummy tests: hand-made positions on the kernel's own state
arrays (the real kernel functions then judge them)."""
import numpy as np

from cardsim.simulator.cards import parse
from cardsim.simulator.games import get_game
from cardsim.simulator.games.contract_rummy import kernel as K
from cardsim.simulator.games.contract_rummy import turn as TU
from cardsim.simulator.games.contract_rummy import view as V
from cardsim.simulator.games.contract_rummy.rules import to_array

GAME = get_game("contract-rummy")
SUITS = "SHDC"


def codes(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def counts(text: str) -> np.ndarray:
    h = np.zeros(V.NCODES, np.int64)
    for c in codes(text):
        h[c] += 1
    return h


class Position:
    """One deal's state, built by hand (deal ``deal`` of the rules' contract list)."""

    def __init__(self, players=4, deal=0, **rules):
        # a one-deal contract list would make deal 0 the all-at-once last deal: off unless asked
        rules.setdefault("last_deal_all_at_once", False)
        self.rules_dict = GAME.rules.resolve({"players": players, **rules})
        self.rules = to_array(self.rules_dict)
        ctx = K.Ctx(np.uint64(0), False, self.rules, np.zeros(K.MAX_SEATS, np.int64),
                    np.zeros((K.MAX_SEATS, 6)), 0)
        owners, _ = K.KERNEL.new_state(ctx)
        for field in ("hands", "stock", "deck", "public", "private", "legal", "rngs", "stats",
                      "params", "lay_out", "comp", "work", "info", "rem", "m1", "stw"):
            setattr(self, field, getattr(owners, field))
        self.owners = owners
        self.players = players
        self.public[V.P_PLAYERS] = players
        K.set_deal_info(self.rules, deal, self.info, self.public)
        self.public[V.P_TURN] = 5
        for s in range(8):
            self.private[s, V.V_SEAT] = s

    # -- building
    def hand(self, seat, text):
        self.hands[seat] = counts(text)
        self.public[V.P_HAND_N + seat] = int(self.hands[seat].sum())
        return self

    def down(self, seat, turn=1):
        """The seat's contract went down in deal turn ``turn`` (the current turn is 5)."""
        self.public[V.P_DOWN + seat] = 1
        self.public[V.P_DOWN_TURN + seat] = turn
        return self

    def meld(self, owner, text):
        """A meld on the table: 'KS KH JK=KD' (a set) or '5H 6H JK=7H 8H' (a run; an ace
        before a 2 is low). Returns the meld's index."""
        items = text.split()
        nat = jok = 0
        names = [t.split("=")[-1] for t in items]
        ranks = {n[:-1] for n in names}
        is_set = len(ranks) == 1
        key = None
        for i, t in enumerate(items):
            joker = t.startswith("JK=")
            c = parse(t[3:] if joker else t)
            s, r = c // 13, c % 13
            if is_set:
                key, slot = r, s
            else:
                key = s
                nxt = names[i + 1][:-1] if i + 1 < len(names) else None
                slot = 0 if (r == 12 and nxt == "2") else r + 1
            if joker:
                jok |= 1 << slot
            else:
                nat |= 1 << slot
        m = int(self.public[V.P_NMELDS])
        b = V.P_MELDS + m * V.MW
        self.public[b:b + V.MW] = (V.SET if is_set else V.RUN, key, nat, jok, owner,
                                   len(items))
        self.public[V.P_NMELDS] = m + 1
        return m

    def pile(self, text):
        """The discard pile, bottom first (the last card is the top)."""
        cs = codes(text)
        self.public[V.P_PILE:V.P_PILE + len(cs)] = cs
        self.public[V.P_PILE_N] = len(cs)
        return self

    # -- asking the kernel
    def lay(self, seat=0):
        """(penalty left, melds as text) of lay_contract, or (-1, None)."""
        pen = int(TU.lay_of(self.hands[seat], self.info, self.rem, self.m1, self.stw, self.lay_out))
        if pen < 0:
            return pen, None
        k = int(self.info[TU.I_NSETS] + self.info[TU.I_NRUNS])
        return pen, [meld_text(*self.lay_out[i]) for i in range(k)]

    def lay_keeping(self, seat=0, top=None):
        """As ``lay`` for the lay-down the kernel makes after taking the top discard ``top``:
        a laying that would leave only that card in hand (it could not be discarded) gives
        way to one that leaves another card, or to none (-1, None)."""
        pen = int(TU.lay_of(self.hands[seat], self.info, self.rem, self.m1, self.stw, self.lay_out))
        t = -1 if top is None else parse(top)
        if pen >= 0:
            pen = int(TU.lay_keeping_top(self.hands[seat], t, pen, self.info, self.work, self.rem,
                                        self.m1, self.stw, self.lay_out))
        if pen < 0:
            return pen, None
        k = int(self.info[TU.I_NSETS] + self.info[TU.I_NRUNS])
        return pen, [meld_text(*self.lay_out[i]) for i in range(k)]

    def can_lay(self, seat=0):
        return bool(TU.can_lay_of(self.hands[seat], self.info, self.rem, self.m1, self.stw,
                                 self.lay_out))

    def layoffs(self, seat=0, forced=None, top=None):
        """The legal lay-off choices, decoded: 'STOP', ('lay', card, meld, slot) with card 'JK'
        for a joker, ('swap', meld, pos, meld2, slot2). ``top``: the top discard taken this
        turn (it may not be left alone in hand)."""
        f = -1 if forced is None else parse(forced)
        t = -1 if top is None else parse(top)
        n = TU.list_layoffs(seat, self.hands, self.public, self.legal, f, self.info, t)
        return [self.decode(int(c)) for c in self.legal[1:n + 1]]

    def decode(self, code):
        if code == V.STOP:
            return "STOP"
        if V.code_op(code) == V.OP_LAYOFF:
            m, slot = (code >> 4) & 31, code & 15
            b = V.P_MELDS + m * V.MW
            card = "JK" if (code >> 19) & 1 else name(V.card_at(self.public[b], self.public[b + 1],
                                                                slot))
            return ("lay", card, m, slot)
        return ("swap", (code >> 14) & 31, (code >> 10) & 15, (code >> 4) & 31, code & 15)

    def encode(self, choice):
        if choice[0] == "lay":
            return V.layoff_code(int(choice[1] == "JK"), choice[2], choice[3])
        return V.swap_code(*choice[1:])

    def apply(self, seat, choice):
        TU.apply_layoff(seat, self.encode(choice), self.hands, self.public, self.stats,
                       np.zeros((1, K.LOG_W), np.int32), False)

    def draws(self, seat=0, deep=True, cap=1 << 20):
        """Legal draw codes: 'stock', 'top', or ('deep', index). ``deep``: True (all), False, or
        kernel._list_draws' mode (1: the shallowest taking at most ``cap`` cards)."""
        down = self.public[V.P_DOWN + seat] == 1
        n = TU.list_draws(seat, self.hands, self.public, self.legal, self.work, self.info,
                         self.lay_out, self.rem, self.m1, self.stw, down,
                         np.int64(2 if deep is True else int(deep)), np.int64(cap))
        out = []
        for c in self.legal[1:n + 1]:
            c = int(c)
            out.append("stock" if c == V.D_STOCK else "top" if c == V.D_TOP
                       else ("deep", c - V.D_DEEP))
        return out

    def discards(self, seat=0, top=None):
        t = -1 if top is None else parse(top)
        n = TU.list_discards(seat, self.hands, self.legal, t)
        return sorted(name(int(c)) for c in self.legal[1:n + 1])

    def meld_text(self, m):
        b = V.P_MELDS + m * V.MW
        return meld_text(*self.public[b:b + 4])

    def hand_text(self, seat):
        return sorted(name(c) for c in range(V.NCODES) for _ in range(int(self.hands[seat, c])))


def name(c: int) -> str:
    from cardsim.simulator.cards import name as card_name

    return card_name(int(c))


def meld_text(kind, key, nat, jok) -> str:
    from cardsim.simulator.games.contract_rummy.replay import meld_dict

    return " ".join(meld_dict(int(kind), int(key), int(nat), int(jok))["cards"])


def deck_codes(text: str) -> np.ndarray:
    return np.array(codes(text), np.int32)
