"""The progress bar moves while a chunk plays: the engine's blocks count their finished games
into an array that a Tally reads from another thread; the count never goes backwards or past
the total, also when blocks run out of rows and are continued; on a terminal the bar ends at
the total, and nothing is printed when stderr is not a terminal, under CI or with --quiet."""
import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from cardsim.simulator import progress as progress_mod
from cardsim.simulator.batch import RunSpec, Runner, run
from cardsim.simulator.games import get_game
from cardsim.simulator.progress import Progress, Tally

CLI = [sys.executable, "-m", "cardsim"]


class CheckedTally(Tally):
    """A Tally that checks, at the end of every kernel call, that the blocks' live counts add
    up to the games the call finished (so the count does not jump when a call ends), and
    remembers how many calls there were."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def settle(self, games):
        settled, slots = self._now
        assert slots is not None and int(slots.sum()) == games, \
            "the blocks' live counts do not add up to the games the kernel call finished"
        self.calls += 1
        super().settle(games)


def _sample_while_playing(runner, first, n, threads, tally):
    """Play games first..first+n-1 on a thread and read ``tally`` from here as fast as
    possible until it is done; returns (the values read, the chunk's rows)."""
    runner.ctx  # load the kernel first: only the play is sampled
    runner.spec.game.kernel_ready()
    with ThreadPoolExecutor(max_workers=1) as pool:
        playing = pool.submit(runner.play_rows, first, n, threads, tally)
        seen = []
        while not playing.done():
            seen.append(tally.value())
        rows = playing.result()  # raises what the play raised
    seen.append(tally.value())
    return seen, rows


@pytest.mark.parametrize("threads", [1, 2])
def test_the_live_count_moves_within_one_chunk(threads):
    g = get_game("contract-rummy")
    n = 400
    runner = Runner(RunSpec(g, g.rules.resolve({}), [], seed=4, count=n, seating="fixed"))
    tally = CheckedTally()
    seen, _ = _sample_while_playing(runner, 0, n, threads, tally)
    assert tally.calls == 1  # one kernel call: the chunk did not end before the last value
    assert any(0 < v < n for v in seen), "the count only moved when the chunk ended"
    assert seen == sorted(seen) and seen[-1] == n


def test_blocks_continued_after_rows_full_count_each_game_once(monkeypatch):
    g = get_game("hand-and-foot")
    rules = g.rules.resolve({})
    n = 1500
    spec = RunSpec(g, rules, [], seed=8, count=n, seating="fixed")
    normal = Runner(spec).play_chunk(0, n, 2)
    # room for about one deal row per game: every block runs out and is continued
    monkeypatch.setattr(type(g), "expected_deals", lambda self, r: 1)
    runner = Runner(spec)
    tally = CheckedTally()
    seen, (deal_cols, game_rows) = _sample_while_playing(runner, 0, n, 2, tally)
    assert tally.calls > 2  # continued, more than once
    assert seen == sorted(seen) and max(seen) == seen[-1] == n
    assert any(0 < v < n for v in seen)
    deals, games = g.frames(deal_cols, game_rows, 0, False)
    assert deals.equals(normal[0]) and games.equals(normal[1])


class _Recorder:
    """A terminal console writing to a string, standing in for stderr's."""

    def __init__(self):
        from rich.console import Console

        self.buf = io.StringIO()
        self.console = Console(file=self.buf, force_terminal=True, width=150)

    def counts(self, total):
        return [int(m) for m in re.findall(rf"(\d+)/{total}\b", self.buf.getvalue())]


def _recording(monkeypatch, poll_s=0.002):
    rec = _Recorder()
    monkeypatch.setattr(progress_mod, "_console", lambda: rec.console)
    monkeypatch.setattr(progress_mod, "POLL_S", poll_s)
    return rec


def test_the_bar_never_shows_less_than_before_or_more_than_the_total(monkeypatch):
    rec = _recording(monkeypatch, poll_s=3600)  # drawn only when asked, below

    class Scripted:
        now = 0

        def value(self):
            return self.now

    bar = Progress(10, "games", enabled=True)
    bar.tally = script = Scripted()
    for v in (3, 2, 7, 15, 9):
        script.now = v
        bar._show()
    bar.close()
    shown = rec.counts(10)
    assert [v for i, v in enumerate(shown) if i == 0 or v != shown[i - 1]] == [0, 3, 7, 10]


def test_a_run_on_a_terminal_shows_games_between_chunk_ends(monkeypatch, tmp_path):
    g = get_game("hand-and-foot")
    n, chunk = 2400, 800
    monkeypatch.setattr(type(g), "expected_deals", lambda self, r: 1)  # ROWS_FULL often
    rec = _recording(monkeypatch)
    spec = RunSpec(g, g.rules.resolve({}), [], seed=2, count=n, threads=2, chunk_size=chunk,
                   seating="fixed")
    run(spec, tmp_path / "r", progress=True)
    shown = rec.counts(n)
    assert shown == sorted(shown) and shown[-1] == n
    assert any(v % chunk for v in shown), "the bar moved only at chunk ends"


def test_a_resumed_run_starts_the_bar_at_the_chunks_already_done(monkeypatch, tmp_path):
    g = get_game("contract-rummy")
    out = tmp_path / "r"
    spec = RunSpec(g, g.rules.resolve({}), [], seed=6, count=60, threads=1, chunk_size=20,
                   seating="fixed")
    run(spec, out, progress=False)
    (out / "run.json").unlink()  # as if it had died after its second chunk
    chunks = json.loads((out / "chunks.json").read_text())
    for f in chunks.pop("2")["files"]:
        (out / f).unlink()
    (out / "chunks.json").write_text(json.dumps(chunks))
    rec = _recording(monkeypatch)
    run(spec, out, progress=True, resume=True)
    shown = rec.counts(60)
    assert shown[0] == 40 and shown == sorted(shown) and shown[-1] == 60


def _cli_with_terminal(args, env):
    """Run the CLI with stderr on a pseudo-terminal and stdout on a pipe; returns (exit code,
    stdout, what reached the terminal)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    screen = b""
    while True:  # read as it comes, or a full terminal buffer would stop the run
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not data:
                break
            screen += data
        elif p.poll() is not None:
            break
    stdout = p.stdout.read().decode()
    code = p.wait(timeout=600)
    os.close(master)
    return code, stdout, screen.decode(errors="replace")


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return {**env, "COLUMNS": "150", "TERM": "xterm", **extra}


RUN = ["run", "contract-rummy", "--games", "300", "--chunk-size", "100", "--threads", "1"]


def test_the_cli_bar_goes_to_the_terminal_and_ends_at_the_total(tmp_path):
    code, stdout, screen = _cli_with_terminal(RUN + ["--out", str(tmp_path / "r")], _env())
    assert code == 0, screen
    assert re.findall(r"(\d+)/300\b", screen)[-1] == "300"
    assert "300/300" not in stdout  # stdout has the summary line only
    assert len(stdout.strip().splitlines()) == 1 and "300 games" in stdout


@pytest.mark.parametrize("how", ["ci", "quiet"])
def test_nothing_on_a_terminal_under_ci_or_quiet(tmp_path, how):
    env = _env(CI="true") if how == "ci" else _env()
    extra = ["--quiet"] if how == "quiet" else []
    code, stdout, screen = _cli_with_terminal(RUN + extra + ["--out", str(tmp_path / "r")], env)
    assert code == 0, screen
    assert screen == ""
    assert "/300" not in stdout


def test_nothing_on_stderr_when_it_is_not_a_terminal(tmp_path):
    p = subprocess.run(CLI + RUN + ["--out", str(tmp_path / "r")], capture_output=True,
                       text=True, env=_env(), timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    assert len(p.stdout.strip().splitlines()) == 1
