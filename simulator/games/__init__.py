"""One subpackage per game; GAMES maps CLI names to the module that holds the game's adapter."""
from importlib import import_module

from cardsim.simulator.errors import UsageError

GAMES = {
    "fifty-six": "cardsim.simulator.games.fifty_six",
    "hand-and-foot": "cardsim.simulator.games.hand_and_foot",
    "contract-rummy": "cardsim.simulator.games.contract_rummy",
}


def get_game(name: str):
    if name not in GAMES:
        raise UsageError(f"unknown game '{name}' (allowed: {', '.join(GAMES)})")
    return import_module(GAMES[name]).GAME


def get_replay(name: str):
    """The game's ``play_one(game, rules, strategies, seed, game_index, ...)`` replay function."""
    get_game(name)
    return import_module(GAMES[name] + ".replay").play_one
