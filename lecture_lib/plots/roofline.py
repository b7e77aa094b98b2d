"""Chapter 1 pictures: the lecture's two blackboard graphs, and the context slope that flips them.

Each picture is a small LivePlot subclass (update in place, fast PNG) and a pure function returning
its matplotlib Figure:

    latency_vs_batch(hw, model, ...)  -> Figure   Graph 1: step time vs batch (compute line, weight
                                                   fetch constant, KV line, memory, max highlighted)
    cost_vs_batch(hw, model, ...)     -> Figure   Graph 2: $ per million tokens vs batch (1/B weight
                                                   hyperbola, flat compute and KV floors, max)
    context_slopes(hw, model, ...)    -> Figure   time per extra sequence vs context: compute flat,
                                                   dense KV linear, sqrt-sparse KV; balance context

Every number comes from lecture_lib.roofline; this module only converts units for display
(seconds -> ms or µs, $/token -> $/million tokens) and places labels.
"""
from __future__ import annotations

import numpy as np

from .. import hardware, models, roofline
from ..prices import PER_MILLION
from ..units import MS, US, fmt
from .live import LivePlot, log_axes, positive, static_figure, sticky_log_limits

POINTS = 48          # samples per curve; plenty for straight lines and one bend on log axes
HEADROOM = 10 ** 0.7  # room above the data on log axes for the regime labels

COLORS = {"compute": "#1f77b4", "weights": "#ff7f0e", "weights_all": "#ff7f0e", "kv": "#2ca02c",
          "memory": "#d62728", "total": "black", "sparse": "#9467bd"}

DEFAULTS = dict(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                context=500, batch_range=(1, 100_000))


def _batch_grid(batch_range) -> np.ndarray:
    try:
        lo, hi = (float(v) for v in batch_range)
    except (TypeError, ValueError):
        raise ValueError(f"batch_range must be (low, high) in sequences, got {batch_range!r}") from None
    if not (0 < lo < hi and np.isfinite(hi)):
        raise ValueError(f"batch_range must satisfy 0 < low < high, got {batch_range!r}")
    return np.geomspace(lo, hi, POINTS)


def _tokens(n) -> str:
    """'1.68k tokens', '500 tokens'."""
    return f"{fmt(n)} tokens"


def _describe(chip, m, p) -> str:
    tag = ", announced" if chip.announced else ""
    chips = f"{chip.n_chips} chips" if chip.n_chips > 1 else "1 chip"
    return (f"{chip.name} ({chips}{tag}) · {m.name} · weights {p['weight_dtype']}, "
            f"KV {p['kv_dtype']} · context {_tokens(p['context'])}")


def _place(labels, regimes):
    """Set the regime labels from (text, x, horizontal alignment[, y in axes units]) tuples.

    Unused labels are emptied.
    """
    for label, (text, x, ha, *y) in zip(labels, list(regimes) + [("", 1.0, "center")] * len(labels)):
        label.set_text(text)
        label.set_position((x, y[0] if y else 0.97))
        label.set_horizontalalignment(ha)


def _split(lo, x_star, hi, left: str, right: str, log: bool = True):
    """Regime labels either side of a boundary x_star; a label without room moves below the other."""
    room = np.log10(hi / x_star) if log else (hi - x_star) / (hi - lo)
    right_label = ((right, x_star * 1.15, "left") if room > (1.4 if log else 0.3)
                   else (right, hi, "right", 0.86))
    room = np.log10(x_star / lo) if log else (x_star - lo) / (hi - lo)
    left_label = ((left, x_star / 1.15, "right") if room > (1.4 if log else 0.3)
                  else (left, lo, "left", 0.86))
    return [left_label, right_label]


class _VsBatch(LivePlot):
    """Shared machinery of the two graphs over batch size (x: batch, log; curves; B* marker)."""

    TITLE = ""
    YLABEL = ""
    LABELS: dict = {}
    LEGEND_ORDER = ("compute", "weights", "weights_all", "kv", "memory", "total")
    EXTRA: dict = {}

    def __init__(self, log: bool = True, **params):
        super().__init__()
        self.log = log
        self.params = dict(DEFAULTS, **self.EXTRA)
        ax = self.ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.115, right=0.745, bottom=0.13, top=0.87)
        title = ax.set_title(self.TITLE, fontsize=11, loc="left", y=1.06)   # fixed y: no auto-placement
        ax.set_xlabel("batch B (sequences decoded together)")
        ax.set_ylabel(self.YLABEL)
        if log:
            log_axes(ax)
        self.lines = {"total": ax.plot([], [], color="black", lw=6, alpha=0.25,
                                       solid_capstyle="butt", label=self.LABELS["total"])[0]}
        for name in ("compute", "weights", "kv", "memory"):
            style = "--" if name == "memory" else "-"
            self.lines[name] = ax.plot([], [], style, color=COLORS[name], lw=1.6,
                                       label=self.LABELS[name])[0]
        # the lecture's reading of an MoE's weight term (every expert read every step), for comparison
        self.lines["weights_all"] = ax.plot([], [], ":", color=COLORS["weights_all"], lw=1.4,
                                            label=self.LABELS["weights_all"])[0]
        handles = [self.lines[n] for n in self.LEGEND_ORDER]
        legend = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                           frameon=False, borderaxespad=0)
        self.chrome(title, legend)
        xaxis = ax.get_xaxis_transform()
        self.subtitle = ax.text(0, 1.015, "", transform=ax.transAxes, fontsize=8, color="#444")
        self.balance_marker = ax.axvline(1, color="#555", lw=1, ls=":")
        self.balance_label = ax.text(1, 0.02, "", transform=xaxis, rotation=90, fontsize=8,
                                     ha="right", va="bottom", color="#333")
        self.hbm_marker = ax.axvline(1, color="#a00", lw=1, ls="-.")
        self.hbm_label = ax.text(1, 0.02, "", transform=xaxis, rotation=90, fontsize=8,
                                 ha="left", va="bottom", color="#a00")
        self.regime_labels = [ax.text(1, 0.97, "", transform=xaxis, ha="center", va="top",
                                      fontsize=9, fontweight="bold", color="#333", clip_on=True)
                              for _ in range(2)]
        self.dynamic(*self.lines.values(), self.subtitle, self.balance_marker, self.balance_label,
                     self.hbm_marker, self.hbm_label, *self.regime_labels)
        self.update(**params)

    # subclasses: return {name: y values in display units} and the total from the library
    def curves(self, chip, m, r, p) -> dict:
        raise NotImplementedError

    def update(self, **params):
        """Recompute every curve for these parameters (any of hw, model, weight_dtype, kv_dtype,
        context, batch_range and, for cost, dollars_per_chip_hour) and update the artists in place.

        Raises ValueError / KeyError for invalid parameters (e.g. a chip without fp4).
        """
        unknown = set(params) - set(self.params)
        if unknown:
            raise TypeError(f"unknown parameter(s) {sorted(unknown)}; use {sorted(self.params)}")
        p = self.params = {**self.params, **params}
        self.clear_message()
        chip, m = hardware.resolve(p["hw"]), models.resolve(p["model"])
        batch = _batch_grid(p["batch_range"])
        wd, kd, ctx = p["weight_dtype"], p["kv_dtype"], p["context"]
        r = roofline.step_time(chip, m, batch, ctx, wd, kd)
        b_star = roofline.balance_batch(chip, m, wd, context=ctx, kv_dtype=kd)
        l_star = roofline.balance_context(chip, m, wd, kd)
        ys = self.curves(chip, m, r, p)
        for name, line in self.lines.items():
            line.set_data(batch, positive(ys[name]) if self.log else ys[name])
        self.lines["weights_all"].set_visible(m.is_moe)     # a dense model reads all its weights anyway

        ax = self.ax
        lo, hi = batch[0], batch[-1]
        ax.set_xlim(lo, hi)
        if self.log:
            self._ylim = sticky_log_limits(getattr(self, "_ylim", None),
                                           np.concatenate([ys[n] for n in ys]), max_decades=6)
            ax.set_ylim(self._ylim[0], self._ylim[1] * HEADROOM)
        else:
            ax.set_ylim(0, 1.15 * float(np.nanmax(ys["total"])))
        self.subtitle.set_text(_describe(chip, m, p))

        # balance batch and the regime on each side of it
        inside = bool(np.isfinite(b_star) and lo < b_star < hi)
        self.balance_marker.set_visible(inside)
        self.balance_label.set_visible(inside)
        if inside:
            self.balance_marker.set_xdata([b_star, b_star])
            self.balance_label.set_x(b_star)
            self.balance_label.set_text(f"balance B* ≈ {fmt(b_star)}")
            regimes = _split(lo, b_star, hi, "memory-bound ←", "→ compute-bound", self.log)
        else:
            bound = r.bound[0]
            text = f"{bound}-bound across this range"
            if not np.isfinite(b_star):
                text = f"memory-bound at every batch:\ncontext ≥ balance context {_tokens(l_star)}"
            regimes = [(text, np.sqrt(lo * hi) if self.log else (lo + hi) / 2, "center")]
        _place(self.regime_labels, regimes)

        # memory capacity: weights must fit, and KV caches beside them
        self.warning = ""
        weight_bytes = m.weight_bytes(wd)
        max_b = roofline.max_batch(chip, m, ctx, wd, kd) if ctx > 0 else None
        show_hbm = max_b is not None and lo <= max_b <= hi
        if weight_bytes > chip.hbm_capacity:
            self.warning = (f"{m.name}'s weights at {wd} ({fmt(weight_bytes, 'B')}) do not fit in "
                            f"{chip.name}'s HBM ({fmt(chip.hbm_capacity, 'B')}): no batch runs here; "
                            f"the curves are only the bound.")
        elif max_b is not None and max_b < hi:
            self.warning = (f"At {_tokens(ctx)} of context only {max_b:,} sequences' KV caches fit "
                            f"in HBM beside the weights (the dash-dot line); larger batches need more memory.")
        self.hbm_marker.set_visible(show_hbm)
        self.hbm_label.set_visible(show_hbm)
        if show_hbm:
            self.hbm_marker.set_xdata([max_b, max_b])
            self.hbm_label.set_x(max_b)
            self.hbm_label.set_text(" HBM full")

        self.state = dict(batch=batch, compute_s=r.compute, weights_s=r.weights, kv_s=r.kv,
                          memory_s=r.memory, total_s=r.total, bound=r.bound, balance_batch=b_star,
                          balance_context=l_star, max_batch=max_b,
                          regime=tuple(t for t, *_ in regimes), **{f"y_{n}": y for n, y in ys.items()})
        return self


class LatencyVsBatch(_VsBatch):
    """Graph 1: time of one decode step vs batch, in ms. total = max(compute, weights + KV)."""

    TITLE = "Latency of one decode step vs batch size"
    YLABEL = "time per step (ms)"
    LABELS = {"compute": "compute ∝ B", "weights": "weight fetch\n(experts touched)",
              "weights_all": "all weights\n(the lecture)",
              "kv": "KV fetch ∝ B·L_ctx", "memory": "memory = weights + KV",
              "total": "step = max(compute,\n             memory)"}

    def curves(self, chip, m, r, p) -> dict:
        every = roofline.step_time(chip, m, r.batch, p["context"], p["weight_dtype"], p["kv_dtype"],
                                   experts="all")
        return {"compute": r.compute / MS, "weights": r.weights / MS, "weights_all": every.weights / MS,
                "kv": r.kv / MS, "memory": r.memory / MS, "total": r.total / MS}


class CostVsBatch(_VsBatch):
    """Graph 2: dollars per million generated tokens vs batch at a rental price per chip-hour."""

    TITLE = "Cost per token vs batch size"
    YLABEL = "cost ($ per million tokens)"
    LABELS = {"compute": "compute (flat floor)", "weights": "weight fetch\n(experts touched)",
              "weights_all": "all weights ∝ 1/B\n(the lecture)", "kv": "KV fetch (flat)", "memory": "memory = weights + KV",
              "total": "cost = max(compute,\n             memory)"}
    EXTRA = {"dollars_per_chip_hour": 2.0}

    def curves(self, chip, m, r, p) -> dict:
        c = roofline.cost_parts(chip, m, r.batch, p["context"], p["weight_dtype"], p["kv_dtype"],
                                dollars_per_chip_hour=p["dollars_per_chip_hour"])
        every = roofline.cost_parts(chip, m, r.batch, p["context"], p["weight_dtype"], p["kv_dtype"],
                                    dollars_per_chip_hour=p["dollars_per_chip_hour"], experts="all")
        ys = {part: np.asarray(getattr(c, part)) * PER_MILLION      # $ per million tokens
              for part in ("compute", "weights", "kv", "memory", "total")}
        return {**ys, "weights_all": np.asarray(every.weights) * PER_MILLION}

    def describe_extra(self):
        return f" · ${self.params['dollars_per_chip_hour']:g}/chip-hour"

    def update(self, **params):
        super().update(**params)
        self.subtitle.set_text(self.subtitle.get_text() + self.describe_extra())
        return self


class ContextSlopes(LivePlot):
    """Time each extra sequence adds to a decode step, vs context: compute (flat) against KV reads.

    Where the dense-KV line crosses the compute line (the balance context) decode turns
    memory-bound at every batch size. The sqrt line is the lecture's toy of sparse attention:
    each step reads about sqrt(context) tokens of KV.
    """

    TITLE = "Per-sequence time of a decode step vs context"
    PARAMS = dict(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                  context_range=(100, 10_000_000))

    def __init__(self, **params):
        super().__init__()
        self.params = dict(self.PARAMS)
        ax = self.ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.115, right=0.745, bottom=0.13, top=0.87)
        title = ax.set_title(self.TITLE, fontsize=11, loc="left", y=1.06)   # fixed y: no auto-placement
        ax.set_xlabel("context length L_ctx (tokens)")
        ax.set_ylabel("time per sequence per step (µs)")
        log_axes(ax)
        self.lines = {
            "compute": ax.plot([], [], color=COLORS["compute"], lw=1.8, label="compute (const.)")[0],
            "dense": ax.plot([], [], color=COLORS["kv"], lw=1.8, label="KV read, dense\n∝ L_ctx")[0],
            "sparse": ax.plot([], [], "--", color=COLORS["sparse"], lw=1.8,
                              label="KV read, sqrt-sparse\n∝ √L_ctx")[0],
        }
        legend = ax.legend(handles=list(self.lines.values()), loc="upper left", bbox_to_anchor=(1.01, 1.0),
                           fontsize=8, frameon=False, borderaxespad=0)
        self.chrome(title, legend)
        xaxis = ax.get_xaxis_transform()
        self.subtitle = ax.text(0, 1.015, "", transform=ax.transAxes, fontsize=8, color="#444")
        self.balance_marker = ax.axvline(1, color="#555", lw=1, ls=":")
        self.balance_label = ax.text(1, 0.02, "", transform=xaxis, rotation=90, fontsize=8,
                                     ha="right", va="bottom")
        self.regime_labels = [ax.text(1, 0.97, "", transform=xaxis, ha="center", va="top",
                                      fontsize=9, fontweight="bold", color="#333", clip_on=True)
                              for _ in range(2)]
        self.dynamic(*self.lines.values(), self.subtitle, self.balance_marker, self.balance_label,
                     *self.regime_labels)
        self.update(**params)

    def update(self, **params):
        """Recompute for hw, model, weight_dtype, kv_dtype, context_range; raises on invalid input."""
        unknown = set(params) - set(self.params)
        if unknown:
            raise TypeError(f"unknown parameter(s) {sorted(unknown)}; use {sorted(self.params)}")
        p = self.params = {**self.params, **params}
        self.clear_message()
        self.warning = ""
        chip, m = hardware.resolve(p["hw"]), models.resolve(p["model"])
        ctx = _batch_grid(p["context_range"])
        wd, kd = p["weight_dtype"], p["kv_dtype"]
        one = roofline.step_time(chip, m, 1, 0, wd, kd)              # one sequence: compute per sequence
        dense = roofline.step_time(chip, m, 1, roofline.kv_tokens_read(ctx, "dense"), wd, kd)
        sparse = roofline.step_time(chip, m, 1, roofline.kv_tokens_read(ctx, "sqrt"), wd, kd)
        l_star = roofline.balance_context(chip, m, wd, kd)
        ys = {"compute": np.full_like(ctx, one.compute) / US, "dense": dense.kv / US,
              "sparse": sparse.kv / US}
        for name, line in self.lines.items():
            line.set_data(ctx, positive(ys[name]))
        ax = self.ax
        lo, hi = ctx[0], ctx[-1]
        ax.set_xlim(lo, hi)
        self._ylim = sticky_log_limits(getattr(self, "_ylim", None),
                                       np.concatenate(list(ys.values())), max_decades=6)
        ax.set_ylim(self._ylim[0], self._ylim[1] * HEADROOM)
        self.subtitle.set_text(f"{chip.name} · {m.name} · weights {wd}, KV {kd} "
                               f"({fmt(m.kv_bytes_per_token(kd), 'B/token')}, {m.attention})")
        inside = bool(lo < l_star < hi)
        self.balance_marker.set_visible(inside)
        self.balance_label.set_visible(inside)
        if inside:
            self.balance_marker.set_xdata([l_star, l_star])
            self.balance_label.set_x(l_star)
            self.balance_label.set_text(f"balance context ≈ {_tokens(l_star)}")
            regimes = _split(lo, l_star, hi, "compute-bound ←\nat large B", "→ memory-bound\nat every B")
        elif l_star >= hi:
            regimes = [("compute-bound at large B across this range", np.sqrt(lo * hi), "center")]
        else:
            regimes = [("memory-bound at every B across this range", np.sqrt(lo * hi), "center")]
        _place(self.regime_labels, regimes)
        self.state = dict(context=ctx, compute_s=one.compute, dense_kv_s=dense.kv,
                          sparse_kv_s=sparse.kv, balance_context=l_star,
                          regime=tuple(t for t, *_ in regimes), **{f"y_{n}": y for n, y in ys.items()})
        return self


# --- pure functions: parameters in, Figure out -----------------------------------------------------
def latency_vs_batch(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                     context=500, batch_range=(1, 100_000), log=True):
    """Graph 1 as a matplotlib Figure (times in ms, log-log unless log=False)."""
    return LatencyVsBatch(log=log, hw=hw, model=model, weight_dtype=weight_dtype, kv_dtype=kv_dtype,
                          context=context, batch_range=batch_range).figure


def cost_vs_batch(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                  context=500, batch_range=(1, 100_000), dollars_per_chip_hour=2.0, log=True):
    """Graph 2 as a matplotlib Figure ($ per million tokens, log-log unless log=False)."""
    return CostVsBatch(log=log, hw=hw, model=model, weight_dtype=weight_dtype, kv_dtype=kv_dtype,
                       context=context, batch_range=batch_range,
                       dollars_per_chip_hour=dollars_per_chip_hour).figure


def context_slopes(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                   context_range=(100, 10_000_000)):
    """Per-sequence compute vs KV time over context, dense and sqrt-sparse, as a Figure (µs)."""
    return ContextSlopes(hw=hw, model=model, weight_dtype=weight_dtype, kv_dtype=kv_dtype,
                         context_range=context_range).figure


__all__ = ["LatencyVsBatch", "CostVsBatch", "ContextSlopes", "latency_vs_batch", "cost_vs_batch",
           "context_slopes"]


def batching_penalty(hw="GB200-NVL72", model="DeepSeek-V3", weight_dtype="fp8", kv_dtype="bf16",
                     lecture_penalty: float | None = None, points: int = 60):
    """Cost per token at batch B ÷ cost per token at the balance batch, context 0, for both readings of
    the weight term ("touched": the experts the batch uses; "all": the lecture's), B from 1 to B*.

    Returns a matplotlib Figure; `figure.state` holds the curves (batch, touched, all, balance_batch).
    """
    chip, m = hardware.resolve(hw), models.resolve(model)
    b_star = roofline.balance_batch(chip, m, weight_dtype, kv_dtype=kv_dtype, experts="all")
    batch = np.geomspace(1, b_star, points)
    curves = {}
    for experts in roofline.EXPERTS:
        c = roofline.cost_per_token(chip, m, batch, 0, weight_dtype, kv_dtype, experts=experts)
        c_star = roofline.cost_per_token(chip, m, b_star, 0, weight_dtype, kv_dtype, experts=experts)
        curves[experts] = np.asarray(c) / c_star
    fig = static_figure((6.6, 3.9))
    ax = fig.add_subplot()
    log_axes(ax)
    ax.plot(batch, curves["all"], ":", color=COLORS["weights_all"], lw=1.8, label="all weights read (the lecture)")
    ax.plot(batch, curves["touched"], color=COLORS["weights"], lw=1.8, label="experts touched (true bound)")
    if lecture_penalty:
        ax.axhline(lecture_penalty, color="#555", lw=1, ls="--")
        ax.text(1.2, lecture_penalty * 1.15, f"the lecture's “~{lecture_penalty:,.0f}×”", fontsize=8, color="#333")
    ax.set_xlim(1, b_star)
    ax.set_ylim(0.8, curves["all"][0] * 3)
    ax.set_title(f"How much dearer a token is below the balance batch\n{chip.name} · {m.name} · weights "
                 f"{weight_dtype} · context 0", fontsize=10, loc="left")
    ax.set_xlabel("batch B (sequences)")
    ax.set_ylabel("cost per token ÷ cost at B* (×)")
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.14, top=0.85)
    fig.state = dict(batch=batch, touched=curves["touched"], all=curves["all"], balance_batch=b_star)
    return fig
