"""Contract Rummy outcome tables: column order of the kernel's rows and the Parquet schema.

``deals`` has one row per (game, deal, seat): the player's part of the deal, with the deal's
own facts (contract, turns, how it ended, who went out) repeated on each seat's row -- take
``seat == 0`` for one row per deal. ``games`` has one row per game. Turns: ``turns`` and
``*_deal_turn`` count every player's turns in the deal from 1; ``down_turn`` and ``out_turn``
count the player's own turns (1 = its first turn), the unit of the contract-completion study.
"""
import polars as pl

from cardsim.simulator.games.contract_rummy.rules import MAX_SEATS
from cardsim.simulator.tables import Column

END_NAMES = ("went_out", "stalled", "turn_cap")
END_ENUM = pl.Enum(list(END_NAMES))
END_OUT, END_STALL, END_CAP = range(3)

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it"),
    Column("deal_index", pl.Int8, "deal number within the game, from 0"),
    Column("seat", pl.Int8, "the player (strategies are given per seat: --strategy SEAT=...)"),
    Column("players", pl.Int8, "players at the table"),
    Column("decks", pl.Int8, "52-card decks in play"),
    Column("jokers_in_deck", pl.Int8, "jokers in play"),
    Column("sets", pl.Int8, "sets the deal's contract asks for"),
    Column("runs", pl.Int8, "runs the deal's contract asks for"),
    Column("cards_dealt", pl.Int8, "cards dealt to each player"),
    Column("all_at_once", pl.Boolean, "the deal is played all at once (last deal with "
                                      "last_deal_all_at_once)"),
    Column("dealer", pl.Int8, "seat that dealt"),
    Column("first_seat", pl.Int8, "seat that played first (the dealer's left)"),
    Column("seat_order", pl.Int8, "the seat's place in turn order (0 = played first)"),
    Column("turns", pl.Int16, "turns played in the deal (all players)"),
    Column("end", END_ENUM, "how the deal ended: went_out, stalled (stock empty after "
                            "max_reshuffles) or turn_cap (max_turns reached)"),
    Column("reshuffles", pl.Int8, "times the discard pile became the stock"),
    Column("out_seat", pl.Int8, "seat that went out (null: nobody)"),
    Column("dealt_can_lay", pl.Boolean, "the dealt hand already held the contract (turn 0)"),
    Column("down_turn", pl.Int16, "the player's own turn (from 1) in which its contract went "
                                  "down (null: never)"),
    Column("down_deal_turn", pl.Int16, "deal turn of that (null: never)"),
    Column("went_out", pl.Boolean, "this player went out"),
    Column("out_turn", pl.Int16, "the player's own turn in which it went out (null: it did "
                                 "not)"),
    Column("own_turns", pl.Int16, "turns this player played in the deal"),
    Column("penalty", pl.Int16, "penalty points of the cards left in hand (K Q J 10, ace 15, "
                                "joker 15, 2-10 face value)"),
    Column("cumulative", pl.Int32, "the player's game total after this deal"),
    Column("cards_left", pl.Int8, "cards left in hand at the end"),
    Column("jokers_dealt", pl.Int8, "jokers in the player's dealt hand (chance alone: the "
                                    "unit of the worth-of-a-joker study)"),
    Column("jokers_held", pl.Int8, "jokers in hand at the end"),
    Column("jokers_used", pl.Int8, "jokers this player put on the table (contract, lay-offs, "
                                   "swapped jokers re-laid)"),
    Column("pile_cards", pl.Int16, "cards taken from the discard pile (top, deep draws and "
                                   "buys)"),
    Column("top_draws", pl.Int16, "turns drawing the single top discard"),
    Column("deep_draws", pl.Int16, "turns drawing from inside the pile"),
    Column("buys", pl.Int8, "discards bought (each with a penalty card)"),
    Column("lay_offs", pl.Int16, "cards laid off on melds (swapped-in naturals included)"),
    Column("swaps", pl.Int8, "jokers taken from runs by a swap"),
    Column("strategy", pl.Int8, "strategy playing this seat in this game (its seat number in "
                                "--strategy; differs from seat with duplicate seating)"),
)
(D_GAME, D_DEAL, D_SEAT, D_PLAYERS, D_DECKS, D_JOKERS, D_SETS, D_RUNS, D_DEALT, D_ALL_AT_ONCE,
 D_DEALER, D_FIRST, D_ORDER, D_TURNS, D_END, D_RESHUFFLES, D_OUT_SEAT, D_DEALT_CAN_LAY,
 D_DOWN_TURN, D_DOWN_DEAL_TURN, D_WENT_OUT, D_OUT_TURN, D_OWN_TURNS, D_PENALTY, D_CUMULATIVE,
 D_CARDS_LEFT, D_JOKERS_DEALT, D_JOKERS_HELD, D_JOKERS_USED, D_PILE_CARDS, D_TOP_DRAWS,
 D_DEEP_DRAWS, D_BUYS, D_LAY_OFFS, D_SWAPS, D_STRATEGY) = range(36)
D_NCOLS = len(DEAL_COLUMNS)

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it"),
    Column("deals", pl.Int8, "deals played"),
    Column("players", pl.Int8, "players at the table"),
    Column("first_dealer", pl.Int8, "seat that dealt deal 0"),
    Column("winner", pl.Int8, "seat with the lowest total (null on a tie for lowest)"),
    Column("tied", pl.Int8, "seats sharing the lowest total (1: a sole winner)"),
    Column("capped_deals", pl.Int8, "deals that ended at the turn cap"),
    Column("stalled_deals", pl.Int8, "deals that stalled (stock exhausted)"),
    Column("rotation", pl.Int8, "duplicate seating: seat s is played by strategy (s + rotation) "
                                "% players (0 with fixed seating)"),
    Column("winner_strategy", pl.Int8, "strategy (its seat number in --strategy) of the winner "
                                       "(null on a tie)"),
) + tuple(Column(f"total_seat{s}", pl.Int32, f"game total of seat {s} (null: no such seat)")
          for s in range(MAX_SEATS))
(G_GAME, G_DEALS, G_PLAYERS, G_DEALER, G_WINNER, G_TIED, G_CAPPED, G_STALLED, G_ROTATION,
 G_WINNER_STRATEGY) = range(10)
G_TOTAL0 = 10
G_NCOLS = len(GAME_COLUMNS)

DEAL_NULL_IF_NEGATIVE = ("out_seat", "down_turn", "down_deal_turn", "out_turn")
GAME_NULL_IF_NEGATIVE = ("winner", "winner_strategy") + tuple(f"total_seat{s}" for s in range(MAX_SEATS))
