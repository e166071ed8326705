"""Contract Rummy: every rule option as a typed, validated field (docs/rules/contract_rummy.md).

``to_array`` packs resolved rules into the int64 vector the kernel reads (indices R_*).
``decks`` and ``jokers`` default to ``auto`` (by player count, as the rule sheet says), and
``max_contract_meld`` to ``auto`` (max(4, min_run)); the cross-field check resolves them to
numbers, so run.json holds the values actually played.
"""
import re

from cardsim.simulator.errors import UsageError
from cardsim.simulator.rules import Block, Field, RuleSet

MAX_DEALS = 16
MAX_SEATS = 8
MAX_DECKS = 3
MAX_JOKERS = 8
MAX_CARDS = 52 * MAX_DECKS + MAX_JOKERS
MAX_DEAL_CARDS = 20

DEFAULT_CONTRACTS = "2s:10,1s1r:10,2r:10,3s:10,2s1r:12,1s2r:12,3r:12"
_CONTRACT_RE = re.compile(r"^(?:(\d)s)?(?:(\d)r)?:(\d+)$")
CONTRACTS_ALLOWED = ("comma-separated contracts SETSsRUNSr:CARDS, e.g. "
                     f"{DEFAULT_CONTRACTS} (1 to 4 melds each, 1 to {MAX_DEAL_CARDS} cards, "
                     f"at most {MAX_DEALS} deals)")


def parse_contracts(raw) -> list:
    """'2s:10,1s1r:10' (or a list of [sets, runs, cards]) -> [[sets, runs, cards], ...]."""
    if isinstance(raw, (list, tuple)):
        items = []
        for x in raw:
            if isinstance(x, str):
                items.append(x)
            else:
                s, r, n = (int(v) for v in x)
                items.append(f"{s}s{r}r:{n}")
    else:
        items = [t for t in str(raw).replace(" ", "").split(",") if t]
    out = []
    for t in items:
        m = _CONTRACT_RE.match(t.strip().lower())
        if not m:
            raise ValueError(CONTRACTS_ALLOWED)
        sets = int(m.group(1) or 0)
        runs = int(m.group(2) or 0)
        cards = int(m.group(3))
        if not 1 <= sets + runs <= 4 or not 1 <= cards <= MAX_DEAL_CARDS:
            raise ValueError(CONTRACTS_ALLOWED)
        out.append([sets, runs, cards])
    if not 1 <= len(out) <= MAX_DEALS:
        raise ValueError(CONTRACTS_ALLOWED)
    return out


def contract_label(sets: int, runs: int) -> str:
    return (f"{sets}s" if sets else "") + (f"{runs}r" if runs else "")


MAX_MELD_ALLOWED = "auto, none or an integer 3..14 (at least min_run)"


def _parse_max_meld(raw):
    """auto | none (no limit) | an integer 3..14; auto is resolved by ``check``."""
    if raw is None:
        return None
    t = str(raw).strip().lower()
    if t == "auto":
        return "auto"
    if t == "none":
        return None
    try:
        v = int(t)
    except ValueError:
        v = 0
    if isinstance(raw, bool) or not 3 <= v <= 14:
        raise ValueError  # the message: the field's allowed text
    return v


def auto_max_meld(min_run: int) -> int:
    """``max_contract_meld=auto``: the sheet's 4, or min_run when runs must be longer (a
    contract run of min_run cards must fit)."""
    return max(4, min_run)


def _auto_or_int(lo, hi):
    def parse(raw):
        if raw is None or str(raw).strip().lower() == "auto":
            return "auto"
        v = int(str(raw).strip())
        if isinstance(raw, bool) or not lo <= v <= hi:
            raise ValueError
        return v
    return parse


FIELDS = (
    Field("players", 4, "players, each for themselves (the sheet: 3-5, 4 best)", lo=2,
          hi=MAX_SEATS, slot="R_PLAYERS"),
    Field("decks", "auto", "52-card decks shuffled together; auto: 1 for 2-3 players, 2 for "
          "4-8 (the sheet: 1 deck, 2 with more than 5 players; 4-5 players get 2 because one "
          "deck cannot deal 12 cards to 5)", kind="custom", parse=_auto_or_int(1, MAX_DECKS),
          allowed=f"auto or an integer 1..{MAX_DECKS}", slot="R_DECKS"),
    Field("jokers", "auto", "jokers added to the decks; auto: one per deck", kind="custom",
          parse=_auto_or_int(0, MAX_JOKERS), allowed=f"auto or an integer 0..{MAX_JOKERS}",
          slot="R_JOKERS"),
    Field("contracts", DEFAULT_CONTRACTS,
          "the deals in order, each SETSsRUNSr:CARDS (melds the contract asks for, cards "
          "dealt to each player)", kind="custom", parse=parse_contracts,
          allowed=CONTRACTS_ALLOWED, slot="R_DEALS", encode=len),
    Field("min_run", 4, "fewest cards in a run", lo=3, hi=13, slot="R_MIN_RUN"),
    Field("max_contract_meld", "auto", "most cards in one meld when a contract is laid down "
          "(auto: max(4, min_run) -- the sheet's 4, or min_run when runs must be longer; "
          "none: no limit; never applies to the all-at-once last deal)", kind="custom",
          parse=_parse_max_meld, allowed=MAX_MELD_ALLOWED, slot="R_MAX_MELD"),  # none: 0
    Field("ace_low", True, "the ace may also be low (A-2-3-4); it is always high (J-Q-K-A); "
          "no run wraps round (K-A-2)", kind="bool", slot="R_ACE_LOW"),
    Field("runs_distinct_suits", False, "the runs of one contract must be of different suits",
          kind="bool", slot="R_RUNS_DISTINCT"),
    Field("last_deal_all_at_once", True, "in the last deal a player lays every card at once "
          "(all but at most one, which is discarded) and goes out in that turn; melds may be "
          "longer than max_contract_meld", kind="bool", slot="R_ALL_AT_ONCE"),
    Field("lay_off_sets", True, "sets may be filled by laying off (a missing suit, up to 4 "
          "cards); false: only runs are extended, as the sheet's words say", kind="bool",
          slot="R_LAYOFF_SETS"),
    Field("buying", False, "when a player draws from the stock instead of the top discard, "
          "another player (earlier in turn order first) may buy that discard with a penalty "
          "card from the stock", kind="bool", slot="R_BUYING"),
    Field("buy_limit", 3, "buys per player per deal", lo=0, hi=20, slot="R_BUY_LIMIT"),
    Field("max_reshuffles", 1, "times per deal the discard pile (but its top card) is "
          "shuffled into a new stock; when the stock is empty after that the deal stalls",
          lo=0, hi=20, slot="R_MAX_RESHUFFLES"),
    Field("max_turns", 500, "turn cap per deal: a deal still running after this many turns "
          "(all players) ends, everyone counts penalties, and it is recorded as capped",
          lo=1, hi=100000, slot="R_MAX_TURNS"),
)


def auto_decks(players: int) -> int:
    return 1 if players <= 3 else 2


def check(v: dict) -> None:
    if isinstance(v["contracts"], str):  # the default, as text
        v["contracts"] = parse_contracts(v["contracts"])
    if v["decks"] == "auto":
        v["decks"] = auto_decks(v["players"])
    if v["jokers"] == "auto":
        v["jokers"] = v["decks"]
    cards = 52 * v["decks"] + v["jokers"]
    most = max(c[2] for c in v["contracts"])
    need = v["players"] * most + 1
    if need > cards:
        raise UsageError(f"rule 'decks': {v['decks']} deck(s) and {v['jokers']} joker(s) "
                         f"({cards} cards) cannot deal {v['players']} hands of {most} plus an "
                         f"upcard (need {need}); use more decks or fewer players")
    if v["max_contract_meld"] == "auto":
        v["max_contract_meld"] = auto_max_meld(v["min_run"])
    mm = v["max_contract_meld"]
    if mm is not None and mm < v["min_run"]:
        raise UsageError(f"rule 'max_contract_meld': {mm} is below min_run {v['min_run']} "
                         f"(allowed: auto, none or an integer {v['min_run']}..14)")


def _contracts_block(v: dict) -> list:
    """R_CONTRACTS: sets, runs and cards dealt of each deal in order, zeros after the last."""
    flat = [x for c in v["contracts"] for x in c]
    return flat + [0] * (3 * MAX_DEALS - len(flat))


RULES = RuleSet("contract-rummy", FIELDS, check, presets={
    "single_deck": {"decks": 1, "jokers": 1},
}, blocks=(
    Block("R_NCARDS", 1, lambda v: [52 * v["decks"] + v["jokers"]], "cards in the deck"),
    Block("R_CONTRACTS", 3 * MAX_DEALS, _contracts_block,
          "contracts: sets, runs, cards dealt per deal"),
))
# the kernel's rule vector: R_PLAYERS ... as the Fields name their slots, then the blocks
globals().update(RULES.slots.offsets)
R_LEN = RULES.slots.size
to_array = RULES.to_array
