"""56: every rule option as a typed, validated field (the rules in words: docs/rules/fifty_six.md).

``to_array`` packs resolved rules into the int64 vector the kernel reads (indices R_*).
"""
import numpy as np

from cardsim.simulator.errors import UsageError
from cardsim.simulator.rules import Block, Field, RuleSet

PAYOUT_PRESETS = {
    # bid band: tables the bidding team receives if it wins / pays if it loses
    "sheet": "28-39:1/2,40-47:2/3,48-55:3/4,56:4/5",
    "short": "28-39:1/2,40-55:2/3,56:3/4",
}


def parse_players(raw) -> int:
    v = int(str(raw).strip())
    if v not in (4, 6, 8):
        raise ValueError("allowed: 4, 6 or 8")
    return v


def parse_payout(raw) -> str:
    """A preset name or bands 'LO-HI:WIN/LOSE,...'; returns the canonical band string."""
    text = PAYOUT_PRESETS.get(str(raw).strip(), str(raw).strip())
    allowed = f"a preset ({', '.join(PAYOUT_PRESETS)}) or bands like 28-39:1/2,40-56:2/3"
    bands = []
    try:
        for part in text.split(","):
            span, _, stakes = part.strip().partition(":")
            lo, _, hi = span.partition("-")
            win, _, lose = stakes.partition("/")
            lo_i, hi_i = int(lo), int(hi or lo)
            w, l_ = int(win), int(lose)
            if not (1 <= lo_i <= hi_i <= 56 and 0 <= w <= 100 and 0 <= l_ <= 100):
                raise ValueError
            bands.append((lo_i, hi_i, w, l_))
    except ValueError:
        raise ValueError(allowed) from None
    bands.sort()
    for (a_lo, a_hi, _, _), (b_lo, _, _, _) in zip(bands, bands[1:]):
        if b_lo <= a_hi:
            raise ValueError(f"bands overlap at {b_lo}; {allowed}")
    return ",".join(f"{lo}-{hi}:{w}/{l_}" if lo != hi else f"{lo}:{w}/{l_}" for lo, hi, w, l_ in bands)


# a fixed contract's trump as written (the kernel's codes: suits 0..3 as view.TRUMP_NAMES, 4
# no-trumps, BEST the bidder's strongest suit, chosen in the kernel from the dealt hand)
CONTRACT_TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4, "BEST": -2}
BEST = -2
_LEVEL_WORDS = {"no": 1, "yes": 2, "redouble": 4}
CONTRACT_ALLOWED = ("auction, or a contract every deal is played in: seat=S,bid=B,trump=T"
                    "[,double=no|yes|redouble] (S the bidder's place in turn order, 0 leads; "
                    "T one of S, H, D, C, NT, best) or short: 40C, 44NT@1, 40bestx (x doubled, "
                    "xx redoubled)")


def _short(text: str) -> tuple[str, str, int, str]:
    """(bid, trump, double level, place) as written in the short form 40Cx@1 (level 0: more
    than two x)."""
    body, _, seat = text.partition("@")
    xs = len(body) - len(body.rstrip("xX"))  # no trump name ends in x
    body = body[: len(body) - xs]
    digits = len(body) - len(body.lstrip("0123456789"))
    return body[:digits], body[digits:], {0: 1, 1: 2, 2: 4}.get(xs, 0), seat or "0"


def parse_contract(raw) -> str:
    """'auction' or a fixed contract, written canonically as BID TRUMP [x|xx] @ PLACE
    ('40C@0', '40bestx@1'); see CONTRACT_ALLOWED."""
    text = str(raw).strip()
    if text.lower() == "auction":
        return "auction"
    if "=" in text:
        parts = dict(p.strip().partition("=")[::2] for p in text.split(",") if p.strip())
        unknown = set(parts) - {"seat", "bid", "trump", "double"}
        if unknown:
            raise ValueError(f"unknown key {sorted(unknown)[0]!r}; allowed: {CONTRACT_ALLOWED}")
        if "bid" not in parts or "trump" not in parts:
            raise ValueError(f"bid= and trump= are needed; allowed: {CONTRACT_ALLOWED}")
        bid, trump, seat = parts["bid"], parts["trump"], parts.get("seat", "0")
        level = _LEVEL_WORDS.get(parts.get("double", "no").strip().lower())
        if level is None:
            raise ValueError(f"double={parts['double']!r}: allowed no, yes, redouble")
    else:
        bid, trump, level, seat = _short(text)
    try:
        bid_i, seat_i = int(str(bid).strip()), int(str(seat).strip())
    except ValueError:
        raise ValueError(CONTRACT_ALLOWED) from None
    t = str(trump).strip().upper()
    if t not in CONTRACT_TRUMPS or not 1 <= bid_i <= 56 or not 0 <= seat_i < 8 or not level:
        raise ValueError(CONTRACT_ALLOWED)
    return f"{bid_i}{'best' if t == 'BEST' else t}{'x' * {1: 0, 2: 1, 4: 2}[level]}@{seat_i}"


def contract_parts(text: str) -> tuple[int, int, int, int] | None:
    """(place, bid, trump code, double level) of a canonical fixed contract; None: auction."""
    if text == "auction":
        return None
    bid, trump, level, seat = _short(text)
    return int(seat), int(bid), CONTRACT_TRUMPS[trump.upper()], level


def _contract_slots(v: dict) -> list[int]:
    parts = contract_parts(v["contract"])
    return [0, 0, 0, 0, 1] if parts is None else [1, *parts]


def payout_tables(text: str) -> tuple[np.ndarray, np.ndarray]:
    """(win[57], lose[57]) indexed by bid value; -1 where no band covers the value."""
    win = np.full(57, -1, np.int64)
    lose = np.full(57, -1, np.int64)
    for part in text.split(","):
        span, _, stakes = part.partition(":")
        lo, _, hi = span.partition("-")
        w, _, l_ = stakes.partition("/")
        win[int(lo):int(hi or lo) + 1] = int(w)
        lose[int(lo):int(hi or lo) + 1] = int(l_)
    return win, lose


FIELDS = (
    Field("players", 4, "number of players", kind="custom", parse=parse_players,
          allowed="4, 6 or 8", slot="R_PLAYERS"),
    Field("team_layout", "two_teams",
          "two_teams: seat s in team s % 2; pairs: players/2 teams of two, partners opposite",
          kind="choice", choices=("two_teams", "pairs"),
          slot="R_PAIRS", encode=lambda v: v == "pairs"),
    Field("turn_order", "anticlockwise",
          "anticlockwise: from the dealer's right, dealer last; sheet_clockwise: from the "
          "dealer's right, then clockwise (dealer second)",
          kind="choice", choices=("anticlockwise", "sheet_clockwise"),
          slot="R_SHEET_ORDER", encode=lambda v: v == "sheet_clockwise"),
    Field("start_tables", 12, "tables each team starts the game with", lo=1, hi=1000,
          slot="R_START_TABLES"),
    Field("max_deals", None, "cap on deals per game (game recorded as capped)", lo=1,
          hi=1_000_000, none_ok=True, slot="R_MAX_DEALS"),
    Field("min_bid", 28, "lowest bid", lo=1, hi=56, slot="R_MIN_BID"),
    Field("max_bid", 56, "highest bid (thani, if on, is one above)", lo=1, hi=56,
          slot="R_MAX_BID"),
    Field("bid_over_double", True,
          "a higher bid may follow a double and replaces the doubled contract", kind="bool",
          slot="R_BID_OVER_DOUBLE"),
    Field("all_pass_bid", 28,
          "contract of the team on the dealer's right (no trumps) when everyone passes",
          lo=1, hi=56, slot="R_ALL_PASS_BID"),
    Field("hidden_trump", False,
          "bid trumps are secret; revealed when a player who cannot follow asks", kind="bool",
          slot="R_HIDDEN_TRUMP"),
    Field("payout", PAYOUT_PRESETS["sheet"],
          "tables won/lost per bid band (per paying or receiving team), before doubling",
          kind="custom", parse=parse_payout,
          allowed=f"a preset ({', '.join(PAYOUT_PRESETS)}) or bands like 28-39:1/2,40-56:2/3"),
    Field("thani", False, "thani bid above max_bid: bidder alone, no trumps, every trick",
          kind="bool", slot="R_THANI"),
    Field("thani_extra", 1, "tables added each way to the bid-56 stake for thani", lo=0, hi=100,
          slot="R_THANI_EXTRA"),
    Field("redeal_weak_hands", False,
          "redeal (same dealer) when a hand has no card points or a team has no jack",
          kind="bool", slot="R_REDEAL_WEAK"),
    Field("no_trump_lead_until_broken", False,
          "trumps may not be led until a trump has been played, unless nothing else is held",
          kind="bool", slot="R_NO_TRUMP_LEAD"),
    Field("contract", "auction",
          "auction: the players bid; or a contract every deal is played in without an "
          "auction (a study setting, not a rule of the sheet): bidder's place in turn order, "
          "bid, trump (best: the bidder's longest suit) and double level",
          kind="custom", parse=parse_contract, allowed=CONTRACT_ALLOWED),
)


def check(v: dict) -> None:
    if v["min_bid"] > v["max_bid"]:
        raise UsageError(
            f"rule 'min_bid' ({v['min_bid']}) must not exceed 'max_bid' ({v['max_bid']})"
        )
    win, _ = payout_tables(v["payout"])
    need = set(range(v["min_bid"], v["max_bid"] + 1)) | {v["all_pass_bid"]}
    if v["thani"]:
        need.add(56)
    fixed = contract_parts(v["contract"])
    if fixed is not None:
        if fixed[0] >= v["players"]:
            raise UsageError(f"rule 'contract' ({v['contract']}): the bidder's place must be "
                             f"0..{v['players'] - 1} with {v['players']} players")
        need.add(fixed[1])
    missing = sorted(b for b in need if win[b] < 0)
    if missing:
        raise UsageError(
            f"rule 'payout': no band covers bid {missing[0]} "
            f"(bands must cover min_bid..max_bid, all_pass_bid, 56 with thani and a fixed "
            "contract's bid)"
        )


RULES = RuleSet("fifty-six", FIELDS, check, blocks=(
    Block("R_PAY_WIN", 57, lambda v: payout_tables(v["payout"])[0],
          "tables won by bid 0..56 (payout; -1 where no band covers the bid)"),
    Block("R_PAY_LOSE", 57, lambda v: payout_tables(v["payout"])[1],
          "tables lost by bid 0..56 (payout)"),
    Block("R_FIXED", 5, _contract_slots,
          "contract: fixed (0 auction, 1 fixed), bidder's place, bid, trump (-2 best), level"),
))
# the kernel's rule vector: R_PLAYERS ... as the Fields name their slots, then the payout
# tables (to_array fills it)
globals().update(RULES.slots.offsets)
R_LEN = RULES.slots.size
to_array = RULES.to_array
