"""Hand and Foot outcome tables: column order of the kernel's rows and the Parquet schema.

``deals`` has one row per (game, deal, team): the team's part of the deal, with the deal's own
facts (turns, how it ended, who went out) repeated on each team's row — take ``team == 0`` for
one row per deal. ``games`` has one row per game. Score identity, per row:
``score = melded_points + book_bonus + red_three_bonus + going_out_bonus - hand_penalty
- foot_penalty - red_three_penalty``.
"""
import polars as pl

from cardsim.simulator.tables import Column, column_indices, team_columns

END_NAMES = ("went_out", "stock_exhausted", "turn_cap")
SOURCE_NAMES = ("never", "stock", "pile")
END_ENUM = pl.Enum(list(END_NAMES))
SOURCE_ENUM = pl.Enum(list(SOURCE_NAMES))
END_OUT, END_STOCK, END_CAP = range(3)
SRC_NEVER, SRC_STOCK, SRC_PILE = range(3)

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it", key="D_GAME"),
    Column("deal_index", pl.Int8, "deal number within the game, from 0", key="D_DEAL"),
    Column("team", pl.Int8, "team (seat s is in team s % teams; 2-3 players: each alone)",
           key="D_TEAM"),
    Column("players", pl.Int8, "players at the table", key="D_PLAYERS"),
    Column("hand_dealer", pl.Int8, "seat that dealt the hands", key="D_DEALER"),
    Column("first_seat", pl.Int8, "seat that played first", key="D_FIRST"),
    Column("turns", pl.Int16, "turns played in the deal (all players)", key="D_TURNS"),
    Column("end", END_ENUM, "how the deal ended: went_out, stock_exhausted or turn_cap "
                            "(max_turns reached)", key="D_END"),
    Column("out_seat", pl.Int8, "seat that went out (null: nobody)", key="D_OUT_SEAT"),
    Column("out_turn", pl.Int16, "turn (from 1) in which a player went out (null: nobody)",
           key="D_OUT_TURN"),
    Column("min_meld", pl.Int16, "minimum initial meld in this deal", key="D_MIN_MELD"),
    Column("initial_meld_turn", pl.Int16, "deal turn (from 1) of the team's initial meld "
                                          "(null: never melded)", key="D_INIT_TURN"),
    Column("initial_meld_points", pl.Int16, "points counted toward the minimum in that turn "
                                            "(null: never)", key="D_INIT_POINTS"),
    Column("initial_meld_source", SOURCE_ENUM, "the initial meld was made after drawing from "
                                               "the stock or taking the pile (never)",
           key="D_INIT_SOURCE"),
    Column("pile_takes", pl.Int16, "times the team's players took the discard pile",
           key="D_PILE_TAKES"),
    Column("books_clean", pl.Int8, "clean books completed", key="D_CLEAN"),
    Column("books_dirty", pl.Int8, "dirty books completed", key="D_DIRTY"),
    Column("books_wild", pl.Int8, "wild books completed", key="D_WILD"),
    Column("red_threes_table", pl.Int8, "red threes the team laid on the table",
           key="D_RED3_TABLE"),
    Column("red_threes_caught", pl.Int8, "red threes left in a hand or an unpicked foot",
           key="D_RED3_CAUGHT"),
    Column("feet_picked", pl.Int8, "players of the team who picked up their foot", key="D_FEET"),
    Column("went_out", pl.Boolean, "a player of this team went out", key="D_WENT_OUT"),
    Column("melded_points", pl.Int16, "card values of every card the team melded", key="D_MELDED"),
    Column("book_bonus", pl.Int16, "500 per clean, 300 per dirty, 1500 per wild book",
           key="D_BOOK_BONUS"),
    Column("red_three_bonus", pl.Int16, "100 per red three on the table", key="D_RED3_BONUS"),
    Column("going_out_bonus", pl.Int16, "100 if the team went out", key="D_OUT_BONUS"),
    Column("hand_penalty", pl.Int16, "card values left in the team's hands (and feet in "
                                     "play)", key="D_HAND_PEN"),
    Column("foot_penalty", pl.Int16, "card values in unpicked feet (unplayed_foot_counts; "
                                     "red threes there excluded)", key="D_FOOT_PEN"),
    Column("red_three_penalty", pl.Int16, "100 per red three caught", key="D_RED3_PEN"),
    Column("score", pl.Int16, "the deal's score: parts above, bonuses minus penalties",
           key="D_SCORE"),
    Column("cumulative", pl.Int32, "the team's game total after this deal", key="D_CUMULATIVE"),
)
# the kernel's row indices, D_GAME ... and G_GAME ..., as the columns' keys name them
globals().update(column_indices(DEAL_COLUMNS, "D_NCOLS"))

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it", key="G_GAME"),
    Column("deals", pl.Int8, "deals played", key="G_DEALS"),
    Column("players", pl.Int8, "players at the table", key="G_PLAYERS"),
    Column("teams", pl.Int8, "teams", key="G_NTEAMS"),
    Column("first_dealer", pl.Int8, "seat that dealt the hands of deal 0", key="G_DEALER"),
    Column("winner_team", pl.Int8, "team with the highest total (null on a tie)", key="G_WINNER"),
    Column("capped_deals", pl.Int8, "deals that ended at the turn cap", key="G_CAPPED"),
    Column("total_team0", pl.Int32, "game total of team 0", key="G_TOTAL0"),
    Column("total_team1", pl.Int32, "game total of team 1", key="G_TOTAL1"),
    Column("total_team2", pl.Int32, "game total of team 2 (null: no such team)",
           key="G_TOTAL2"),
)
globals().update(column_indices(GAME_COLUMNS, "G_NCOLS"))
# the kernel writes team t's total at G_TOTAL0 + t
team_columns(GAME_COLUMNS, "total_team0", 3)

DEAL_NULL_IF_NEGATIVE = ("out_seat", "out_turn", "initial_meld_turn", "initial_meld_points")
GAME_NULL_IF_NEGATIVE = ("winner_team",)
# total_team2 can be negative: nulled by the adapter from the team count instead
