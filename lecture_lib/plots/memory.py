"""Plots for notebook 05 (the memory wall): weights and KV per GPU against pipeline depth, the hop-latency
range, weight-read time by scale-up size, HBM bandwidth by generation, the longest context per GPU.

Pure presentation: every number comes from `lecture_lib.memory` (and `hardware`, `models`). The decode
loop's schedule picture is chapter 3's (`lecture_lib.plots.pipeline.schedule_chart("inference", ...)`).
`MemoryBarsPlot` is the live plot of the `memory_per_gpu` explorer.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import hardware, memory, models
from ..lecture import SAID
from ..units import MS, fmt
from .live import LivePlot, tick_label, static_figure

WEIGHT_COLOR, KV_COLOR, HBM_COLOR = "#4c72b0", "#dd8452", "#a00"

# --- 1. weights and KV per GPU against P (the explorer) -------------------------------------------------
#: the chapter's hypothetical ~2 KB/token model (2T parameters, 100B active), the explorer's default
LECTURE_MODEL = memory.lecture_model()
#: pipeline depths on the x axis
STAGES = (1, 2, 3, 4, 6, 8, 12, 16)
#: the y axis, in units of one GPU's HBM: fixed, so a control change never redraws the axes
Y_TOP = 2.0


class MemoryBarsPlot(LivePlot):
    """Stacked bars: weights and KV per GPU at each pipeline depth P (P micro-batches of b in flight),
    against the HBM of one GPU of the chosen chip (y in units of that HBM: the line at 1 is the limit,
    fixed axes keep every move fast; each bar is labelled with its total in bytes, clipped bars with ↑).

    state: stages, weights, kv, total (bytes per GPU, one per P), hbm (bytes), fits (bools), first_fit (P
    or None), kv_alone_fits.
    """

    params = dict(model=LECTURE_MODEL, hw="H100-SXM", expert_parallel=SAID["expert_parallel"],
                  micro_batch=SAID["dsv3_balance_batch"], context=1_000_000, weight_dtype="fp8", kv_dtype="bf16")

    def __init__(self, **params):
        super().__init__(figsize=(7.2, 3.9))
        p = {**self.params, **params}
        self.ax = ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.1, right=0.78, bottom=0.14, top=0.9)
        x = np.arange(len(STAGES))
        self.w_bars = ax.bar(x, np.zeros(len(x)), 0.7, color=WEIGHT_COLOR, label="weights\n$N\\,b_w \\,/\\, (E P)$")
        self.kv_bars = ax.bar(x, np.zeros(len(x)), 0.7, color=KV_COLOR, label="KV caches\n$P\\,b\\,L\\,b_{kv} \\,/\\, (E P)$")
        ax.axhline(1.0, color=HBM_COLOR, ls="--", lw=1.5, label="HBM of\none GPU")
        self.labels = [ax.text(i, 0, "", ha="center", va="bottom", fontsize=7) for i in x]
        self.info = ax.text(0.99, 0.97, "", transform=ax.transAxes, ha="right", va="top", fontsize=8,
                            bbox=dict(facecolor="white", edgecolor="#999", alpha=0.9), zorder=5)
        ax.set_xticks(x, [str(s) for s in STAGES])
        ax.set_xlim(-0.6, len(x) - 0.4)
        ax.set_ylim(0, Y_TOP)
        ax.set_xlabel("pipeline stages P (racks)")
        ax.set_ylabel("memory per GPU ÷ its HBM")
        ax.set_title("Memory per GPU: the weights shrink with P, the KV cache does not", fontsize=10)
        self.chrome(ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0)))
        self.dynamic(*self.w_bars, *self.kv_bars, *self.labels, self.info)
        self.update(**p)

    def update(self, model=LECTURE_MODEL, hw="H100-SXM", expert_parallel=SAID["expert_parallel"],
               micro_batch=SAID["dsv3_balance_batch"], context=1_000_000, weight_dtype="fp8", kv_dtype="bf16"):
        self.clear_message()
        stages = np.asarray(STAGES, dtype=float)
        r = memory.per_chip_bytes_micro(model, micro_batch, context, expert_parallel, stages, weight_dtype, kv_dtype)
        hbm = memory.hbm_per_chip(hw)
        weights, kv, total = (np.asarray(a, dtype=float) for a in (r.weights, r.kv, r.total))
        top = 0.78 * Y_TOP                  # bars are drawn up to here; taller ones are clipped and marked ↑
        for i, (w, k, t) in enumerate(zip(weights / hbm, kv / hbm, total)):
            w_shown = min(w, top)
            self.w_bars[i].set_height(w_shown)
            self.kv_bars[i].set_y(w_shown)
            self.kv_bars[i].set_height(max(0.0, min(w + k, top) - w_shown))
            clipped = w + k > top
            self.labels[i].set_position((i, min(w + k, top) + 0.02))
            self.labels[i].set_text(("↑ " if clipped else "") + fmt(t, "B", 2))
        fits = np.asarray(r.fits(hw))
        first = next((int(s) for s, f in zip(STAGES, fits) if f), None)
        kv_alone = bool(kv[0] <= hbm)
        if first is not None:
            verdict = f"fits from P = {first}"
        elif kv_alone:
            verdict = f"needs P > {STAGES[-1]}"
        else:
            verdict = "KV alone is more than the HBM: no P fits"
        name = hardware.resolve(hw).name
        self.info.set_text(f"{models.resolve(model).name}\non {name}: E = {expert_parallel}, b = {micro_batch:,}, "
                           f"context {fmt(context, 'tok')}\nKV per GPU {fmt(kv[0], 'B')} at every P; "
                           f"HBM {fmt(hbm, 'B')}: {verdict}")
        self.warning = "" if kv_alone else (f"the KV caches alone ({fmt(kv[0], 'B')} per GPU) exceed the "
                                            f"{fmt(hbm, 'B')} of one {name} GPU; pipelining cannot help")
        self.state = dict(stages=STAGES, weights=weights, kv=kv, total=total, hbm=hbm, fits=fits,
                          first_fit=first, kv_alone_fits=kv_alone)
        return self


def _log_y(ax):
    """Log y axis with plain labels on major and minor ticks ('20', '30', '100'), no mathtext."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(tick_label)
    ax.yaxis.set_minor_formatter(tick_label)
    ax.tick_params(axis="y", which="minor", labelsize=7)


# --- 2. hop latency: the range, not one number ----------------------------------------------------------
def hop_range_chart(step_time=SAID["hop_step_before_s"], hop_latency=SAID["hop_s"], spread=SAID["hop_uncertainty"],
                    max_stages: int = 8) -> Figure:
    """Decode step time against pipeline stages P for hop latency ÷spread, as said, ×spread (ms)."""
    stages = np.arange(1, max_stages + 1)
    lo, mid, hi = (memory.hop_step_time(step_time, stages, h)
                   for h in (hop_latency / spread, hop_latency, hop_latency * spread))
    fig = static_figure((6.8, 3.8))
    ax = fig.add_subplot()
    ax.fill_between(stages, lo / MS, hi / MS, color="C0", alpha=0.18,
                    label=f"t_hop from {fmt(hop_latency / spread, 's')} to {fmt(hop_latency * spread, 's')} (±{spread:g}×)")
    ax.plot(stages, mid / MS, "o-", color="C0", label=f"t_hop = {fmt(hop_latency, 's')} (our reading of 'a few ms')")
    ax.axhline(step_time / MS, color="0.4", ls=":", label=f"no hops: {fmt(step_time, 's')}")
    ax.plot([SAID["pipeline_stages"]], [SAID["hop_step_after_s"] / MS], "k*", ms=12,
            label=f"the lecture: {fmt(SAID['hop_step_before_s'], 's')} → {fmt(SAID['hop_step_after_s'], 's')} at P = "
                  f"{SAID['pipeline_stages']}")
    _log_y(ax)
    ax.set_xlabel("pipeline stages P (rack hops per token)")
    ax.set_ylabel("time per decode step (ms)")
    ax.set_title(f"Hop latency adds P·t_hop per token; the lecture's t_hop is uncertain {spread:g}× either way",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


# --- 3. bandwidth, not capacity ------------------------------------------------------------------------
def weight_read_bars(model="Kimi-K2", systems=("HGX-H100", "HGX-H200", "HGX-B200", "GB200-NVL72", "GB300-NVL72"),
                     weight_dtype="fp8") -> Figure:
    """Time to read `model`'s weights once on each system (the decode latency floor), ms, log axis;
    the bar says whether the weights fit (else they must be pipelined, which does not shorten the read)."""
    m = models.resolve(model)
    times = [memory.weight_read_time(s, m, weight_dtype) for s in systems]
    fig = static_figure((6.8, 3.6))
    ax = fig.add_subplot()
    x = np.arange(len(systems))
    for i, (s, t) in enumerate(zip(systems, times)):
        fits = m.weight_bytes(weight_dtype) <= hardware.get(s).hbm_capacity
        ax.bar(i, t / MS, 0.6, color="C0" if fits else "C7", hatch=None if fits else "//", edgecolor="white")
        ax.text(i, t / MS * 1.08, f"{fmt(t, 's')}" + ("" if fits else "\n(does not fit:\npipelined)"),
                ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, [f"{s}\n{hardware.get(s).n_chips} GPUs" for s in systems], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylim(min(times) / MS / 3, max(times) / MS * 6)
    ax.yaxis.set_major_formatter(tick_label)
    ax.yaxis.set_minor_formatter(lambda v, pos=None: "")
    ax.set_ylabel("weight-read time per step (ms)")
    ax.set_title(f"{m.name} ({fmt(m.weight_bytes(weight_dtype), 'B')} in {weight_dtype}): the latency floor "
                 "N·b_w / (n·BW)", fontsize=9)
    fig.tight_layout()
    return fig


def bandwidth_generations(rows=None) -> Figure:
    """HBM bandwidth per GPU by generation (TB/s, log axis), with the lecture's 1.5-2× per generation as a
    band from the first chip."""
    rows = rows or memory.bandwidth_by_generation()
    fig = static_figure((6.8, 3.8))
    ax = fig.add_subplot()
    years = np.array([r["year"] for r in rows], dtype=float)
    bw = np.array([r["bandwidth"] for r in rows])
    ax.plot(years, bw / 1e12, "o-", color="C0", label="HBM bandwidth per GPU (registry)")
    spots: dict = {}                  # chips at the same point share one label
    for r in rows:
        star = "*" if r["status"] == "announced" else ""
        spots.setdefault((r["year"], r["bandwidth"]), []).append(f"{r['chip']}{star}")
    for (year, bw_), names in spots.items():
        ax.annotate(", ".join(names), (year, bw_ / 1e12), xytext=(5, -10), textcoords="offset points", fontsize=7)
    launches = [r for r in rows if r["launch_step"] is not None or r is rows[0]]
    n = np.arange(len(launches))
    ly = np.array([r["year"] for r in launches], dtype=float)
    b0 = launches[0]["bandwidth"] / 1e12
    ax.fill_between(ly, b0 * SAID["bw_growth_low"] ** n, b0 * SAID["bw_growth_high"] ** n, color="C1", alpha=0.2,
                    label=f"the lecture: {SAID['bw_growth_low']:g}–{SAID['bw_growth_high']:g}× per architecture")
    _log_y(ax)
    ax.set_xlabel("year")
    ax.set_ylabel("HBM bandwidth per GPU (TB/s)")
    ax.set_title("Bandwidth per GPU by generation (* = announced)", fontsize=10)
    ax.set_xlim(years.min() - 0.5, years.max() + 1.0)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


# --- 4. the longest context per GPU ---------------------------------------------------------------------
def context_ceiling_bars(model_list, chips=("A100-80GB", "H100-SXM", "H200", "B200", "GB300", "Rubin"),
                         micro_batch=SAID["dsv3_balance_batch"], expert_parallel=SAID["expert_parallel"],
                         kv_dtype="bf16") -> Figure:
    """Grouped bars: the longest context any pipeline depth allows, C·E/(b·b_kv) (tokens, log axis), per
    model and chip (weights sharded away, P → ∞)."""
    fig = static_figure((7.2, 3.9))
    ax = fig.add_subplot()
    x = np.arange(len(chips))
    width = 0.8 / len(model_list)
    for j, m in enumerate(model_list):
        m = models.resolve(m)
        vals = [memory.context_ceiling(c, m, micro_batch, expert_parallel, kv_dtype) for c in chips]
        ax.bar(x + (j - (len(model_list) - 1) / 2) * width, vals, width,
               label=f"{m.name}: {fmt(m.kv_bytes_per_token(kv_dtype), 'B/token')}")
    ax.set_xticks(x, [c + ("*" if hardware.get(c).announced else "") + f"\n{fmt(hardware.get(c).hbm_capacity, 'B')}"
                      for c in chips], fontsize=8)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(tick_label)
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 30)                     # room for the legend above the bars
    ax.set_ylabel("longest context (tokens)")
    ax.set_title(f"Longest context per GPU, any P: C·E/(b·b_kv), E = {expert_parallel}, b = {micro_batch:,}",
                 fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


__all__ = ["MemoryBarsPlot", "STAGES", "hop_range_chart", "weight_read_bars", "bandwidth_generations",
           "context_ceiling_bars"]
