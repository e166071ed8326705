"""What the engine promises for every game, checked on every game in the registry (a new game
gets these tests by its entry in simulator.games.GAMES): the same tables for any thread count
and chunk size, the debug invariants on random rule options, a replayed game equal to its row
in the batch tables, and an illegal strategy answer reported in one line naming the strategy."""
from __future__ import annotations

import subprocess
import sys

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.simulator.batch import RunSpec, Runner, run
from cardsim.simulator.errors import UsageError
from cardsim.simulator.games import GAMES, get_game, get_replay

ALL = list(GAMES)
# small games keep the test quick: a whole 56 game is many deals
COUNT = {"fifty-six": 60, "hand-and-foot": 24, "contract-rummy": 16}


def _tables(folder):
    deals = pl.concat([pl.read_parquet(f) for f in sorted(folder.glob("deals-*.parquet"))])
    games = [pl.read_parquet(f) for f in sorted(folder.glob("games-*.parquet"))]
    return deals, (pl.concat(games) if games else None)


@pytest.mark.parametrize("name", ALL)
def test_same_tables_for_any_threads_and_chunk_size(name, tmp_path):
    g = get_game(name)
    rules = g.rules.resolve({})
    n = COUNT[name]
    got = []
    for i, (threads, chunk) in enumerate([(1, n), (2, 5), (2, 7)]):
        spec = RunSpec(g, rules, [], seed=11, count=n, threads=threads, chunk_size=chunk)
        run(spec, tmp_path / f"r{i}", progress=False)
        got.append(_tables(tmp_path / f"r{i}"))
    for deals, games in got[1:]:
        assert deals.equals(got[0][0])
        assert games.equals(got[0][1])
    assert got[0][0].height >= n


def _option(field):
    """A value of a rule option: its default, or another allowed value near it (values far
    from the defaults make games very long without testing anything more)."""
    others = []
    if field.kind == "bool":
        others = [not field.default]
    elif field.kind == "choice":
        others = [c for c in field.choices if c != field.default]
    elif field.kind == "int" and isinstance(field.default, int):
        lo = field.lo if field.lo is not None else field.default - 2
        hi = field.hi if field.hi is not None else field.default + 2
        others = [v for v in (lo, field.default - 1, field.default + 1) if lo <= v <= hi
                  and v != field.default]
    return st.sampled_from([field.default, *others])


def _rule_options(name):
    fields = [f for f in get_game(name).rules.fields.values() if f.kind != "custom"]
    return st.fixed_dictionaries({}, optional={f.name: _option(f) for f in fields})


@pytest.mark.parametrize("name", ALL)
def test_debug_invariants_hold_on_random_rule_options(name):
    g = get_game(name)
    strategies = [d.name for d in g.registry.values() if not d.plugin]

    @settings(max_examples=6, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(opts=_rule_options(name), pick=st.integers(0, 10**6), seed=st.integers(0, 2**31))
    def check(opts, pick, seed):
        try:
            rules = g.rules.resolve(opts)
        except UsageError:
            return  # options that contradict each other are refused, as on the command line
        names = [strategies[(pick >> (3 * k)) % len(strategies)] for k in range(2)]
        texts = [f"{k}={s}" for k, s in enumerate(names)]
        n = 8 if name != "fifty-six" else 20
        try:
            spec = RunSpec(g, rules, texts, seed=seed, count=n, debug=True)
            runner = Runner(spec)
        except UsageError:  # e.g. a seat count duplicate seating cannot divide
            spec = RunSpec(g, rules, texts, seed=seed, count=n, debug=True, seating="fixed")
            runner = Runner(spec)
        deals, games = runner.play_chunk(0, n, 2)  # an invariant breaking raises here
        assert games is not None and games.height == n
        assert deals.height >= n

    check()


@pytest.mark.parametrize("name", ALL)
def test_a_replayed_game_equals_its_row_in_the_tables(name):
    g = get_game(name)
    rules = g.rules.resolve({})
    n = COUNT[name] // 2
    deals, games = Runner(RunSpec(g, rules, [], seed=21, count=n)).play_chunk(0, n, 2)
    replay = get_replay(name)
    for gi in (0, n - 1):
        events, rdeals, _ = replay(g, rules, [], 21, gi)
        assert events, "an empty event log"
        want = deals.filter(pl.col("game_index") == gi)
        assert want.height > 0
        assert rdeals.equals(want), f"game {gi}"


ILLEGAL = """from numba import njit
{functions}
"""


def _illegal_plugin(name, tmp_path):
    """A plug-in whose every required decision answers 1,000,000: illegal in every game."""
    sig, required, _ = get_game(name).plugin_interface()
    args = ", ".join(f"a{i}" for i in range(len(sig.args)))
    functions = "\n".join(f"@njit\ndef bad_{d}({args}):\n    return 1000000\n" for d in required)
    path = tmp_path / "illegal.py"
    path.write_text(ILLEGAL.format(functions=functions))
    return path


@pytest.mark.parametrize("name", ALL)
def test_an_illegal_strategy_answer_is_one_line_naming_the_strategy(name, tmp_path):
    plugin = _illegal_plugin(name, tmp_path)
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "-m", "cardsim", "run", name, "--games", "4",
                        "--strategy", f"0={plugin}:bad", "--seating", "fixed",
                        "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "illegal.py:bad" in lines[0] and "illegal" in lines[0] and "1000000" in lines[0]
    assert not (out / "run.json").exists()  # nothing that looks finished


# ---------------------------------------------------------------- positions (simulator.position)

TOY = "tests.toy_tricks"


def _with_positions():
    """The registered games that provide positions, and the toy game."""
    names = [n for n in ALL if getattr(get_game(n), "position_module", None)]
    return names + ["toy-tricks"]


@pytest.fixture
def games_and_toy(monkeypatch):
    from cardsim.simulator import games as G

    monkeypatch.setitem(G.GAMES, "toy-tricks", TOY)


def _frames_equal(a, b):
    return (a is None and b is None) or a.equals(b)


def _same(a, b) -> bool:
    """Field by field, arrays by value."""
    import dataclasses

    import numpy as np

    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and all(
            _same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("name", _with_positions())
def test_a_game_stopped_at_any_decision_resumes_to_the_same_rows(name, games_and_toy):
    """Stop a game at a random decision of a random deal, snapshot, resume with the same
    strategies: the same deal rows from that deal on, the same game row."""
    import numpy as np

    from cardsim.simulator import position as P
    from cardsim.simulator.runner import RunSpec, Runner

    g = get_game(name)
    rules = g.rules.resolve({})
    strategies = [g.default_strategy, "0=random"]
    n = 4
    deals, games = Runner(RunSpec(g, rules, strategies, seed=5, count=n,
                                  seating="fixed")).play_chunk(0, n, 1)
    rng = np.random.default_rng(17)
    checked = 0
    for gi in range(n):
        want_d = deals.filter(pl.col("game_index") == gi)
        want_g = games.filter(pl.col("game_index") == gi) if games is not None else None
        # the tracking driver plays the game a run plays
        got_d, got_g = P.play_tracked(g, rules, strategies, 5, gi)
        assert got_d.equals(want_d) and _frames_equal(got_g, want_g)
        deal = int(rng.integers(0, want_d["deal_index"].max() + 1))
        count = P.decisions(g, rules, strategies, 5, gi, deal)
        assert count > 0
        for k in sorted({0, int(rng.integers(0, count)), count - 1}):
            pos = P.snapshot(g, rules, strategies, 5, gi, deal, k)
            assert pos is not None and len(pos.tape) == k and pos.seat >= 0
            rd, rg = P.resume(pos, strategies)
            assert rd.equals(want_d.filter(pl.col("deal_index") >= deal)), (gi, deal, k)
            assert _frames_equal(rg, want_g)
            checked += 1
        assert P.snapshot(g, rules, strategies, 5, gi, deal, count) is None
    assert checked >= n


@pytest.mark.parametrize("name", _with_positions())
def test_a_position_plays_on_with_any_strategies(name, games_and_toy):
    """The same position resumed with other strategies: the deals before it are kept (the
    resumed rows start at its deal), the debug invariants hold, and the play differs."""
    from cardsim.simulator import position as P

    g = get_game(name)
    rules = g.rules.resolve({})
    differ = 0
    for gi in range(4):
        count = P.decisions(g, rules, ["random"], 9, gi, 0)
        pos = P.snapshot(g, rules, ["random"], 9, gi, 0, count // 2)
        a, _ = P.resume(pos, ["random"])
        b, _ = P.resume(pos, [g.default_strategy])
        assert a["deal_index"].min() == 0 and b["deal_index"].min() == 0
        differ += not a.equals(b)
    assert differ > 0


@pytest.mark.parametrize("name", _with_positions())
def test_resampling_keeps_everything_the_player_has_seen(name, games_and_toy):
    """A player's view of a position, its hidden cards dealt again: the new position looks
    the same to that player, replays its tape legally (the kernel checks every forced answer
    and the invariants) and plays on; the hidden cards do change."""
    from importlib import import_module

    import numpy as np

    from cardsim.simulator import position as P

    g = get_game(name)
    pm = import_module(g.position_module)
    rules = g.rules.resolve({})
    rng = np.random.default_rng(3)
    changed = 0
    for gi in range(3):
        count = P.decisions(g, rules, [g.default_strategy], 13, gi, 0)
        for k in (count // 3, (2 * count) // 3):
            pos = P.snapshot(g, rules, [g.default_strategy], 13, gi, 0, k)
            view = pm.observe(pos, pos.seat)
            for _ in range(3):
                other = pm.resample(view, rng)
                assert _same(pm.observe(other, view.seat), view), (gi, k)
                again = P.resume(other, [g.default_strategy], stop=k)
                assert again is not None and again.seat == pos.seat
                P.resume(other, [g.default_strategy])  # plays to the end, invariants on
                changed += not np.array_equal(other.header, pos.header)
    assert changed > 0
