"""Hand and Foot: every rule option as a typed, validated field (docs/rules/hand_and_foot.md).

``to_array`` packs resolved rules into the int64 vector the kernel reads (indices R_*, each
named by its Field's ``slot`` or a Block).
"""
from cardsim.simulator.errors import UsageError
from cardsim.simulator.rules import Block, Field, RuleSet

MAX_DEALS = 16
BOOK_KINDS = ("clean", "dirty", "wild")


def parse_players(raw) -> int:
    v = int(str(raw).strip())
    if v not in (2, 3, 4, 6):
        raise ValueError("allowed: 2, 3, 4 or 6 (5 players have no partnership layout)")
    return v


def parse_min_meld(raw) -> list:
    """'50,90,120,150' (or a list) -> one non-negative minimum per deal."""
    allowed = "comma-separated whole numbers 0..10000, one per deal, e.g. 50,90,120,150"
    items = raw if isinstance(raw, (list, tuple)) else str(raw).replace("/", ",").split(",")
    try:
        vals = [int(str(x).strip()) for x in items]
    except ValueError:
        raise ValueError(allowed) from None
    if not vals or len(vals) > MAX_DEALS or any(v < 0 or v > 10000 for v in vals):
        raise ValueError(allowed)
    return vals


def parse_pile_take(raw):
    t = str(raw).strip().lower()
    if t == "all":
        return "all"
    try:
        v = int(t)
    except ValueError:
        raise ValueError("allowed: an integer 1..270 or all") from None
    if not 1 <= v <= 270:
        raise ValueError("allowed: an integer 1..270 or all")
    return v


def parse_books(raw) -> dict:
    """'clean=2,dirty=2,wild=1' (or a dict) -> {clean, dirty, wild} counts."""
    allowed = "clean=N,dirty=N,wild=N with N in 0..20 (missing kinds count 0)"
    if isinstance(raw, dict):
        items = list(raw.items())
    else:
        items = []
        for part in str(raw).split(","):
            if part.strip():
                k, eq, v = part.partition("=")
                if not eq:
                    raise ValueError(allowed)
                items.append((k, v))
    out = {k: 0 for k in BOOK_KINDS}
    try:
        for k, v in items:
            k = str(k).strip()
            if k not in out:
                raise ValueError
            out[k] = int(str(v).strip())
    except ValueError:
        raise ValueError(allowed) from None
    if any(not 0 <= v <= 20 for v in out.values()):
        raise ValueError(allowed)
    return out


FIELDS = (
    Field("players", 4, "players: 4 = two partnerships (partners opposite), 6 = three "
          "partnerships (seats s and s+3), 2 or 3 = each for themselves", kind="custom",
          parse=parse_players, allowed="2, 3, 4 or 6", slot="R_PLAYERS"),
    Field("decks", 5, "54-card decks (52 + 2 jokers) shuffled together", lo=1, hi=12,
          slot="R_DECKS"),
    Field("hand_size", 13, "cards in each hand", lo=1, hi=30, slot="R_HAND"),
    Field("foot_size", 13, "cards in each foot", lo=2, hi=30, slot="R_FOOT"),
    Field("deals", 4, "deals in a game", lo=1, hi=MAX_DEALS, slot="R_DEALS"),
    Field("min_meld", [50, 90, 120, 150],
          "minimum points of a partnership's first melding turn, one value per deal",
          kind="custom", parse=parse_min_meld,
          allowed="comma-separated whole numbers 0..10000, one per deal (at least `deals`)"),
    Field("upcard_buried", "threes_and_jokers",
          "which first upcards are buried back in the stock: threes_and_jokers (the sheet) or "
          "threes_and_wilds (2s too)", kind="choice",
          choices=("threes_and_jokers", "threes_and_wilds"), slot="R_BURY_TWOS",
          encode=lambda v: v == "threes_and_wilds"),
    Field("first_player", "left_of_hand_dealer",
          "who plays first: left_of_hand_dealer or hand_dealer", kind="choice",
          choices=("left_of_hand_dealer", "hand_dealer"), slot="R_FIRST_IS_DEALER",
          encode=lambda v: v == "hand_dealer"),
    Field("draw_count", 2, "cards drawn from the stock", lo=1, hi=10, slot="R_DRAW"),
    Field("one_meld_action_per_turn", False,
          "a turn either starts melds or adds to melds that existed before it, not both",
          kind="bool", slot="R_ONE_ACTION"),
    Field("pile_take", 7, "cards taken from the discard pile (top N, or all)", kind="custom",
          parse=parse_pile_take, allowed="an integer 1..270 or all", slot="R_PILE_TAKE",
          encode=lambda v: 0 if v == "all" else v),  # the kernel reads 0 as all
    Field("pickup_wild_top", False,
          "the pile may be taken when its top card is a wild (with two wilds from hand)",
          kind="bool", slot="R_WILD_TOP"),
    Field("black_threes_meld_going_out", False,
          "3 or 4 black threes may be melded in the turn the player goes out", kind="bool",
          slot="R_BLACK3_OUT"),
    Field("go_out_without_discard", False, "a player may also go out by melding every card",
          kind="bool", slot="R_OUT_NO_DISCARD"),
    Field("books_to_go_out", {"clean": 2, "dirty": 2, "wild": 1},
          "books a partnership needs before one of its players may go out", kind="custom",
          parse=parse_books, allowed="clean=N,dirty=N,wild=N with N in 0..20"),
    Field("unplayed_foot_counts", True,
          "cards in a foot never picked up count against the team (red threes there always "
          "cost 100)", kind="bool", slot="R_FOOT_COUNTS"),
    Field("max_turns", 2000, "turn cap per deal: a deal still running after this many turns "
          "ends and is recorded as capped", lo=1, hi=100000, slot="R_MAX_TURNS"),
)
# the kernel slots no single Field fills: the books to go out by kind, the minimum per deal
# (0 past the game's deals)
BLOCKS = (
    Block("R_NEED_CLEAN", 1, lambda v: [v["books_to_go_out"]["clean"]], "books_to_go_out clean"),
    Block("R_NEED_DIRTY", 1, lambda v: [v["books_to_go_out"]["dirty"]], "books_to_go_out dirty"),
    Block("R_NEED_WILD", 1, lambda v: [v["books_to_go_out"]["wild"]], "books_to_go_out wild"),
    Block("R_MIN_MELD", MAX_DEALS,
          lambda v: (list(v["min_meld"][:v["deals"]]) + [0] * MAX_DEALS)[:MAX_DEALS],
          "min_meld per deal"),
)


def check(v: dict) -> None:
    if len(v["min_meld"]) < v["deals"]:
        raise UsageError(f"rule 'min_meld': {len(v['min_meld'])} values for {v['deals']} deals "
                         f"(give one per deal)")
    cards = 54 * v["decks"]
    need = v["players"] * (v["hand_size"] + v["foot_size"]) + 1
    if need > cards:
        raise UsageError(f"rule 'decks': {v['decks']} decks ({cards} cards) cannot deal "
                         f"{v['players']} hands of {v['hand_size']} and feet of "
                         f"{v['foot_size']} plus an upcard (need {need})")


RULES = RuleSet("hand-and-foot", FIELDS, check, blocks=BLOCKS)
# the kernel's rule vector: R_PLAYERS ... as the Fields and BLOCKS name their slots
globals().update(RULES.slots.offsets)
R_LEN = RULES.slots.size
to_array = RULES.to_array


def n_teams(players: int) -> int:
    return players // 2 if players in (4, 6) else players
