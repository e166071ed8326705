"""Hand and Foot outcome tables: column order of the kernel's rows and the Parquet schema.

``deals`` has one row per (game, deal, team): the team's part of the deal, with the deal's own
facts (turns, how it ended, who went out) repeated on each team's row — take ``team == 0`` for
one row per deal. ``games`` has one row per game. Score identity, per row:
``score = melded_points + book_bonus + red_three_bonus + going_out_bonus - hand_penalty
- foot_penalty - red_three_penalty``.
"""
import polars as pl

from cardsim.simulator.tables import Column

END_NAMES = ("went_out", "stock_exhausted", "turn_cap")
SOURCE_NAMES = ("never", "stock", "pile")
END_ENUM = pl.Enum(list(END_NAMES))
SOURCE_ENUM = pl.Enum(list(SOURCE_NAMES))
END_OUT, END_STOCK, END_CAP = range(3)
SRC_NEVER, SRC_STOCK, SRC_PILE = range(3)

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it"),
    Column("deal_index", pl.Int8, "deal number within the game, from 0"),
    Column("team", pl.Int8, "team (seat s is in team s % teams; 2-3 players: each alone)"),
    Column("players", pl.Int8, "players at the table"),
    Column("hand_dealer", pl.Int8, "seat that dealt the hands"),
    Column("first_seat", pl.Int8, "seat that played first"),
    Column("turns", pl.Int16, "turns played in the deal (all players)"),
    Column("end", END_ENUM, "how the deal ended: went_out, stock_exhausted or turn_cap "
                            "(max_turns reached)"),
    Column("out_seat", pl.Int8, "seat that went out (null: nobody)"),
    Column("out_turn", pl.Int16, "turn (from 1) in which a player went out (null: nobody)"),
    Column("min_meld", pl.Int16, "minimum initial meld in this deal"),
    Column("initial_meld_turn", pl.Int16, "deal turn (from 1) of the team's initial meld "
                                          "(null: never melded)"),
    Column("initial_meld_points", pl.Int16, "points counted toward the minimum in that turn "
                                            "(null: never)"),
    Column("initial_meld_source", SOURCE_ENUM, "the initial meld was made after drawing from "
                                               "the stock or taking the pile (never)"),
    Column("pile_takes", pl.Int16, "times the team's players took the discard pile"),
    Column("books_clean", pl.Int8, "clean books completed"),
    Column("books_dirty", pl.Int8, "dirty books completed"),
    Column("books_wild", pl.Int8, "wild books completed"),
    Column("red_threes_table", pl.Int8, "red threes the team laid on the table"),
    Column("red_threes_caught", pl.Int8, "red threes left in a hand or an unpicked foot"),
    Column("feet_picked", pl.Int8, "players of the team who picked up their foot"),
    Column("went_out", pl.Boolean, "a player of this team went out"),
    Column("melded_points", pl.Int16, "card values of every card the team melded"),
    Column("book_bonus", pl.Int16, "500 per clean, 300 per dirty, 1500 per wild book"),
    Column("red_three_bonus", pl.Int16, "100 per red three on the table"),
    Column("going_out_bonus", pl.Int16, "100 if the team went out"),
    Column("hand_penalty", pl.Int16, "card values left in the team's hands (and feet in "
                                     "play)"),
    Column("foot_penalty", pl.Int16, "card values in unpicked feet (unplayed_foot_counts; "
                                     "red threes there excluded)"),
    Column("red_three_penalty", pl.Int16, "100 per red three caught"),
    Column("score", pl.Int16, "the deal's score: parts above, bonuses minus penalties"),
    Column("cumulative", pl.Int32, "the team's game total after this deal"),
)
(D_GAME, D_DEAL, D_TEAM, D_PLAYERS, D_DEALER, D_FIRST, D_TURNS, D_END, D_OUT_SEAT, D_OUT_TURN,
 D_MIN_MELD, D_INIT_TURN, D_INIT_POINTS, D_INIT_SOURCE, D_PILE_TAKES, D_CLEAN, D_DIRTY, D_WILD,
 D_RED3_TABLE, D_RED3_CAUGHT, D_FEET, D_WENT_OUT, D_MELDED, D_BOOK_BONUS, D_RED3_BONUS,
 D_OUT_BONUS, D_HAND_PEN, D_FOOT_PEN, D_RED3_PEN, D_SCORE, D_CUMULATIVE) = range(31)
D_NCOLS = len(DEAL_COLUMNS)

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it"),
    Column("deals", pl.Int8, "deals played"),
    Column("players", pl.Int8, "players at the table"),
    Column("teams", pl.Int8, "teams"),
    Column("first_dealer", pl.Int8, "seat that dealt the hands of deal 0"),
    Column("winner_team", pl.Int8, "team with the highest total (null on a tie)"),
    Column("capped_deals", pl.Int8, "deals that ended at the turn cap"),
    Column("total_team0", pl.Int32, "game total of team 0"),
    Column("total_team1", pl.Int32, "game total of team 1"),
    Column("total_team2", pl.Int32, "game total of team 2 (null: no such team)"),
)
(G_GAME, G_DEALS, G_PLAYERS, G_NTEAMS, G_DEALER, G_WINNER, G_CAPPED, G_TOTAL0, G_TOTAL1,
 G_TOTAL2) = range(10)
G_NCOLS = len(GAME_COLUMNS)

DEAL_NULL_IF_NEGATIVE = ("out_seat", "out_turn", "initial_meld_turn", "initial_meld_points")
GAME_NULL_IF_NEGATIVE = ("winner_team",)
# total_team2 can be negative: nulled by the adapter from the team count instead
