"""56 outcome tables: column order of the kernel's rows and the documented Parquet schema.

The kernel writes int32 rows; ``to_frame`` turns them into typed columns (smallest integer
types, enums for trump and bid form, nulls where a value does not exist).
"""
import polars as pl

from cardsim.simulator.games.fifty_six.view import FORM_NAMES, TRUMP_NAMES
from cardsim.simulator.tables import Column, column_indices, team_columns

TRUMP_ENUM = pl.Enum(list(TRUMP_NAMES))
FORM_ENUM = pl.Enum(list(FORM_NAMES))

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game (or, with --deals, deal) number in the run; seeds it",
           key="D_GAME"),
    Column("deal_index", pl.Int32, "deal number within the game, from 0", key="D_DEAL"),
    Column("players", pl.Int8, "players at the table in this deal", key="D_PLAYERS"),
    Column("dealer", pl.Int8, "dealer's seat", key="D_DEALER"),
    Column("bidder", pl.Int8, "seat that won the auction; -1 when everyone passed",
           key="D_BIDDER"),
    Column("bid", pl.Int8, "contract value (thani: max_bid + 1; all passed: all_pass_bid)",
           key="D_BID"),
    Column("trump", TRUMP_ENUM, "contract trump: S, H, D, C or NT", key="D_TRUMP"),
    Column("bid_form", FORM_ENUM, "form of the winning bid (all_pass when nobody bid)",
           key="D_FORM"),
    Column("double_level", pl.Int8, "1, 2 (doubled) or 4 (redoubled)", key="D_LEVEL"),
    Column("bidding_team", pl.Int8, "team holding the contract", key="D_TEAM"),
    Column("bidding_team_points", pl.Int8, "card points the contract team took",
           key="D_TEAM_POINTS"),
    Column("opponent_points", pl.Int8, "card points all other teams took together",
           key="D_OPP_POINTS"),
    Column("made", pl.Boolean, "contract made (points >= bid; thani: every trick)", key="D_MADE"),
    Column("stake", pl.Int16, "tables per paying/receiving team: band payout x double level",
           key="D_STAKE"),
    Column("tables_moved", pl.Int16, "tables that changed hands (stake per other team, limited "
                                     "by what the payer had)", key="D_MOVED"),
    Column("bidder_position", pl.Int8, "bidder's place in the bidding order (0 = dealer's "
                                       "right); -1 when all passed", key="D_BIDDER_POS"),
    Column("calls", pl.Int16, "calls in the auction (bids, passes, doubles)", key="D_CALLS"),
    Column("bids", pl.Int8, "bids in the auction", key="D_BIDS"),
    Column("opener", pl.Int8, "seat of the first bid; -1 when all passed", key="D_OPENER"),
    Column("opening_bid", pl.Int8, "value of the first bid; 0 when all passed", key="D_OPEN_BID"),
    Column("redeals", pl.Int16, "deals cancelled before this one (redeal_weak_hands)",
           key="D_REDEALS"),
    Column("thani", pl.Boolean, "the contract is a thani", key="D_THANI"),
    Column("trump_revealed_trick", pl.Int8, "hidden_trump: trick in which the trump was shown; "
                                            "null if never", key="D_REVEAL_TRICK"),
    Column("tricks_won", pl.Int8, "tricks the contract team won", key="D_TRICKS_WON"),
    Column("bidder_jacks", pl.Int8, "jacks in the bidder's dealt hand (null: all passed)",
           key="D_BJ"),
    Column("bidder_nines", pl.Int8, "nines in the bidder's dealt hand", key="D_BN"),
    Column("bidder_trumps", pl.Int8, "cards of the trump suit in the bidder's dealt hand (0 "
                                     "for NT)", key="D_BT"),
    Column("bidder_trump_jacks", pl.Int8, "jacks of the trump suit in the bidder's dealt hand "
                                          "(0 for NT)", key="D_BTJ"),
    Column("bidder_points", pl.Int8, "card points in the bidder's dealt hand", key="D_BP"),
    Column("team_jacks", pl.Int8, "jacks in the contract team's dealt hands", key="D_TJ"),
    Column("team_trumps", pl.Int8, "trump-suit cards in the contract team's dealt hands",
           key="D_TT"),
    Column("team_points_held", pl.Int8, "card points in the contract team's dealt hands",
           key="D_TP"),
    Column("tables_team0", pl.Int16, "tables of team 0 after the deal", key="D_TABLES0"),
    Column("tables_team1", pl.Int16, "tables of team 1 after the deal", key="D_TABLES1"),
    Column("tables_team2", pl.Int16, "tables of team 2 after the deal (null: no such team)",
           key="D_TABLES2"),
    Column("tables_team3", pl.Int16, "tables of team 3 after the deal (null: no such team)",
           key="D_TABLES3"),
    Column("rotation", pl.Int8, "duplicate seating: team t is played by strategy (t + rotation) "
                                "% teams (always 0 with fixed seating)", key="D_ROTATION"),
    Column("contract_strategy", pl.Int8, "strategy (team number in --strategy) of the contract "
                                         "team", key="D_CSTRAT"),
)
# the kernel's row indices (D_GAME ...) and D_NCOLS, from the keys above
globals().update(column_indices(DEAL_COLUMNS, "D_NCOLS"))
team_columns(DEAL_COLUMNS, "tables_team0", 4)  # the kernel writes D_TABLES0 + team

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it", key="G_GAME"),
    Column("deals", pl.Int32, "deals played", key="G_DEALS"),
    Column("winner_team", pl.Int8, "team left with tables (capped: most tables; null on a tie)",
           key="G_WINNER"),
    Column("capped", pl.Boolean, "the game stopped at max_deals", key="G_CAPPED"),
    Column("players", pl.Int8, "players at the start", key="G_PLAYERS"),
    Column("teams", pl.Int8, "teams at the start", key="G_NTEAMS"),
    Column("tables_team0", pl.Int16, "tables of team 0 at the end", key="G_TABLES0"),
    Column("tables_team1", pl.Int16, "tables of team 1 at the end", key="G_TABLES1"),
    Column("tables_team2", pl.Int16, "tables of team 2 at the end (null: no such team)",
           key="G_TABLES2"),
    Column("tables_team3", pl.Int16, "tables of team 3 at the end (null: no such team)",
           key="G_TABLES3"),
    Column("rotation", pl.Int8, "duplicate seating: team t is played by strategy (t + rotation) "
                                "% teams (always 0 with fixed seating)", key="G_ROTATION"),
    Column("winner_strategy", pl.Int8, "strategy (team number in --strategy) of the winning "
                                       "team (null on a tie)", key="G_WSTRAT"),
)
globals().update(column_indices(GAME_COLUMNS, "G_NCOLS"))
team_columns(GAME_COLUMNS, "tables_team0", 4)  # G_TABLES0 + team

# columns where the kernel's -1 means "does not exist"
DEAL_NULL_IF_NEGATIVE = ("trump_revealed_trick", "bidder_jacks", "bidder_nines",
                         "bidder_trumps", "bidder_trump_jacks", "bidder_points", "tables_team2",
                         "tables_team3")
GAME_NULL_IF_NEGATIVE = ("winner_team", "winner_strategy", "tables_team2", "tables_team3")
