"""Toy tricks: every rule option as a typed field, and the vector the kernel reads.

Four players in two teams (seat s in team s % 2) are dealt ``hand_size`` cards each from the
24 cards 9 10 J Q K A of four suits. The player left of the dealer leads; the others follow suit
if they can; the highest card of the suit led wins the trick and leads the next. A team scores
a point per trick and ``last_trick_bonus`` for the last one; the game ends after the deal in
which a team reaches ``target`` (the higher total wins; equal totals: no winner) or after
``max_deals`` deals (capped)."""
from cardsim.simulator.errors import UsageError
from cardsim.simulator.rules import Field, RuleSet

FIELDS = (
    Field("hand_size", 5, "cards dealt to each player (and tricks per deal)", lo=3, hi=6,
          slot="R_HAND"),
    Field("last_trick_bonus", 1, "points for taking the last trick", lo=0, hi=3,
          slot="R_BONUS"),
    Field("target", 10, "total that ends the game", lo=5, hi=30, slot="R_TARGET"),
    Field("max_deals", 50, "cap on deals per game (game recorded as capped)", lo=1, hi=500,
          slot="R_MAX_DEALS"),
)


def check(v: dict) -> None:
    if v["target"] > v["max_deals"] * (v["hand_size"] + v["last_trick_bonus"]):
        raise UsageError(f"rule 'target' ({v['target']}) cannot be reached in max_deals "
                         f"({v['max_deals']}) deals")


RULES = RuleSet("toy-tricks", FIELDS, check)
# the kernel's rule vector: R_HAND ... as the Fields name their slots
globals().update(RULES.slots.offsets)
R_LEN = RULES.slots.size
to_array = RULES.to_array
