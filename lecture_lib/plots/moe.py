"""Plots for notebook 03 (MoE on racks): experts touched, the slowdown of spanning racks, the step with its
network term (a LivePlot for the explorer), the scale-up history and the chapter's law.

Pure presentation: every number comes from `lecture_lib.moe` (and `routing`, `roofline`, `hardware`,
`models`); each function takes parameters and returns a matplotlib Figure (no pyplot, no global state).
"""
from __future__ import annotations

import numpy as np

from .. import hardware, models, moe
from ..lecture import SAID
from ..units import MS, US, fmt
from .live import LivePlot, log_axes, static_figure

BOUND_COLORS = {"compute": "C0", "memory": "C1", "network": "C3"}
BATCHES = np.unique(np.round(np.logspace(0, 5, 61)))          # sequences, 1 … 100k
STEP_YLIM = (10 * US, 10.0)                                      # seconds, fixed
#: law_chart writes these models' names above-left of their points (DeepSeek-V3 sits just below-right of Kimi-K2)
LABEL_LEFT = ("Kimi-K2",)
SYSTEMS = ("GB200-NVL72", "GB300-NVL72", "HGX-H100", "HGX-B200")


# --- 2. experts touched -----------------------------------------------------------------------------
def experts_touched_chart(model_names=("DeepSeek-V3", "Kimi-K2", "Qwen3-235B-A22B", "Mixtral-8x7B")):
    """Expected distinct experts touched per layer against tokens in the step, as a fraction of n."""
    fig = static_figure((6.8, 3.8))
    ax = fig.add_subplot()
    tokens = np.logspace(0, 5, 200)
    for name in model_names:
        m = models.get(name)
        ax.plot(tokens, moe.experts_touched(m, tokens) / m.n_experts,
                label=f"{m.name}: k = {m.experts_per_token} of n = {m.n_experts}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("tokens in the step (sequences in decode)")
    ax.set_ylabel("experts touched / n (per layer)")
    ax.set_title("Distinct experts a step touches (uniform independent routing)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")             # the curves all sit at 1 there
    fig.tight_layout()
    return fig


# --- 4. the slowdown of spanning racks -------------------------------------------------------------
def slowdown_chart(ratios=(4, 8, 18), max_racks=16):
    """max(1/R, ρ·(R − 1)/R) against racks R, for a few bandwidth ratios ρ."""
    fig = static_figure((6.4, 3.6))
    ax = fig.add_subplot()
    racks = np.arange(1, max_racks + 1)
    for rho in ratios:
        ax.plot(racks, moe.slowdown(racks, rho), marker="o", ms=3, label=f"ρ = {rho:g}")
        ax.axhline(rho, color="0.7", lw=0.8, ls=":")
    ax.set_xlabel("racks R one expert layer spans")
    ax.set_ylabel("all-to-all time ÷ one rack's", fontsize=9)
    ax.text(0.99, 0.02, "same tokens per GPU", transform=ax.transAxes, ha="right", va="bottom", fontsize=7,
            color="0.4")
    ax.set_title("Spanning racks: (R − 1)/R of the traffic leaves over a link ρ× slower", fontsize=10)
    ax.set_xlim(0.5, max_racks + 0.5)
    ax.set_ylim(0, max(ratios) * 1.1)
    ax.legend(fontsize=8, loc="center right")            # between the ρ = 8 and ρ = 18 plateaus
    fig.tight_layout()
    return fig


# --- 4b. the explorer's plot: step time with its network term ----------------------------------------
class RackPlot(LivePlot):
    """Compute, memory and network time of one decode step against batch, for an MoE over R racks.

    update(system, model, racks, experts_per_token, dispatch_dtype, scaleout_ratio, batch): which of the
    three binds at `batch`, with the step time. k replaces the model's experts per token (same experts,
    active parameters from the routed split); scaleout_ratio ρ sets W_out = W_up / ρ.
    """

    params = dict(system="GB200-NVL72", model="DeepSeek-V3", racks=1, experts_per_token=8,
                  dispatch_dtype="fp8", scaleout_ratio=18.0, batch=4096)

    def __init__(self, **params):
        super().__init__(figsize=(7.2, 3.9))
        self.ax = ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.1, right=0.97, bottom=0.13, top=0.9)
        self.lines = {b: ax.plot([], [], color=c, lw=1.3, label=b)[0] for b, c in BOUND_COLORS.items()}
        (self.total,) = ax.plot([], [], color="k", lw=2.4, alpha=0.35, label="step = max of the three")
        (self.point,) = ax.plot([], [], "o", color="k", ms=7, zorder=5)
        self.text = ax.text(0.02, 0.97, "", transform=ax.transAxes, ha="left", va="top", fontsize=8.5,
                            bbox=dict(facecolor="white", edgecolor="#999", alpha=0.92), zorder=6)
        log_axes(ax, (BATCHES[0], BATCHES[-1]), STEP_YLIM)
        ax.set_xlabel("batch B (sequences, one new token each)")
        ax.set_ylabel("time per decode step (s)")
        ax.set_title("Which binds: compute, memory or the all-to-all network?", fontsize=10)
        ax.legend(fontsize=8, loc="lower right")
        self.dynamic(*self.lines.values(), self.total, self.point, self.text)
        self.update(**{**self.params, **params})

    def update(self, system="GB200-NVL72", model="DeepSeek-V3", racks=1, experts_per_token=8,
               dispatch_dtype="fp8", scaleout_ratio=18.0, batch=4096):
        self.clear_message()
        try:
            m = moe.with_experts_per_token(model, experts_per_token)
            kw = dict(racks=racks, weight_dtype="fp8", dispatch_dtype=dispatch_dtype, scaleout_ratio=scaleout_ratio)
            curve = moe.step_time(system, m, BATCHES, **kw)
            here = moe.step_time(system, m, batch, **kw)
        except ValueError as err:
            self.show_message(str(err))
            return self
        for b, line in self.lines.items():
            line.set_data(BATCHES, np.clip(getattr(curve, b), *STEP_YLIM))
        self.total.set_data(BATCHES, np.clip(curve.total, *STEP_YLIM))
        self.point.set_data([batch], [np.clip(here.total, *STEP_YLIM)])
        self.point.set_color(BOUND_COLORS[here.bound])
        fits = "" if here.fits else "\n(weights + KV do not fit in HBM)"
        self.text.set_text(f"{system} ({fmt(hardware.resolve(system).hbm_capacity, 'B')} HBM) · {m.name}\n"
                           f"R = {racks}, B = {batch:,}: {here.bound}-bound, step {fmt(here.total, 's')}\n"
                           f"compute {fmt(here.compute, 's')} · memory {fmt(here.memory, 's')} · "
                           f"network {fmt(here.network, 's')}{fits}")
        self.text.get_bbox_patch().set_edgecolor(BOUND_COLORS[here.bound])
        self.state = dict(system=system, model=m.name, racks=racks, experts_per_token=experts_per_token,
                          dispatch_dtype=dispatch_dtype, scaleout_ratio=scaleout_ratio, batch=batch,
                          bound=here.bound, total=float(here.total), compute=float(here.compute),
                          memory=float(here.memory), network=float(here.network), fits=bool(here.fits),
                          curve_network=np.asarray(curve.network), curve_total=np.asarray(curve.total))
        return self


# --- 6. scale-up history and the law -----------------------------------------------------------------
def history_chart(domains=None):
    """Per scale-up domain: the largest fp8 model with half the HBM left for KV, and its weight-read floor."""
    domains = domains if domains is not None else moe.scaleup_history()
    # horizontal bars: the domain names read level on one shared y axis (rotated ticks clipped and collided)
    fig = static_figure((7.4, 1.3 + 0.38 * len(domains)))
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    labels = [f"{d.name}{'*' if d.status == 'announced' else ''} ({d.chips})" for d in domains]
    y = np.arange(len(domains))
    ax1.barh(y, [d.max_params for d in domains], color=["C0" if d.status == "shipping" else "0.7" for d in domains])
    ax1.set_xscale("log")
    ax1.set_xlabel("parameters (fp8, half of HBM)")
    ax1.set_title("Largest model that fits", fontsize=10)
    ax1.set_yticks(y, labels, fontsize=8)
    ax1.invert_yaxis()                      # oldest on top
    ax2.barh(y, [d.weight_floor_s / MS for d in domains], color="C1")
    ax2.set_xlabel("weight-read floor (ms)")
    ax2.set_title("Reading it once", fontsize=10)
    ax2.tick_params(labelleft=False)
    fig.suptitle("Scale-up domains (* = announced, uncertain; chips in brackets)", fontsize=10)
    fig.tight_layout()
    return fig


def law_chart(hw="GB200", dtype="fp8", model_names=("DeepSeek-V3", "Kimi-K2", "Qwen3-235B-A22B", "gpt-oss-120b",
                                                     "Mixtral-8x7B", "Llama-3-405B", "Llama-3-70B"), domains=None):
    """Active parameters (x, priced by compute) against total parameters (y, capped by scale-up HBM)."""
    domains = domains if domains is not None else moe.scaleup_history()
    fig = static_figure((7.2, 5.4))        # tall enough that a label fits between neighbouring HBM levels
    ax = fig.add_subplot()
    active = np.logspace(9, 12, 50)
    levels: dict = {}                       # domains with the same HBM share one line and one label
    for d in domains:
        levels.setdefault(round(d.max_params, -9), []).append(d)
    for level, ds in levels.items():
        shipping = any(d.status == "shipping" for d in ds)
        ax.axhline(level, color="C0" if shipping else "0.6", lw=1, ls="--")
        names = ", ".join(d.name + ("*" if d.status == "announced" else "") for d in ds)
        ax.annotate(f"{names}: {fmt(level)} params", (1.05e9, level), xytext=(0, 1), textcoords="offset points",
                    fontsize=7, va="bottom")
    for name in model_names:
        m = models.get(name)
        ax.plot(m.active_params, m.total_params, "o", color="C3" if m.is_moe else "C2")
        left = m.name in LABEL_LEFT            # a neighbour sits below-right of it
        ax.annotate(m.name, (m.active_params, m.total_params), xytext=(-5, 2) if left else (4, -9),
                    textcoords="offset points", fontsize=7, ha="right" if left else "left")
    ax.plot(active, active, color="k", lw=0.8, ls=":")
    ax.axhline(SAID["dwarkesh_model_params"], color="C4", lw=0.8)
    ax.text(1.05e9, SAID["dwarkesh_model_params"] * 0.7,
            f"Dwarkesh's hypothesis: ~{fmt(SAID['dwarkesh_model_params'])} + KV fits a Blackwell rack",
            fontsize=7, color="C4", va="top")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(1e9, 1e12)
    ax.set_ylim(1e9, 1.5e14)
    cost = moe.compute_cost_per_token(hw, active, dtype) * 1e6
    top = ax.secondary_xaxis("top", functions=(lambda a: a * cost[0] / active[0], lambda c: c * active[0] / cost[0]))
    top.set_xlabel(f"\\$ per million tokens at the compute floor ({hardware.get(hw).name}, {dtype}, "
                   f"\\${SAID['gpu_dollars_per_hour']:g}/GPU-h)", fontsize=8)
    ax.set_xlabel("active parameters (priced by compute)")
    ax.set_ylabel("total parameters (capped by scale-up HBM)")
    ax.set_title("Active params: limited by compute cost; total params: by scale-up size (* announced)", fontsize=9)
    fig.tight_layout()
    # the diagonal's label, under it in the empty lower-left corner, at the line's angle on screen
    (x0, y0), (x1, y1) = ax.transData.transform([(1e9, 1e9), (1e12, 1e12)])
    ax.annotate("dense: total = active", (1.4e9, 1.4e9), xytext=(2, -2), textcoords="offset points", fontsize=7,
                rotation=np.degrees(np.arctan2(y1 - y0, x1 - x0)), rotation_mode="anchor", ha="left", va="top")
    return fig
