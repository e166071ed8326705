"""`cardsim rules / run / replay / analyze contract-completion` for Contract Rummy from the
command line, a plug-in strategy, and one-line errors."""
import json
import subprocess
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay_checker_contract_rummy import check_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cardsim"]
PLUGIN = ROOT / "docs" / "examples" / "contract_rummy_lowball.py"


def cardsim(*args):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=900,
                          cwd=ROOT)


def test_rules_list_every_option_and_bad_values_fail_in_one_line():
    p = cardsim("rules", "contract-rummy")
    assert p.returncode == 0, p.stderr
    for name in ("players", "decks", "jokers", "contracts", "min_run", "max_contract_meld",
                 "ace_low", "runs_distinct_suits", "last_deal_all_at_once", "lay_off_sets",
                 "buying", "buy_limit", "max_reshuffles", "max_turns"):
        assert f"{name} = " in p.stdout
    assert "max_contract_meld = auto\n" in p.stdout and "max(4, min_run)" in p.stdout
    for args, needle in ((["--rule", "contracts=2q:10"], "rule 'contracts'"),
                         (["--players", "9"], "rule 'players'"),
                         (["--rule", "min_run=5", "--rule", "max_contract_meld=4"],
                          "rule 'max_contract_meld'"),
                         (["--strategy", "0=hold_for_more:patience=3"], "no parameter"),
                         (["--games", "6", "--strategy", "0=random"], "multiple of 4")):
        p = cardsim("run", "contract-rummy", "--games", "4", "--quiet", *args)
        assert p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_run_replay_plugin_and_study(tmp_path):
    out = tmp_path / "run"
    p = cardsim("run", "contract-rummy", "--games", "40", "--seed", "3", "--threads", "2",
                "--strategy", f"0={PLUGIN}:lowball:low=6", "--strategy", "1=pile_hunter",
                "--strategy", "2=hold_for_more:max_left=3", "--rule", "buying=true",
                "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["game"] == "contract-rummy" and info["games"] == 40
    assert info["rules"]["decks"] == 2 and info["rules"]["buying"] is True
    assert info["strategies"][0]["params"] == {"low": 6.0}
    assert info["strategies"][3]["name"] == "table_reader"  # the default
    deals = pl.read_parquet(out / "deals-000000.parquet")
    assert deals.height == 40 * 7 * 4 == info["deal_rows"]
    assert deals.schema["end"] == pl.Enum(["went_out", "stalled", "turn_cap"])

    g = tmp_path / "g.jsonl"
    p = cardsim("replay", "contract-rummy", "--seed", "3", "--game-index", "5",
                "--strategy", f"0={PLUGIN}:lowball:low=6", "--strategy", "1=pile_hunter",
                "--strategy", "2=hold_for_more:max_left=3", "--rule", "buying=true",
                "--out", str(g))
    assert p.returncode == 0, p.stderr
    events = [json.loads(line) for line in g.read_text().splitlines()]
    totals = check_game(events)["totals"]
    last = deals.filter((pl.col("game_index") == 5) & (pl.col("deal_index") == 6)).sort("seat")
    assert totals == last["cumulative"].to_list()

    p = cardsim("analyze", "contract-completion", str(out), "--turns", "0,2,5,10",
                "--dealt-hands", "300", "--out", str(tmp_path / "study"))
    assert p.returncode == 0, p.stderr
    assert "own turn t" in p.stdout and "dealt hands" in p.stdout
    curve = pl.read_parquet(tmp_path / "study" / "contract_completion-laid_down_by_turn.parquet")
    assert set(curve["turn"]) == {0, 2, 5, 10} and curve.height == 7 * 4
    assert (curve["share_lo"] <= curve["share"]).all() and (curve["share"] <= curve["share_hi"]).all()
    # the curve never falls with t
    mono = curve.sort("deal_index", "turn").group_by("deal_index").agg(
        (pl.col("share").diff().drop_nulls() >= 0).all().alias("ok"))
    assert mono["ok"].all()
    dealt = pl.read_parquet(tmp_path / "study" / "contract_completion-dealt.parquet")
    assert dealt.height == 7 and (dealt["hands"] == 300).all()
    p = cardsim("analyze", "contract-completion")
    assert p.returncode == 2 and "--dealt-hands" in p.stderr
