"""Plots for notebook 06 (6·N·D, the "terms equal" heuristic, the cost split, ~100x past Chinchilla).

Pure presentation: every number comes from `lecture_lib.training` and the registries. `CostSplitPlot` and
`OvertrainingPlot` are LivePlots driven by the chapter's explorers; the rest return plain Figures.
"""
from __future__ import annotations

import itertools

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import training, training_runs
from ..lecture import SAID
from ..traffic import SECONDS_PER_MONTH
from ..units import fmt
from .live import LivePlot, tick_label, static_figure




# --- 1. 6·N·D against published runs ---------------------------------------------------------------------
def six_nd_vs_reported(names=None) -> Figure:
    """6·N·D against each run's own FLOP count (log-log), with the line y = x."""
    runs = [training_runs.get(n) for n in (names or training_runs.names())]
    runs = [r for r in runs if r.reported_flops is not None]
    fig = static_figure((5.6, 4.2))
    ax = fig.add_subplot()
    lim = (1e22, 1e27)
    ax.plot(lim, lim, color="k", lw=1, ls="--", label="6·N·D = reported")
    for r in runs:
        est = training.flops(r.params, r.tokens)
        ax.scatter([r.reported_flops], [est], s=40, zorder=3)
        ax.annotate(f"{r.name} ({r.year})", (r.reported_flops, est), fontsize=8, xytext=(6, -10),
                    textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_xlabel("training FLOPs the paper reports (FLOP)")
    ax.set_ylabel("6 · N_active · D (FLOP)")
    ax.set_title("6·N·D against published training runs", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


# --- 2. the heuristic ---------------------------------------------------------------------------------------
def heuristic(pairs=((1, 1), (1, 2), (2, 1), (0.5, 2))) -> Figure:
    """a·x^(-p) + b·x^q for a few (p, q) at a = b = 1: the true minimum and the 'terms equal' point."""
    x = np.geomspace(0.1, 10, 400)
    fig = static_figure((7.2, 3.9))
    ax = fig.add_subplot()
    f = training.numeric(training.tradeoff_cost_expr)
    x_star, x_eq = training.numeric(training.optimum_x_expr), training.numeric(training.equal_terms_x_expr)
    for i, (p, q) in enumerate(pairs):
        color = f"C{i}"
        cost = f(a_h=1, b_h=1, p_h=p, q_h=q, x_h=x)
        xs, xe = x_star(a_h=1, b_h=1, p_h=p, q_h=q), x_eq(a_h=1, b_h=1, p_h=p, q_h=q)
        pen = training.heuristic_cost_penalty(p, q)
        ax.plot(x, cost, color=color, label=f"p={p:g}, q={q:g}: A/B at min = {training.power_law_optimum(p, q):.2g}, "
                                            f"'A = B' costs +{100 * (pen - 1):.1f}%")
        ax.plot([xs], [f(a_h=1, b_h=1, p_h=p, q_h=q, x_h=xs)], "o", color=color)
        ax.plot([xe], [f(a_h=1, b_h=1, p_h=p, q_h=q, x_h=xe)], "x", color=color, ms=9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1, 30)
    ax.set_xlabel("the knob x (e.g. pre-training tokens), arbitrary units")
    ax.set_ylabel("total cost a·x^(−p) + b·x^q")
    ax.set_title("Minimum (●) vs the 'terms equal' pick (×), a = b = 1", fontsize=10)
    ax.legend(fontsize=7, loc="upper center")
    fig.tight_layout()
    return fig


# --- 3. the cost split --------------------------------------------------------------------------------------
PHASES = ("pre-training", "RL", "inference")


class CostSplitPlot(LivePlot):
    """Shares of lifetime compute (left) and the token counts they buy, relative to pre-training (right)."""

    YLIM_TOKENS = (0.0, 6.6)      # D / D_PT: at most 6/2 x 2 (inference at inefficiency 1 with half the compute)
    params = dict(rl_flops=SAID["card_rl_flops"], rl_inefficiency=SAID["card_inefficiency"],
                  inference_inefficiency=SAID["card_inefficiency"], split="thirds")

    def __init__(self, **params):
        super().__init__()
        self.ax_c, self.ax_t = self.figure.subplots(1, 2)
        colors = ["C0", "C3", "C2"]
        self.share_bars = self.ax_c.bar(PHASES, [0, 0, 0], color=colors)
        self.token_bars = self.ax_t.bar(PHASES, [0, 0, 0], color=colors)
        self.token_text = [self.ax_t.text(i, 0, "", ha="center", va="bottom", fontsize=9) for i in range(3)]
        self.note = self.ax_t.text(0.98, 0.97, "", transform=self.ax_t.transAxes, ha="right", va="top", fontsize=8)
        self.dynamic(*self.share_bars, *self.token_bars, *self.token_text, self.note)
        self.ax_c.set_ylim(0, 0.65)
        self.ax_t.set_ylim(*self.YLIM_TOKENS)
        self.ax_c.set_title("share of lifetime compute", fontsize=10)
        self.ax_t.set_title("tokens, relative to pre-training", fontsize=10)
        self.ax_c.set_ylabel("fraction of FLOPs")
        self.ax_t.set_ylabel("D / D_PT")
        self.ax_t.axhline(1, color="k", lw=0.8, ls=":")
        self.figure.subplots_adjust(left=0.09, right=0.98, bottom=0.09, top=0.91, wspace=0.28)
        self.update(**{**self.params, **params})

    def update(self, rl_flops=3, rl_inefficiency=3, inference_inefficiency=3, split="thirds"):
        self.clear_message()
        s = training.cost_split(rl_flops, rl_inefficiency, inference_inefficiency, shares=split)
        tokens = (s.pretrain, s.rl, s.inference)
        for bar, v in zip(self.share_bars, s.shares):
            bar.set_height(v)
        for bar, text, i, v in zip(self.token_bars, self.token_text, range(3), tokens):
            bar.set_height(v)
            text.set_position((i, v))
            text.set_text(f"{v:.2f}")
        self.note.set_text(f"compute {' : '.join(f'{100 * v:.0f}%' for v in s.shares)}\n"
                           f"D_PT : D_RL : D_inf = 1 : {s.rl:.2f} : {s.inference:.2f}\n"
                           f"pre-training ÷ RL tokens = {1 / s.rl:.2f}")
        self.state = dict(rl=s.rl, inference=s.inference, shares=s.shares, pretrain_over_rl=1 / s.rl)
        return self


# --- 4. how far past Chinchilla, with error bars -------------------------------------------------------------
def _corners(ranges: dict):
    """Every combination of the (low, high) ends of each range, as broadcastable arrays (2^k values)."""
    names = list(ranges)
    grid = np.array(list(itertools.product(*(ranges[n] for n in names))), dtype=float)
    return {n: grid[:, i] for i, n in enumerate(names)}


class OvertrainingPlot(LivePlot):
    """Times past Chinchilla-optimal from a traffic guess, every input a (low, high) range, on a log axis;
    published runs for comparison."""

    XLIM = (0.1, 1e4)
    params = dict(world_tok_s=(250e6, 1e9), months=(1, 3), family=(SAID["family_low"], SAID["family_high"]),
                  keep=(0.5, 1.0), active=(50e9, 200e9))
    RUNS = ("Llama-3-405B", "DeepSeek-V3", "Chinchilla-70B", "GPT-3-175B")

    def __init__(self, **params):
        super().__init__()
        self.ax = self.figure.add_subplot()
        runs = [training_runs.get(n) for n in self.RUNS]
        x_runs = [training.overtraining(r.params, r.tokens) for r in runs]
        ys = np.arange(len(runs)) + 1
        self.ax.scatter(x_runs, ys, color="C7", marker="s", s=25, zorder=3)
        for r, x, y in zip(runs, x_runs, ys):
            self.ax.annotate(f"{r.name}: {x:.2g}×", (x, y), fontsize=8, xytext=(6, -3), textcoords="offset points")
        self.ax.axvline(SAID["overtraining"], color="k", ls="--", lw=1)
        self.ax.text(SAID["overtraining"], len(runs) + 0.6, f" the lecture: ~{SAID['overtraining']}×", fontsize=8,
                     va="center")
        (self.bar,) = self.ax.plot([], [], color="C3", lw=3, solid_capstyle="butt")
        (self.caps,) = self.ax.plot([], [], color="C3", marker="|", ms=14, ls="none")
        (self.dot,) = self.ax.plot([], [], "o", color="C3", ms=8)
        self.label = self.ax.text(0.015, 0.04, "", transform=self.ax.transAxes, fontsize=8, va="bottom")
        self.dynamic(self.bar, self.caps, self.dot, self.label)
        self.ax.set_xscale("log")
        self.ax.xaxis.set_major_formatter(FuncFormatter(tick_label))
        self.ax.set_xlim(*self.XLIM)
        self.ax.set_ylim(-0.7, len(runs) + 1)
        self.ax.set_yticks([0, *ys], ["your guess", *["published" for _ in runs]])
        self.ax.set_xlabel("training tokens ÷ Chinchilla-optimal (20 per active parameter), log scale")
        self.ax.set_title("How far past Chinchilla? Pre-training tokens = inference tokens (equal cost)", fontsize=10)
        self.figure.subplots_adjust(left=0.14, right=0.97, bottom=0.14, top=0.9)
        self.update(**{**self.params, **params})

    def update(self, world_tok_s=(250e6, 1e9), months=(1, 3), family=(5, 10), keep=(0.5, 1.0),
               active=(50e9, 200e9)):
        self.clear_message()
        ranges = dict(world_tok_s=world_tok_s, months=months, family=family, keep=keep, active=active)
        mid = {k: float(np.sqrt(v[0] * v[1])) for k, v in ranges.items()}   # geometric middle of each range
        c = _corners(ranges)
        over = training.lifetime_overtraining(c["active"], c["world_tok_s"], c["months"] * SECONDS_PER_MONTH,
                                              c["family"], c["keep"])
        d_inf = training.inference_tokens(mid["world_tok_s"], mid["months"] * SECONDS_PER_MONTH, mid["family"],
                                          mid["keep"])
        x = training.lifetime_overtraining(mid["active"], mid["world_tok_s"], mid["months"] * SECONDS_PER_MONTH,
                                           mid["family"], mid["keep"])
        lo, hi = float(np.min(over)), float(np.max(over))
        self.bar.set_data([lo, hi], [0, 0])
        self.caps.set_data([lo, hi], [0, 0])
        self.dot.set_data([x], [0])
        self.label.set_text(f"middle: D_inf = D_PT ≈ {fmt(d_inf, 'tokens')} → {x:.0f}× "
                            f"(range {lo:.2g}× to {hi:.2g}×)")
        self.state = dict(overtraining=x, low=lo, high=hi, inference_tokens=d_inf, middle=mid)
        return self


__all__ = ["six_nd_vs_reported", "heuristic", "CostSplitPlot", "OvertrainingPlot", "PHASES"]
