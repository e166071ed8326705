"""Toy-tricks tables: the columns of the kernel's rows, and their indices (from the names)."""
import polars as pl

from cardsim.simulator.tables import Column, column_indices, team_columns

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game (or, with --deals, deal) number in the run",
           key="D_GAME"),
    Column("deal_index", pl.Int32, "deal number within the game, from 0", key="D_DEAL"),
    Column("dealer", pl.Int8, "dealer's seat", key="D_DEALER"),
    Column("tricks_team0", pl.Int8, "tricks team 0 took", key="D_TRICKS0"),
    Column("tricks_team1", pl.Int8, "tricks team 1 took"),
    Column("last_trick_team", pl.Int8, "team that took the last trick", key="D_LAST"),
    Column("points_team0", pl.Int8, "team 0's points of the deal (tricks + last-trick bonus)",
           key="D_POINTS0"),
    Column("points_team1", pl.Int8, "team 1's points of the deal"),
    Column("total_team0", pl.Int16, "team 0's game total after the deal", key="D_TOTAL0"),
    Column("total_team1", pl.Int16, "team 1's game total after the deal"),
)
GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run", key="G_GAME"),
    Column("deals", pl.Int32, "deals played", key="G_DEALS"),
    Column("winner_team", pl.Int8, "team with the higher total (null on equal totals)",
           key="G_WINNER"),
    Column("capped", pl.Boolean, "the game stopped at max_deals", key="G_CAPPED"),
    Column("total_team0", pl.Int16, "team 0's total at the end", key="G_TOTAL0"),
    Column("total_team1", pl.Int16, "team 1's total at the end"),
)
# the kernel's row indices, D_GAME ... and G_GAME ..., as the columns' keys name them
globals().update(column_indices(DEAL_COLUMNS, "D_NCOLS"))
globals().update(column_indices(GAME_COLUMNS, "G_NCOLS"))
DEAL_NULL_IF_NEGATIVE = ()
GAME_NULL_IF_NEGATIVE = ("winner_team",)
# the kernel writes team t's value at the team-0 column + t
for _first in ("tricks_team0", "points_team0", "total_team0"):
    team_columns(DEAL_COLUMNS, _first, 2)
team_columns(GAME_COLUMNS, "total_team0", 2)
