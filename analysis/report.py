"""`cardsim report`: a self-contained HTML page (figures embedded as PNG) and a Markdown
summary for finished runs, sweeps and comparisons. Every figure's caption states its sample
size and seed. Figures come from the studies in analysis/ (this module only draws them).

- 56 run: bid success by bid band and trump kind, and by the bidder's card points;
- Hand and Foot runs: the share of teams melded by deal turn t, per deal (one line per run,
  so several runs give the schedule comparison);
- Contract Rummy runs: the share of players whose contract is down by turn t, per contract;
- comparison: forest plots of every match's win rate and score difference;
- sweep: one panel per metric, estimate against setting (a heat map for two varied keys);
- tune study: every candidate's score, the best so far, and the best on fresh boards.

Strategies (and the settings of a sweep over more than two keys) appear in figures and tables
by short labels (A tuned, B evaluator, …) with a legend giving each in full. Figures are sized
to their content within the page's width; tables scroll inside their own box.
"""
from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from cardsim.analysis.io import read_info
from cardsim.simulator.errors import UsageError


@dataclass
class Section:
    title: str
    figures: list[tuple[bytes, str]] = field(default_factory=list)  # (PNG, caption)
    tables: list[tuple[str, pl.DataFrame]] = field(default_factory=list)
    # (what the labels stand for, [(label, full text)]): shown above the figures, so that
    # figures and tables can use short labels
    legend: tuple[str, list[tuple[str, str]]] | None = None


SHORT = 16  # a strategy spec or setting up to this long is its own label
MAX_WIDTH_IN = 9.8  # figure width cap: with its margins, under the page's 1,100 px at 110 dpi


def _letter(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"S{i + 1}"


def short_labels(texts, name_of=None) -> dict[str, str]:
    """A short label per text: the texts themselves when all are short, else a letter per
    text (A, B, …), followed by ``name_of(text)`` where given (a strategy's name)."""
    texts = list(dict.fromkeys(texts))
    if all(len(t) <= SHORT for t in texts):
        return {t: t for t in texts}
    out = {}
    for i, t in enumerate(texts):
        name = name_of(t) if name_of else ""
        if len(name) > SHORT:
            name = name[:SHORT - 1] + "…"
        out[t] = f"{_letter(i)} {name}".strip()
    return out


def _strategy_name(spec: str) -> str:
    name = spec.split(":", 1)[0]
    return name.rsplit("/", 1)[-1]


def _legend(what: str, labels: dict[str, str]) -> tuple[str, list[tuple[str, str]]] | None:
    if all(k == v for k, v in labels.items()):
        return None
    return what, [(v, k) for k, v in labels.items()]


def turn_table_lines(result: dict) -> list[str]:
    """A hand table by turn (cardsim hand for the rummies) as terminal lines: each turn's
    rate with its 95% interval, then the summary values."""
    key = next(k for k in result["rows"][0] if k.endswith("_rate"))
    out = [f"  {r['turn']:>4}  {key} {r[key]:.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]"
           for r in result["rows"]]
    for k in [k[:-3] for k in result if k.endswith("_lo")]:
        v = result.get(k + "_rate", result.get(k))
        out.append(f"  {k}: {v:.3f}  [{result[k + '_lo']:.3f}, {result[k + '_hi']:.3f}]")
    return out


def pyplot():
    import matplotlib

    matplotlib.use("Agg")  # no screen here or in CI
    import matplotlib.pyplot as plt

    return plt


def png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", pad_inches=0.05)
    pyplot().close(fig)
    return buf.getvalue()


def errorbars(ax, x, est, lo, hi, label=None, **kw):
    import numpy as np

    est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
    ax.errorbar(x, est, yerr=[est - lo, hi - est], fmt="o-", capsize=3, label=label, **kw)


# ---------------------------------------------------------------- runs, one game at a time

def curves(table: pl.DataFrame, panel_key: str, panel_name, ylabel: str, caption: str,
            label_of=None) -> tuple[bytes, str]:
    """One panel per value of ``panel_key``, one line per arm: share by turn with CIs."""
    plt = pyplot()
    panels = table[panel_key].unique(maintain_order=True).to_list()
    cols = min(4, len(panels))
    rows = -(-len(panels) // cols)
    w = min(3.3, MAX_WIDTH_IN / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(w * cols, 0.85 * w * rows + 0.6),
                             squeeze=False, sharey=True, layout="constrained")
    for i, key in enumerate(panels):
        ax = axes[i // cols][i % cols]
        for (arm,), part in table.filter(pl.col(panel_key) == key).group_by(
                "arm", maintain_order=True):
            part = part.sort("turn")
            ax.plot(part["turn"], part["share"], marker=".", label=arm)
            ax.fill_between(part["turn"].to_numpy(), part["share_lo"].to_numpy(),
                            part["share_hi"].to_numpy(), alpha=0.2)
        ax.set_title(panel_name(key), fontsize=9)
        ax.set_xlabel("turn")
        ax.set_ylim(0, 1)
    for j in range(len(panels), rows * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][0].set_ylabel(ylabel)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", fontsize=8, ncols=2)
    return png(fig), caption


# ---------------------------------------------------------------- comparisons and sweeps

def _forest(pairs: pl.DataFrame, label: dict[str, str]) -> bytes:
    """One row per match, two panels (win rate, score difference) sharing the rows; the
    figure's height follows the number of matches."""
    import numpy as np

    plt = pyplot()
    n = pairs.filter(pl.col("metric") == "win").height
    fig, axes = plt.subplots(1, 2, figsize=(8, 0.3 * n + 1.2), sharey=True,
                             layout="constrained")
    fig.get_layout_engine().set(wspace=0.08)  # the panels' end ticks apart
    for ax, metric, xlabel in ((axes[0], "win", "win rate of the first (fair: dashed)"),
                               (axes[1], "diff", "score difference, first − second")):
        part = pairs.filter(pl.col("metric") == metric)
        est = part["estimate"].to_numpy()
        y = np.arange(part.height)[::-1]
        ax.errorbar(est, y, xerr=[est - part["lo"].to_numpy(), part["hi"].to_numpy() - est],
                    fmt="o", ms=4, capsize=3)
        ax.axvline(part["null"][0], color="grey", lw=1, ls="--")
        ax.set_xlabel(xlabel, fontsize=9)
        ax.tick_params(labelsize=8)
        ax.set_ylim(-0.6, part.height - 0.4)
        ax.grid(axis="x", alpha=0.3)
    part = pairs.filter(pl.col("metric") == "win")
    axes[0].set_yticks(np.arange(part.height)[::-1])
    axes[0].set_yticklabels([f"{label[a]} vs {label[b]}"
                             for a, b in part.select("a", "b").iter_rows()], fontsize=8)
    return png(fig)


def _comparison(d: Path) -> Section:
    from cardsim.analysis.compare import study

    tables = study(d)
    info = read_info(d, "compare.json", "comparison")
    label = short_labels(info["strategies"], _strategy_name)
    pairs = tables["pairs"]
    sec = Section(f"Comparison — {d.name} ({info['game']})",
                  legend=_legend("strategy", label))
    sec.figures.append((_forest(pairs, label), (
        f"Forest plot: each match from the first strategy's side with paired 95% intervals "
        f"(dashed: no difference); {info['games']:,} boards per match from all "
        f"{info['teams']} seats, seed {info['seed']}.")))
    relabel = {"a": pl.col("a").replace_strict(label), "b": pl.col("b").replace_strict(label)}
    sec.tables.append(("matches", pairs.with_columns(**relabel)))
    sec.tables.append(("ranking", tables["ratings"].with_columns(
        pl.col("strategy").replace_strict(label))))
    return sec


def _sweep(d: Path) -> Section:
    import numpy as np

    from cardsim.analysis.sweep import sweep_table

    info = read_info(d, "sweep.json", "sweep")
    table = sweep_table(d)
    keys = list(info["settings"][0]["values"])
    if len(keys) == 1:  # the values along an axis named by the key
        label = {s["label"]: str(s["values"][keys[0]]) for s in info["settings"]}
    else:  # two keys: a heat map's axes; more: letters and a legend
        label = short_labels([s["label"] for s in info["settings"]])
    metrics = table["metric"].unique(maintain_order=True).to_list()
    plt = pyplot()
    cols = min(3, len(metrics))
    rows = -(-len(metrics) // cols)
    w = min(3.3, MAX_WIDTH_IN / cols)
    if len(keys) == 2:
        n_rows = table[keys[0]].n_unique()
        h = min(0.85 * w, 0.35 * n_rows + 1.2)
    else:
        h = 0.8 * w
    fig, axes = plt.subplots(rows, cols, figsize=(w * cols, h * rows), squeeze=False,
                             layout="constrained")
    for i, m in enumerate(metrics):
        ax = axes[i // cols][i % cols]
        part = table.filter(pl.col("metric") == m).sort("setting")
        if len(keys) == 2:  # a heat map over the two varied keys, each cell's value written
            grid = part.pivot(on=keys[1], index=keys[0], values="estimate")
            values = grid.drop(keys[0]).to_numpy().astype(float)
            im = ax.imshow(values, aspect="auto", cmap="viridis")
            if values.size <= 64:
                mid = np.nanmean([np.nanmin(values), np.nanmax(values)])
                for (r, c), v in np.ndenumerate(values):
                    ax.text(c, r, f"{v:.3g}", ha="center", va="center", fontsize=7,
                            color="black" if v >= mid else "white")
            ax.set_yticks(range(grid.height))
            first = i % cols == 0  # the rows are the same in every panel: named once per row
            ax.set_yticklabels(grid[keys[0]].to_list() if first else [], fontsize=7)
            ax.set_xticks(range(grid.width - 1))
            ax.set_xticklabels(grid.columns[1:], fontsize=7)
            ax.set_xlabel(keys[1], fontsize=8)
            if first:
                ax.set_ylabel(keys[0], fontsize=8)
        else:
            x = [label[t] for t in part["label"].to_list()]
            errorbars(ax, range(len(x)), part["estimate"], part["lo"], part["hi"], ms=4)
            ax.set_xticks(range(len(x)))
            tilt = len(x) > 4 and max(map(len, x)) > 3  # long labels side by side
            ax.set_xticklabels(x, fontsize=7, rotation=30 if tilt else 0,
                               ha="right" if tilt else "center")
            ax.tick_params(axis="y", labelsize=7)
            if len(keys) == 1:
                ax.set_xlabel(keys[0], fontsize=8)
        ax.set_title(m, fontsize=9)
    for j in range(len(metrics), rows * cols):
        axes[j // cols][j % cols].axis("off")
    games = ", ".join(sorted({f"{s.get('games', info['games']):,}" for s in info["settings"]}))
    sec = Section(f"Sweep — {d.name} ({info['game']})", legend=_legend("setting", label) if len(keys) > 2 else None)
    kind = "heat map of the estimate" if len(keys) == 2 else "estimate with its 95% interval"
    sec.figures.append((png(fig), f"Each metric per setting ({kind}); {games} games per "
                                   f"setting, seed {info['seed']} for every setting."))
    sec.tables.append(("metrics", table))
    return sec


def _tune(d: Path) -> Section:
    import numpy as np

    info = read_info(d, "tune.json", "tune study")
    trials = pl.read_parquet(d / "trials.parquet").sort("number")
    value = trials["value"].to_numpy()
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 3.4), layout="constrained")
    x = np.arange(1, len(value) + 1)
    ax.plot(x, value, "o", ms=3, alpha=0.5, label="candidate")
    ax.plot(x, np.maximum.accumulate(value), "-", label="best so far")
    b = info["best"]
    win = b["win"]
    ax.axhline(win["mean"], color="C2", ls="--", lw=1,
               label=f"best on fresh boards ({win['mean']:.3f})")
    ax.axhspan(win["lo"], win["hi"], color="C2", alpha=0.12)
    ax.axhline(info["fair_share"], color="grey", lw=1, ls=":", label="fair share")
    ax.set_xlim(0.5, len(value) + 0.5)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("candidate")
    ax.set_ylabel("win share against the pool")
    fig.legend(loc="outside lower center", fontsize=7, ncols=4)  # off the points
    sec = Section(f"Tune — {d.name} ({info['game']}, {info['strategy']})")
    sec.figures.append((png(fig), (
        f"Convergence: each candidate's win share over {info['boards']:,} boards against "
        f"{', '.join(info['against'])} from every seat (seed {info['seed']}), the best so far, "
        f"and the best candidate played again on {win['boards']:,} fresh boards (seed "
        f"{b['fresh_seed']}) with its 95% interval; {info['sampler']} sampler.")))
    sec.tables.append(("best", pl.DataFrame({
        "strategy": [b["strategy"]], "win": [win["mean"]], "lo": [win["lo"]],
        "hi": [win["hi"]], "as_given": [b["given"]["mean"]],
        "difference": [b["difference"]["mean"]], "diff_lo": [b["difference"]["lo"]],
        "diff_hi": [b["difference"]["hi"]]})))
    sec.tables.append(("candidates", trials))
    return sec


def _hand(d: Path) -> Section:
    """A saved hand table (cardsim hand --out): its rate by turn (the rummies) or by bid, one
    line per trump (56), with 95% intervals."""
    info = read_info(d, "hand.json", "hand table")
    if "choice" in info["rows"][0]:
        return _outlook(d, info)
    rows = pl.DataFrame(info["rows"])
    x = "turn" if "turn" in rows.columns else "bid"
    rate = next(c for c in rows.columns if c.endswith("_rate"))
    sec = Section(f"{info['game']}: hand {info['hand']} in place {info['seat']} — {d.name}")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    groups = rows.group_by("trump", maintain_order=True) if "trump" in rows.columns else [
        ((None,), rows)]
    for (label, *_), part in groups:
        errorbars(ax, part[x].to_list(), part[rate], part["lo"], part["hi"], label=label)
    ax.set_xlabel("own turn" if x == "turn" else "bid")
    ax.set_ylabel(rate.removesuffix("_rate").replace("_", " ") + " rate")
    ax.set_ylim(0, 1)
    if "trump" in rows.columns:
        ax.legend(title="trump")
    cons = ", ".join(info["constraints"]) or "none"
    sec.figures.append((png(fig), f"{rate} with 95% intervals over {info['deals']:,} deals of "
                                  f"the other cards (constraints: {cons}), seed {info['seed']}, "
                                  f"deal {info['deal']}."))
    sec.tables.append(("hand table", rows))
    return sec


def _outlook(d: Path, info: dict) -> Section:
    """A saved position outlook (cardsim hand --position --out): the mean score of each choice
    with its 95% interval, the strategies' own choice first."""
    rows = pl.DataFrame(info["rows"])
    s = info["score"]
    sec = Section(f"{info['game']}: position, seat {info['seat']} to {info['decision']} "
                  f"— {d.name}")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 0.9 + 0.32 * rows.height))
    y = list(range(rows.height))[::-1]
    mid = rows[s].to_list()
    ax.errorbar(mid, y, xerr=[[m - lo for m, lo in zip(mid, rows[f"{s}_lo"])],
                              [hi - m for m, hi in zip(mid, rows[f"{s}_hi"])]],
                fmt="o", capsize=3)
    ax.set_yticks(y, rows["choice"].to_list())
    better = "higher" if info["higher_is_better"] else "lower"
    ax.set_xlabel(f"{s.replace('_', ' ')} ({better} is better)")
    sec.figures.append((png(fig), f"{s} by choice with 95% intervals over {info['samples']:,} "
                                  "deals of the cards the seat cannot see, each choice played "
                                  f"on by {', '.join(sorted({x['name'] for x in info['strategies']}))}; "
                                  f"seed {info['seed']}."))
    sec.tables.append(("position outlook", rows))
    return sec


# ---------------------------------------------------------------- assembling

def build(dirs) -> list[Section]:
    """Sections for the given folders (runs of one game are grouped, so several Hand and
    Foot or Contract Rummy runs become one comparison of curves)."""
    runs: dict[str, list[Path]] = {}
    sections = []
    for d in map(Path, dirs):
        if (d / "compare.json").is_file():
            sections.append(_comparison(d))
        elif (d / "sweep.json").is_file():
            sections.append(_sweep(d))
        elif (d / "tune.json").is_file():
            sections.append(_tune(d))
        elif (d / "hand.json").is_file():
            sections.append(_hand(d))
        else:
            info = read_info(d, "run.json", "run, sweep, comparison, tune or hand study")
            runs.setdefault(info["game"], []).append(d)
    from cardsim.simulator.games import get_game

    first = [sec for game, ds in runs.items()
             for sec in get_game(game).analysis().report_sections(ds)]
    sections = first + sections
    if not sections:
        raise UsageError("report: no folders given")
    return sections


def _md_table(df: pl.DataFrame, max_rows: int = 40) -> str:
    def cell(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v).replace("|", "\\|")

    head = "| " + " | ".join(df.columns) + " |\n|" + "---|" * df.width + "\n"
    body = "".join("| " + " | ".join(cell(v) for v in row) + " |\n"
                   for row in df.head(max_rows).iter_rows())
    more = f"\n({df.height - max_rows} more rows in the HTML report)\n" \
        if df.height > max_rows else ""
    return head + body + more


def _html_table(df: pl.DataFrame, max_rows: int = 200) -> str:
    """A table in a box of its own that scrolls when the table is wider or longer than the
    box; numbers right-aligned, long text wraps."""
    numeric = [dt.is_numeric() for dt in df.dtypes]

    def cell(v, num):
        if isinstance(v, float):
            return f"<td class='n'>{v:.4g}</td>"
        text = html.escape(str(v))
        if num:
            return f"<td class='n'>{text}</td>"
        if len(text) <= 2 * SHORT:  # a label or name stays on one line
            return f"<td class='w'>{text}</td>"
        return f"<td>{text.replace(',', ',<wbr>')}</td>"  # a spec breaks after its commas

    head = "".join(f"<th class='n'>{html.escape(c)}</th>" if n else
                   f"<th>{html.escape(c)}</th>" for c, n in zip(df.columns, numeric))
    body = "".join("<tr>" + "".join(cell(v, n) for v, n in zip(row, numeric)) + "</tr>"
                   for row in df.head(max_rows).iter_rows())
    more = (f"<p class='more'>{df.height - max_rows:,} more rows in the tables of the run</p>"
            if df.height > max_rows else "")
    return (f"<div class='box'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
            f"</table></div>{more}")


CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;
  max-width:1100px;margin:0 auto;padding:0 20px 40px}
h1{font-size:1.8em;margin:0.8em 0 0.2em}
h2{font-size:1.35em;border-bottom:1px solid #d8dee4;padding-bottom:4px;margin-top:2.2em}
h3{font-size:1em;margin:1.2em 0 0.3em}
p.meta,p.more{color:#59636e;font-size:13px}
nav ol{margin:0.3em 0;padding-left:1.4em}
figure{margin:14px 0}
img{display:block;max-width:100%;height:auto}
figcaption{font-size:13px;color:#3d444d;max-width:80ch;margin-top:4px}
.box{display:inline-block;max-width:100%;max-height:30em;overflow:auto;
  border:1px solid #d8dee4;border-radius:4px;vertical-align:top}
table{border-collapse:collapse;font-size:12.5px}
th{position:sticky;top:0;background:#f3f5f7;text-align:left;font-weight:600}
td,th{padding:3px 8px;border-bottom:1px solid #e6e9ec;vertical-align:top}
td{max-width:36em;overflow-wrap:break-word}
td.w{white-space:nowrap}
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tbody tr:nth-child(even){background:#fafbfc}
table.legend td:first-child{font-weight:600;white-space:nowrap}
"""


def _anchor(k: int) -> str:
    return f"s{k}"


def write(sections: list[Section], out: Path, title: str = "cardsim report") -> tuple[Path, Path]:
    """report.html (self-contained) and report.md (figures as files beside it)."""
    from cardsim import __version__

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1><p class='meta'>cardsim {__version__}</p>"]
    md = [f"# {title}\n"]
    if len(sections) > 1:
        parts.append("<nav><ol>" + "".join(
            f"<li><a href='#{_anchor(i)}'>{html.escape(sec.title)}</a></li>"
            for i, sec in enumerate(sections)) + "</ol></nav>")
    k = 0
    for i, sec in enumerate(sections):
        parts.append(f"<section id='{_anchor(i)}'><h2>{html.escape(sec.title)}</h2>")
        md.append(f"\n## {sec.title}\n")
        if sec.legend is not None:
            what, rows = sec.legend
            legend = pl.DataFrame({"label": [r[0] for r in rows],
                                   what: [r[1] for r in rows]})
            parts.append(f"<h3>{html.escape(what)}</h3>"
                         + _html_table(legend).replace("<table>", "<table class='legend'>"))
            md.append(f"\n### {what}\n\n{_md_table(legend)}")
        for png, caption in sec.figures:
            k += 1
            data = base64.b64encode(png).decode()
            parts.append(f"<figure><img alt='figure {k}' src='data:image/png;base64,{data}'>"
                         f"<figcaption>Figure {k}. {html.escape(caption)}</figcaption></figure>")
            (out / f"figure-{k}.png").write_bytes(png)
            md.append(f"\n![figure {k}](figure-{k}.png)\n\n*Figure {k}. {caption}*\n")
        for name, df in sec.tables:
            parts.append(f"<h3>{html.escape(name)}</h3>{_html_table(df)}")
            md.append(f"\n### {name}\n\n{_md_table(df)}")
        parts.append("</section>")
    parts.append("</body></html>")
    html_path, md_path = out / "report.html", out / "report.md"
    for path, text in ((html_path, "".join(parts)), (md_path, "".join(md))):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return html_path, md_path
