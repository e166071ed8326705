"""Contract Rummy outcome tables: column order of the kernel's rows and the Parquet schema.

``deals`` has one row per (game, deal, seat): the player's part of the deal, with the deal's
own facts (contract, turns, how it ended, who went out) repeated on each seat's row -- take
``seat == 0`` for one row per deal. ``games`` has one row per game. Turns: ``turns`` and
``*_deal_turn`` count every player's turns in the deal from 1; ``down_turn`` and ``out_turn``
count the player's own turns (1 = its first turn), the unit of the contract-completion study.
"""
import polars as pl

from cardsim.simulator.games.contract_rummy.rules import MAX_SEATS
from cardsim.simulator.tables import Column, column_indices, team_columns

END_NAMES = ("went_out", "stalled", "turn_cap")
END_ENUM = pl.Enum(list(END_NAMES))
END_OUT, END_STALL, END_CAP = (END_NAMES.index(n) for n in ("went_out", "stalled", "turn_cap"))

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it", key="D_GAME"),
    Column("deal_index", pl.Int8, "deal number within the game, from 0", key="D_DEAL"),
    Column("seat", pl.Int8, "the player (strategies are given per seat: --strategy SEAT=...)",
           key="D_SEAT"),
    Column("players", pl.Int8, "players at the table", key="D_PLAYERS"),
    Column("decks", pl.Int8, "52-card decks in play", key="D_DECKS"),
    Column("jokers_in_deck", pl.Int8, "jokers in play", key="D_JOKERS"),
    Column("sets", pl.Int8, "sets the deal's contract asks for", key="D_SETS"),
    Column("runs", pl.Int8, "runs the deal's contract asks for", key="D_RUNS"),
    Column("cards_dealt", pl.Int8, "cards dealt to each player", key="D_DEALT"),
    Column("all_at_once", pl.Boolean, "the deal is played all at once (last deal with "
                                      "last_deal_all_at_once)", key="D_ALL_AT_ONCE"),
    Column("dealer", pl.Int8, "seat that dealt", key="D_DEALER"),
    Column("first_seat", pl.Int8, "seat that played first (the dealer's left)", key="D_FIRST"),
    Column("seat_order", pl.Int8, "the seat's place in turn order (0 = played first)",
           key="D_ORDER"),
    Column("turns", pl.Int16, "turns played in the deal (all players)", key="D_TURNS"),
    Column("end", END_ENUM, "how the deal ended: went_out, stalled (stock empty after "
                            "max_reshuffles) or turn_cap (max_turns reached)", key="D_END"),
    Column("reshuffles", pl.Int8, "times the discard pile became the stock", key="D_RESHUFFLES"),
    Column("out_seat", pl.Int8, "seat that went out (null: nobody)", key="D_OUT_SEAT"),
    Column("dealt_can_lay", pl.Boolean, "the dealt hand already held the contract (turn 0)",
           key="D_DEALT_CAN_LAY"),
    Column("down_turn", pl.Int16, "the player's own turn (from 1) in which its contract went "
                                  "down (null: never)", key="D_DOWN_TURN"),
    Column("down_deal_turn", pl.Int16, "deal turn of that (null: never)", key="D_DOWN_DEAL_TURN"),
    Column("went_out", pl.Boolean, "this player went out", key="D_WENT_OUT"),
    Column("out_turn", pl.Int16, "the player's own turn in which it went out (null: it did "
                                 "not)", key="D_OUT_TURN"),
    Column("own_turns", pl.Int16, "turns this player played in the deal", key="D_OWN_TURNS"),
    Column("penalty", pl.Int16, "penalty points of the cards left in hand (K Q J 10, ace 15, "
                                "joker 15, 2-10 face value)", key="D_PENALTY"),
    Column("cumulative", pl.Int32, "the player's game total after this deal", key="D_CUMULATIVE"),
    Column("cards_left", pl.Int8, "cards left in hand at the end", key="D_CARDS_LEFT"),
    Column("jokers_dealt", pl.Int8, "jokers in the player's dealt hand (chance alone: the "
                                    "unit of the worth-of-a-joker study)", key="D_JOKERS_DEALT"),
    Column("jokers_held", pl.Int8, "jokers in hand at the end", key="D_JOKERS_HELD"),
    Column("jokers_used", pl.Int8, "jokers this player put on the table (contract, lay-offs, "
                                   "swapped jokers re-laid)", key="D_JOKERS_USED"),
    Column("pile_cards", pl.Int16, "cards taken from the discard pile (top, deep draws and "
                                   "buys)", key="D_PILE_CARDS"),
    Column("top_draws", pl.Int16, "turns drawing the single top discard", key="D_TOP_DRAWS"),
    Column("deep_draws", pl.Int16, "turns drawing from inside the pile", key="D_DEEP_DRAWS"),
    Column("buys", pl.Int8, "discards bought (each with a penalty card)", key="D_BUYS"),
    Column("lay_offs", pl.Int16, "cards laid off on melds (swapped-in naturals included)",
           key="D_LAY_OFFS"),
    Column("swaps", pl.Int8, "jokers taken from runs by a swap", key="D_SWAPS"),
    Column("strategy", pl.Int8, "strategy playing this seat in this game (its seat number in "
                                "--strategy; differs from seat with duplicate seating)",
           key="D_STRATEGY"),
)

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it", key="G_GAME"),
    Column("deals", pl.Int8, "deals played", key="G_DEALS"),
    Column("players", pl.Int8, "players at the table", key="G_PLAYERS"),
    Column("first_dealer", pl.Int8, "seat that dealt deal 0", key="G_DEALER"),
    Column("winner", pl.Int8, "seat with the lowest total (null on a tie for lowest)",
           key="G_WINNER"),
    Column("tied", pl.Int8, "seats sharing the lowest total (1: a sole winner)", key="G_TIED"),
    Column("capped_deals", pl.Int8, "deals that ended at the turn cap", key="G_CAPPED"),
    Column("stalled_deals", pl.Int8, "deals that stalled (stock exhausted)", key="G_STALLED"),
    Column("rotation", pl.Int8, "duplicate seating: seat s is played by strategy (s + rotation) "
                                "% players (0 with fixed seating)", key="G_ROTATION"),
    Column("winner_strategy", pl.Int8, "strategy (its seat number in --strategy) of the winner "
                                       "(null on a tie)", key="G_WINNER_STRATEGY"),
) + tuple(Column(f"total_seat{s}", pl.Int32, f"game total of seat {s} (null: no such seat)",
                 key="G_TOTAL0" if s == 0 else None) for s in range(MAX_SEATS))
# the kernel's row indices, D_GAME ... and G_GAME ..., as the columns' keys name them
globals().update(column_indices(DEAL_COLUMNS, "D_NCOLS"))
globals().update(column_indices(GAME_COLUMNS, "G_NCOLS"))
# the kernel writes seat s's total at G_TOTAL0 + s
team_columns(GAME_COLUMNS, "total_seat0", MAX_SEATS)

DEAL_NULL_IF_NEGATIVE = ("out_seat", "down_turn", "down_deal_turn", "out_turn")
GAME_NULL_IF_NEGATIVE = ("winner", "winner_strategy") + tuple(f"total_seat{s}" for s in range(MAX_SEATS))
