"""56 outcome tables: column order of the kernel's rows and the documented Parquet schema.

The kernel writes int32 rows; ``to_frame`` turns them into typed columns (smallest integer
types, enums for trump and bid form, nulls where a value does not exist).
"""
import polars as pl

from cardsim.simulator.games.fifty_six.view import FORM_NAMES, TRUMP_NAMES
from cardsim.simulator.tables import Column

TRUMP_ENUM = pl.Enum(list(TRUMP_NAMES))
FORM_ENUM = pl.Enum(list(FORM_NAMES))

DEAL_COLUMNS = (
    Column("game_index", pl.Int64, "game (or, with --deals, deal) number in the run; seeds it"),
    Column("deal_index", pl.Int32, "deal number within the game, from 0"),
    Column("players", pl.Int8, "players at the table in this deal"),
    Column("dealer", pl.Int8, "dealer's seat"),
    Column("bidder", pl.Int8, "seat that won the auction; -1 when everyone passed"),
    Column("bid", pl.Int8, "contract value (thani: max_bid + 1; all passed: all_pass_bid)"),
    Column("trump", TRUMP_ENUM, "contract trump: S, H, D, C or NT"),
    Column("bid_form", FORM_ENUM, "form of the winning bid (all_pass when nobody bid)"),
    Column("double_level", pl.Int8, "1, 2 (doubled) or 4 (redoubled)"),
    Column("bidding_team", pl.Int8, "team holding the contract"),
    Column("bidding_team_points", pl.Int8, "card points the contract team took"),
    Column("opponent_points", pl.Int8, "card points all other teams took together"),
    Column("made", pl.Boolean, "contract made (points >= bid; thani: every trick)"),
    Column("stake", pl.Int16, "tables per paying/receiving team: band payout x double level"),
    Column("tables_moved", pl.Int16, "tables that changed hands (stake per other team, limited "
                                     "by what the payer had)"),
    Column("bidder_position", pl.Int8, "bidder's place in the bidding order (0 = dealer's "
                                       "right); -1 when all passed"),
    Column("calls", pl.Int16, "calls in the auction (bids, passes, doubles)"),
    Column("bids", pl.Int8, "bids in the auction"),
    Column("opener", pl.Int8, "seat of the first bid; -1 when all passed"),
    Column("opening_bid", pl.Int8, "value of the first bid; 0 when all passed"),
    Column("redeals", pl.Int16, "deals cancelled before this one (redeal_weak_hands)"),
    Column("thani", pl.Boolean, "the contract is a thani"),
    Column("trump_revealed_trick", pl.Int8, "hidden_trump: trick in which the trump was shown; "
                                            "null if never"),
    Column("tricks_won", pl.Int8, "tricks the contract team won"),
    Column("bidder_jacks", pl.Int8, "jacks in the bidder's dealt hand (null: all passed)"),
    Column("bidder_nines", pl.Int8, "nines in the bidder's dealt hand"),
    Column("bidder_trumps", pl.Int8, "cards of the trump suit in the bidder's dealt hand (0 "
                                     "for NT)"),
    Column("bidder_points", pl.Int8, "card points in the bidder's dealt hand"),
    Column("team_jacks", pl.Int8, "jacks in the contract team's dealt hands"),
    Column("team_trumps", pl.Int8, "trump-suit cards in the contract team's dealt hands"),
    Column("team_points_held", pl.Int8, "card points in the contract team's dealt hands"),
    Column("tables_team0", pl.Int16, "tables of team 0 after the deal"),
    Column("tables_team1", pl.Int16, "tables of team 1 after the deal"),
    Column("tables_team2", pl.Int16, "tables of team 2 after the deal (null: no such team)"),
    Column("tables_team3", pl.Int16, "tables of team 3 after the deal (null: no such team)"),
    Column("rotation", pl.Int8, "duplicate seating: team t is played by strategy (t + rotation) "
                                "% teams (always 0 with fixed seating)"),
    Column("contract_strategy", pl.Int8, "strategy (team number in --strategy) of the contract "
                                         "team"),
)
(D_GAME, D_DEAL, D_PLAYERS, D_DEALER, D_BIDDER, D_BID, D_TRUMP, D_FORM, D_LEVEL, D_TEAM,
 D_TEAM_POINTS, D_OPP_POINTS, D_MADE, D_STAKE, D_MOVED, D_BIDDER_POS, D_CALLS, D_BIDS, D_OPENER,
 D_OPEN_BID, D_REDEALS, D_THANI, D_REVEAL_TRICK, D_TRICKS_WON, D_BJ, D_BN, D_BT, D_BP, D_TJ,
 D_TT, D_TP, D_TABLES0, D_TABLES1, D_TABLES2, D_TABLES3, D_ROTATION, D_CSTRAT) = range(37)
D_NCOLS = len(DEAL_COLUMNS)

GAME_COLUMNS = (
    Column("game_index", pl.Int64, "game number in the run; seeds it"),
    Column("deals", pl.Int32, "deals played"),
    Column("winner_team", pl.Int8, "team left with tables (capped: most tables; null on a tie)"),
    Column("capped", pl.Boolean, "the game stopped at max_deals"),
    Column("players", pl.Int8, "players at the start"),
    Column("teams", pl.Int8, "teams at the start"),
    Column("tables_team0", pl.Int16, "tables of team 0 at the end"),
    Column("tables_team1", pl.Int16, "tables of team 1 at the end"),
    Column("tables_team2", pl.Int16, "tables of team 2 at the end (null: no such team)"),
    Column("tables_team3", pl.Int16, "tables of team 3 at the end (null: no such team)"),
    Column("rotation", pl.Int8, "duplicate seating: team t is played by strategy (t + rotation) "
                                "% teams (always 0 with fixed seating)"),
    Column("winner_strategy", pl.Int8, "strategy (team number in --strategy) of the winning "
                                       "team (null on a tie)"),
)
(G_GAME, G_DEALS, G_WINNER, G_CAPPED, G_PLAYERS, G_NTEAMS, G_TABLES0, G_TABLES1, G_TABLES2,
 G_TABLES3, G_ROTATION, G_WSTRAT) = range(12)
G_NCOLS = len(GAME_COLUMNS)

# columns where the kernel's -1 means "does not exist"
DEAL_NULL_IF_NEGATIVE = ("trump_revealed_trick", "bidder_jacks", "bidder_nines",
                         "bidder_trumps", "bidder_points", "tables_team2", "tables_team3")
GAME_NULL_IF_NEGATIVE = ("winner_team", "winner_strategy", "tables_team2", "tables_team3")
