"""A fourth game is one folder and one registry line: the toy trick-taking game in
tests/toy_tricks/ (a game cardsim knows nothing of) runs through every command — run, replay,
compare, sweep, report, an analyze command, rules, strategies, schema, plug-ins — registered
only by CARDSIM_GAMES (in a subprocess) or its one entry in the registry (in this process).
Its own rules are tested on a hand-made deal, its invariants over random rule options."""
import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cardsim.simulator import games as G
from cardsim.simulator.cards import parse
from cardsim.simulator.errors import StrategyError

REPO = Path(__file__).resolve().parent.parent
TOY = "tests.toy_tricks"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(G.GAMES, "toy-tricks", TOY)  # the one registry line


def cardsim(*args):
    """The console command in this process (main(), with its exit codes): (code, output)."""
    import contextlib
    import io

    from cardsim.simulator.cli import main

    buf = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code or 0
    return code, buf.getvalue()


def ok(*args) -> str:
    code, out = cardsim(*args)
    assert code == 0, out
    return out


def tables(folder: Path, kind: str) -> pl.DataFrame:
    return pl.read_parquet(sorted(folder.glob(f"{kind}-*.parquet"))).sort("game_index")


def test_every_command_runs_on_a_game_registered_from_outside(tmp_path):
    env = {**os.environ, "CARDSIM_GAMES": f"toy-tricks={TOY}",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    script = (
        "import sys\n"
        "from cardsim.simulator.cli import main\n"
        "for args in [a.split() for a in sys.argv[1:]]:\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as e:\n"
        "        if e.code:\n"
        "            raise\n"
        "    print('--- done', args[0])\n")
    run, cmp, sweep, rep = (tmp_path / n for n in ("run", "cmp", "sweep", "report"))
    commands = [
        f"run toy-tricks --games 600 --seed 4 --out {run}",
        f"replay toy-tricks --game-index 5 --seed 4 --out {tmp_path / 'g5.jsonl'}",
        f"compare toy-tricks --strategy highest --strategy random --games 300 --out {cmp}",
        f"sweep toy-tricks --vary last_trick_bonus=0,2 --games 300 --out {sweep}",
        f"report {run} {cmp} {sweep} --out {rep}",
        f"analyze trick-share {run}",
        "rules toy-tricks", "strategies toy-tricks", "schema toy-tricks",
    ]
    p = subprocess.run([sys.executable, "-c", script, *commands], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.count("--- done") == len(commands)
    assert json.loads((run / "run.json").read_text())["game"] == "toy-tricks"
    assert tables(run, "games").height == 600
    events = [json.loads(x) for x in (tmp_path / "g5.jsonl").read_text().splitlines()]
    assert events[0]["game"] == "toy-tricks" and events[-1]["event"] == "game_end"
    assert (cmp / "compare.json").exists() and (sweep / "sweep.json").exists()
    page = (rep / "report.html").read_text()
    assert "Toy tricks: tricks per deal" in page and "<img" in page
    assert (run / "studies" / "trick_share.parquet").exists()
    assert "last_trick_bonus = 1" in p.stdout and "highest: plays its highest" in p.stdout
    assert "tricks_team0" in p.stdout  # the schema


def test_a_malformed_registry_entry_is_one_line(tmp_path):
    env = {**os.environ, "CARDSIM_GAMES": "Toy Tricks"}
    p = subprocess.run([sys.executable, "-m", "cardsim", "rules", "fifty-six"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "cardsim: error: CARDSIM_GAMES: 'Toy Tricks' is not allowed (allowed: name=package, "
        "names in lower case with hyphens, comma-separated)"]


def test_tables_do_not_depend_on_threads_or_chunks(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ok("run", "toy-tricks", "--games", "900", "--seed", "11", "--threads", "1", "--out", str(a))
    ok("run", "toy-tricks", "--games", "900", "--seed", "11", "--threads", "2",
       "--chunk-size", "250", "--out", str(b))
    for kind in ("deals", "games"):
        assert tables(a, kind).equals(tables(b, kind))


def test_the_replay_is_the_game_of_the_run(tmp_path):
    from cardsim.simulator.games import get_game, get_replay

    run = tmp_path / "run"
    ok("run", "toy-tricks", "--games", "50", "--seed", "2", "--rule", "hand_size=4",
       "--strategy", "1=random", "--out", str(run))
    deals = tables(run, "deals")
    g = get_game("toy-tricks")
    rules = g.rules.resolve(["hand_size=4"])
    for index in (0, 17, 49):
        events, rows, _ = get_replay("toy-tricks")(g, rules, ["1=random"], 2, index)
        mine = deals.filter(pl.col("game_index") == index)
        assert rows.equals(mine)
        scores = [e for e in events if e["event"] == "score"]
        assert [tuple(s["totals"]) for s in scores] == mine.select(
            "total_team0", "total_team1").rows()
        plays = [e for e in events if e["event"] == "play"]
        assert len(plays) == 4 * 4 * mine.height


def _deal(hands: dict[int, str]) -> list[int]:
    """A preset deck: seat 0's hand first (dealer 3 deals from seat 0 on), then the rest."""
    cards = [parse(c) for s in range(4) for c in hands[s].split()]
    rest = [parse(r + s) for s in "SHDC" for r in ("9", "10", "J", "Q", "K", "A")
            if parse(r + s) not in cards]
    return cards + rest


# dealer 3 (deal mode, game index 3): seat 0 leads. With duck=0 everyone plays its highest
# legal card: trick 0 AS KS 9S QS (seat 1 and 3 must follow spades: seat 0 wins); trick 1
# 10C, AH (seat 1 has no club; its ace does not win), KC, 9C: seat 2 wins; trick 2 QH from
# seat 2, JD, 9H, 9D: seat 2 again. Team 0 takes all three tricks and the last-trick bonus.
HANDS = {0: "AS 9H 10C", 1: "KS AH 9D", 2: "9S QH KC", 3: "QS 9C JD"}


def test_follow_suit_and_the_highest_card_of_the_suit_led_wins():
    from cardsim.simulator.games import get_game, get_replay

    g = get_game("toy-tricks")
    rules = g.rules.resolve(["hand_size=3", "last_trick_bonus=2"])
    events, rows, _ = get_replay("toy-tricks")(g, rules, ["highest:duck=0"], 0, 3,
                                               deals_mode=True, preset_deck=_deal(HANDS))
    plays = [(e["seat"], e["card"]) for e in events if e["event"] == "play"]
    assert plays == [(0, "AS"), (1, "KS"), (2, "9S"), (3, "QS"),
                     (0, "10C"), (1, "AH"), (2, "KC"), (3, "9C"),
                     (2, "QH"), (3, "JD"), (0, "9H"), (1, "9D")]
    assert [e["winner"] for e in events if e["event"] == "trick"] == [0, 2, 2]
    row = rows.row(0, named=True)
    assert (row["tricks_team0"], row["tricks_team1"], row["last_trick_team"]) == (3, 0, 0)
    assert (row["points_team0"], row["points_team1"]) == (5, 0)


def test_ducking_plays_the_lowest_card_when_the_highest_cannot_win():
    from cardsim.simulator.games import get_game, get_replay

    g = get_game("toy-tricks")
    rules = g.rules.resolve(["hand_size=3"])
    # seat 1 holds KS JS: with duck=1 it cannot beat AS, so it plays JS, not KS
    hands = {0: "AS 9H 10C", 1: "KS JS 9D", 2: "9S QH KC", 3: "QS 9C JD"}
    events, _, _ = get_replay("toy-tricks")(g, rules, ["highest:duck=1"], 0, 3,
                                            deals_mode=True, preset_deck=_deal(hands))
    first = [e["card"] for e in events if e["event"] == "play"][:4]
    assert first == ["AS", "JS", "9S", "QS"]


def test_a_plug_in_that_revokes_is_refused_naming_it(tmp_path):
    from cardsim.simulator.games import get_game, get_replay

    plug = tmp_path / "first.py"
    plug.write_text(
        "from numba import njit\n\n"
        "@njit\n"
        "def first_play(hand, n, public, private, legal, params, rng):\n"
        "    return 0\n")
    g = get_game("toy-tricks")
    rules = g.rules.resolve(["hand_size=3"])
    # always the first card: trick 0 AS KS 9S QS; trick 1 seat 0 leads 10C, seat 1 has no club
    # (AH), seat 2 holds KC but plays QH: a revoke
    hands = {0: "AS 10C 9H", 1: "KS AH 9D", 2: "9S QH KC", 3: "QS 9C JD"}
    with pytest.raises(StrategyError, match=r"strategy '.*first.py:first' \(team 0, seat 2\) "
                                            r"returned an illegal play choice 0"):
        get_replay("toy-tricks")(g, rules, [f"{plug}:first"], 0, 3, deals_mode=True,
                                 preset_deck=_deal(hands))
    code, out = cardsim("run", "toy-tricks", "--games", "20", "--strategy", f"{plug}:first",
                        "--out", str(tmp_path / "run"))
    assert code == 2 and "returned an illegal play choice" in out


@settings(max_examples=12, deadline=None)
@given(hand=hs.integers(3, 6), bonus=hs.integers(0, 3), target=hs.integers(5, 30),
       seed=hs.integers(0, 2**32))
def test_points_tricks_and_totals_add_up(tmp_path_factory, hand, bonus, target, seed):
    out = tmp_path_factory.mktemp("inv")
    ok("run", "toy-tricks", "--games", "200", "--seed", str(seed), "--debug-invariants",
       "--strategy", "0=random", "--rule", f"hand_size={hand}", "--rule",
       f"last_trick_bonus={bonus}", "--rule", f"target={target}", "--out", str(out))
    deals, games = tables(out, "deals"), tables(out, "games")
    assert (deals["tricks_team0"] + deals["tricks_team1"] == hand).all()
    for t in (0, 1):
        got = deals[f"points_team{t}"]
        want = deals[f"tricks_team{t}"] + (deals["last_trick_team"] == t).cast(pl.Int8) * bonus
        assert (got == want).all()
    per = deals.group_by("game_index").agg(
        pl.col("points_team0").sum().alias("p0"), pl.col("points_team1").sum().alias("p1"),
        pl.len().alias("n")).sort("game_index")
    assert per["p0"].to_list() == games["total_team0"].to_list()
    assert per["p1"].to_list() == games["total_team1"].to_list()
    assert per["n"].to_list() == games["deals"].to_list()
    finished = games.filter(~pl.col("capped"))
    assert (finished[["total_team0", "total_team1"]].max_horizontal() >= target).all()
    winner = games["winner_team"]
    diff = games["total_team0"] - games["total_team1"]
    assert ((winner == 0) == (diff > 0)).all() and ((winner == 1) == (diff < 0)).all()
    assert (winner.is_null() == (diff == 0)).all()


def test_no_cardsim_file_names_the_fourth_game():
    hits = [p.relative_to(REPO) for folder in ("simulator", "strategies", "analysis", "scripts")
            for p in (REPO / folder).rglob("*.py") if "toy" in p.read_text().lower()]
    assert hits == []
