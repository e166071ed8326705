"""`cardsim report`: every figure is drawn and embedded, each caption gives its sample size
and seed, the Markdown summary points at real files, and bad folders get one line.

The layout: every figure's texts stay clear of each other, strategies and settings
appear by short labels with a legend that gives each in full, and the page, rendered in
headless Chromium at a desktop and a narrow width, has nothing wider than the page: figures
fit the column, tables scroll inside their own box, and no text spills out of its cell.

Without a Chromium on the machine the browser test is skipped, unless CARDSIM_REQUIRE_BROWSER=1
(as in CI), when its absence is a failure."""
from __future__ import annotations

import base64
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cardsim import compare, simulate, sweep, tune
from cardsim.analysis import report

CLI = [sys.executable, "-m", "cardsim"]
LONG = "evaluator:tie_points=0,voids=0,count_trumps=0,signals=0,overtake_min_points=99"
WIDTHS = (1300, 800)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("report-layout")
    simulate("fifty-six", deals=2000, seed=3, out=root / "f56")
    for i, sched in enumerate(([50, 90], [0, 0])):
        simulate("hand-and-foot", games=10, seed=4, out=root / f"hf{i}",
                 rules={"players": 2, "deals": 2, "min_meld": sched})
    simulate("contract-rummy", games=10, seed=5, out=root / "cr",
             rules={"players": 3, "contracts": "2s:10,1s1r:10"})
    compare("fifty-six", ["tuned", LONG, "cautious", "random"], games=40, seed=6,
            out=root / "cmp")
    sweep("fifty-six", {"all.margin": [0, 2, 4, 6]}, games=20, seed=7, out=root / "sw1")
    sweep("fifty-six", {"all.margin": [0, 4], "payout": ["sheet", "short"]}, games=20,
          seed=8, out=root / "sw2")
    tune("fifty-six", "evaluator", {"margin": (-2.0, 6.0)}, against=["cautious"], budget=3,
         boards=10, seed=9, out=root / "tune")
    return [root / d for d in ("f56", "hf0", "hf1", "cr", "cmp", "sw1", "sw2", "tune")]


class _Figures(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.captions, self._in_caption = [], [], False

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        self._in_caption = tag == "figcaption"

    def handle_data(self, data):
        if self._in_caption:
            self.captions.append(data)
            self._in_caption = False


def test_report_draws_every_figure(folders, tmp_path):
    out = tmp_path / "report"
    p = subprocess.run(CLI + ["report", *map(str, folders), "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    page = _Figures()
    page.feed((out / "report.html").read_text())
    # 56: two figures; Hand and Foot (both runs together), Contract Rummy, the comparison,
    # each sweep and the tune study: one each
    assert len(page.images) == 8 == len(page.captions)
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    seeds = ["seed 3", "seed 3", "seed 4, 4", "seed 5", "seed 6", "seed 7", "seed 8", "seed 9"]
    for caption, seed in zip(page.captions, seeds):
        assert seed in caption, caption
        assert re.search(r"\d[\d,]* (contracts|deals|games|boards)", caption), caption
    md = (out / "report.md").read_text()
    figures = re.findall(r"!\[figure \d+\]\((figure-\d+\.png)\)", md)
    assert len(figures) == 8 and all((out / f).is_file() for f in figures)
    assert "## Comparison" in md and "| rank | strategy | rating |" in md
    assert "| label | strategy |" in md and f"| B evaluator | {LONG} |" in md


def test_report_of_a_folder_that_is_not_a_run(tmp_path):
    p = subprocess.run(CLI + ["report", str(tmp_path)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a finished cardsim" in lines[0]


def _text_overlaps(fig) -> list[str]:
    """Pairs of visible texts of a figure whose boxes overlap (more than a pixel's sliver)."""
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    hidden = set()  # tick labels of ticks outside the axis' view: made, but not drawn
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            eps = (hi - lo) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not lo - eps <= tick.get_loc() <= hi + eps:
                    hidden.update((id(tick.label1), id(tick.label2)))
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and id(t) not in hidden]
    found = []
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            inter = Bbox.intersection(ba, bb)
            if inter is not None and inter.width > 1 and inter.height > 1:
                found.append(f"{a!r} overlaps {b!r}")
    return found


def test_no_text_of_any_figure_overlaps_another(folders, monkeypatch):
    drawn, problems = [], []
    png = report.png

    def checked(fig):
        drawn.append(fig.get_size_inches())
        problems.extend(_text_overlaps(fig))
        return png(fig)

    monkeypatch.setattr(report, "png", checked)
    sections = report.build(folders)
    assert len(drawn) == sum(len(s.figures) for s in sections) == 8
    assert not problems, problems
    # no figure wider than the page's column
    assert all(w <= report.MAX_WIDTH_IN + 1e-9 for w, _ in drawn), drawn


def test_the_overlap_check_finds_overlapping_texts():
    plt = report.pyplot()
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("a title")
    ax.text(0.5, 1.02, "a second title", transform=ax.transAxes, ha="center")
    assert _text_overlaps(fig)
    plt.close(fig)


def test_strategies_and_settings_have_short_labels_and_a_legend(folders):
    sections = {s.title: s for s in report.build(folders)}
    cmp = next(s for t, s in sections.items() if t.startswith("Comparison"))
    what, rows = cmp.legend
    assert what == "strategy"
    assert rows == [("A tuned", "tuned"), ("B evaluator", LONG), ("C cautious", "cautious"),
                    ("D random", "random")]
    matches, ranking = cmp.tables[0][1], cmp.tables[1][1]
    assert set(matches["a"]) | set(matches["b"]) == {r[0] for r in rows}
    assert set(ranking["strategy"]) == {r[0] for r in rows}
    # one varied key: its values are the axis, no legend; two: a heat map, no legend
    assert all(s.legend is None for t, s in sections.items() if t.startswith("Sweep"))
    # short specs are their own labels
    assert report.short_labels(["tuned", "cautious"]) == {"tuned": "tuned",
                                                         "cautious": "cautious"}
    assert report.short_labels(["a" * 17, "b"]) == {"a" * 17: "A", "b": "B"}
    html_text, md = _write(folders, Path(tempfile.mkdtemp()))
    html_text = html_text.replace("<wbr>", "")  # where a long spec may break
    assert LONG in html_text and LONG in md  # the full spec, once, in the legend
    assert html_text.count("overtake_min_points=99") == 1


def _write(folders, out: Path) -> tuple[str, str]:
    h, m = report.write(report.build(folders), out)
    return h.read_text(), m.read_text()


# --- in a browser --------------------------------------------------------------------------

PROBE = """<script>
window.addEventListener('load', () => {
  const W = document.documentElement.clientWidth, out = {width: W,
    scroll_width: document.documentElement.scrollWidth, wide: [], spill: [], images: [],
    boxes: []};
  const inBox = e => e.closest('.box') !== null && !e.classList.contains('box');
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || inBox(e)) continue;
    if (r.right > W + 0.5 || r.left < -0.5)
      out.wide.push(e.tagName + ' ' + (e.textContent || '').slice(0, 40) + ' ' + r.right);
  }
  for (const c of document.querySelectorAll('td, th'))
    if (c.scrollWidth > c.clientWidth + 1) out.spill.push(c.textContent.slice(0, 60));
  for (const i of document.images)
    out.images.push([i.alt, i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight]);
  for (const b of document.querySelectorAll('.box'))
    out.boxes.push([b.getBoundingClientRect().right, b.clientWidth, b.scrollWidth]);
  const p = document.createElement('pre');
  p.id = 'layout'; p.hidden = true; p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});
</script></body>"""


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    if os.environ.get("CARDSIM_REQUIRE_BROWSER") == "1":
        pytest.fail("CARDSIM_REQUIRE_BROWSER=1 but no chromium on the PATH")
    pytest.skip("no chromium on this machine")


def _layout(browser: str, page: Path, width: int) -> dict:
    probe = page.with_name(f"probe-{width}.html")
    probe.write_text(page.read_text().replace("</body>", PROBE))
    with tempfile.TemporaryDirectory() as profile:
        p = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
             f"--window-size={width},900", "--virtual-time-budget=10000", "--dump-dom",
             probe.as_uri()], capture_output=True, text=True, timeout=180)
    m = re.search(r'<pre id="layout" hidden="">(.*?)</pre>', p.stdout, re.S)
    assert m, f"no layout from chromium (exit {p.returncode}): {p.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1)))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_fits_its_width_in_a_browser(folders, tmp_path, width):
    browser = _chromium()
    page, _ = report.write(report.build(folders), tmp_path)
    got = _layout(browser, page, width)
    assert got["width"] <= width
    assert got["scroll_width"] <= got["width"], "the page scrolls sideways"
    assert not got["wide"], got["wide"]
    assert not got["spill"], f"text spills out of its cell: {got['spill']}"
    assert all(right <= got["width"] + 0.5 for right, _, _ in got["boxes"]), got["boxes"]
    assert len(got["images"]) == 8
    for alt, nat_w, nat_h, w, h in got["images"]:
        assert nat_w > 0 and w <= got["width"], (alt, nat_w, w)
        if width == 1300:  # drawn at the width it is shown: the column holds it unscaled
            assert w == nat_w, (alt, nat_w, w)
    # the comparison's forest plot (figure 5: after 56's two, Hand and Foot's, Contract
    # Rummy's) is as tall as its six matches need, not a fixed size
    forest = got["images"][4]
    assert forest[0] == "figure 5" and forest[2] <= 6 * 40 + 200, forest
    if width == 800:  # the matches table is wider than 800 px: it scrolls inside its box
        assert any(sw > cw for _, cw, sw in got["boxes"]), got["boxes"]
