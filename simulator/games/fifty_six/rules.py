"""56: every rule option as a typed, validated field (the rules in words: docs/rules/fifty_six.md).

``to_array`` packs resolved rules into the int64 vector the kernel reads (indices R_*).
"""
import numpy as np

from cardsim.simulator.errors import UsageError
from cardsim.simulator.rules import Field, RuleSet, Slots

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
          allowed="4, 6 or 8"),
    Field("team_layout", "two_teams",
          "two_teams: seat s in team s % 2; pairs: players/2 teams of two, partners opposite",
          kind="choice", choices=("two_teams", "pairs")),
    Field("turn_order", "anticlockwise",
          "anticlockwise: from the dealer's right, dealer last; sheet_clockwise: from the "
          "dealer's right, then clockwise (dealer second)",
          kind="choice", choices=("anticlockwise", "sheet_clockwise")),
    Field("start_tables", 12, "tables each team starts the game with", lo=1, hi=1000),
    Field("max_deals", None, "cap on deals per game (game recorded as capped)", lo=1,
          hi=1_000_000, none_ok=True),
    Field("min_bid", 28, "lowest bid", lo=1, hi=56),
    Field("max_bid", 56, "highest bid (thani, if on, is one above)", lo=1, hi=56),
    Field("bid_over_double", True,
          "a higher bid may follow a double and replaces the doubled contract", kind="bool"),
    Field("all_pass_bid", 28,
          "contract of the team on the dealer's right (no trumps) when everyone passes",
          lo=1, hi=56),
    Field("hidden_trump", False,
          "bid trumps are secret; revealed when a player who cannot follow asks", kind="bool"),
    Field("payout", PAYOUT_PRESETS["sheet"],
          "tables won/lost per bid band (per paying or receiving team), before doubling",
          kind="custom", parse=parse_payout,
          allowed=f"a preset ({', '.join(PAYOUT_PRESETS)}) or bands like 28-39:1/2,40-56:2/3"),
    Field("thani", False, "thani bid above max_bid: bidder alone, no trumps, every trick",
          kind="bool"),
    Field("thani_extra", 1, "tables added each way to the bid-56 stake for thani", lo=0, hi=100),
    Field("redeal_weak_hands", False,
          "redeal (same dealer) when a hand has no card points or a team has no jack",
          kind="bool"),
    Field("no_trump_lead_until_broken", False,
          "trumps may not be led until a trump has been played, unless nothing else is held",
          kind="bool"),
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
    missing = sorted(b for b in need if win[b] < 0)
    if missing:
        raise UsageError(
            f"rule 'payout': no band covers bid {missing[0]} "
            f"(bands must cover min_bid..max_bid, all_pass_bid and 56 with thani)"
        )


RULES = RuleSet("fifty-six", FIELDS, check)

# the kernel's rule vector, slot by slot (filled by to_array)
_S = Slots()
R_PLAYERS = _S.one("players")
R_PAIRS = _S.one("team_layout is pairs")
R_SHEET_ORDER = _S.one("turn_order is sheet_clockwise")
R_START_TABLES = _S.one("start_tables")
R_MAX_DEALS = _S.one("max_deals (0: none)")
R_MIN_BID = _S.one("min_bid")
R_MAX_BID = _S.one("max_bid")
R_BID_OVER_DOUBLE = _S.one("bid_over_double")
R_ALL_PASS_BID = _S.one("all_pass_bid")
R_HIDDEN_TRUMP = _S.one("hidden_trump")
R_THANI = _S.one("thani")
R_THANI_EXTRA = _S.one("thani_extra")
R_REDEAL_WEAK = _S.one("redeal_weak_hands")
R_NO_TRUMP_LEAD = _S.one("no_trump_lead_until_broken")
R_PAY_WIN = _S.block("tables won by bid 0..56 (payout)", 57)
R_PAY_LOSE = _S.block("tables lost by bid 0..56 (payout)", 57)
R_LEN = _S.size
SLOTS = _S


def to_array(v: dict) -> np.ndarray:
    r = np.zeros(R_LEN, np.int64)
    r[R_PLAYERS] = v["players"]
    r[R_PAIRS] = v["team_layout"] == "pairs"
    r[R_SHEET_ORDER] = v["turn_order"] == "sheet_clockwise"
    r[R_START_TABLES] = v["start_tables"]
    r[R_MAX_DEALS] = v["max_deals"] or 0
    r[R_MIN_BID] = v["min_bid"]
    r[R_MAX_BID] = v["max_bid"]
    r[R_BID_OVER_DOUBLE] = v["bid_over_double"]
    r[R_ALL_PASS_BID] = v["all_pass_bid"]
    r[R_HIDDEN_TRUMP] = v["hidden_trump"]
    r[R_THANI] = v["thani"]
    r[R_THANI_EXTRA] = v["thani_extra"]
    r[R_REDEAL_WEAK] = v["redeal_weak_hands"]
    r[R_NO_TRUMP_LEAD] = v["no_trump_lead_until_broken"]
    win, lose = payout_tables(v["payout"])
    r[R_PAY_WIN:R_PAY_WIN + 57] = win
    r[R_PAY_LOSE:R_PAY_LOSE + 57] = lose
    return r
