"""`cardsim tune`: candidates scored on common boards, a study that resumes, a preset that
plays, and bad input refused before anything runs."""
import json

import numpy as np
import polars as pl
import pytest

from cardsim.simulator.errors import UsageError
from cardsim.simulator.games import get_game
from cardsim.simulator.strategy import parse_spec
from cardsim.simulator.tune import Range, board_wins, parse_range, run_tune

G56 = get_game("fifty-six")


def test_ranges_parse_and_refuse():
    assert parse_range("margin=-2..4.5") == Range("margin", -2.0, 4.5)
    for bad in ("margin", "margin=1", "margin=a..2", "=1..2", "margin=3..3"):
        with pytest.raises(UsageError):
            parse_range(bad)


def test_a_strategy_against_itself_scores_exactly_half():
    """From every seat on the same boards, a strategy meets itself: every board scores 1/2
    (a seat mix-up between candidate and opponent would not)."""
    rules = G56.rules.resolve({})
    wins = board_wins(G56, rules, "cautious", ["cautious"], seed=4, boards=40, threads=1)
    assert wins.shape == (40,)
    assert np.allclose(wins, 0.5)
    # and a weaker strategy scores below half on the same boards
    assert board_wins(G56, rules, "random", ["cautious"], seed=4, boards=40, threads=1).mean() < 0.3


@pytest.mark.parametrize("game,strategy,param,pool", [
    ("fifty-six", "evaluator", "margin=-2..4", ["cautious", "conventional"]),
    ("hand-and-foot", "waiting_melder", "hold=0..200", ["waiting_melder"]),
    ("contract-rummy", "hold_for_more", "max_left=0..10", ["lay_down_at_once"]),
])
def test_a_study_is_reproducible_resumes_and_writes_a_preset(tmp_path, game, strategy, param,
                                                             pool):
    g = get_game(game)
    rules = g.rules.resolve({})
    boards = 30 if game == "fifty-six" else 6
    args = dict(boards=boards, seed=3, threads=1)
    rng = [parse_range(param)]
    a = run_tune(g, rules, strategy, rng, pool, budget=2, out=tmp_path / "a", **args)
    a = run_tune(g, rules, strategy, rng, pool, budget=4, out=tmp_path / "a", resume=True,
                 **args)
    b = run_tune(g, rules, strategy, rng, pool, budget=4, out=tmp_path / "b", **args)
    ta = pl.read_parquet(tmp_path / "a" / "trials.parquet")
    tb = pl.read_parquet(tmp_path / "b" / "trials.parquet")
    assert ta.height == 4 and ta.equals(tb)  # resumed = uninterrupted, same seed
    assert a["best"] == b["best"] and a["candidates"] == 4
    name = param.split("=")[0]
    lo, hi = rng[0].lo, rng[0].hi
    assert all(lo <= v <= hi for v in ta[name])
    assert a["best"]["study_score"] == pytest.approx(ta["value"].max())
    win = a["best"]["win"]
    assert 0 <= win["lo"] <= win["mean"] <= win["hi"] <= 1 and win["boards"] == boards
    # the preset plays as the best candidate
    spec = parse_spec(f"0={tmp_path / 'a' / 'best.toml'}")
    assert spec.team == 0 and spec.name == strategy
    assert spec.params == pytest.approx(a["best"]["params"])
    assert json.loads((tmp_path / "a" / "tune.json").read_text())["best"] == a["best"]


def test_preset_values_can_be_overridden_and_bad_presets_are_refused(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text('strategy = "evaluator"\n[params]\nmargin = 1.5\nraise_step = 2\n')
    spec = parse_spec(f"1={p}:margin=3")
    assert (spec.name, spec.params) == ("evaluator", {"margin": 3.0, "raise_step": 2.0})
    for text in ('strategy = 3\n', 'strategy = "evaluator"\n[params]\nmargin = "a"\n',
                 'not toml at all ='):
        p.write_text(text)
        with pytest.raises(UsageError):
            parse_spec(str(p))
    with pytest.raises(UsageError):
        parse_spec(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("strategy,params,pool,fragment", [
    ("evaluator", ["nope=1..2"], ["cautious"], "no such parameter"),
    ("evaluator", ["margin=-100..2"], ["cautious"], "outside the parameter's range"),
    ("evaluator:margin=1", ["margin=0..2"], ["cautious"], "also fixed"),
    ("0=evaluator", ["margin=0..2"], ["cautious"], "without a team"),
    ("evaluator", ["margin=0..2"], ["1=cautious"], "without a team"),
    ("evaluator", [], ["cautious"], "at least one --param"),
    ("evaluator", ["margin=0..2", "margin=1..2"], ["cautious"], "twice"),
    ("evaluator", ["margin=0..2"], ["cautious"], "--sampler"),
])
def test_bad_input_is_refused_before_anything_is_written(tmp_path, strategy, params, pool,
                                                         fragment):
    rules = G56.rules.resolve({})
    sampler = "annealing" if fragment == "--sampler" else "tpe"
    with pytest.raises(UsageError, match=fragment):
        run_tune(G56, rules, strategy, [parse_range(p) for p in params], pool, budget=2,
                 boards=10, seed=0, out=tmp_path / "t", sampler=sampler)
    assert not (tmp_path / "t").exists()


def test_cli_prints_the_best_and_exits_2_on_bad_input(tmp_path):
    from click.testing import CliRunner

    from cardsim.simulator.cli import cli, main

    out = tmp_path / "t"
    r = CliRunner().invoke(cli, ["tune", "fifty-six", "--strategy", "evaluator", "--param",
                                 "margin=0..3", "--against", "cautious,conventional",
                                 "--budget", "2", "--boards", "20", "--threads", "1",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "best of 2 candidates: evaluator:margin=" in r.output
    assert json.loads((out / "tune.json").read_text())["against"] == ["cautious",
                                                                      "conventional"]
    with pytest.raises(SystemExit) as e:
        main(["tune", "fifty-six", "--strategy", "evaluator", "--param", "margin=0..3",
              "--budget", "0", "--out", str(tmp_path / "u")])
    assert e.value.code == 2


def test_report_draws_the_convergence_of_a_study(tmp_path):
    from cardsim.analysis.report import build

    rules = G56.rules.resolve({})
    info = run_tune(G56, rules, "evaluator", [parse_range("margin=0..3")], ["cautious"],
                    budget=3, boards=20, seed=1, threads=1, out=tmp_path / "t")
    (sec,) = build([tmp_path / "t"])
    assert sec.title.startswith("Tune") and len(sec.figures) == 1
    png, caption = sec.figures[0]
    assert png[:4] == b"\x89PNG" and "20 boards" in caption
    tables = dict(sec.tables)
    assert tables["best"]["strategy"][0] == info["best"]["strategy"]
    assert tables["candidates"].height == 3


@pytest.mark.parametrize("sampler", ["cmaes", "random"])
def test_every_sampler_runs_and_stays_in_range(tmp_path, sampler):
    rules = G56.rules.resolve({})
    ranges = [parse_range("margin=0..3"), parse_range("raise_step=1..6")]
    run_tune(G56, rules, "evaluator", ranges, ["cautious"], budget=4, boards=10, seed=2,
             threads=1, out=tmp_path / "t", sampler=sampler)
    t = pl.read_parquet(tmp_path / "t" / "trials.parquet")
    assert t.height == 4 and t["margin"].is_between(0, 3).all()
    assert t["raise_step"].is_between(1, 6).all()
