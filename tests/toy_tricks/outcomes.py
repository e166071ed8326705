"""Toy-tricks tables: the columns of the kernel's rows, and their indices (from the names)."""
import polars as pl

from cardsim.simulator.tables import Column

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game (or, with --deals, deal) number in the run"),
    Column("deal_index", pl.Int32, "deal number within the game, from 0"),
    Column("dealer", pl.Int8, "dealer's seat"),
    Column("tricks_team0", pl.Int8, "tricks team 0 took"),
    Column("tricks_team1", pl.Int8, "tricks team 1 took"),
    Column("last_trick_team", pl.Int8, "team that took the last trick"),
    Column("points_team0", pl.Int8, "team 0's points of the deal (tricks + last-trick bonus)"),
    Column("points_team1", pl.Int8, "team 1's points of the deal"),
    Column("total_team0", pl.Int16, "team 0's game total after the deal"),
    Column("total_team1", pl.Int16, "team 1's game total after the deal"),
)
GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run"),
    Column("deals", pl.Int32, "deals played"),
    Column("winner_team", pl.Int8, "team with the higher total (null on equal totals)"),
    Column("capped", pl.Boolean, "the game stopped at max_deals"),
    Column("total_team0", pl.Int16, "team 0's total at the end"),
    Column("total_team1", pl.Int16, "team 1's total at the end"),
)
_D = {c.name: i for i, c in enumerate(DEAL_COLUMNS)}
_G = {c.name: i for i, c in enumerate(GAME_COLUMNS)}
D_GAME, D_DEAL, D_DEALER = _D["game_index"], _D["deal_index"], _D["dealer"]
D_TRICKS0, D_LAST, D_POINTS0, D_TOTAL0 = (_D["tricks_team0"], _D["last_trick_team"],
                                          _D["points_team0"], _D["total_team0"])
G_GAME, G_DEALS, G_WINNER, G_CAPPED, G_TOTAL0 = (_G["game_index"], _G["deals"],
                                                 _G["winner_team"], _G["capped"],
                                                 _G["total_team0"])
D_NCOLS = len(DEAL_COLUMNS)
G_NCOLS = len(GAME_COLUMNS)
DEAL_NULL_IF_NEGATIVE = ()
GAME_NULL_IF_NEGATIVE = ("winner_team",)
# the kernel writes team t's value at the team-0 column + t
for _first in ("tricks_team", "points_team", "total_team"):
    assert _D[_first + "1"] == _D[_first + "0"] + 1
assert _G["total_team1"] == G_TOTAL0 + 1
