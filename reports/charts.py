"""Charts designers read: matplotlib (Agg canvas, no pyplot state), rendered to PNG bytes.

Every chart has a title that states the question, labelled axes, and a footer with
the data sources and their status, the data hash, the method (seed, trials), the
lanchester version and the reproducing command (:mod:`reports.provenance`). Chart
functions take the tidy tables of :mod:`reports.tables` (columns documented in
``docs/report-columns.md``) and return a :class:`Chart`; nothing is written here.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import PercentFormatter

from reports.provenance import Provenance
from reports.tables import (
    BY_DEFAULT,
    DRAW,
    convergence_table,
    decision_turn_table,
    outcomes_of,
    variant_table,
    win_rate_table,
)
from simulator.run.output import figure_png

DPI = 100
Z95 = 1.959963984540054
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f")
CANNOT_FIRE = "#d9d9d9"
FOOTER_LINE_IN = 0.14   # inches per footer line (7 pt text)


@dataclass(frozen=True)
class Chart:
    """One rendered chart: ``name``.png in a bundle, ``title`` the question it answers."""

    name: str
    title: str
    alt: str
    png: bytes
    width: int
    height: int
    footer: str = ""                                  # the provenance lines under the chart
    axis_labels: tuple[tuple[str, str], ...] = ()     # (x label, y label) of each plot


# --- the frame every chart shares -------------------------------------------------

def new_figure(prov: Provenance, size: tuple[float, float] = (9.0, 5.6), nrows: int = 1,
               ncols: int = 1, **subplot_kw):
    """A figure with room for the provenance footer; returns ``(fig, axes)``."""
    size = (round(size[0] * DPI) / DPI, round(size[1] * DPI) / DPI)   # whole pixels
    fig = Figure(figsize=size, dpi=DPI)
    FigureCanvasAgg(fig)
    footer = prov.footer_lines(width=int(size[0] * 15.5))
    bottom = (len(footer) * FOOTER_LINE_IN + 0.12) / size[1]
    fig.set_layout_engine(ConstrainedLayoutEngine(rect=(0, bottom, 1, 1 - bottom)))
    fig.text(0.006, 0.006, "\n".join(footer), fontsize=7, color="#555555", family="monospace",
             va="bottom", ha="left", linespacing=1.25)
    axes = fig.subplots(nrows, ncols, squeeze=False, **subplot_kw)
    return fig, axes


def finish(fig: Figure, name: str, question: str, alt: str) -> Chart:
    """Title the figure with its question and render it to PNG bytes."""
    width_chars = int(fig.get_figwidth() * 8.5)
    fig.suptitle("\n".join(textwrap.wrap(question, width_chars)), fontsize=13, fontweight="bold")
    png = figure_png(fig, DPI)
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")   # the PNG header's size
    labels = tuple((ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes if ax.get_visible())
    footer = fig.texts[0].get_text() if fig.texts else ""
    return Chart(name, question, alt, png, w, h, footer, labels)


def percent_axis(axis) -> None:
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def series_in_order(frame: pd.DataFrame, column: str = "series") -> list:
    return list(dict.fromkeys(frame[column].tolist()))


def errors(frame: pd.DataFrame, column: str = "se") -> np.ndarray | None:
    """95% half-widths from a standard-error column, or None when there is none."""
    if column not in frame or frame[column].isna().all():
        return None
    return Z95 * frame[column].fillna(0).to_numpy(float)


def grouped_bars(ax, categories: list[str], groups: Sequence[tuple[str, np.ndarray, np.ndarray | None]],
                 horizontal: bool = False) -> None:
    """Bars of several groups side by side per category, with 95% error bars."""
    x = np.arange(len(categories))
    width = 0.8 / max(1, len(groups))
    for i, (label, values, err) in enumerate(groups):
        pos = x - 0.4 + width * (i + 0.5)
        colour = COLOURS[i % len(COLOURS)]
        if horizontal:
            ax.barh(pos, values, width, xerr=err, label=label, color=colour, capsize=2)
        else:
            ax.bar(pos, values, width, yerr=err, label=label, color=colour, capsize=2)
    if horizontal:
        ax.set_yticks(x, categories)
        ax.invert_yaxis()
    else:
        ax.set_xticks(x, categories, rotation=30 if max(map(len, categories), default=0) > 8 else 0,
                      ha="right" if max(map(len, categories), default=0) > 8 else "center")


# --- odds and fire: outcome bars with the "at least" curve ----------------------------

def outcome_chart(ladder: pd.DataFrame, *, name: str, question: str, xlabel: str,
                  prov: Provenance) -> Chart:
    """Bars P(exactly k) and the curve P(at least k), one colour per series.

    ``ladder`` has the columns of :data:`reports.tables.LADDER_COLUMNS`.
    """
    fig, axes = new_figure(prov)
    ax = axes[0, 0]
    names = series_in_order(ladder)
    longest = max((ladder[ladder["series"] == s] for s in names), key=len)
    x = np.arange(len(longest))
    width = 0.8 / len(names)
    for i, s in enumerate(names):
        part = ladder[ladder["series"] == s]
        xs = x[:len(part)]
        colour = COLOURS[i % len(COLOURS)]
        ax.bar(xs - 0.4 + width * (i + 0.5), part["p_exactly"], width, yerr=errors(part, "se_exactly"),
               color=colour, alpha=0.55, capsize=2, label=f"{s}: P(exactly)")
        ax.plot(xs, part["p_at_least"], marker="o", color=colour, linestyle="-" if i == 0 else "--",
                label=f"{s}: P(at least)")
        if i == 0 and len(part) <= 16:
            for xi, p in zip(xs, part["p_at_least"], strict=True):
                ax.annotate(f"{100 * p:.0f}%" if p >= 0.995 or p < 0.005 else f"{100 * p:.1f}%",
                            (xi, p), textcoords="offset points", xytext=(5, 5), ha="left",
                            fontsize=8, color=colour)
    ax.set_xticks(x, longest["outcome"].astype(str).tolist())
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.1)
    percent_axis(ax.yaxis)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    alt = "; ".join(f"{s}: " + ", ".join(f"at least {o}: {100 * p:.1f}%" for o, p in
                                         zip(part["outcome"], part["p_at_least"], strict=True))
                    for s in names for part in [ladder[ladder["series"] == s]])
    return finish(fig, name, question, alt)


def state_chart(states: pd.DataFrame, *, name: str, question: str, prov: Provenance) -> Chart:
    """Horizontal bars: the chance of each state of the target afterwards, per series."""
    names = series_in_order(states)
    order = list(dict.fromkeys(states["state"].tolist()))
    groups = []
    for s in names:
        part = states[states["series"] == s].set_index("state").reindex(order).reset_index()
        groups.append((s, part["p"].fillna(0).to_numpy(float), errors(part)))
    height = min(12.0, 2.6 + 0.38 * len(order) * max(1, len(names)) ** 0.5)
    fig, axes = new_figure(prov, size=(9.0, height))
    ax = axes[0, 0]
    grouped_bars(ax, order, groups, horizontal=True)
    for y, v in enumerate(groups[0][1]):   # the first series' values, at its bars
        ax.annotate(f"{100 * v:.1f}%", (v, y - 0.4 + 0.4 / len(groups)), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_xlabel("probability")
    ax.set_ylabel("target afterwards")
    ax.set_xlim(0, min(1.0, float(states["p"].max()) * 1.25 + 0.02))
    percent_axis(ax.xaxis)
    ax.grid(axis="x", alpha=0.3)
    if len(names) > 1:
        ax.legend(fontsize=8)
    alt = ", ".join(f"{st}: {100 * p:.1f}%" for st, p in zip(order, groups[0][1], strict=True))
    return finish(fig, name, question, alt)


# --- close combat ---------------------------------------------------------------------

def close_combat_chart(end_states: pd.DataFrame, *, question: str, prov: Provenance,
                       name: str = "end-states") -> Chart:
    """End states of a close combat, the editions side by side (columns:
    :data:`reports.tables.CLOSE_COMBAT_COLUMNS`)."""
    editions = series_in_order(end_states, "edition")
    order = list(dict.fromkeys(end_states["end_state"].tolist()))
    groups = []
    for e in editions:
        part = end_states[end_states["edition"] == e].set_index("end_state").reindex(order).reset_index()
        groups.append((e, part["p"].fillna(0).to_numpy(float), errors(part)))
    fig, axes = new_figure(prov, size=(max(8.0, 1.2 * len(order) + 3), 5.6))
    ax = axes[0, 0]
    grouped_bars(ax, order, groups)
    ax.set_xlabel("end state of the close combat")
    ax.set_ylabel("probability")
    ax.set_ylim(0, min(1.05, float(end_states["p"].max()) * 1.2 + 0.03))
    percent_axis(ax.yaxis)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="edition", fontsize=8)
    alt = "; ".join(f"{e}: " + ", ".join(f"{o} {100 * v:.1f}%" for o, v in zip(order, vals, strict=True))
                    for e, vals, _ in groups)
    return finish(fig, name, question, alt)


# --- scenarios -------------------------------------------------------------------------

def margin_band(ax, margin: float | None, *, vertical: bool = False) -> None:
    """The balance margin, 50% ± ``margin``, as a shaded band (nothing when None)."""
    if margin is None:
        return
    span = ax.axvspan if vertical else ax.axhspan
    span(0.5 - margin, 0.5 + margin, color="#2ca02c", alpha=0.10,
         label=f"balance margin 50% ± {100 * margin:g} points")


def win_rate_chart(games: pd.DataFrame, *, question: str, prov: Provenance, sides=None,
                   name: str = "win-rate", verdict: dict | None = None) -> Chart:
    """Each side's win rate (and draws) with its 95% Wilson interval; with ``verdict``
    (the report's) also the first side's share of the decisive games with the verdict's
    interval, and the margin band 50% ± margin it is judged against."""
    rates = win_rate_table(games, sides)
    labels, p, lo, hi = (rates["side"].tolist(), *(rates[c].to_numpy(float) for c in ("p", "lo", "hi")))
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(rates))]
    share = verdict is not None and verdict.get("share_first_side") is not None and verdict.get("ci95")
    if share and verdict is not None:
        first = rates["side"].iloc[0] if sides is None else list(sides)[0]
        labels.append(f"{first}: share of decisive games")
        p = np.append(p, verdict["share_first_side"])
        lo, hi = np.append(lo, verdict["ci95"][0]), np.append(hi, verdict["ci95"][1])
        colours.append("#444444")
    fig, axes = new_figure(prov, size=(8.0, 2.4 + 0.55 * len(labels)))
    ax = axes[0, 0]
    y = np.arange(len(labels))
    margin_band(ax, verdict.get("margin") if verdict else None, vertical=True)
    ax.barh(y, p, 0.6, xerr=np.clip([p - lo, hi - p], 0, None), capsize=4, color=colours)
    for yi, (pi, l, h) in enumerate(zip(p, lo, hi, strict=True)):
        ax.annotate(f"{100 * pi:.1f}%  ({100 * l:.1f}-{100 * h:.1f}%)", (h, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=9)
    ax.axvline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.0)
    percent_axis(ax.xaxis)
    ax.set_xlabel(f"share of {int(rates['games'].iloc[0]):,} games won (95% interval)")
    ax.set_ylabel("side")
    ax.grid(axis="x", alpha=0.3)
    alt = ", ".join(f"{s}: {100 * v:.1f}%" for s, v in zip(labels, p, strict=True))
    if verdict and verdict.get("margin") is not None:
        ax.legend(fontsize=8, loc="lower right")
        alt += f"; verdict {verdict.get('status')} at margin ±{100 * verdict['margin']:g} points"
    return finish(fig, name, question, alt)


def convergence_chart(games: pd.DataFrame, *, question: str, prov: Provenance, sides=None,
                      name: str = "convergence", margin: float | None = None) -> Chart:
    """Each side's running win rate and its 95% interval as games accumulate, with the
    balance margin band 50% ± ``margin`` (the verdict's; on the share of decisive games,
    the same as the win rate when no game is drawn)."""
    conv = convergence_table(games, sides)
    fig, axes = new_figure(prov)
    ax = axes[0, 0]
    margin_band(ax, margin)
    for i, side in enumerate(series_in_order(conv, "side")):
        part = conv[conv["side"] == side]
        colour = COLOURS[i % len(COLOURS)]
        ax.plot(part["games"], part["p"], color=colour, label=side)
        ax.fill_between(part["games"], part["lo"], part["hi"], color=colour, alpha=0.18)
    ax.set_xscale("log")
    ax.set_xlabel("games played (log scale)")
    ax.set_ylabel("win rate so far (band: 95% Wilson interval)")
    ax.set_ylim(0, 1)
    percent_axis(ax.yaxis)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    last = conv.groupby("side", sort=False).tail(1)
    alt = ", ".join(f"{s}: {100 * p:.1f}% after {int(n):,} games (interval width {100 * (h - l):.1f} points)"
                    for s, p, n, l, h in zip(last["side"], last["p"], last["games"], last["lo"], last["hi"], strict=True))
    if margin is not None:
        alt += f"; balance margin 50% ± {100 * margin:g} points"
    return finish(fig, name, question, alt)


def decision_turn_chart(games: pd.DataFrame, *, question: str, prov: Provenance, sides=None,
                        name: str = "decision-turn", turn: str = "turn") -> Chart:
    """Histogram of the turn in which games were decided, stacked by winner (``turn``:
    the game's word for it, Tide of Iron's "round")."""
    turns = decision_turn_table(games, turn=turn)
    decided = turns[turns["decided"] != BY_DEFAULT]
    order = sorted(int(t) for t in decided["decided_turn"].unique())
    if order and order[0] >= 0:
        order = list(range(min(1, order[0]), order[-1] + 1))   # turns without decisions show empty
    labels = [f"{turn} {t}" for t in order]
    if (turns["decided"] == BY_DEFAULT).any():      # games won by default: their own bar, after the turns
        labels.append(f"{BY_DEFAULT}\n(neither side met its conditions)")
    keys = [f"{turn} {t}" for t in order] + [BY_DEFAULT] * (len(labels) - len(order))
    fig, axes = new_figure(prov)
    ax = axes[0, 0]
    bottom = np.zeros(len(labels))
    for i, w in enumerate(outcomes_of(games, sides)):   # same colour per side as the win-rate chart
        part = turns[turns["winner"] == w].set_index("decided")["share"].reindex(keys).fillna(0)
        ax.bar(labels, part.to_numpy(float), 0.7, bottom=bottom, label=w, color=COLOURS[i % len(COLOURS)])
        bottom += part.to_numpy(float)
    ax.set_xlabel(f"{turn} in which the game was decided (the winner did not change after it)")
    ax.set_ylabel("share of games")
    percent_axis(ax.yaxis)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="winner", fontsize=8)
    alt = ", ".join(f"{lab.splitlines()[0]}: {100 * b:.1f}%" for lab, b in zip(labels, bottom, strict=True))
    return finish(fig, name, question, alt)


def objective_control_chart(control: pd.DataFrame, *, question: str, prov: Provenance, sides: Sequence[str],
                            name: str = "objective-control", turn: str = "turn") -> Chart:
    """Each side's hold of each objective at the end of each turn (columns
    ``OBJECTIVE_CONTROL_COLUMNS``): one line per objective and side, the side's colour
    (as the win-rate chart's), the objective told apart by the line's style and marker."""
    fig, axes = new_figure(prov)
    ax = axes[0, 0]
    styles = ("-", "--", ":", "-.")
    markers = ("o", "s", "^", "D", "v", "P", "X", "*")
    objectives = list(dict.fromkeys(control["objective"].tolist()))
    alt = []
    for j, obj in enumerate(objectives):
        for i, side in enumerate(sides):
            part = control[(control["objective"] == obj) & (control["side"] == side)].sort_values("turn")
            if part.empty:
                continue
            ax.plot(part["turn"], part["share"], color=COLOURS[i % len(COLOURS)], linestyle=styles[j % len(styles)],
                    marker=markers[j % len(markers)], markersize=4, label=f"{obj}: {side}")
            ax.fill_between(part["turn"], part["lo"], part["hi"], color=COLOURS[i % len(COLOURS)], alpha=0.08)
            alt.append(f"{obj} held by {side} at the end: {100 * float(part['share'].iloc[-1]):.1f}%")
    ax.set_xlabel(f"end of {turn}")
    ax.set_ylabel("share of games the side holds it (band: 95% Wilson interval)")
    ax.set_ylim(0, 1)
    turns = sorted(control["turn"].unique())
    if turns:
        ax.set_xticks(turns)
    percent_axis(ax.yaxis)
    ax.grid(alpha=0.3)
    ax.legend(title="objective: side", fontsize=7, ncol=2 if len(objectives) > 3 else 1)
    return finish(fig, name, question, "; ".join(alt))


def reasons_by_winner_chart(reasons: pd.DataFrame, *, question: str, prov: Provenance, sides: Sequence[str],
                            name: str = "reasons") -> Chart:
    """How the games end (``REASON_COLUMNS``: one row per reason and winner): one bar per
    reason (named on the axis), split into one segment per winner in that side's colour
    (as the win-rate chart's; draws and games cut short grey)."""
    order = list(dict.fromkeys(reasons["reason"].tolist()))
    winners = [w for w in sides] + [w for w in dict.fromkeys(reasons["winner"].tolist()) if w not in sides]
    fig, axes = new_figure(prov, size=(7.5, 4.8))
    ax = axes[0, 0]
    bottom = np.zeros(len(order))
    for i, w in enumerate(winners):
        part = reasons[reasons["winner"] == w].set_index("reason")["share"].reindex(order).fillna(0).to_numpy(float)
        if not part.any():
            continue
        colour = COLOURS[i % len(COLOURS)] if w in sides else "#9e9e9e" if w == DRAW else "#d9d9d9"
        ax.bar(order, 100 * part, 0.6, bottom=100 * bottom, label=w, color=colour, edgecolor="white")
        bottom += part
    for x, v in enumerate(bottom):
        ax.annotate(f"{100 * v:.1f}%", (x, 100 * v), xytext=(0, 4), textcoords="offset points", ha="center")
    ax.set_xlabel("reason the game ended")
    ax.set_ylabel("% of games (segments: the winner)")
    ax.set_ylim(0, max(100 * bottom.max(initial=0) * 1.2, 1))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="winner", fontsize=8)
    alt = "; ".join(f"{r}: " + ", ".join(f"{w} {int(g):,}" for w, g in zip(
        reasons[reasons["reason"] == r]["winner"], reasons[reasons["reason"] == r]["games"], strict=True))
        for r in order)
    return finish(fig, name, question, alt)


def losses_chart(losses: pd.DataFrame, *, question: str, prov: Provenance,
                 name: str = "losses", measure: str = "strength points") -> Chart:
    """Mean ``measure`` lost per game, by unit type, the sides side by side."""
    order = list(dict.fromkeys(losses["unit_type"].tolist()))
    groups = []
    for side in series_in_order(losses, "side"):
        part = losses[losses["side"] == side].set_index("unit_type").reindex(order).reset_index()
        groups.append((side, part["mean_lost"].fillna(0).to_numpy(float), errors(part)))
    fig, axes = new_figure(prov, size=(9.0, min(12.0, 2.8 + 0.45 * len(order))))
    ax = axes[0, 0]
    grouped_bars(ax, order, groups, horizontal=True)
    ax.set_xlabel(f"mean {measure} lost per game (95% interval)")
    ax.set_ylabel("unit type")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(title="side", fontsize=8)
    alt = "; ".join(f"{s}: " + ", ".join(f"{u} {v:.2f}" for u, v in zip(order, vals, strict=True)) for s, vals, _ in groups)
    return finish(fig, name, question, alt)


def what_if_chart(variants: pd.DataFrame, *, question: str, prov: Provenance, side: str | None = None,
                  name: str = "what-if") -> Chart:
    """Forest plot: one side's win rate under each variant, with the baseline marked."""
    table = variant_table(variants, side)
    side = table["side"].iloc[0]
    baseline = table[table["baseline"]].iloc[0]
    fig, axes = new_figure(prov, size=(9.0, 2.6 + 0.45 * len(table)))
    ax = axes[0, 0]
    y = np.arange(len(table))
    p, lo, hi = (table[c].to_numpy(float) for c in ("p", "lo", "hi"))
    ax.axvspan(baseline["lo"], baseline["hi"], color="grey", alpha=0.15, label="baseline interval")
    ax.axvline(baseline["p"], color="grey", linestyle="--", linewidth=1, label=f"baseline: {baseline['variant']}")
    ax.errorbar(p, y, xerr=np.clip([p - lo, hi - p], 0, None), fmt="s", color=COLOURS[0], capsize=4)
    for yi, (pi, l, h) in enumerate(zip(p, lo, hi, strict=True)):
        ax.annotate(f"{100 * pi:.1f}% ({100 * l:.1f}-{100 * h:.1f})", (h, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, table["variant"].tolist())
    ax.invert_yaxis()
    ax.set_xlim(max(0.0, float(lo.min()) - 0.1), min(1.0, float(hi.max()) + 0.2))
    percent_axis(ax.xaxis)
    ax.set_xlabel(f"P({side} wins), 95% Wilson interval")
    ax.set_ylabel("variant")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    alt = ", ".join(f"{v}: {100 * x:.1f}%" for v, x in zip(table["variant"], p, strict=True))
    return finish(fig, name, question, alt)


# --- the matchup matrix and the rosters -------------------------------------------------

METRIC_LABELS = {
    "p_eliminated": ("P(target eliminated)", True),
    "p_suppressed_fallback_or_eliminated": ("P(target suppressed, fallback or eliminated)", True),
    "mean_damage": ("mean damage points dealt", False),
}


def short_unit(unit_id: str) -> str:
    """A unit as the charts label it: its id, side first (``soviet/rifles-41``): both sides
    field cards of the same name."""
    return unit_id


def matrix_lines(frame: pd.DataFrame, *, metric: str, question: str, prov: Provenance,
                 name: str = "matrix-lines") -> Chart:
    """``metric`` by range, one line per firer and target that can fire, a panel per terrain
    (``lanchester assault matrix --plot lines``); a range it cannot fire at is a gap."""
    label, is_p = METRIC_LABELS[metric]
    terrains = list(dict.fromkeys(frame["terrain"]))
    fired = frame[frame["can_fire"]]
    pairs = list(dict.fromkeys(zip(fired["firer"], fired["target"], strict=True)))
    ncols = min(2, len(terrains))
    nrows = math.ceil(len(terrains) / ncols)
    fig, axes = new_figure(prov, size=(max(9.0, 4.6 * ncols + 3.4), 1.8 + 3.6 * nrows),
                           nrows=nrows, ncols=ncols, sharey=True)
    top = float(np.nanmax(fired[metric])) if len(fired) else 1.0
    ranges = sorted(frame["range"].unique())
    styles = ("-", "--", ":", "-.")
    for k, ax in enumerate(axes.flat):
        if k >= len(terrains):
            ax.set_visible(False)
            continue
        part = frame[frame["terrain"] == terrains[k]]
        for i, (f, t) in enumerate(pairs):
            line = part[(part["firer"] == f) & (part["target"] == t)].set_index("range").reindex(ranges)
            ax.plot(ranges, line[metric].to_numpy(float), marker="o", color=COLOURS[i % len(COLOURS)],
                    linestyle=styles[(i // len(COLOURS)) % len(styles)], label=f"{f} at {t}")
        ax.set_title(f"terrain: {terrains[k]}", fontsize=10)
        ax.set_xticks(ranges, [str(r) for r in ranges])
        ax.set_xlabel("range (hexes)")
        if k % ncols == 0:
            ax.set_ylabel(label)
        ax.set_ylim(0, min(1.02, max(0.05, top * 1.15)) if is_p else max(1e-6, top * 1.15))
        if is_p:
            percent_axis(ax.yaxis)
        ax.grid(alpha=0.3)
    fig.legend(*axes.flat[0].get_legend_handles_labels(), loc="outside right lower", fontsize=8,
               title="firer at target")
    alt = "; ".join(f"{f} at {t}: " + ", ".join(
        f"range {r} {100 * v:.0f}%" if is_p else f"range {r} {v:.2f}"
        for r, v in zip(sub["range"], sub[metric], strict=True) if not np.isnan(v))
        for (f, t) in pairs for sub in [fired[(fired["firer"] == f) & (fired["target"] == t)
                                              & (fired["terrain"] == terrains[0])]])
    return finish(fig, name, question, alt)


def matrix_heatmap(frame: pd.DataFrame, *, metric: str, terrain: str, question: str,
                   prov: Provenance, name: str) -> Chart:
    """Firers (rows) x targets (columns), one panel per range, for one terrain."""
    label, is_p = METRIC_LABELS[metric]
    part = frame[frame["terrain"] == terrain]
    firers = list(dict.fromkeys(part["firer"]))
    targets = list(dict.fromkeys(part["target"]))
    ranges = sorted(part["range"].unique())
    ncols = min(3, len(ranges))
    nrows = math.ceil(len(ranges) / ncols)
    cell = 0.24 if len(targets) > 8 else 0.5
    label_in = 0.075 * max(map(len, firers + targets), default=8)   # unit ids, side first, take room
    pw, ph = 1.4 + label_in + cell * len(targets), 1.0 + cell * len(firers)
    size = (max(8.0, ncols * pw + 1.0), nrows * ph + 1.6 + label_in)
    fig, axes = new_figure(prov, size=size, nrows=nrows, ncols=ncols)
    values = frame[metric].to_numpy(float)
    vmax = 1.0 if is_p or not np.isfinite(values).any() else max(1e-9, float(np.nanmax(values)))
    norm = Normalize(0, vmax)
    cmap = _cmap()
    annotate = len(firers) * len(targets) <= 120
    image = None
    for k, ax in enumerate(axes.flat):
        if k >= len(ranges):
            ax.set_visible(False)
            continue
        r = ranges[k]
        grid = (part[part["range"] == r].pivot(index="firer", columns="target", values=metric)
                .reindex(index=firers, columns=targets).to_numpy(float))
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto",
                          interpolation="nearest")
        ax.set_title(f"range {r}", fontsize=10)
        first_col, last_row = k % ncols == 0, k >= len(ranges) - ncols
        ax.set_yticks(range(len(firers)), [short_unit(f) for f in firers] if first_col else [],
                      fontsize=7)
        ax.set_xticks(range(len(targets)), [short_unit(t) for t in targets] if last_row else [],
                      fontsize=7, rotation=90)
        if first_col:
            ax.set_ylabel("firer")
        if last_row:
            ax.set_xlabel("target")
        if annotate:
            for (i, j), v in np.ndenumerate(grid):
                text = "-" if np.isnan(v) else (f"{100 * v:.0f}%" if is_p else f"{v:.2f}")
                ax.text(j, i, text, ha="center", va="center", fontsize=7,
                        color="black" if np.isnan(v) or norm(v) > 0.5 else "white")
    cbar = fig.colorbar(image, ax=axes, shrink=0.8, pad=0.01)
    cbar.set_label(f"{label}  (grey: cannot fire)")
    if is_p:
        percent_axis(cbar.ax.yaxis)
    best = part.dropna(subset=[metric]).nlargest(1, metric)
    alt = (f"{label} in {terrain}, {len(firers)} firers x {len(targets)} targets x {len(ranges)} ranges"
           + (f"; highest: {best['firer'].iloc[0]} at {best['target'].iloc[0]}, range {best['range'].iloc[0]}"
              if len(best) else ""))
    return finish(fig, name, question, alt)


def _cmap():
    from matplotlib import colormaps
    return colormaps["viridis"].with_extremes(bad=CANNOT_FIRE)


def unit_range_chart(cards: list[dict], *, question: str, prov: Provenance,
                     name: str = "ranges") -> Chart:
    """Attack dice of each unit card at each range, vs infantry and vs armoured vehicles."""
    ids = [c["id"] for c in cards]
    max_range = max([b["max"] for c in cards for b in c["ranges"]] + [1])
    fig, axes = new_figure(prov, size=(max(9.0, 2 * (2.5 + 0.55 * max_range)), 2.4 + 0.3 * len(ids)),
                           ncols=2)
    image = None
    for ax, row, title in ((axes[0, 0], "vs_infantry", "vs infantry and artillery"),
                           (axes[0, 1], "vs_vehicle", "vs armoured vehicles")):
        grid = np.full((len(ids), max_range), np.nan)
        text = [[""] * max_range for _ in ids]
        for i, c in enumerate(cards):
            for b in c["ranges"]:
                pool = b[row]
                for r in range(b["min"], b["max"] + 1):
                    grid[i, r - 1] = 0 if pool == "-" else len(pool)
                    text[i][r - 1] = pool
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=_cmap(), norm=Normalize(0, 4), aspect="auto")
        for i in range(len(ids)):
            for j in range(max_range):
                ax.text(j, i, text[i][j] or "", ha="center", va="center", fontsize=7,
                        color="white" if not np.isnan(grid[i, j]) and grid[i, j] < 2.5 else "black")
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(max_range), [str(r) for r in range(1, max_range + 1)])
        ax.set_xlabel("range (hexes)")
        ax.set_yticks(range(len(ids)), ids if ax is axes[0, 0] else [], fontsize=8)
    axes[0, 0].set_ylabel("unit card")
    cbar = fig.colorbar(image, ax=axes, shrink=0.8, pad=0.01)
    cbar.set_ticks(range(0, 5))
    cbar.set_label("number of attack dice (grey: out of range)")
    alt = ", ".join(f"{c['id']}: max range {max([b['max'] for b in c['ranges']] + [0])}" for c in cards)
    return finish(fig, name, question, alt)


def firepower_chart(roster: pd.DataFrame, *, question: str, prov: Provenance,
                    name: str = "firepower") -> Chart:
    """Tide of Iron roster: firepower vs infantry and vs vehicles per unit (* reconstructed)."""
    def number(v) -> float:
        try:
            return float(str(v).rstrip("*"))
        except ValueError:
            return np.nan

    labels = [f"{i}{'*' if any('*' in str(roster.loc[k, c]) for c in ('inf_fpr', 'veh_fpr')) else ''}"
              for k, i in zip(roster.index, roster["id"], strict=True)]
    groups = [("vs infantry", roster["inf_fpr"].map(number).fillna(0).to_numpy(float), None),
              ("vs vehicles", roster["veh_fpr"].map(number).fillna(0).to_numpy(float), None)]
    fig, axes = new_figure(prov, size=(9.0, 2.6 + 0.42 * len(labels)))
    ax = axes[0, 0]
    grouped_bars(ax, labels, groups, horizontal=True)
    ax.set_xlabel("firepower rating (dice per figure or per vehicle); * reconstructed value")
    ax.set_ylabel("unit")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    alt = ", ".join(f"{i}: {a:g}/{b:g}" for i, a, b in zip(roster["id"], groups[0][1], groups[1][1], strict=True))
    return finish(fig, name, question, alt)


def count_bars_chart(labels: list[str], values: list[float], *, question: str, xlabel: str, ylabel: str,
                     prov: Provenance, name: str) -> Chart:
    """Plain bars of a few counts (a replayed roll)."""
    fig, axes = new_figure(prov, size=(7.0, 4.6))
    ax = axes[0, 0]
    ax.bar(labels, values, 0.6, color=[COLOURS[i % len(COLOURS)] for i in range(len(labels))])
    for x, v in enumerate(values):
        ax.annotate(f"{v:g}", (x, v), xytext=(0, 4), textcoords="offset points", ha="center")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, max(values + [1]) * 1.25)
    ax.grid(axis="y", alpha=0.3)
    return finish(fig, name, question, ", ".join(f"{lab}: {v:g}" for lab, v in zip(labels, values, strict=True)))


# --- what-if changes and activity ------------------------------------------------------

def grid_heatmap(cells: pd.DataFrame, *, question: str, prov: Provenance, side: str, margin: float | None,
                 name: str = "grid") -> Chart:
    """``--grid``: the first side's share of the decisive games in each cell of the two
    keys' values (``cells``: ``GRID_COLUMNS``), each cell annotated with its share and
    Wilson interval; cells whose share lies within 50% ± ``margin`` are outlined (the
    balance band), and the colour scale is centred on 50%."""
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    rows = list(dict.fromkeys(cells["value1"].tolist()))
    cols = list(dict.fromkeys(cells["value2"].tolist()))
    share = np.full((len(rows), len(cols)), np.nan)
    text = {}
    for r in cells.to_dict("records"):
        i, j = rows.index(r["value1"]), cols.index(r["value2"])
        share[i, j] = r["share"]
        text[i, j] = "-" if pd.isna(r["share"]) else \
            f"{100 * r['share']:.0f}%\n[{100 * r['share_lo']:.0f}-{100 * r['share_hi']:.0f}]"
    fig, axes = new_figure(prov, size=(max(6.5, 2.2 + 1.3 * len(cols)), max(4.6, 2.6 + 0.9 * len(rows))))
    ax = axes[0, 0]
    norm = Normalize(0.0, 1.0)
    image = ax.imshow(np.ma.masked_invalid(share), cmap=colormaps["RdBu"].with_extremes(bad=CANNOT_FIRE),
                      norm=norm, aspect="auto", interpolation="nearest")
    for (i, j), t in text.items():
        v = share[i, j]
        ax.text(j, i, t, ha="center", va="center", fontsize=9,
                color="white" if not np.isnan(v) and abs(v - 0.5) > 0.3 else "black")
        if margin is not None and not np.isnan(v) and abs(v - 0.5) <= margin:
            ax.add_patch(Rectangle((j - 0.47, i - 0.47), 0.94, 0.94, fill=False, edgecolor="black", linewidth=2.5))
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(str(cells["key2"].iloc[0]) if len(cells) else "")
    ax.set_ylabel(str(cells["key1"].iloc[0]) if len(cells) else "")
    cbar = fig.colorbar(image, ax=ax, shrink=0.85, pad=0.02)
    band = f"; outlined: within 50% ± {100 * margin:g} points" if margin is not None else ""
    cbar.set_label(f"{side}'s share of decisive games{band}")
    percent_axis(cbar.ax.yaxis)
    inside = int(sum(1 for v in share.flat if margin is not None and not np.isnan(v) and abs(v - 0.5) <= margin))
    alt = (f"{side}'s share of decisive games for {len(rows)} x {len(cols)} values; {inside} cell(s) within the "
           "balance band")
    return finish(fig, name, question, alt)



def change_chart(changes: pd.DataFrame, *, question: str, prov: Provenance, side: str,
                 name: str = "what-if-change", xlabel: str | None = None, ylabel: str = "variant") -> Chart:
    """Forest plot of each variant's change of ``side``'s win rate against the baseline,
    with the 95% interval of the paired games (columns: ``WHAT_IF_CHANGE_COLUMNS``;
    ``xlabel``/``ylabel`` name other changes, such as restricted play's)."""
    fig, axes = new_figure(prov, size=(9.0, 2.6 + 0.45 * len(changes)))
    ax = axes[0, 0]
    y = np.arange(len(changes))
    ch, lo, hi = (changes[c].to_numpy(float) for c in ("change", "change_lo", "change_hi"))
    sig = changes["significant"].to_numpy(bool)
    ax.axvline(0, color="grey", linestyle="--", linewidth=1, label="no change")
    for yi in range(len(changes)):
        colour = COLOURS[1] if sig[yi] else COLOURS[0]
        ax.errorbar([ch[yi]], [yi], xerr=[[max(ch[yi] - lo[yi], 0)], [max(hi[yi] - ch[yi], 0)]], fmt="s",
                    color=colour, capsize=4)
        holm = f", Holm p {changes['p_holm'].iloc[yi]:.2g}" if "p_holm" in changes else ""
        ax.annotate(f"{100 * ch[yi]:+.1f} points ({100 * lo[yi]:+.1f} to {100 * hi[yi]:+.1f}{holm})"
                    + (" *" if sig[yi] else ""), (hi[yi], yi), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.set_yticks(y, changes["variant"].tolist())
    ax.invert_yaxis()
    span = max(0.05, float(np.nanmax(np.abs(np.concatenate([lo, hi])))) if len(changes) else 0.05)
    ax.set_xlim(-span * 1.2, span * 2.2)
    percent_axis(ax.xaxis)
    ax.set_xlabel(xlabel or f"change of P({side} wins) against the baseline, paired 95% interval "
                         f"(* red: exact test Holm-adjusted over {len(changes)} variant(s), p <= 0.05)")
    ax.set_ylabel(ylabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    alt = ", ".join(f"{v}: {100 * c:+.1f} points" + (" (significant)" if s else "")
                    for v, c, s in zip(changes["variant"], ch, sig, strict=True))
    return finish(fig, name, question, alt)


def skill_curve_chart(curve: pd.DataFrame, *, question: str, prov: Provenance,
                      name: str = "skill-curve", margin: float | None = None) -> Chart:
    """Each side's win rate at each level of the skill curve, weakest first, one line per
    side with its 95% Wilson interval (columns ``level, side, p, lo, hi, games``), and
    the balance margin band 50% ± ``margin``."""
    levels = list(dict.fromkeys(curve["level"]))
    fig, axes = new_figure(prov, size=(9.0, 5.6))
    ax = axes[0, 0]
    margin_band(ax, margin)
    x = np.arange(len(levels))
    alt = []
    for i, side in enumerate(dict.fromkeys(curve["side"])):
        rows = curve[curve["side"] == side].set_index("level").loc[levels]
        p, lo, hi = (rows[c].to_numpy(float) for c in ("p", "lo", "hi"))
        shift = (i - 0.5) * 0.06                        # the sides' bars side by side
        ax.errorbar(x + shift, p, yerr=np.clip([p - lo, hi - p], 0, None), fmt="-o", capsize=4,
                    color=COLOURS[i % len(COLOURS)], label=side)
        alt.append(f"{side}: " + ", ".join(f"{lv} {100 * v:.1f}%" for lv, v in zip(levels, p, strict=True)))
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_xticks(x, levels)
    ax.set_ylim(0, 1.0)
    percent_axis(ax.yaxis)
    games = int(curve["games"].iloc[-1]) if len(curve) else 0
    ax.set_xlabel(f"strength of both sides' players, weakest first ({games:,} games a level)")
    ax.set_ylabel("share of games won (95% Wilson interval)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="side", fontsize=8)
    return finish(fig, name, question, "; ".join(alt))


def activity_chart(activity: pd.DataFrame, *, question: str, prov: Provenance, xlabel: str,
                   name: str = "activity") -> Chart:
    """Each side's activity per game, the sides side by side (columns ``side, measure,
    per_game``)."""
    order = list(dict.fromkeys(activity["measure"]))
    groups = []
    for side in series_in_order(activity, "side"):
        part = activity[activity["side"] == side].set_index("measure").reindex(order)
        groups.append((side, part["per_game"].fillna(0).to_numpy(float), None))
    fig, axes = new_figure(prov, size=(9.0, 2.8 + 0.5 * len(order)))
    ax = axes[0, 0]
    grouped_bars(ax, [m.replace("_", " ") for m in order], groups, horizontal=True)
    for i, (_side, vals, _) in enumerate(groups):
        width = 0.8 / len(groups)
        for y, v in enumerate(vals):
            ax.annotate(f"{v:.2f}", (v, y - 0.4 + width * (i + 0.5)), xytext=(4, 0), textcoords="offset points",
                        va="center", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("what the side did")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(title="side", fontsize=8)
    alt = "; ".join(f"{s}: " + ", ".join(f"{m} {v:.2f}" for m, v in zip(order, vals, strict=True)) for s, vals, _ in groups)
    return finish(fig, name, question, alt)


def turn_activity_chart(turns: pd.DataFrame, *, question: str, prov: Provenance,
                        name: str = "turns") -> Chart:
    """One game turn by turn: each side's activations, shots, moves and close combats
    (columns ``turn, side, measure, count``), a panel per measure."""
    measures = [m for m in dict.fromkeys(turns["measure"]) if m != "reaction_fires"]
    sides = series_in_order(turns, "side")
    order = sorted(turns["turn"].unique())
    ncols = 2
    nrows = math.ceil(len(measures) / ncols)
    fig, axes = new_figure(prov, size=(10.0, 1.4 + 2.6 * nrows), nrows=nrows, ncols=ncols)
    for k, ax in enumerate(axes.flat):
        if k >= len(measures):
            ax.set_visible(False)
            continue
        m = measures[k]
        groups = []
        for side in sides:
            part = turns[(turns["side"] == side) & (turns["measure"] == m)].set_index("turn").reindex(order)
            groups.append((side, part["count"].fillna(0).to_numpy(float), None))
        grouped_bars(ax, [str(t) for t in order], groups)
        ax.set_title(m.replace("_", " "), fontsize=10)
        ax.set_xlabel("turn")
        ax.set_ylabel("count")
        ax.grid(axis="y", alpha=0.3)
        if k == 0:
            ax.legend(title="side", fontsize=8)
    totals = turns.groupby(["side", "measure"], sort=False)["count"].sum()
    alt = "; ".join(f"{s}: " + ", ".join(f"{m} {int(totals.get((s, m), 0))}" for m in measures) for s in sides)
    return finish(fig, name, question, alt)


def value_calibration_chart(rows: Sequence[dict], *, question: str, prov: Provenance, side: str,
                            name: str = "value-calibration") -> Chart:
    """A learned position value's calibration on held-out games: by decile of the
    predicted chance that ``side`` wins, the observed share (a draw one half) with its
    95% interval against the prediction; the diagonal is a perfect calibration."""
    pred = np.array([r["predicted"] for r in rows], float)
    obs = np.array([r["observed"] for r in rows], float)
    lo = np.array([r["low"] for r in rows], float)
    hi = np.array([r["high"] for r in rows], float)
    fig, axes = new_figure(prov, size=(6.4, 6.0))
    ax = axes[0, 0]
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="perfectly calibrated")
    ax.errorbar(pred, obs, yerr=np.clip([obs - lo, hi - obs], 0, None), fmt="o", capsize=3,
                color=COLOURS[0], label="held-out positions, by decile")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    percent_axis(ax.xaxis)
    percent_axis(ax.yaxis)
    ax.set_xlabel(f"predicted chance that {side} wins")
    ax.set_ylabel(f"observed share {side} won (a draw one half; 95% interval)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    alt = "; ".join(f"predicted {100 * p:.0f}%: observed {100 * o:.0f}%" for p, o in zip(pred, obs, strict=True))
    return finish(fig, name, question, alt)
