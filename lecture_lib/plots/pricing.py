"""Plots for notebook 07 (prices as evidence: the long-context step, input vs output price, the context
ceiling, memory tiers and prompt caching).

Pure presentation: every number comes from `lecture_lib.pricing`, `roofline`, `storage`, `prices` and
`models`. Functions take parameters and return a matplotlib Figure (no pyplot, no global state); the two
live plots (`TierPlot`, `KvFromPricePlot`) update in place for the explorers.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import models, prices, pricing, roofline, storage
from ..lecture import SAID
from ..units import HOUR, MS, fmt
from .live import LivePlot, log_axes, static_figure, tick_label

TIER_COLORS = {"remat": "C3", "HBM": "C0", "DDR": "C1", "flash": "C2", "disk": "C4"}


# --- 1. cost per token against context: the kink, and the price step -----------------------------
def cost_vs_context(hw, model, batch, weight_dtype="fp8", kv_dtype="fp8", price="gemini-3.1-pro-preview",
                    context_max=500_000) -> Figure:
    """Left: compute and memory time per token vs context at `batch` (the kink). Right: a two-tier price."""
    ctx = np.linspace(1_000, context_max, 400)
    r = roofline.step_time(hw, model, batch, context=ctx, weight_dtype=weight_dtype, kv_dtype=kv_dtype)
    crossover = roofline.balance_context(hw, model, weight_dtype, kv_dtype)
    fig = static_figure((10.0, 3.9))
    ax, ax2 = fig.subplots(1, 2)
    per_tok = 1e6 / batch            # µs per token
    ax.plot(ctx / 1e3, (r.compute + 0 * ctx) * per_tok, color="C0", label="compute (flat)")
    ax.plot(ctx / 1e3, r.memory * per_tok, color="C1", label="memory: weights/B + KV (rises)")
    ax.plot(ctx / 1e3, r.total * per_tok, color="k", lw=2.2, alpha=0.35, label="time = max of the two")
    ax.axvline(crossover / 1e3, color="C3", ls="--", lw=1, label=f"KV read = compute per sequence ({crossover / 1e3:.0f}K)")
    ax.set_xlabel("context length (thousand tokens)")
    ax.set_ylabel("time per generated token (µs)")
    ax.set_title(f"{models.resolve(model).name}, B = {batch:,}: the kink")
    ax.set_ylim(0, None)
    ax.legend(fontsize=7, loc="upper left")
    p = prices.get(price)
    x = np.linspace(0, context_max, 1001)
    for kind, color in (("input", "C0"), ("output", "C1")):
        y = [p.per_token(kind, int(t)) * 1e6 for t in x]
        ax2.step(x / 1e3, y, where="post", color=color, label=f"{kind}")
    ax2.axvline(p.long_context_threshold / 1e3, color="C3", ls="--", lw=1, label="the step")
    ax2.set_xlabel("prompt length (thousand tokens)")
    ax2.set_ylabel("list price ($ per million tokens)")
    ax2.set_title(f"{p.model} ({p.source.as_of}): a two-tier price")
    ax2.set_ylim(0, None)
    ax2.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig


# --- 2. bytes per token: the price's answer against real architectures ----------------------------
def implied_vs_models(implied_bytes, context, model_names, kv_dtype="bf16", spread=None) -> Figure:
    """Horizontal bars (log x): KV bytes per token of registry models at `context` vs the price's answer."""
    names = list(model_names)
    vals = [roofline.kv_bytes_per_token_at(n, context, kv_dtype) for n in names]
    fig = static_figure((7.2, 3.6))
    ax = fig.add_subplot()
    y = np.arange(len(names))
    ax.barh(y, vals, color="C0", alpha=0.8)
    for yi, v in zip(y, vals):
        ax.text(v * 1.1, yi, f"{fmt(v, 'B')} ({v / implied_bytes:.0f}×)", va="center", fontsize=8)
    ax.axvline(implied_bytes, color="C3", lw=2, label=f"the price step's answer: {fmt(implied_bytes, 'B')}")
    if spread is not None:
        ax.axvspan(spread[0], spread[1], color="C3", alpha=0.12, label="its spread over the inputs")
    ax.set_yticks(y, [f"{n} ({kv_dtype})" for n in names], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(min(min(vals), implied_bytes, *(spread or [implied_bytes])) / 3, max(vals) * 20)
    ax.set_xlabel(f"KV bytes per token at {fmt(context)} tokens of context")
    ax.set_title("What the price says vs what published architectures hold")
    # below the axes: inside, any corner covers a bar's label
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    fig.tight_layout()
    return fig


# --- 3. the len_pass model ----------------------------------------------------------------------------
def time_per_token_vs_len_pass(memory_time, compute_time_per_token, len_max=1e5) -> Figure:
    """Log-log: compute per token (flat), memory per token (1/len_pass), their max; the crossover."""
    lp = np.geomspace(1, len_max, 300)
    t = pricing.time_per_token(memory_time, compute_time_per_token, lp)
    star = pricing.compute_bound_length(memory_time, compute_time_per_token)
    fig = static_figure((6.6, 3.9))
    ax = fig.add_subplot()
    ax.plot(lp, np.full_like(lp, compute_time_per_token) / MS, color="C0", label="compute per token: t_tok")
    ax.plot(lp, memory_time / lp / MS, color="C1", label="memory per token: t_mem / len_pass")
    ax.plot(lp, t / MS, color="k", lw=2.4, alpha=0.35, label="time per token (the max)")
    ax.axvline(star, color="C3", ls="--", lw=1, label=f"compute-bound from len_pass = {star:,.0f}")
    # decode's point, its label just above-right of it: the memory line falls away beneath the text
    ax.plot([1], [memory_time / MS], "o", color="C1", ms=5)
    ax.annotate("← decode (len_pass = 1)", (1, memory_time / MS), xytext=(7, -2), textcoords="offset points",
                fontsize=8, ha="left", va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("new tokens per sequence in one pass, len_pass")
    ax.set_ylabel("time per token (ms)")
    ax.set_title("Prefill amortizes the memory read; decode pays all of it")
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


def decode_mfu_by_model(rows) -> Figure:
    """Bars: the decode MFU ÷ prefill MFU each registry price implies (input ÷ output price)."""
    rows = list(rows)
    fig = static_figure((7.2, 3.8))
    ax = fig.add_subplot()
    colors = {"Anthropic": "C1", "Google": "C0", "OpenAI": "C2", "DeepSeek": "C4"}
    y = np.arange(len(rows))
    ax.barh(y, [r["decode_mfu"] for r in rows], color=[colors.get(r["provider"], "C7") for r in rows])
    for yi, r in zip(y, rows):
        ax.text(r["decode_mfu"] + 0.01, yi, f"{r['ratio']:.1f}× → {r['decode_mfu']:.2f}", va="center", fontsize=7)
    ax.axvline(SAID["decode_mfu_fraction"], color="k", ls="--", lw=1, label=f"the flashcard's {SAID['decode_mfu_fraction']:.2g}")
    ax.set_yticks(y, [f"{r['provider']}: {r['model']}" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("decode MFU ÷ prefill MFU implied = input price ÷ output price")
    ax.set_title("Output premium read as decode's utilisation")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


# --- 4. the context ceiling ---------------------------------------------------------------------------
def attention_vs_weights(model_list, context_max=1e8) -> Figure:
    """Log-log: attention FLOPs ÷ weight FLOPs per new token vs context, for each model; 1 marked."""
    ctx = np.geomspace(1e3, context_max, 300)
    fig = static_figure((7.2, 4.0))
    ax = fig.add_subplot()
    for i, m in enumerate(model_list):
        m = models.resolve(m)
        ax.plot(ctx, pricing.attention_flops_multiple(m, ctx), color=f"C{i}",
                label=f"{m.name}: equal at {fmt(pricing.context_ceiling(m))}")
    ax.axhline(1, color="k", lw=1, ls="--")
    ax.text(1.2e3, 1.15, "attention = weights", fontsize=8)
    for lo in (SAID["context_after_low"], SAID["context_after_high"]):
        ax.axvline(lo, color="C7", lw=0.8, ls=":")
    ax.text(SAID["context_after_high"] * 1.1, 2e-4,
            f"today's {fmt(SAID['context_after_low'])}-{fmt(SAID['context_after_high'])}", fontsize=7, color="C7")
    ax.axvline(SAID["agi_context_tokens"], color="C7", lw=0.8, ls=":")
    ax.text(SAID["agi_context_tokens"] / 1.1, 2e-4, fmt(SAID["agi_context_tokens"]), fontsize=7, color="C7",
            ha="right")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-4, 1e4)
    ax.xaxis.set_major_formatter(tick_label)
    ax.set_xlabel("context length (tokens)")
    ax.set_ylabel("attention FLOPs ÷ weight FLOPs per token")
    ax.set_title("When does attention compute matter?")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


# --- 5. drain times: the registry's devices against the lecture's guesses ------------------------------
def drain_times(rows=None) -> Figure:
    """Horizontal bars (log x): each device's drain time; the lecture's guesses as markers; 5 min and 1 h."""
    rows = rows if rows is not None else pricing.drain_table()
    guesses = {"HBM": SAID["drain_s"], "DDR": SAID["drain_ddr_s"], "flash": SAID["drain_flash_s"],
               "disk": SAID["drain_disk_s"]}
    fig = static_figure((7.2, 3.4))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    ax.barh(y, [r["drain_s"] for r in rows], color=[TIER_COLORS[r["kind"]] for r in rows], alpha=0.8,
            label="public device figures")
    for yi, r in zip(y, rows):
        ax.text(r["drain_s"] * 1.15, yi, fmt(r["drain_s"], "s"), va="center", fontsize=8)
        g = guesses[r["kind"]]
        lo, hi = (g, g) if np.isscalar(g) else g
        ax.plot([lo, hi], [yi, yi], color="k", marker="|", ms=14, lw=2,
                label="the lecture's guess" if yi == 0 else None)
    for t, name in ((300, "5 min"), (HOUR, "1 h")):
        ax.axvline(t, color="C3", ls="--", lw=1)
        ax.text(t * 1.1, len(rows) - 0.45, name, color="C3", fontsize=8)
    ax.set_yticks(y, [r["name"] for r in rows], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(1e-3, 1e6)
    ax.set_xlabel("drain time = capacity ÷ bandwidth (s)")
    ax.set_title("Which tier suits which hold time?")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


# --- explorers -----------------------------------------------------------------------------------------
#: models the tier explorer offers: the lecture's guess first, then registry models (bf16 KV)
TIER_MODELS = ("the lecture's guess", "DeepSeek-V3", "gpt-oss-120b", "Llama-3-8B", "Llama-3-70B")


def model_kv(name: str, context=SAID["price_step_context"]):
    """(active parameters, KV bytes per token) of a TIER_MODELS entry: the lecture's guess in fp8, others bf16."""
    if name == TIER_MODELS[0]:
        m = pricing.lecture_model()
        return m.active_params, m.kv_bytes_per_token("fp8")
    return models.get(name).active_params, roofline.kv_bytes_per_token_at(name, context, "bf16")


class TierPlot(LivePlot):
    """Cost per million tokens of each tier vs hold time (log-log); the hold time marked; the cheapest named."""

    XLIM = (1e-3, 3e6)          # s
    YLIM = (1e-8, 1e4)          # $ per million tokens
    params = dict(hold_s=300.0, reads=1, model=TIER_MODELS[0])

    def __init__(self, hold_s=300.0, reads=1, model=TIER_MODELS[0]):
        super().__init__()
        self.ax = self.figure.add_subplot()
        self.hold = np.geomspace(*self.XLIM, 160)
        self.lines = {}
        names = [pricing.REMAT] + storage.names()
        for name in names:
            kind = "remat" if name == pricing.REMAT else storage.get(name).kind
            label = "rematerialize (a forward pass per read)" if name == pricing.REMAT else name
            (self.lines[name],) = self.ax.plot([], [], color=TIER_COLORS[kind], label=label)
        p = prices.get("claude-opus-4.6")
        for t, key, ls in ((300, "cache_write_5m", ":"), (HOUR, "cache_write_1h", "--")):
            premium = getattr(p, key) - p.input
            self.ax.axhline(premium, color="C7", ls=ls, lw=1)
            self.ax.text(self.XLIM[1] / 1.5, premium * (1.4 if key.endswith("1h") else 0.45),
                         f"{p.model} {key[12:]} write premium ({fmt(premium, '$')}/M)", fontsize=7, color="C7",
                         ha="right", va="bottom" if key.endswith("1h") else "top")
        (self.best,) = self.ax.plot([], [], color="k", lw=5, alpha=0.18, label="cheapest")
        self.marker = self.ax.axvline(1.0, color="k", lw=1)
        (self.dot,) = self.ax.plot([], [], "o", color="k", ms=6)
        self.text = self.ax.text(0.98, 0.04, "", transform=self.ax.transAxes, ha="right", va="bottom", fontsize=8,
                                 bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        self.dynamic(*self.lines.values(), self.best, self.marker, self.dot, self.text)
        log_axes(self.ax, self.XLIM, self.YLIM)
        self.ax.set_xlabel("hold time (s)")
        self.ax.set_ylabel("cost at cost ($ per million tokens)")
        self.ax.set_title("Hold or recompute: the cheapest tier for a hold time")
        self.ax.legend(fontsize=7, loc="upper left")
        self.figure.subplots_adjust(left=0.11, right=0.97, bottom=0.13, top=0.91)
        self.update(hold_s, reads, model)

    def update(self, hold_s=300.0, reads=1, model=TIER_MODELS[0]):
        self.clear_message()
        active, kv = model_kv(model)
        curve = pricing.cheapest_tier(self.hold, reads, kv, active_params=active)   # every tier's cost too
        costs = curve.costs
        for name, line in self.lines.items():
            line.set_data(self.hold, np.asarray(costs[name]) * 1e6)
        self.best.set_data(self.hold, curve.cost_per_million)
        choice = pricing.cheapest_tier(hold_s, reads, kv, active_params=active)
        self.marker.set_xdata([hold_s, hold_s])
        self.dot.set_data([hold_s], [choice.cost_per_million])
        self.text.set_text(f"{model}: {fmt(kv, 'B')}/token, {fmt(active, 'params')} active\n"
                           f"hold {fmt(hold_s, 's')}, {reads} read(s): cheapest = {choice.name}\n"
                           f"at cost: {fmt(choice.cost_per_million, '$')} per million tokens")
        self.state = dict(hold_s=hold_s, reads=reads, kv_bytes=kv, active_params=active, cheapest=choice.name,
                          cost_per_million=choice.cost_per_million, costs={k: np.asarray(v) for k, v in costs.items()},
                          hold=self.hold)
        return self


class KvFromPricePlot(LivePlot):
    """The reverse problem, both ways: bytes per token implied by a price step's context (log-log line),
    against the registry models' KV bytes (horizontal lines)."""

    XLIM = (1e4, 1e7)           # tokens
    YLIM = (1e2, 1e6)           # bytes per token
    SHOWN = ("DeepSeek-V3", "Llama-3-70B", "gpt-oss-120b", "Llama-3-8B")
    #: the lecture's inputs: ~100B active, ratio ~300, Gemini's step at 200K tokens
    params = dict(active_params=SAID["frontier_active_params"], ratio=SAID["ratio"],
                  context=SAID["price_step_context"])

    def __init__(self, active_params=SAID["frontier_active_params"], ratio=SAID["ratio"],
                 context=SAID["price_step_context"]):
        super().__init__()
        self.ax = self.figure.add_subplot()
        self.ctx = np.geomspace(*self.XLIM, 120)
        (self.line,) = self.ax.plot([], [], color="C3", lw=2, label="bytes/token that put the crossover here")
        for name, color in zip(self.SHOWN, ("C0", "C1", "C2", "C4")):
            kv = models.get(name).kv_bytes_per_token("bf16")
            self.ax.axhline(kv, color=color, ls=":", lw=1)
            self.ax.text(self.XLIM[1] / 1.1, kv * 1.08, f"{name} (bf16, full layers)", fontsize=7, ha="right",
                         color=color)
        (self.dot,) = self.ax.plot([], [], "o", color="C3", ms=7)
        self.text = self.ax.text(0.02, 0.04, "", transform=self.ax.transAxes, fontsize=8, va="bottom",
                                 bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        self.dynamic(self.line, self.dot, self.text)
        log_axes(self.ax, self.XLIM, self.YLIM)
        self.ax.set_xlabel("context of the price step (tokens)")
        self.ax.set_ylabel("KV bytes per token")
        self.ax.set_title("KV bytes per token read off a price step")
        self.ax.legend(fontsize=8, loc="upper center")
        self.figure.subplots_adjust(left=0.11, right=0.97, bottom=0.13, top=0.91)
        self.update(active_params, ratio, context)

    def update(self, active_params=SAID["frontier_active_params"], ratio=SAID["ratio"],
               context=SAID["price_step_context"]):
        self.clear_message()
        b = roofline.implied_kv_bytes_per_token(active_params, self.ctx, ratio)
        here = roofline.implied_kv_bytes_per_token(active_params, context, ratio)
        head_dim, b_el = SAID["kv_sanity_head_dim"], SAID["kv_sanity_bytes_per_element"]   # the lecture's check
        self.line.set_data(self.ctx, b)
        self.dot.set_data([context], [here])
        self.text.set_text(f"{fmt(active_params, 'params')} active, ratio {ratio:g}, step at {fmt(context)} tokens\n"
                           f"→ {fmt(here, 'B')} per token "
                           f"(≈ {pricing.kv_layer_heads(here, head_dim, b_el):.1f} layer×KV-heads of d_head "
                           f"{head_dim} at {b_el:g} byte)")
        self.state = dict(implied_bytes=here, context=context, ratio=ratio, active_params=active_params,
                          curve=b)
        return self
