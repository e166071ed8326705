"""The command line: runs, listings, and bad input (one line, exit code 2, nothing that looks
finished)."""
import json
import subprocess
import sys

import polars as pl
import pytest

CLI = [sys.executable, "-m", "cardsim"]


def cardsim(*args, cwd=None):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, cwd=cwd, timeout=600)


def test_run_writes_tables_and_run_json(tmp_path):
    out = tmp_path / "run"
    p = cardsim("run", "fifty-six", "--games", "500", "--seed", "3", "--players", "6",
                "--rule", "team_layout=pairs", "--threads", "2", "--out", str(out))
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["game"] == "fifty-six" and info["games"] == 500 and info["seed"] == 3
    assert info["rules"]["team_layout"] == "pairs" and info["rules"]["players"] == 6
    assert info["strategies"][0]["name"] == "tuned" and len(info["strategies"]) == 3
    assert info["wall_time_s"] > 0 and info["throughput"]["games_per_s"] > 0
    assert info["kernel_load_s"] >= 0  # compile or cache load, timed apart from the games
    assert "package_version" in info and "git_commit" in info
    games = pl.read_parquet(out / "games-000000.parquet")
    deals = pl.read_parquet(out / "deals-000000.parquet")
    assert games.height == 500 and deals.height == info["deal_rows"]
    assert deals.schema["trump"] == pl.Enum(["S", "H", "D", "C", "NT"])


@pytest.mark.parametrize("args, needle", [
    (["run", "chess"], "unknown game 'chess'"),
    (["run", "fifty-six", "--rule", "colour=red"], "unknown rule 'colour'"),
    (["run", "fifty-six", "--rule", "max_bid=99"], "rule 'max_bid'"),
    (["run", "fifty-six", "--players", "5"], "rule 'players'"),
    (["run", "fifty-six", "--strategy", "0=genius"], "unknown strategy 'genius'"),
    (["run", "fifty-six", "--strategy", "0=random:depth=3"], "no parameter 'depth'"),
    (["run", "fifty-six", "--strategy", "7=random"], "no team 7"),
    (["run", "fifty-six", "--games", "-4"], "--games -4"),
    (["run", "fifty-six", "--games", "5", "--deals", "5"], "either --games or --deals"),
    (["run", "fifty-six", "--threads", "64"], "--threads 64"),
    (["run", "fifty-six", "--seed", "abc"], "seed"),
    # found by the command-line fuzz test: --precision read a deals mode the game lacks
    (["run", "hand-and-foot", "--deals", "2", "--precision", "4"], "--deals is not available"),
    (["rules", "bridge"], "unknown game"),
    (["replay", "fifty-six", "--game-index", "-1"], "--game-index"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needle):
    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] == "run" and len(args) > 1 and args[1] == "fifty-six" else []
    p = cardsim(*args, *extra)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not (out / "run.json").exists()
    assert not out.exists() or not any(out.iterdir())


def test_unwritable_or_used_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = cardsim("run", "fifty-six", "--deals", "10", "--out", str(blocker / "sub"))
    assert p.returncode == 2 and "cannot write" in p.stderr
    used = tmp_path / "used"
    used.mkdir()
    (used / "something").write_text("x")
    p = cardsim("run", "fifty-six", "--deals", "10", "--out", str(used))
    assert p.returncode == 2 and "not empty" in p.stderr


def test_listings():
    p = cardsim("rules", "fifty-six")
    assert p.returncode == 0
    for key in ("players", "team_layout", "hidden_trump", "payout", "thani", "max_deals",
                "redeal_weak_hands", "no_trump_lead_until_broken", "turn_order"):
        assert f"{key} = " in p.stdout
    p = cardsim("strategies", "fifty-six")
    assert p.returncode == 0 and p.stdout.startswith("random:")
    p = cardsim("schema", "fifty-six")
    assert "`bidder_jacks`" in p.stdout and "`winner_team`" in p.stdout


def test_replay_matches_the_run_row(tmp_path):
    out = tmp_path / "run"
    assert cardsim("run", "fifty-six", "--games", "50", "--seed", "8", "--out", str(out)).returncode == 0
    deals = pl.read_parquet(out / "deals-000000.parquet").filter(pl.col("game_index") == 17)
    p = cardsim("replay", "fifty-six", "--seed", "8", "--game-index", "17")
    assert p.returncode == 0
    events = [json.loads(x) for x in p.stdout.splitlines()]
    contracts = [e for e in events if e["event"] == "contract"]
    scores = [e for e in events if e["event"] == "score"]
    assert len(contracts) == deals.height
    for c, s, row in zip(contracts, scores, deals.iter_rows(named=True)):
        assert (c["bidder"], c["bid"], c["trump"], c["double_level"]) == (
            row["bidder"], row["bid"], row["trump"], row["double_level"])
        assert (s["made"], s["bidding_team_points"], s["tables_moved"]) == (
            row["made"], row["bidding_team_points"], row["tables_moved"])


def test_a_slow_kernel_load_is_announced_and_timed_apart(capsys):
    import time

    from cardsim.simulator.progress import announce_compile

    took = announce_compile("test", lambda: time.sleep(0.4), enabled=True, after=0.05)
    assert took >= 0.4
    assert "compiling the test kernels (first run only" in capsys.readouterr().err
    announce_compile("test", lambda: None, enabled=True, after=0.3)
    time.sleep(0.4)  # a load that finished in time says nothing, even later
    assert capsys.readouterr().err == ""
    announce_compile("test", lambda: time.sleep(0.2), enabled=False, after=0.01)
    assert capsys.readouterr().err == ""  # quiet off a terminal
