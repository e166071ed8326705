"""`cardsim report`: every figure is drawn and embedded, each caption gives its sample size
and seed, the Markdown summary points at real files, and bad folders get one line."""
import base64
import re
import subprocess
import sys
from html.parser import HTMLParser

from cardsim.simulator.api import compare, simulate, sweep

CLI = [sys.executable, "-m", "cardsim"]


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


def test_report_draws_every_figure(tmp_path):
    simulate("fifty-six", deals=3000, seed=11, out=tmp_path / "f56")
    for i, sched in enumerate(([50, 90], [0, 0])):
        simulate("hand-and-foot", games=20, seed=12, out=tmp_path / f"hf{i}",
                 rules={"players": 2, "deals": 2, "min_meld": sched})
    simulate("contract-rummy", games=30, seed=15, out=tmp_path / "cr",
             rules={"players": 3, "contracts": "2s:10,1s1r:10"})
    compare("fifty-six", ["evaluator", "random", "cautious"], games=60, seed=13,
            out=tmp_path / "cmp")
    sweep("fifty-six", {"all.margin": [0, 4], "payout": ["sheet", "short"]}, games=30,
          seed=14, out=tmp_path / "sw")
    out = tmp_path / "report"
    p = subprocess.run(CLI + ["report", *(str(tmp_path / d) for d in
                                          ("f56", "hf0", "hf1", "cr", "cmp", "sw")),
                              "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    page = _Figures()
    page.feed((out / "report.html").read_text())
    # 56: two figures; Hand and Foot (both runs together), Contract Rummy, the comparison and
    # the sweep: one each
    assert len(page.images) == 6 == len(page.captions)
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    seeds = ["seed 11", "seed 11", "seed 12, 12", "seed 15", "seed 13", "seed 14"]
    for caption, seed in zip(page.captions, seeds):
        assert seed in caption, caption
        assert re.search(r"\d[\d,]* (contracts|deals|games|boards)", caption), caption
    md = (out / "report.md").read_text()
    figures = re.findall(r"!\[figure \d+\]\((figure-\d+\.png)\)", md)
    assert len(figures) == 6 and all((out / f).is_file() for f in figures)
    assert "## Comparison" in md and "| strategy | rating |" in md


def test_report_of_a_folder_that_is_not_a_run(tmp_path):
    p = subprocess.run(CLI + ["report", str(tmp_path)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a finished cardsim" in lines[0]
