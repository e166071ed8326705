"""README.md and the pages in docs/ say only what works.

- Every relative link in README.md and docs/**/*.md points to a file of this repository, and
  every ``#anchor`` to a heading of that page (GitHub's slugs). No link points outside the
  repository, and every repository path quoted in backticks exists.
- Every ``cardsim ...`` line in the README's code blocks runs, scaled down (small counts, in a
  temporary folder), in the order of the README, so that the later examples read what the
  earlier ones wrote. A ``--resume`` example resumes a run cut short on purpose. A line that
  needs a Ray cluster (``--address``) is parsed by the real command line, and runs locally
  without its cluster options. The README's Python block runs on the tables the examples
  wrote.
- The cardsim lines in the code blocks of docs/**/*.md are parsed by the real command line
  (options, choices, types, game names).
- The README has an example of every command.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cardsim.simulator.cli import cli, main
from cardsim.simulator.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]

# Counts of the README's examples are cut to these, so that every example runs in a second or
# so; --chunk-size 500 keeps several chunks in a 2,000-deal run (for --resume).
SMALL = {"--games": 100, "--deals": 2000, "--budget": 3, "--boards": 20,
         "--dealt-hands": 1000, "--chunk-size": 500}
REPO_PATH = re.compile(r"`((?:docs|scripts|simulator|strategies|analysis|tests|cardsim|\.ci)"
                       r"/[^`\s]*)`")


# --- Markdown --------------------------------------------------------------------------------

def _outside_fences(text: str) -> str:
    """The text with fenced code blocks blanked (line numbers kept)."""
    out, fence = [], None
    for line in text.splitlines():
        m = re.match(r"\s*(```+|~~~+)", line)
        if fence is None and m:
            fence = m.group(1)
            out.append("")
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2)) for m in
            re.finditer(r"^\s*```([^\n]*)\n(.*?)^\s*```", text, re.M | re.S)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text (inline code, emphasis and link
    markup dropped), lower case, punctuation but hyphens and underscores removed, spaces to
    hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found, seen = set(), {}
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", _outside_fences(text), re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        found.add(s if n == 0 else f"{s}-{n}")
    return found


def links(text: str) -> list[str]:
    """Targets of inline links and images, and of reference definitions, outside code."""
    prose = re.sub(r"`[^`\n]*`", "code", _outside_fences(text))
    targets = re.findall(r"\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)", prose)
    targets += re.findall(r"^[ \t]*\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:\s|$)", prose, re.M)
    return targets


def link_problems(page: Path, text: str, root: Path = ROOT) -> list[str]:
    problems = []
    name = page.relative_to(root) if page.is_relative_to(root) else page
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            problems.append(f"{name}: {target}: points outside the repository")
            continue
        path, _, anchor = target.partition("#")
        if not path:  # an anchor of this page
            if anchor not in anchors(text):
                problems.append(f"{name}: {target}: no heading with the anchor #{anchor}")
            continue
        dest = (page.parent / path).resolve()
        if not dest.is_relative_to(root.resolve()):
            problems.append(f"{name}: {target}: points outside the repository")
        elif not dest.exists():
            problems.append(f"{name}: {target}: no such file")
        elif anchor:
            if dest.suffix != ".md" or dest.is_dir():
                problems.append(f"{name}: {target}: an anchor into a page that is not Markdown")
            elif anchor not in anchors(dest.read_text(encoding="utf-8")):
                problems.append(f"{name}: {target}: no heading with the anchor #{anchor}")
    for m in REPO_PATH.finditer(_outside_fences(text)):
        path = m.group(1).split(":")[0]
        if not any(c in path for c in "<>*{}") and not (root / path).exists():
            problems.append(f"{name}: `{m.group(1)}`: no such file in the repository")
    return problems


# --- command lines ---------------------------------------------------------------------------

def command_lines(text: str) -> list[list[str]]:
    """The ``cardsim ...`` commands of the shell blocks (comments dropped, ``a && b`` split),
    as argument lists without the leading ``cardsim``."""
    found = []
    for lang, body in code_blocks(text):
        if lang not in ("", "bash", "sh", "shell", "console"):
            continue
        for line in body.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0] == "cardsim":
                    found.append(words[1:])
    return found


def parse(args: list[str]) -> click.Context:
    """Parse a command line with the real CLI, down to the leaf command, without running it;
    raises click's UsageError (no such option, bad value, missing argument ...)."""
    ctx = cli.make_context("cardsim", list(args))
    cmd: click.Command = cli
    while isinstance(cmd, click.Group):
        rest = [*(ctx._protected_args if hasattr(ctx, "_protected_args")
                  else ctx.protected_args), *ctx.args]
        name, cmd, rest = cmd.resolve_command(ctx, rest)
        ctx = cmd.make_context(name, rest, parent=ctx)
    game = ctx.params.get("game")
    if game is not None and game not in GAMES:
        raise click.UsageError(f"no such game {game!r} (games: {', '.join(GAMES)})", ctx)
    return ctx


def scaled(args: list[str]) -> list[str]:
    out = list(args)
    for i, word in enumerate(out[:-1]):
        if word in SMALL and out[i + 1].isdigit():
            out[i + 1] = str(min(int(out[i + 1]), SMALL[word]))
    return out


def _option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args[:-1] else None


def without_cluster(args: list[str]) -> list[str]:
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word in ("--backend", "--address", "--threads"):  # threads of a cluster node
            skip = True
        else:
            out.append(word)
    return out


def cut_short(folder: Path) -> int:
    """Make a finished run look killed after all but its last chunk; the chunks left."""
    (folder / "run.json").unlink()
    chunks = json.loads((folder / "chunks.json").read_text())
    last = max(chunks, key=int)
    for f in chunks.pop(last)["files"]:
        (folder / f).unlink()
    (folder / "chunks.json").write_text(json.dumps(chunks))
    return len(chunks)


def run_line(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run one scaled-down command in ``cwd``: in this process, except the Ray backend's
    local instance (a subprocess, so that no Ray stays up here). Exit code and output."""
    args = scaled(args)
    if _option(args, "--backend") == "ray":
        if _option(args, "--address") is not None:  # a cluster: parse it, run it locally
            try:
                parse(args)
            except click.ClickException as e:
                return 2, e.format_message()
            args = without_cluster(args)
        else:
            env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
            env["RAY_USAGE_STATS_ENABLED"] = "0"
            p = subprocess.run([sys.executable, "-m", "cardsim", *args], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=600)
            return p.returncode, p.stdout + p.stderr
    resumed = _option(args, "--resume")
    left = cut_short(cwd / resumed) if resumed else None
    old, out = Path.cwd(), io.StringIO()
    os.chdir(cwd)
    try:  # main(), as the console command calls it: its errors and exit codes
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            main(args)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        os.chdir(old)
    output = out.getvalue()
    if code == 0 and left is not None:
        info = json.loads((cwd / resumed / "run.json").read_text())
        if info.get("resumed_chunks") != left:
            return 1, f"resumed {info.get('resumed_chunks')} chunks, expected {left}"
    return code, output


def run_readme(text: str, cwd: Path) -> list[str]:
    """Run every cardsim line and Python block of ``text`` in order; the first failure."""
    (cwd / "docs").symlink_to(ROOT / "docs")  # the plug-in examples, as from the clone
    for lang, body in code_blocks(text):
        if lang == "python":
            old = Path.cwd()
            os.chdir(cwd)
            try:
                exec(compile(body, "README.md (python block)", "exec"), {})
            except Exception as e:  # noqa: BLE001  (reported as the failure)
                return [f"python block: {type(e).__name__}: {e}"]
            finally:
                os.chdir(old)
            continue
        for args in command_lines(f"```{lang}\n{body}```\n"):
            code, output = run_line(args, cwd)
            if code != 0:
                return [f"`cardsim {shlex.join(args)}` (run as `cardsim "
                        f"{shlex.join(scaled(args))}`) exited {code}:\n{output[-3000:]}"]
    return []


# --- the tests -------------------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_anchor_resolves(page):
    problems = link_problems(page, page.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_the_readme_links_into_docs_and_the_changelog():
    targets = {t.partition("#")[0] for t in links(README.read_text(encoding="utf-8"))}
    for page in ("docs/commands.md", "docs/speed.md", "docs/cluster.md", "docs/players.md",
                 "docs/api.md", "CHANGELOG.md"):
        assert page in targets, f"README.md does not link to {page}"


def test_the_readme_shows_every_command():
    lines = command_lines(README.read_text(encoding="utf-8"))
    shown = {args[0] for args in lines if args}
    missing = set(cli.commands) - shown
    assert not missing, f"README.md has no example of: {sorted(missing)}"
    assert any(_option(a, "--backend") == "ray" for a in lines), "no Ray example"
    assert any("--resume" in a for a in lines), "no --resume example"


def test_every_readme_command_runs(tmp_path):
    failures = run_readme(README.read_text(encoding="utf-8"), tmp_path)
    assert not failures, failures[0]


@pytest.mark.parametrize("page", [p for p in PAGES[1:] if command_lines(p.read_text())],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_docs_command_parses(page):
    bad = []
    for args in command_lines(page.read_text(encoding="utf-8")):
        try:
            parse(args)
        except click.ClickException as e:
            bad.append(f"cardsim {shlex.join(args)}: {e.format_message()}")
    assert not bad, f"{page.relative_to(ROOT)}:\n" + "\n".join(bad)


# --- the checks can fail ---------------------------------------------------------------------

def test_the_link_check_catches_broken_links(tmp_path):
    page = ROOT / "docs" / "example.md"  # not written: only its folder matters
    good = ("[ok](schema.md) [ok](schema.md#fifty-six) [ok](#intro) [ok](../README.md)\n"
            "`scripts/soak.py` and, in code, `[x](nowhere.md)`:\n\n```\n[x](nowhere.md)\n```\n")
    text = "# Intro\n\n" + good
    assert link_problems(page, text) == []
    broken = text + ("[a](no_such_page.md) [b](schema.md#no-such-heading) [c](#nope) "
                     "[d](https://example.com/x) [e](../../outside.md) `scripts/no_such.py`\n")
    problems = link_problems(page, broken)
    assert len(problems) == 6, problems
    for needle in ("no_such_page.md: no such file", "#no-such-heading", "#nope",
                   "https://example.com/x: points outside", "../../outside.md: points outside",
                   "scripts/no_such.py"):
        assert any(needle in p for p in problems), (needle, problems)


def test_github_slugs():
    assert slug("56 studies: when does a bid make?") == "56-studies-when-does-a-bid-make"
    assert slug("cardsim — design notes (as built)") == "cardsim--design-notes-as-built"
    assert slug("`simulate`") == "simulate"
    assert slug("Bid band × trump kind") == "bid-band--trump-kind"
    assert slug("Reading a [run](x.md), *fast*") == "reading-a-run-fast"
    assert anchors("# A\n## A\n```\n# A\n```\n## A\n") == {"a", "a-1", "a-2"}


def test_the_command_checks_catch_a_misspelt_option(tmp_path):
    with pytest.raises(click.NoSuchOption):
        parse(["run", "fifty-six", "--gmaes", "10"])
    with pytest.raises(click.UsageError):
        parse(["run", "fifty-seven", "--games", "10"])
    with pytest.raises(click.BadParameter):
        parse(["run", "fifty-six", "--seating", "sideways"])
    parse(["analyze", "bid-success", "results/x", "--by", "bid"])  # parses: a real line
    text = ("```bash\ncardsim rules fifty-six\n"
            "cardsim run fifty-six --deals 1000 --backend ray --address auto --thread 2\n```\n")
    (tmp_path / "a").mkdir()
    failures = run_readme(text, tmp_path / "a")
    assert failures and "--thread" in failures[0] and "exited 2" in failures[0]
    # a line that parses but cannot run (no such rule option) fails too: it is run
    text = "```bash\ncardsim run fifty-six --deals 100 --rule no_such_rule=1 --out r\n```\n"
    (tmp_path / "b").mkdir()
    failures = run_readme(text, tmp_path / "b")
    assert failures and "exited 2" in failures[0] and "no_such_rule" in failures[0]
