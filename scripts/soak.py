#!/usr/bin/env python
"""Invariant soak: many games of every game with random rule options and random built-in
strategies, in debug-invariant mode (the kernels check card conservation, meld validity and
scores after every deal). Prints what it played and how many violations it found.

    python scripts/soak.py --deals 10000000             # at least 10M deals of every game
    python scripts/soak.py --deals 20000 --batch 200    # a quick pass

The count is in deals for every game: a rummy game is several deals, so a batch of games
counts the deals its games played. A batch draws its rules from the game's own option list
(each field's allowed values: every choice, both booleans, small integers in range),
resolved through the same checks as the command line (settings the rules refuse are drawn
again), and a strategy per team. A violation is an invariant error from the kernel or a strategy's illegal move.
"""
from __future__ import annotations

import argparse
import random
import time

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.errors import StrategyError, UsageError
from cardsim.simulator.games import GAMES, get_game

# options that only slow a soak down or need values a generic draw cannot make
SKIP = {"max_turns", "max_deals", "max_bid", "deals"}


def random_rules(game, rng: random.Random, tries: int = 200) -> dict:
    fields = [f for f in game.rules.fields.values() if f.name not in SKIP]
    for _ in range(tries):
        chosen = {}
        for f in rng.sample(fields, k=min(len(fields), rng.randint(1, 4))):
            if f.kind == "bool":
                chosen[f.name] = rng.random() < 0.5
            elif f.kind == "choice":
                chosen[f.name] = rng.choice(f.choices)
            elif f.kind == "int" and f.lo is not None and f.hi is not None:
                chosen[f.name] = rng.randint(f.lo, min(f.hi, f.lo + 12))
        try:
            return game.rules.resolve(chosen)
        except UsageError:
            continue
    return game.rules.resolve({})


def soak(name: str, deals: int, seed: int = 0, batch: int = 20_000,
         threads: int | None = None) -> dict:
    """Play at least ``deals`` deals of ``name`` in batches of ``batch`` games (or deals, in
    56's deals mode), each batch with fresh random settings."""
    import numba

    game = get_game(name)
    rng = random.Random(seed)
    played = games_played = violations = batches = 0
    examples = []
    threads = threads or numba.config.NUMBA_NUM_THREADS
    while played < deals:
        rules = random_rules(game, rng)
        teams = game.n_teams(rules)
        names = [s for s in game.registry if not game.registry[s].peeks]
        specs = [f"{t}={rng.choice(names)}" for t in range(teams)]
        n = batch
        deals_mode = game.supports_deals_mode and rng.random() < 0.5
        try:
            runner = Runner(RunSpec(game, rules, specs, rng.getrandbits(63), n,
                                    deals_mode=deals_mode, debug=True, seating="fixed"))
            dealt, games = runner.play_chunk(0, n, threads)
            played += dealt.height if games is None else int(games["deals"].sum())
        except (AssertionError, StrategyError) as e:
            violations += 1
            examples.append(f"{e} (rules {rules}, strategies {specs})")
            played += n  # at least one deal per game was played before the violation
        games_played += 0 if deals_mode else n
        batches += 1
    return {"game": name, "deals": played, "games": games_played, "batches": batches,
            "violations": violations, "examples": examples[:5]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000, help="deals per game, at least")
    ap.add_argument("--batch", type=int, default=20_000,
                    help="games (56 in deals mode: deals) per random setting")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    args = ap.parse_args()
    for name in args.games.split(","):
        t0 = time.perf_counter()
        r = soak(name, args.deals, args.seed, args.batch)
        dt = time.perf_counter() - t0
        print(f"{name}: {r['deals']:,} deals ({r['games']:,} whole games) in {r['batches']} "
              f"random settings, {r['violations']} violations ({dt:.0f} s)", flush=True)
        for e in r["examples"]:
            print("   ", e)


if __name__ == "__main__":
    main()
