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


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # no screen here or in CI
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return buf.getvalue()


def _errorbars(ax, x, est, lo, hi, label=None, **kw):
    import numpy as np

    est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
    ax.errorbar(x, est, yerr=[est - lo, hi - est], fmt="o-", capsize=3, label=label, **kw)


# ---------------------------------------------------------------- runs, one game at a time

def _fifty_six(dirs: list[Path]) -> list[Section]:
    from cardsim.analysis.fifty_six import bid_success, load_deals

    out = []
    for d in dirs:
        deals, info = load_deals(d)
        payout = info["rules"]["payout"]
        n = info.get("deals") or info.get("games")
        sec = Section(f"56: bid success — {d.name}")
        band = bid_success(deals, ["bid_band", "trump_kind"], payout)
        plt = _plt()
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        for kind, part in band.group_by("trump_kind", maintain_order=True):
            _errorbars(ax, part["bid_band"].to_list(), part["rate"], part["lo"], part["hi"],
                       label=kind[0])
        ax.set_ylabel("contracts made")
        ax.set_xlabel("bid band")
        ax.set_ylim(0, 1)
        ax.legend()
        sec.figures.append((_png(fig), f"Contract success by bid band, 95% Wilson intervals; "
                                       f"{int(band['n'].sum()):,} contracts from {n:,} "
                                       f"{info['mode']}, seed {info['seed']}."))
        strength = bid_success(deals, ["bidder_points"], payout).filter(pl.col("n") >= 30)
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        _errorbars(ax, strength["bidder_points"], strength["rate"], strength["lo"],
                   strength["hi"])
        ax.set_xlabel("card points in the bidder's dealt hand")
        ax.set_ylabel("contracts made")
        ax.set_ylim(0, 1)
        sec.figures.append((_png(fig), f"Contract success by hand strength (groups of at "
                                       f"least 30); {int(strength['n'].sum()):,} contracts, "
                                       f"seed {info['seed']}."))
        sec.tables.append(("success by bid band", band))
        out.append(sec)
    return out


def _curves(table: pl.DataFrame, panel_key: str, panel_name, ylabel: str, caption: str,
            label_of=None) -> tuple[bytes, str]:
    """One panel per value of ``panel_key``, one line per arm: share by turn with CIs."""
    plt = _plt()
    panels = table[panel_key].unique(maintain_order=True).to_list()
    cols = min(4, len(panels))
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.3 * cols, 2.8 * rows + 0.6),
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
    return _png(fig), caption


def _hand_and_foot(dirs: list[Path]) -> list[Section]:
    from cardsim.analysis.hand_and_foot import min_meld_study

    turns = [1, 2, 4, 6, 8, 12, 16, 20, 30, 40]
    tables = min_meld_study(dirs, turns)
    infos = [read_info(d, "run.json", "run") for d in dirs]
    n = ", ".join(f"{i['games']:,}" for i in infos)
    seeds = ", ".join(str(i["seed"]) for i in infos)
    sec = Section("Hand and Foot: initial meld by turn" + (" — schedule comparison"
                                                           if len(dirs) > 1 else ""))
    sec.figures.append(_curves(
        tables["melded_by_turn"], "deal_index", lambda k: f"deal {k + 1}",
        "teams melded", f"Share of (deal, team) rows with the initial meld made by deal "
        f"turn t, 95% Wilson bands; one line per run; {n} games, seed {seeds}."))
    sec.tables.append(("per deal", tables["deals"]))
    sec.tables.append(("per team", tables["teams"]))
    return [sec]


def _contract_rummy(dirs: list[Path]) -> list[Section]:
    from cardsim.analysis.contract_rummy import completion_study

    turns = [0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 20]
    tables = completion_study(dirs, turns)
    infos = [read_info(d, "run.json", "run") for d in dirs]
    n = ", ".join(f"{i['games']:,}" for i in infos)
    seeds = ", ".join(str(i["seed"]) for i in infos)
    curve = tables["laid_down_by_turn"].with_columns(
        (pl.col("deal_index") + 1).cast(pl.Utf8).alias("deal"))
    sec = Section("Contract Rummy: contracts laid down by turn")
    sec.figures.append(_curves(
        curve.with_columns(pl.format("deal {} ({})", "deal", "contract").alias("panel")),
        "panel", str, "players down", f"Share of (deal, player) rows whose contract is down "
        f"by the player's own turn t (turn 0: the dealt hand holds it), 95% Wilson bands; "
        f"{n} games, seed {seeds}."))
    for name in ("deals", "games"):
        if name in tables:
            sec.tables.append((name, tables[name]))
    return [sec]


RUN_SECTIONS = {"fifty-six": _fifty_six, "hand-and-foot": _hand_and_foot,
                "contract-rummy": _contract_rummy}


# ---------------------------------------------------------------- comparisons and sweeps

def _comparison(d: Path) -> Section:
    from cardsim.analysis.compare import study

    tables = study(d)
    info = read_info(d, "compare.json", "comparison")
    pairs = tables["pairs"]
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.6 * pairs.height / 2 + 1.6),
                             layout="constrained")
    for ax, metric, title in ((axes[0], "win", "win rate"),
                              (axes[1], "diff", "score difference")):
        part = pairs.filter(pl.col("metric") == metric)
        labels = [f"{a} vs {b}" for a, b in part.select("a", "b").iter_rows()]
        y = list(range(len(labels)))[::-1]
        est = part["estimate"].to_numpy()
        ax.errorbar(est, y, xerr=[est - part["lo"].to_numpy(), part["hi"].to_numpy() - est],
                    fmt="o", capsize=3)
        ax.axvline(part["null"][0], color="grey", lw=1, ls="--")
        ax.set_yticks(y)
        ax.set_yticklabels(labels if ax is axes[0] else [""] * len(labels), fontsize=8)
        ax.set_title(title, fontsize=10)
    sec = Section(f"Comparison — {d.name} ({info['game']})")
    sec.figures.append((_png(fig), f"Forest plot: each match from the first strategy's side "
                                   f"with paired 95% intervals (dashed: no difference); "
                                   f"{info['games']:,} boards per match from all "
                                   f"{info['teams']} seats, seed {info['seed']}."))
    sec.tables.append(("matches", pairs))
    sec.tables.append(("ranking", tables["ratings"]))
    return sec


def _sweep(d: Path) -> Section:
    from cardsim.analysis.sweep import sweep_table

    info = read_info(d, "sweep.json", "sweep")
    table = sweep_table(d)
    keys = list(info["settings"][0]["values"])
    metrics = table["metric"].unique(maintain_order=True).to_list()
    plt = _plt()
    cols = min(3, len(metrics))
    rows = -(-len(metrics) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False,
                             layout="constrained")
    for i, m in enumerate(metrics):
        ax = axes[i // cols][i % cols]
        part = table.filter(pl.col("metric") == m).sort("setting")
        if len(keys) == 2:  # a heat map over the two varied keys
            grid = part.pivot(on=keys[1], index=keys[0], values="estimate")
            im = ax.imshow(grid.drop(keys[0]).to_numpy().astype(float), aspect="auto")
            ax.set_yticks(range(grid.height))
            ax.set_yticklabels(grid[keys[0]].to_list(), fontsize=7)
            ax.set_xticks(range(grid.width - 1))
            ax.set_xticklabels(grid.columns[1:], fontsize=7, rotation=30)
            ax.set_xlabel(keys[1], fontsize=8)
            ax.set_ylabel(keys[0], fontsize=8)
            fig.colorbar(im, ax=ax)
        else:
            x = part["label"].to_list()
            _errorbars(ax, range(len(x)), part["estimate"], part["lo"], part["hi"])
            ax.set_xticks(range(len(x)))
            ax.set_xticklabels(x, fontsize=7, rotation=30, ha="right")
        ax.set_title(m, fontsize=9)
    for j in range(len(metrics), rows * cols):
        axes[j // cols][j % cols].axis("off")
    games = ", ".join(sorted({f"{s.get('games', info['games']):,}" for s in info["settings"]}))
    sec = Section(f"Sweep — {d.name} ({info['game']})")
    kind = "heat map of the estimate" if len(keys) == 2 else "estimate with its 95% interval"
    sec.figures.append((_png(fig), f"Each metric per setting ({kind}); {games} games per "
                                   f"setting, seed {info['seed']} for every setting."))
    sec.tables.append(("metrics", table))
    return sec


def _tune(d: Path) -> Section:
    import numpy as np

    info = read_info(d, "tune.json", "tune study")
    trials = pl.read_parquet(d / "trials.parquet").sort("number")
    value = trials["value"].to_numpy()
    plt = _plt()
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
    ax.set_xlabel("candidate")
    ax.set_ylabel("win share against the pool")
    ax.legend(fontsize=7)
    sec = Section(f"Tune — {d.name} ({info['game']}, {info['strategy']})")
    sec.figures.append((_png(fig), (
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
        else:
            info = read_info(d, "run.json", "run, sweep, comparison or tune study")
            runs.setdefault(info["game"], []).append(d)
    first = [sec for game, ds in runs.items() for sec in RUN_SECTIONS[game](ds)]
    sections = first + sections
    if not sections:
        raise UsageError("report: no folders given")
    return sections


def _md_table(df: pl.DataFrame, max_rows: int = 40) -> str:
    def cell(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    head = "| " + " | ".join(df.columns) + " |\n|" + "---|" * df.width + "\n"
    body = "".join("| " + " | ".join(cell(v) for v in row) + " |\n"
                   for row in df.head(max_rows).iter_rows())
    more = f"\n({df.height - max_rows} more rows in the HTML report)\n" \
        if df.height > max_rows else ""
    return head + body + more


def _html_table(df: pl.DataFrame, max_rows: int = 200) -> str:
    def cell(v):
        return html.escape(f"{v:.4g}" if isinstance(v, float) else str(v))

    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>"
                   for row in df.head(max_rows).iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def write(sections: list[Section], out: Path, title: str = "cardsim report") -> tuple[Path, Path]:
    """report.html (self-contained) and report.md (figures as files beside it)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             "</title><style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
             "table{border-collapse:collapse;font-size:12px;margin:8px 0}"
             "td,th{border:1px solid #ccc;padding:2px 6px}figcaption{font-size:13px;"
             "color:#333}</style></head><body>", f"<h1>{html.escape(title)}</h1>"]
    md = [f"# {title}\n"]
    k = 0
    for sec in sections:
        parts.append(f"<h2>{html.escape(sec.title)}</h2>")
        md.append(f"\n## {sec.title}\n")
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
    parts.append("</body></html>")
    html_path, md_path = out / "report.html", out / "report.md"
    for path, text in ((html_path, "".join(parts)), (md_path, "".join(md))):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return html_path, md_path
