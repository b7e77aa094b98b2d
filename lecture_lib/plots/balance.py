"""Plots for notebook 02 (the balance batch, the 20 ms train, drain time, fast mode, sparsity).

Pure presentation: every number comes from `lecture_lib.balance`, `routing`, `queueing`, `fastmode` and `roofline`; each function takes
parameters and returns a matplotlib Figure (no pyplot, no global state). The two live plots
(`TrainPlot`, `FastModePlot`, `BalancePlot`) update in place for the explorers.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from matplotlib.figure import Figure

from .. import balance, fastmode, hardware, models, queueing, roofline, routing, traffic
from ..lecture import SAID
from ..units import MS, US, fmt
from .live import LivePlot, decade_limits, log_axes, positive, static_figure

DTYPE_MARKERS = {"bf16": "o", "fp8": "s", "fp4": "^"}
DTYPE_COLORS = {"bf16": "C0", "fp8": "C1", "fp4": "C2"}




# --- 1. the hardware ratio across generations ----------------------------------------------------
def ratio_by_generation(rows=None, lecture_ratio: float = SAID["ratio"]) -> Figure:
    """Lecture ratio (multiply-adds per weight parameter read) of every chip and dtype vs year."""
    rows = rows if rows is not None else balance.ratio_table()
    fig = static_figure((7.2, 4.4))
    ax = fig.add_subplot()
    for dtype, marker in DTYPE_MARKERS.items():
        sel = [r for r in rows if r["dtype"] == dtype]
        if not sel:
            continue
        ax.scatter([r["year"] for r in sel], [r["lecture_ratio"] for r in sel], marker=marker, s=40,
                   color=DTYPE_COLORS[dtype], label=f"weights in {dtype}", alpha=0.8, zorder=3)
    groups: dict = {}                 # one label per point, chips at the same spot share it
    for r in rows:
        key = (r["year"], int(r["lecture_ratio"] // 15))
        name = r["chip"] + ("*" if r["status"] == "announced" else "")
        groups.setdefault(key, (r["year"], r["lecture_ratio"], []))
        if name not in groups[key][2]:
            groups[key][2].append(name)
    top = max(r["lecture_ratio"] for r in rows) * 1.15
    min_gap = 0.045 * top                 # labels in one year's column at least this far apart (data units)
    by_year: dict = {}
    for year, ratio, names in groups.values():
        by_year.setdefault(year, []).append((ratio, names))
    for year, items in by_year.items():
        last = -np.inf
        for ratio, names in sorted(items):
            y = max(ratio, last + min_gap)
            last = y
            moved = y - ratio > 1e-9
            ax.annotate(", ".join(names), (year, ratio), xytext=(year + 0.12, y), textcoords="data",
                        fontsize=7, va="center", zorder=4, bbox=dict(fc="white", ec="none", pad=0.6),
                        arrowprops=dict(arrowstyle="-", lw=0.5, color="0.5") if moved else None)
    ax.axhline(lecture_ratio, color="k", ls="--", lw=1, label=f"the lecture's ≈{lecture_ratio}")
    ax.set_xlabel("year of introduction")
    ax.set_ylabel("MACs/s ÷ weight params/s (dimensionless)")
    ax.set_title("The hardware ratio by generation (* = announced; rate may not be dense)", fontsize=10)
    years = [r["year"] for r in rows]
    ax.set_xlim(min(years) - 0.5, max(years) + 1.2)      # room for the labels right of the last year
    ax.set_ylim(0, top)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


# --- 2. experts touched by a batch ----------------------------------------------------------------
def experts_touched(model_names=("DeepSeek-V3", "Qwen3-235B-A22B", "Kimi-K2", "Mixtral-8x7B"),
                    batch_max: float = 1e4) -> Figure:
    """Fraction of routed experts a batch touches, 1 − (1 − k/n)^B, vs batch (log x)."""
    b = np.geomspace(1, batch_max, 300)
    fig = static_figure()
    ax = fig.add_subplot()
    for name in model_names:
        m = models.get(name)
        ax.plot(b, routing.experts_touched_fraction(b, m.experts_per_token, m.n_experts),
                label=f"{name} ({m.experts_per_token} of {m.n_experts})")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("batch B (tokens per step)")
    ax.set_ylabel("fraction of experts read")
    ax.set_title("A batch of B tokens touches 1 − (1 − k/n)^B of the experts")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


# --- 3. the balance batch vs context --------------------------------------------------------------
class BalancePlot(LivePlot):
    """Balance batch (with KV) vs context for one system and model; the wall at the balance context."""

    XLIM = (10.0, 1e7)       # tokens
    YLIM = (10.0, 1e7)       # sequences
    #: the starting system, model and formats (the explorer's controls start here too)
    params = dict(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16")

    def __init__(self, hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16"):
        super().__init__()
        self.ax = self.figure.add_subplot()
        (self.line,) = self.ax.plot([], [], color="C0", label="balance batch with KV")
        (self.flat,) = self.ax.plot([], [], color="C7", ls=":", label="without KV")
        self.wall = self.ax.axvline(1.0, color="C3", ls="--", label="balance context")
        self.text = self.ax.text(0.02, 0.95, "", transform=self.ax.transAxes, va="top", fontsize=9)
        self.dynamic(self.line, self.flat, self.wall, self.text)
        log_axes(self.ax, self.XLIM, self.YLIM)     # fixed limits: a control change only redraws the data
        self.ax.set_title("Balance batch vs context: the KV reads push it up, then past a wall")
        self.ax.set_xlabel("context length (tokens)")
        self.ax.set_ylabel("balance batch B* (sequences)")
        self.ax.legend(fontsize=8, loc="lower right")
        self.figure.subplots_adjust(left=0.13, right=0.97, bottom=0.14, top=0.9)
        self.update(hw, model, weight_dtype, kv_dtype)

    def update(self, hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16"):
        self.clear_message()
        lc = roofline.balance_context(hw, model, weight_dtype, kv_dtype)   # ValueError: no such dtype
        b0 = roofline.balance_batch(hw, model, weight_dtype)
        ctx = np.geomspace(self.XLIM[0], lc * 0.9999, 200)
        b = roofline.balance_batch(hw, model, weight_dtype, context=ctx, kv_dtype=kv_dtype)
        self.line.set_data(ctx, b)
        self.flat.set_data(self.XLIM, [b0, b0])
        self.wall.set_xdata([lc, lc])
        self.text.set_text(f"{hardware.resolve(hw).name}, {models.resolve(model).name}: weights "
                           f"{weight_dtype}, KV {kv_dtype}\nB* (no KV) = {b0:,.0f}; "
                           f"no batch balances past {lc:,.0f} tokens")
        self.state = dict(balance_context=lc, balance_batch=b0, context=ctx, batch=b)
        return self


# --- 4. the train schedule ---------------------------------------------------------------------------
class TrainPlot(LivePlot):
    """Latency histogram of the seeded train simulation, with the 1.5·T mean and 2·T worst case.

    Simulates `horizon_s` seconds of Poisson arrivals (at most `max_requests` requests), or exactly
    `n_requests` requests when given (so a notebook can show the very simulation its prose quotes).
    """

    BINS_MS = np.linspace(0, 200, 81)
    #: the starting controls: the lecture's 20 ms train; the rate and seats are a toy's
    params = dict(period_ms=SAID["step_s"] / MS, arrival_rate=2000.0, capacity=64)

    def __init__(self, period_ms=20.0, arrival_rate=2000.0, capacity=64, horizon_s=5.0,
                 max_requests=100_000, seed=0, n_requests: int | None = None):
        super().__init__()
        self.horizon_s, self.max_requests, self.seed = horizon_s, max_requests, seed
        self.n_requests = n_requests
        self.ax = self.figure.add_subplot()
        self.bars = self.ax.stairs(np.zeros(len(self.BINS_MS) - 1), self.BINS_MS, fill=True,
                                   color="C0", alpha=0.75, label="simulated requests")
        self.mean_line = self.ax.axvline(0, color="C1", ls="--", label="theory: mean 1.5·T")
        self.worst_line = self.ax.axvline(0, color="C3", ls=":", label="theory: worst 2·T (seats free)")
        self.text = self.ax.text(0.98, 0.95, "", transform=self.ax.transAxes, ha="right", va="top", fontsize=9)
        self.dynamic(self.bars, self.mean_line, self.worst_line, self.text)
        self.ax.set_xlim(0, self.BINS_MS[-1])
        self.ax.set_xlabel("latency of one step: wait + ride (ms)")
        self.ax.set_ylabel("share of requests per ms (1/ms)")
        self.ax.set_title("Trains leave every T; requests board the next one with a free seat")
        self.ax.legend(fontsize=8, loc="center right")
        self.figure.subplots_adjust(left=0.12, right=0.97, bottom=0.14, top=0.9)
        self.update(period_ms, arrival_rate, capacity)

    def update(self, period_ms=20.0, arrival_rate=2000.0, capacity=64):
        n = self.n_requests or int(min(self.max_requests, max(1000, arrival_rate * self.horizon_s)))
        sim = queueing.simulate_trains(period_ms * MS, arrival_rate, capacity=capacity, n_requests=n,
                                      seed=self.seed)
        lat_ms = sim.latency / MS
        counts, _ = np.histogram(np.minimum(lat_ms, self.BINS_MS[-1] - 1e-9), bins=self.BINS_MS)
        density = counts / lat_ms.size / (self.BINS_MS[1] - self.BINS_MS[0])
        self.bars.set_data(density)
        # y limit from the period alone (with free seats the density is 1/T per ms), snapped to
        # 0.025 × 2^k: only a period change redraws the axes
        top = 0.025 * 2.0 ** np.ceil(np.log2(1.3 / period_ms / 0.025))
        self.ax.set_ylim(0, top)
        mean_s, worst_s = queueing.train_latency(period_ms * MS)
        self.mean_line.set_xdata([mean_s / MS] * 2)
        self.worst_line.set_xdata([worst_s / MS] * 2)
        self.text.set_text(f"{n:,} requests over {lat_ms.size / arrival_rate:.2f} s\n"
                           f"load {sim.load:.2f} (arrivals per train ÷ seats)\n"
                           f"mean {lat_ms.mean():.1f} ms, p99 {np.percentile(lat_ms, 99):.1f} ms\n"
                           f"missed a full train: {100 * sim.miss_fraction:.1f} %"
                           + ("\nlast bin holds everything ≥ 200 ms" if lat_ms.max() > self.BINS_MS[-1] else ""))
        self.state = dict(latency_ms=lat_ms, density=density, mean_ms=float(lat_ms.mean()),
                          max_ms=float(lat_ms.max()), theory_mean_ms=mean_s / MS,
                          theory_worst_ms=worst_s / MS, load=sim.load, miss_fraction=sim.miss_fraction,
                          n_requests=n)
        return self


# --- 5. drain time --------------------------------------------------------------------------------
def drain_times(rows=None, lecture_s: float = SAID["drain_s"]) -> Figure:
    """Horizontal bars: HBM capacity / bandwidth for every chip, the lecture's 20 ms marked."""
    rows = rows if rows is not None else balance.drain_table()
    rows = sorted(rows, key=lambda r: r["drain_s"])
    fig = static_figure((6.6, 4.6))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    colors = ["C7" if r["status"] == "announced" else "C0" for r in rows]
    ax.barh(y, [r["drain_s"] / MS for r in rows], color=colors)
    ax.set_yticks(y, [r["chip"] + (" (announced)" if r["status"] == "announced" else "") for r in rows], fontsize=8)
    ax.axvline(lecture_s / MS, color="k", ls="--", lw=1, label=f"the lecture's ≈{lecture_s / MS:.0f} ms")
    ax.set_xlabel("drain time = HBM capacity ÷ HBM bandwidth (ms)")
    ax.set_title("How long it takes to read all of HBM once")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


# --- 6. throughput vs the world -----------------------------------------------------------------------
def throughput_vs_volumes(deployments: dict, volumes=None) -> Figure:
    """Log bars: deployments' tok/s (name -> tok/s) beside the published global volumes."""
    volumes = volumes if volumes is not None else traffic.TOKEN_VOLUMES
    names = list(deployments) + [f"{v.provider} {v.as_of}" for v in volumes]
    values = list(deployments.values()) + [v.tokens_per_second for v in volumes]
    colors = ["C0"] * len(deployments) + ["C1"] * len(volumes)
    fig = static_figure((7.2, 3.9))
    ax = fig.add_subplot()
    y = np.arange(len(names))
    ax.barh(y, values, color=colors)
    ax.set_yticks(y, names, fontsize=8)
    ax.set_xscale("log")
    lo, hi = decade_limits(values)
    ax.set_xlim(lo / 10, hi)              # a decade of room so the smallest bar shows
    ax.set_xlabel("tokens per second")
    fig.suptitle("One deployment (blue) vs a provider's traffic (orange)", fontsize=11)
    fig.tight_layout()
    return fig


# --- 7. fast mode ---------------------------------------------------------------------------------
def _toy_problem8(context):
    return replace(fastmode.FastModeToy.problem8(), context=float(context))


#: fast-mode scenarios: name -> function(context in tokens) -> FastModeToy
FAST_SCENARIOS = {
    "syllabus toy: 64 GPUs, 2T params (100B active), 2 kB/token": _toy_problem8,
    "GB200-NVL72 · DeepSeek-V3 (fp8)": lambda c: fastmode.FastModeToy.from_system("GB200-NVL72", "DeepSeek-V3", c, "fp8"),
    "GB200-NVL72 · Kimi-K2 (fp8)": lambda c: fastmode.FastModeToy.from_system("GB200-NVL72", "Kimi-K2", c, "fp8"),
    "HGX-H200 · Llama-3-70B (fp8)": lambda c: fastmode.FastModeToy.from_system("HGX-H200", "Llama-3-70B", c, "fp8"),
}


def _round_down_125(x: float) -> float:
    """The largest of 1, 2, 5 × 10^k that is <= x (x > 0): a tidy context to clamp to."""
    exp = np.floor(np.log10(x))
    return float(max(m * 10.0 ** exp for m in (1, 2, 5) if m * 10.0 ** exp <= x))


class FastModePlot(LivePlot):
    """Left: speed-up bought vs price multiple paid, with the ceiling; marker at `multiple`.
    Right: speed-up vs context (ceiling at any price, and at `multiple`), with the `target` speed-up
    and the context from which it becomes possible.

    update(multiple, scenario, context, target) or update(multiple, toy=FastModeToy(...), target=...).
    A context at or past the scenario's balance context is clamped below it, with a warning.
    """

    M = np.geomspace(1, 100, 120)
    X = np.linspace(0, 0.995, 100)        # context ÷ balance context, the right panel's x
    YMAX = 6.0                            # fixed limits: no control change redraws the axes
    DEFAULT_SCENARIO = next(iter(FAST_SCENARIOS))
    FIGSIZE = (9.6, 4.0)     # two panels; 960 × 400 px at 100 dpi, shown at that size
    #: the starting controls: the lecture's "about 6× the price for about 2.5× the speed"
    params = dict(multiple=SAID["fast_price"], scenario=DEFAULT_SCENARIO, context=100_000, target=SAID["fast_speed"])

    def __init__(self, multiple=SAID["fast_price"], scenario=None, context=100_000,
                 toy: fastmode.FastModeToy | None = None, target=SAID["fast_speed"]):
        super().__init__(figsize=self.FIGSIZE)
        self.ax, self.ax_ctx = self.figure.subplots(1, 2, gridspec_kw=dict(width_ratios=(1, 1)))
        ax = self.ax
        (self.curve,) = ax.plot([], [], color="C0", label="speed-up (balance step ÷ step)")
        self.ceiling = ax.axhline(1, color="C3", ls="--", label="ceiling: balance step ÷ weight read")
        (self.dot,) = ax.plot([], [], "o", color="C1", ms=8)
        (self.slow,) = ax.plot([], [], "s", color="C2", ms=7, label="balance point (slow mode: no cheaper)")
        self.text = ax.text(0.97, 0.04, "", transform=ax.transAxes, ha="right", va="bottom", fontsize=8)
        ax.set_xscale("log")
        ax.set_xlim(1, 100)
        ax.set_xlabel("price per token ÷ price at the balance batch")
        ax.set_ylabel("token speed ÷ speed at the balance batch")
        ax.set_title("What a price buys, at this context", fontsize=10)
        ax.legend(fontsize=7, loc="upper left")
        a2 = self.ax_ctx
        (self.ctx_ceiling,) = a2.plot([], [], color="C3", ls="--", label="ceiling c/(c−k): any price")
        (self.ctx_curve,) = a2.plot([], [], color="C0", label="at the chosen price")
        self.target_line = a2.axhline(1, color="k", lw=1, ls=":", label="target speed-up")
        self.ctx_marker = a2.axvline(1, color="C1", lw=1)
        self.need_marker = a2.axvline(1, color="C3", lw=1, ls=":")
        self.need_text = a2.text(0.03, 0.04, "", transform=a2.transAxes, ha="left", va="bottom", fontsize=8)
        a2.set_xlim(0, 1)
        a2.set_ylim(0, self.YMAX)
        ax.set_ylim(0, self.YMAX)
        a2.set_xlabel("context ÷ balance context (no batch balances at 1)")
        a2.set_title("Where a speed-up becomes possible", fontsize=10)
        a2.legend(fontsize=7, loc="upper left")
        self.dynamic(self.curve, self.ceiling, self.dot, self.slow, self.text, self.ctx_ceiling,
                     self.ctx_curve, self.target_line, self.ctx_marker, self.need_marker, self.need_text)
        self.figure.subplots_adjust(left=0.075, right=0.985, bottom=0.13, top=0.9, wspace=0.2)
        self.update(multiple, scenario, context, toy, target)

    def update(self, multiple=SAID["fast_price"], scenario=None, context=100_000,
               toy: fastmode.FastModeToy | None = None, target=SAID["fast_speed"]):
        self.clear_message()
        self.warning = ""
        if toy is None:
            scenario = scenario or self.DEFAULT_SCENARIO
            if scenario not in FAST_SCENARIOS:
                raise ValueError(f"scenario must be one of {list(FAST_SCENARIOS)}, got {scenario!r}")
            wall = FAST_SCENARIOS[scenario](0).balance_context
            used = float(context)
            if used >= wall:          # no balance point there: clamp to a tidy context below the wall
                used = _round_down_125(0.9 * wall)
                self.warning = (f"{context:,.0f} tokens is past this scenario's balance context "
                                f"({wall:,.0f} tokens): no batch balances there, so fast mode has no "
                                f"balance point to trade against. Showing {used:,.0f} tokens instead.")
            toy = FAST_SCENARIOS[scenario](used)
        t = toy
        s = t.speedup_for_cost(self.M)
        self.curve.set_data(self.M, s)
        self.ceiling.set_ydata([t.max_speedup] * 2)
        b = t.batch_for_cost(multiple)
        sp_ = t.speedup_for_cost(multiple)
        self.dot.set_data([multiple], [sp_])
        self.slow.set_data([1.0], [1.0])
        # right panel: speed-up against context as a fraction of the balance context (same axes for
        # every scenario, so a control change never redraws them)
        wall = t.balance_context
        ctx = self.X * wall
        ceil_c = t.ceiling_at(ctx)
        at_m = t.speedup_for_cost_at(multiple, ctx)
        self.ctx_ceiling.set_data(self.X, ceil_c)
        self.ctx_curve.set_data(self.X, at_m)
        need_any = t.context_for_speedup(target)
        need_m = t.context_for_speedup(target, multiple)
        self.target_line.set_ydata([target] * 2)
        self.ctx_marker.set_xdata([t.context / wall] * 2)
        self.need_marker.set_xdata([need_m / wall] * 2)
        self.need_text.set_text(f"{target:g}× from {fmt(need_any)} tokens (any price)\n"
                                f"from {fmt(need_m)} at {multiple:g}× the price (dotted)\n"
                                f"balance context {fmt(wall)} tokens")
        self.text.set_text(f"{fmt(t.context)} tokens: {multiple:g}× price → batch {fmt(b)} of "
                           f"{fmt(t.balance_batch)}\n{sp_:.2f}× faster; ceiling {t.max_speedup:.2f}×"
                           + (" (off the chart)" if t.max_speedup > self.YMAX else ""))
        self.toy = t
        self.state = dict(multiple=multiple, batch=b, speedup=sp_, ceiling=t.max_speedup,
                          balance_batch=t.balance_batch, curve_x=self.M, curve_y=s, context=t.context,
                          balance_context=wall, target=target, context_for_target=need_any,
                          context_for_target_at_multiple=need_m, clamped=bool(self.warning))
        return self


# --- 8. sparsity costs memory -----------------------------------------------------------------------
def sparsity_headroom(sweep: dict, hw_name: str, model_name: str, context: float) -> Figure:
    """Balance batch and max batch that fits vs N_total / N_active (log-log)."""
    fig = static_figure()
    ax = fig.add_subplot()
    r = sweep["total_over_active"]
    ax.plot(r, sweep["balance_batch"], label="balance batch (with KV)")
    ax.plot(r, positive(sweep["max_batch"]), label="sequences that fit in HBM")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("N_total ÷ N_active (same active params, more experts)")
    ax.set_ylabel("batch (sequences)")
    ax.set_title(f"{model_name}-like models on {hw_name} at {context:,.0f}-token context", fontsize=10)
    cross = np.flatnonzero(sweep["headroom"] < 1)
    if cross.size:
        ax.axvline(r[cross[0]], color="C3", ls="--", lw=1, label="balance batch no longer fits")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# --- 9. sparse attention -------------------------------------------------------------------------------
def attention_slope(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16") -> Figure:
    """Per-sequence KV time vs context, dense and sqrt-sparse, against per-sequence compute (log-log)."""
    ctx = np.geomspace(100, 1e7, 200)
    dense = roofline.kv_time_per_sequence(hw, model, ctx, "dense", kv_dtype)
    sparse = roofline.kv_time_per_sequence(hw, model, ctx, "sqrt", kv_dtype)
    comp = roofline.compute_time_per_sequence(hw, model, weight_dtype)
    fig = static_figure()
    ax = fig.add_subplot()
    ax.plot(ctx, dense / US, label="KV read, dense attention (∝ L)")
    ax.plot(ctx, sparse / US, label="KV read, √-sparse attention (∝ √L)")
    ax.axhline(comp / US, color="k", ls="--", lw=1, label="compute per sequence")
    for att, color in (("dense", "C0"), ("sqrt", "C1")):
        lc = roofline.balance_context(hw, model, weight_dtype, kv_dtype, attention=att)
        if lc <= ctx[-1]:
            ax.axvline(lc, color=color, ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("context length (tokens)")
    ax.set_ylabel("time per sequence per step (µs)")
    ax.set_title(f"The context slope: {models.resolve(model).name} on {hardware.resolve(hw).name}", fontsize=10)
    ax.text(0.02, 0.95, "memory-bound at every batch\nright of a dotted line", transform=ax.transAxes,
            va="top", fontsize=8)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


__all__ = ["ratio_by_generation", "experts_touched", "BalancePlot", "TrainPlot", "drain_times",
           "throughput_vs_volumes", "FastModePlot", "FAST_SCENARIOS", "sparsity_headroom", "attention_slope"]
