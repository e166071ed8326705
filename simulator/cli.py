"""`cardsim` command line: parses options and dispatches; all work happens elsewhere."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from cardsim.simulator.errors import BackendError, StrategyError, UsageError

def _game(name: str):
    from cardsim.simulator.games import get_game

    return get_game(name)


def _rule_texts(game, players, rule_opts, rules_file) -> list[str]:
    """Rule options in the order they apply: the file, then --players, then --rule."""
    from cardsim.simulator.rules import read_rules_file

    texts = [] if rules_file is None else read_rules_file(rules_file, game.rules)
    if players is not None:
        texts.append(f"players={players}")
    return texts + list(rule_opts)


def _with_contract(game, rule_opts, contract) -> tuple:
    """--contract X as the rule it stands for (contract=X), for the games that have it."""
    if contract is None:
        return tuple(rule_opts)
    if "contract" not in game.rules.fields:
        raise UsageError(f"--contract: {game.name} has no fixed contracts (a 56 study setting)")
    return (*rule_opts, f"contract={contract}")


def _rules(game, players, rule_opts, rules_file=None):
    return game.rules.resolve(_rule_texts(game, players, rule_opts, rules_file))


def _count(value, name):
    if value is not None and value < 1:
        raise UsageError(f"{name} {value}: must be a positive whole number")
    return value


def _seed(seed: int) -> int:
    if not 0 <= seed < 2**64:
        raise UsageError(f"--seed {seed}: allowed 0..2**64-1")
    return seed


game_arg = click.argument("game", metavar="GAME")
common = [
    click.option("--seed", type=int, default=0, show_default=True, help="run seed"),
    click.option("--players", type=int, default=None, help="shortcut for --rule players=P"),
    click.option("--rule", "rule_opts", multiple=True, metavar="KEY=VALUE",
                 help="rule option (repeatable); see `cardsim rules GAME`"),
    click.option("--rules-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
                 metavar="FILE", help="rule options from a TOML (or .json) file of key = "
                 "value pairs; --players and --rule override it"),
    click.option("--strategy", "strategy_opts", multiple=True,
                 metavar="TEAM=NAME[:k=v,...]",
                 help="strategy of a team (repeatable); NAME alone sets every team"),
]


def with_common(f):
    for opt in reversed(common):
        f = opt(f)
    return f


run_options = [
    click.option("--threads", type=int, default=None, help="worker threads (default: all cores)"),
    click.option("--chunk-size", type=int, default=None, help="games or deals per Parquet chunk"),
    click.option("--out", type=click.Path(path_type=Path), default=None,
                 help="output folder (default results/<game>-<mode>-seed<S>-<time>)"),
    click.option("--debug-invariants", is_flag=True, help="check conservation invariants"),
    click.option("--quiet", is_flag=True, help="no progress bar or summary"),
    click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                 show_default=True,
                 help="local: threads in this process; ray: chunks as Ray tasks (needs "
                      "cardsim[ray]; --threads is then threads per task, default 1)"),
    click.option("--address", default=None, metavar="auto|HOST:PORT",
                 help="with --backend ray: the cluster to join (default: start a local one)"),
    click.option("--seating", type=click.Choice(["auto", "fixed", "duplicate"]), default="auto",
                 show_default=True,
                 help="duplicate: sets of games on the same deals with the strategies moved one "
                      "team on each time; auto: duplicate when the teams' strategies differ"),
]


def with_run_options(f):
    for opt in reversed(run_options):
        f = opt(f)
    return f


def precision_option(help_text: str):
    """--precision, whose meaning each command words for itself."""
    return click.option("--precision", type=float, default=None, metavar="HALF_WIDTH",
                        help=help_text)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsim")
def cli():
    """Monte Carlo simulator for 56, Hand and Foot and Contract Rummy."""


@cli.command()
@game_arg
@click.option("--games", type=int, default=None, help="play N whole games")
@click.option("--deals", type=int, default=None,
              help="play N independent deals, dealer rotating (56 bid statistics)")
@with_common
@with_run_options
@precision_option("stop once the 95% interval of --metric is this narrow (checked after "
                  "each chunk); --games/--deals is then the cap (default 10,000,000)")
@click.option("--metric", default=None,
              help="per-game metric for --precision (default: the game's first; "
                   "see docs/metrics.md)")
@click.option("--resume", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="continue an interrupted run in DIR (same options): only its missing "
                   "chunks are played")
@click.option("--contract", default=None, metavar="seat=S,bid=B,trump=T",
              help="56: play every deal in this contract, no auction (T: S, H, D, C, NT or "
                   "best; short form 40C); the same as --rule contract=...")
def run(game, games, deals, seed, players, rule_opts, rules_file, strategy_opts, threads,
        chunk_size, out, debug_invariants, quiet, backend, address, seating, precision, metric,
        resume, contract):
    """Simulate and write Parquet tables plus run.json."""
    from cardsim.simulator.batch import RunSpec, check_mode, default_out, run as run_batch

    g = _game(game)
    if games is not None and deals is not None:
        raise UsageError("give either --games or --deals, not both")
    for value, name in ((games, "--games"), (deals, "--deals"), (threads, "--threads"),
                        (chunk_size, "--chunk-size")):
        _count(value, name)
    deals_mode = deals is not None
    check_mode(g, deals_mode)  # before --precision reads the game's metrics for that mode
    default = 10_000 if precision is None else 10_000_000
    count = deals if deals_mode else (games if games is not None else default)
    stop = None
    if precision is not None or metric is not None:
        from cardsim.simulator.precision import PrecisionStop

        if precision is None:
            raise UsageError("--metric is used with --precision")
        stop = PrecisionStop(g, precision, metric, deals_mode)
    rules = _rules(g, players, _with_contract(g, rule_opts, contract), rules_file)
    spec = RunSpec(g, rules, list(strategy_opts), _seed(seed), count, deals_mode=deals_mode,
                   threads=threads, chunk_size=chunk_size, debug=debug_invariants,
                   seating=seating, backend=backend, address=_address(backend, address))
    if resume is not None and out is not None:
        raise UsageError("give either --out or --resume (the folder to continue), not both")
    out = resume or out or default_out(game, "deals" if deals_mode else "games", seed)
    info = run_batch(spec, out, progress=False if quiet else None, stop=stop,
                     resume=resume is not None)
    if not quiet:
        unit = info["mode"]
        load = info["kernel_load_s"]
        first = f" (+ {load:.1f} s compiling, first run only)" if load >= 5 else ""
        click.echo(f"{info[unit]:,} {unit} ({info['deal_rows']:,} deal rows) in "
                   f"{info['wall_time_s']:.2f} s = {info['throughput'][f'{unit}_per_s']:,.0f} "
                   f"{unit}/s{first} -> {out}")
        if stop is not None:
            p = info["precision"]
            state = "reached" if p["reached"] else "NOT reached (cap hit)"
            click.echo(f"{p['metric']} = {p['estimate']:.6g} +/- {p['half_width']:.3g} "
                       f"(95%) from {p['n']:,} {unit}: target {precision:g} {state}")


@cli.command()
@game_arg
@click.option("--game-index", type=int, default=None,
              help="game (or deal) number in the run (not with --position)")
@click.option("--mode", type=click.Choice(["games", "deals"]), default="games",
              show_default=True, help="the run mode the index belongs to")
@with_common
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="JSON Lines file, or with --stop-at the position file (default: standard "
                   "output)")
@click.option("--seating", type=click.Choice(["auto", "fixed", "duplicate"]), default="auto",
              show_default=True, help="the run's --seating (it decides who plays each game)")
@click.option("--stop-at", default=None, metavar="[DEAL:]K",
              help="write the position before decision K (from 0) of deal DEAL (default 0) as "
                   "a TOML position file instead of the events")
@click.option("--position", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="play on from a position file (--strategy: who plays on; "
                                   "default the file's)")
def replay(game, game_index, mode, seed, players, rule_opts, rules_file, strategy_opts, out,
           seating, stop_at, position):
    """Replay one game of a run as JSON Lines (the same kernel and random streams), cut a
    position out of it (--stop-at), or play on from a position file (--position)."""
    import json

    from cardsim.simulator.games import get_replay

    g = _game(game)
    if position is not None:
        if game_index is not None or stop_at is not None:
            raise UsageError("--position: give neither --game-index nor --stop-at (the file "
                             "holds the game)")
        events = _play_on(g, position, list(strategy_opts))
    else:
        if game_index is None:
            raise UsageError("--game-index: needed (or --position FILE)")
        if game_index < 0:
            raise UsageError(f"--game-index {game_index}: must be 0 or more")
        rules = _rules(g, players, rule_opts, rules_file)
        if mode == "deals" and not g.supports_deals_mode:
            raise UsageError(f"--mode deals is not available for {g.name} (use --mode games)")
        if stop_at is not None:
            _write(out, _cut(g, rules, list(strategy_opts), _seed(seed), game_index,
                             mode == "deals", seating, stop_at))
            return
        play_one = get_replay(game)
        events, _, _ = play_one(g, rules, list(strategy_opts), _seed(seed), game_index,
                                deals_mode=mode == "deals", debug=True, seating=seating)
    _write(out, "".join(json.dumps(e) + "\n" for e in events))


def _write(out, text: str) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write ({e.strerror or e})") from None


def _cut(g, rules, strategies, seed, game_index, deals_mode, seating, stop_at) -> str:
    """The position file's text for --stop-at [DEAL:]K."""
    from cardsim.simulator import position as P
    from cardsim.simulator.positionfile import dumps

    deal_text, _, k_text = stop_at.rpartition(":")
    try:
        deal, k = int(deal_text or 0), int(k_text)
    except ValueError:
        raise UsageError(f"--stop-at {stop_at}: write K or DEAL:K (whole numbers)") from None
    if deal < 0 or k < 0:
        raise UsageError(f"--stop-at {stop_at}: DEAL and K must be 0 or more")
    if seating == "duplicate":
        raise UsageError("--stop-at: positions are cut from --seating fixed or auto games")
    pos = P.snapshot(g, rules, strategies or [g.default_strategy], seed, game_index, deal, k,
                     deals_mode=deals_mode)
    if pos is None:
        n = P.decisions(g, rules, strategies or [g.default_strategy], seed, game_index, deal,
                        deals_mode=deals_mode)
        raise UsageError(f"--stop-at {stop_at}: deal {deal} of game {game_index} has "
                         f"{n} decisions (allowed K 0..{n - 1})" if n else
                         f"--stop-at {stop_at}: game {game_index} has no deal {deal}")
    return dumps(pos, strategies or [g.default_strategy], P.events(pos),
                 P.decision_names(g))


def _play_on(g, path, strategies):
    from cardsim.simulator import position as P
    from cardsim.simulator.positionfile import read

    pos, saved = read(path)
    if pos.game != g.name:
        raise UsageError(f"--position {path}: a {pos.game} position, not {g.name}")
    try:
        return P.play_on_events(pos, strategies or saved)
    except P.TapeError as e:
        raise UsageError(f"--position {path}: {e}") from None


@cli.command()
@game_arg
@click.option("--hand", "cards", default=None, metavar="CARDS",
              help="the hand, as the replay logs write cards: \"7S 7H 7D 9C ...\"")
@click.option("--position", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="instead of --hand: a position file (cardsim replay "
                                   "--stop-at), analysed for the seat to decide")
@click.option("--samples", type=int, default=None, metavar="N",
              help="with --position: deals of the unseen cards to play on (default 500)")
@click.option("--foot", default=None, metavar="CARDS",
              help="Hand and Foot: the hand's foot too")
@click.option("--seat", type=int, default=None,
              help="the hand's place in turn order (0 plays first; default 0)")
@click.option("--constraint", "constraints", multiple=True, metavar="PLACE:KIND...",
              help="on the other cards (repeatable): PLACE:points:LO..HI, PLACE:suit=H:LO..HI, "
                   "PLACE:rank=J:LO..HI, PLACE:holds=JC; places hand0, hand1, ... in turn order")
@click.option("--deals", type=int, default=None,
              help="deals of the other cards to play (default 20,000)")
@click.option("--deal", type=int, default=None,
              help="which deal of the game (its contract; default 0)")
@with_common
@click.option("--threads", type=int, default=None, help="worker threads (default: all cores)")
@click.option("--json", "as_json", is_flag=True, help="one JSON object, its rows in 'rows'")
@click.option("--contract", default=None, metavar="BID TRUMP",
              help="56: analyse this one contract (40C, 44NTx) instead of every contract")
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="also save the table as DIR/hand.json (a new folder; cardsim report draws "
                   "it)")
def hand(game, cards, position, samples, foot, seat, constraints, deals, deal, seed, players,
         rule_opts, rules_file, strategy_opts, threads, as_json, contract, out):
    """What a hand is worth: the other cards dealt at random (under --constraint), the deal
    played out many times by the strategies, the hand's chances tabulated. With --position:
    what a position is worth to the seat to decide, choice by choice."""
    from cardsim.analysis.report import turn_table_lines
    from cardsim.simulator.api import hand as hand_table

    g = _game(game)
    if (cards is None) == (position is None):
        raise UsageError("--hand or --position: give one of them")
    if position is not None:
        given = [name for name, v in (("--foot", foot), ("--seat", seat),
                                      ("--constraint", constraints), ("--deals", deals),
                                      ("--deal", deal), ("--contract", contract),
                                      ("--players", players), ("--rule", rule_opts),
                                      ("--rules-file", rules_file), ("--threads", threads))
                 if v not in (None, ())]
        if given:
            raise UsageError(f"{given[0]}: not with --position (the file holds the deal, its "
                             "rules and whose turn it is)")
        _outlook(g, position, samples, seed, list(strategy_opts), as_json, out)
        return
    if samples is not None:
        raise UsageError("--samples: only with --position (a hand plays --deals)")
    seat, deals, deal = (0 if seat is None else seat, 20_000 if deals is None else deals,
                         0 if deal is None else deal)
    rules = _rule_texts(g, players, rule_opts, rules_file)
    result = hand_table(g.name, cards, seat=seat, constraints=constraints,
                        deals=_count(deals, "--deals"), strategies=list(strategy_opts),
                        rules=rules, seed=_seed(seed), deal=deal, threads=threads,
                        contract=contract, foot=foot)
    _show_hand(result, out, as_json,
               f"{g.name}: hand {cards} in place {seat}, deal {deal}, {result['deals']:,} "
               f"deals, seed {seed}", getattr(g.analysis(), "hand_lines", turn_table_lines))


def _outlook(g, path, samples, seed, strategies, as_json, out) -> None:
    """cardsim hand --position: the outlook table (simulator.outlook)."""
    from cardsim.simulator.outlook import outlook, outlook_lines
    from cardsim.simulator.positionfile import read
    from cardsim.simulator.progress import Progress

    pos, saved = read(path)
    if pos.game != g.name:
        raise UsageError(f"--position {path}: a {pos.game} position, not {g.name}")
    n = 500 if samples is None else _count(samples, "--samples")
    bar, shown = None, 0

    def progress(done, total):
        nonlocal bar, shown
        if bar is None:
            bar = Progress(total, "playouts")
        bar.advance(done - shown)
        shown = done

    try:
        result = outlook(pos, n, strategies or saved, _seed(seed), progress=progress)
    finally:
        if bar is not None:
            bar.close()
    result["position"] = str(path)
    _show_hand(result, out, as_json,
               f"{g.name}: position {path}, seat {result['seat']} to {result['decision']} in "
               f"deal {result['deal']} after {result['after']} decisions; {n:,} deals of the "
               f"unseen cards, seed {seed}", outlook_lines)


def _show_hand(result: dict, out, as_json: bool, title: str, lines) -> None:
    """A hand or position table: saved with --out, printed as JSON or as lines."""
    import json

    if out is not None:
        _save_hand(out, result)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(title)
    for line in lines(result):
        click.echo(line)


def _save_hand(out: Path, result: dict) -> None:
    """DIR/hand.json, written whole (a temporary name, then renamed)."""
    import json

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"--out {out}: not a new or empty folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = out / "hand.json.part"
        tmp.write_text(json.dumps(result, indent=1) + "\n")
        tmp.rename(out / "hand.json")
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write ({e.strerror or e})") from None


@cli.command()
@game_arg
@click.option("--vary", "vary", multiple=True, required=True, metavar="KEY=V1,V2,...",
              help="a rule option, T.PARAM (team T's strategy parameter; T a number or all) "
                   "or T.strategy, with its values; repeat for a grid")
@click.option("--games", type=int, default=10_000, show_default=True,
              help="games per setting (the same deals for every setting)")
@with_common
@with_run_options
@precision_option("play each setting until the 95% interval of --metric is this narrow; "
                  "--games is then the cap per setting")
@click.option("--metric", default=None, help="per-game metric for --precision")
def sweep(game, vary, games, seed, players, rule_opts, rules_file, strategy_opts, threads,
          chunk_size, out, debug_invariants, quiet, backend, address, seating, precision,
          metric):
    """Run a grid of settings on the same seed, then print the game's study over them."""
    from importlib import import_module

    from cardsim.simulator.batch import default_out
    from cardsim.simulator.sweep import expand, parse_vary, run_sweep

    g = _game(game)
    for value, name in ((games, "--games"), (threads, "--threads"), (chunk_size, "--chunk-size")):
        _count(value, name)
    base = _rule_texts(g, players, rule_opts, rules_file)
    g.rules.resolve(base)
    settings = expand(g, base, list(strategy_opts), [parse_vary(v) for v in vary])
    factory = None
    if precision is not None or metric is not None:
        from cardsim.simulator.precision import PrecisionStop

        if precision is None:
            raise UsageError("--metric is used with --precision")
        PrecisionStop(g, precision, metric, False)  # checks both before anything runs

        def factory():
            return PrecisionStop(g, precision, metric, False)
    out = out or default_out(game, "sweep", seed)
    info = run_sweep(g, settings, _seed(seed), games, out, threads=threads,
                     chunk_size=chunk_size, debug=debug_invariants, seating=seating,
                     progress=False if quiet else None, stop_factory=factory,
                     backend=backend, address=_address(backend, address))
    from cardsim.analysis.sweep import write_sweep_table

    table = write_sweep_table(out)
    if not quiet:
        import polars as pl

        for row in info["settings"]:
            click.echo(f"{row['folder']}: {row['label']}  ({row['games']:,} games, "
                       f"{row['wall_time_s']:.1f} s)")
        shown = table.select(
            "label", "metric", "n",
            pl.format("{} [{}, {}]", *(pl.col(c).round(4) for c in ("estimate", "lo", "hi")))
            .alias("estimate [95%]"),
            pl.format("{} [{}, {}]", *(pl.col(c).round(4) for c in ("diff", "diff_lo",
                                                                     "diff_hi")))
            .alias("paired difference from the first setting"))
        with pl.Config(tbl_rows=1000, tbl_width_chars=200, fmt_str_lengths=80,
                       tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
            click.echo(shown)
    if g.sweep_report:  # the game's study over the settings (tables even when quiet)
        module, _, attr = g.sweep_report.partition(":")
        getattr(import_module(module), attr)(out, info, quiet=quiet)
    if not quiet:
        click.echo(f"sweep written to {out}")


@cli.command()
@game_arg
@click.option("--games", type=int, default=10_000, show_default=True,
              help="boards per match: each is played once from every seat")
@with_common
@with_run_options
@precision_option("play as many boards as every match's win-rate interval needs to be this "
                  "narrow (95%); --games is then the cap")
def compare(game, games, seed, players, rule_opts, rules_file, strategy_opts, threads,
            chunk_size, out, debug_invariants, quiet, backend, address, seating, precision):
    """Every --strategy against every other on the same deals, from every seat: win rate and
    score difference with paired 95% intervals, tests, and a rating."""
    _compare(game, games, seed, players, rule_opts, rules_file, list(strategy_opts), threads,
             chunk_size, out, debug_invariants, quiet, backend, address, seating, precision,
             "compare")


@cli.command()
@game_arg
@click.option("--games", type=int, default=2_000, show_default=True,
              help="boards per match: each is played once from every seat")
@with_common
@with_run_options
def ladder(game, games, seed, players, rule_opts, rules_file, strategy_opts, threads,
           chunk_size, out, debug_invariants, quiet, backend, address, seating):
    """Strength ladder: every built-in strategy (or every --strategy given) against every
    other on the same boards, from every seat, ranked by Bradley-Terry rating with a 95%
    bootstrap interval."""
    texts = list(strategy_opts) or list(_game(game).registry)
    _compare(game, games, seed, players, rule_opts, rules_file, texts, threads, chunk_size, out,
             debug_invariants, quiet, backend, address, seating, None, "ladder")


@cli.command()
@game_arg
@click.option("--strategy", "strategy", required=True, metavar="NAME[:k=v,...]",
              help="the strategy to tune (parameters given here stay fixed)")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI",
              help="a parameter to tune and its range (repeatable)")
@click.option("--against", "against", multiple=True, metavar="NAME[:k=v,...]",
              help="the pool it plays against (repeatable, or comma-separated; default: the "
                   "game's default strategy)")
@click.option("--budget", type=int, default=100, show_default=True, help="candidates to try")
@click.option("--boards", type=int, default=2_000, show_default=True,
              help="boards per candidate and opponent, each played from every seat")
@click.option("--sampler", type=click.Choice(["tpe", "cmaes", "random"]), default="tpe",
              show_default=True, help="Optuna's sampler")
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the study's boards (the final check uses seed + 1)")
@click.option("--players", type=int, default=None, help="shortcut for --rule players=P")
@click.option("--rule", "rule_opts", multiple=True, metavar="KEY=VALUE",
              help="rule option (repeatable); see `cardsim rules GAME`")
@click.option("--rules-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="FILE", help="rule options from a TOML (or .json) file")
@click.option("--threads", type=int, default=None, help="worker threads (default: all cores)")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="output folder (default results/<game>-tune-seed<S>-<time>)")
@click.option("--resume", is_flag=True, help="continue the study in --out (after a kill)")
@click.option("--quiet", is_flag=True, help="no line per candidate")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="local: threads in this process; ray: each candidate's "
              "boards as Ray tasks (--threads is then threads per task, default 1)")
@click.option("--address", default=None, metavar="auto|HOST:PORT",
              help="with --backend ray: the cluster to join (default: start a local one)")
def tune(game, strategy, params, against, budget, boards, sampler, seed, players, rule_opts,
         rules_file, threads, out, resume, quiet, backend, address):
    """The values of a strategy's parameters that win most against a pool, found by Optuna on
    common boards; writes the best as a preset (best.toml, usable as --strategy T=FILE)."""
    from cardsim.simulator.batch import default_out
    from cardsim.simulator.tune import parse_range, run_tune

    g = _game(game)
    for value, name in ((budget, "--budget"), (boards, "--boards"), (threads, "--threads")):
        _count(value, name)
    rules = _rules(g, players, rule_opts, rules_file)
    pool = [t.strip() for a in against for t in a.split(",") if t.strip()] or [
        g.default_strategy]
    if resume and out is None:
        raise UsageError("--resume needs the study's --out folder")
    out = out or default_out(game, "tune", seed)
    log = None if quiet else (lambda line: click.echo(line, err=True))
    info = run_tune(g, rules, strategy, [parse_range(p) for p in params], pool, budget=budget,
                    boards=boards, seed=_seed(seed), out=out, threads=threads,
                    sampler=sampler, resume=resume, log=log, backend=backend,
                    address=_address(backend, address))
    if quiet:
        return
    b = info["best"]

    def iv(x):
        return f"{x['mean']:.4f} [{x['lo']:.4f}, {x['hi']:.4f}]"

    click.echo(f"best of {info['candidates']} candidates: {b['strategy']}")
    click.echo(f"on {boards:,} fresh boards (seed {b['fresh_seed']}) against "
               f"{', '.join(pool)}, from every seat (fair share {info['fair_share']:.3f}): "
               f"win {iv(b['win'])}; as given {iv(b['given'])}; "
               f"difference {iv(b['difference'])}")
    click.echo(f"preset written to {out / 'best.toml'} (use --strategy 0={out / 'best.toml'})")


def _compare(game, games, seed, players, rule_opts, rules_file, texts, threads, chunk_size, out,
             debug_invariants, quiet, backend, address, seating, precision, command):
    from cardsim.simulator.batch import default_out
    from cardsim.simulator.compare import run_compare

    g = _game(game)
    for value, name in ((games, "--games"), (threads, "--threads"), (chunk_size, "--chunk-size")):
        _count(value, name)
    if seating != "auto":
        raise UsageError(f"--seating: {command} always seats every strategy on every team")
    rules = _rules(g, players, rule_opts, rules_file)
    out = out or default_out(game, command, seed)
    info = run_compare(g, rules, texts, _seed(seed), games, out, threads=threads,
                       chunk_size=chunk_size, debug=debug_invariants,
                       progress=False if quiet else None, precision=precision,
                       backend=backend, address=_address(backend, address))
    from cardsim.analysis.compare import study

    tables = study(out)
    if quiet:
        return
    import polars as pl

    with pl.Config(tbl_rows=200, tbl_cols=20, tbl_width_chars=200, fmt_str_lengths=60,
                   float_precision=4, tbl_hide_dataframe_shape=True,
                   tbl_hide_column_data_types=True):
        if precision is not None:
            p = info["precision"]
            state = "reached" if p["reached"] else "NOT reached (cap hit)"
            click.echo(f"precision: widest win-rate half-width {p['half_width']:.4f} "
                       f"(target {precision:g}) {state} after {p['passes']} passes")
        boards = (f"{info['games']:,} boards per match, each from all {info['teams']} seats "
                  f"(seed {info['seed']})")
        if command == "compare":
            click.echo(f"{boards}; win = share of games won (ties half), diff = total against "
                       "the other teams, both from the first strategy's side:")
            click.echo(tables["pairs"])
        if command == "ladder" or len(info["strategies"]) > 2:
            if command == "ladder":
                click.echo(f"{boards}.")
            click.echo("ranking (Bradley-Terry rating on the Elo scale, mean 0, 95% bootstrap "
                       "interval over boards; win_share over all its games):")
            r = tables["ratings"]
            click.echo(r.select(
                "rank", "strategy",
                pl.format("{} [{}, {}]", *(pl.col(c).round(1) for c in ("rating", "lo", "hi")))
                .alias("rating [95%]"), pl.col("win_share").round(4), "games"))
    click.echo(f"tables written to {out / 'studies'}")


@cli.command()
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="folder for report.html, report.md and the figures "
                   "(default: <first folder>/report)")
@click.option("--title", default="cardsim report", show_default=True)
def report(dirs, out, title):
    """HTML and Markdown report of finished runs, sweeps and comparisons (runs of one game
    are drawn together, e.g. several Hand and Foot schedules)."""
    from cardsim.analysis.report import build, write

    out = Path(out) if out is not None else Path(dirs[0]) / "report"
    try:
        html_path, md_path = write(build(dirs), out, title)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write ({e.strerror or e})") from None
    click.echo(f"report: {html_path} and {md_path}")


class _AnalyzeGroup(click.Group):
    """The study commands every game declares (its adapter's ``analyze_commands``, "module:
    click command"), imported only when used, so each game keeps them in its own package."""

    @staticmethod
    def _declared() -> dict[str, str]:
        from cardsim.simulator.games import GAMES, get_game

        out = {}
        for game in GAMES:
            out.update(get_game(game).analyze_commands)
        return out

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self._declared()])

    def get_command(self, ctx, name):
        target = self._declared().get(name)
        if target is not None:
            from importlib import import_module

            module, _, attr = target.partition(":")
            return getattr(import_module(module), attr)
        return super().get_command(ctx, name)


@cli.group(cls=_AnalyzeGroup)
def analyze():
    """Studies from a finished run's tables."""


@cli.command()
@game_arg
def rules(game):
    """List every rule option with its default and allowed values."""
    g = _game(game)
    for name, default, allowed, doc in g.rules.listing():
        click.echo(f"{name} = {default}\n    allowed: {allowed}\n    {doc}")
    if g.rules_doc:
        click.echo(f"\nRules as implemented, and the choices cardsim made: {g.rules_doc}")


@cli.command()
@game_arg
def strategies(game):
    """List the built-in strategies and their parameters."""
    g = _game(game)
    for name, d in g.registry.items():
        click.echo(f"{name}: {d.doc}")
        for p in d.params:
            click.echo(f"    {p.name} = {p.default:g}  ({p.doc})")


@cli.command()
@game_arg
def schema(game):
    """Print the outcome tables' columns as Markdown."""
    from cardsim.simulator.tables import schema_markdown

    g = _game(game)
    click.echo(schema_markdown("deals", g.deal_columns))
    click.echo(schema_markdown("games", g.game_columns))


def _address(backend: str, address: str | None) -> str | None:
    if address is not None and backend != "ray":
        raise UsageError("--address is used with --backend ray")
    if backend == "ray":
        from cardsim.simulator.ray_backend import check_address

        check_address(address)
    return address


def _error(text: str, code: int) -> None:
    # one line whatever the input held: control characters (a stray \r in an argument)
    # are shown escaped
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text.strip())
    click.echo(f"cardsim: error: {line}", err=True)
    sys.exit(code)


def main(argv=None) -> None:
    try:
        cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("cardsim: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        _error(e.format_message(), 2)
    except (UsageError, StrategyError) as e:
        _error(str(e), 2)
    except BackendError as e:
        _error(str(e), 1)


if __name__ == "__main__":
    main()
