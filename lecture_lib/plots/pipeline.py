"""Plots for notebook 04 (pipeline parallelism): the schedule Gantt chart, the rack-boundary test, capacity.

Pure presentation: every number comes from `lecture_lib.pipeline` (and `hardware`, `models`).

The schedule picture is meant for reuse (chapter 4 draws it too):

    from lecture_lib import pipeline
    from lecture_lib.plots import pipeline as pplots
    pplots.schedule_chart("1f1b", stages=4, microbatches=8)          # one Figure
    pplots.draw_schedule(ax, pipeline.schedule("gpipe", 4, 8))       # into an Axes you own
    pplots.schedules_figure(4, 8)                                    # all four kinds, stacked

Stages are on y (stage 0, the first layers, on top), time on x in units of one forward stage-pass.
Training: forward passes blue, backward orange, weight-gradient (zero bubble) green, the number in a
box is its micro-batch; idle time is the hatched grey behind the boxes; a red line marks the hard stop
(the optimizer step). Inference: one colour per micro-batch, "m.t" = micro-batch m, token t.
"""
from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from .. import hardware, models, pipeline
from ..lecture import SAID
from .live import LivePlot, static_figure

PASS_COLORS = {"F": "#4c72b0", "B": "#dd8452", "W": "#55a868"}
#: inference: every pass is a forward; shades of the forward colour tell the micro-batches apart
MICRO_COLORS = ("#4c72b0", "#6a8fc9", "#2f5185", "#8aa9d8", "#3d6aa8", "#5b7fb8", "#24426e", "#7d9cd0")
IDLE_COLOR = "#eeeeee"
BOX_HEIGHT = 0.8


def boxes(timeline, scale: float = 1.0):
    """(vertices, face colours, labels, centres) of a timeline's boxes: the data of the Gantt chart.

    scale multiplies every time (1 / makespan draws the step as 0..1).
    """
    verts, colors, labels, centres = [], [], [], []
    h = BOX_HEIGHT / 2
    for p in timeline:
        kind, micro, token = pipeline.parse(p.what)
        y, a, b = p.stage, p.start * scale, p.end * scale
        verts.append(((a, y - h), (a, y + h), (b, y + h), (b, y - h)))
        if timeline.kind == "inference":
            colors.append(MICRO_COLORS[micro % len(MICRO_COLORS)])
            labels.append(f"{micro}.{token}")
        else:
            colors.append(PASS_COLORS[kind])
            labels.append(str(micro))
        centres.append(((a + b) / 2, y))
    return verts, colors, labels, centres


def idle_rows(timeline, end=None, scale: float = 1.0):
    """Vertices of one row-long rectangle per stage, 0 to `end` (default the makespan): shown as idle."""
    end = (timeline.makespan if end is None else end) * scale
    h = BOX_HEIGHT / 2
    return [((0, s - h), (0, s + h), (end, s + h), (end, s - h)) for s in range(timeline.stages)]


def _label_size(timeline, width_px: float, xspan: float) -> float:
    """Font size that fits a box label into a box of one forward pass (0: too small to label)."""
    px = width_px * timeline.durations["F"] / max(xspan, 1e-9)
    chars = 4.0 if timeline.kind == "inference" else 2.0     # "m.t" with a gap between neighbouring boxes
    size = px / chars / 0.75
    return 0.0 if size < 5 else min(size, 9.0)


def _style_axes(ax, stages, title=None):
    ax.set_ylim(stages - 0.5, -0.5)                      # stage 0 (the first layers) on top
    ax.set_yticks(range(stages), [f"stage {s}" for s in range(stages)], fontsize=8)
    ax.set_xlabel("time (forward stage-passes)")
    if title:
        ax.set_title(title, fontsize=10)


def draw_schedule(ax, timeline, labels: bool = True, hard_stop: bool = True, title: str | None = None,
                  xmax: float | None = None):
    """Draw `timeline` (from `pipeline.schedule`) as a Gantt chart into `ax`; returns the box collection.

    labels: write the micro-batch number in each box when it fits; hard_stop: mark the optimizer step
    at the makespan of a training schedule; title: None for the schedule's label and measured bubble;
    xmax: the right end of the time axis (default just past the makespan; share one across stacked charts).
    """
    P = timeline.stages
    ax.add_collection(PolyCollection(idle_rows(timeline), facecolors=IDLE_COLOR, edgecolors="#bbbbbb",
                                     hatch="//", linewidths=0.3, zorder=1))
    verts, colors, texts, centres = boxes(timeline)
    coll = PolyCollection(verts, facecolors=colors, edgecolors="white", linewidths=0.6, zorder=2)
    ax.add_collection(coll)
    end = timeline.makespan
    xmax = end * 1.04 if xmax is None else xmax
    ax.set_xlim(0, xmax)
    fig = ax.figure
    width_px = ax.get_position().width * fig.get_figwidth() * fig.dpi
    size = _label_size(timeline, width_px, xmax) if labels else 0
    if size:
        for (x, y), t in zip(centres, texts):
            ax.text(x, y, t, ha="center", va="center", fontsize=size, color="white", zorder=3)
    training = timeline.kind != "inference"
    if training and hard_stop:
        ax.axvline(end, color="#a00", lw=1.5, zorder=4)
        ax.annotate("hard stop: optimizer step", (end, (P - 1) / 2), xytext=(2, 0), textcoords="offset points",
                    color="#a00", fontsize=7, va="center", ha="left", rotation=90, zorder=4, annotation_clip=False)
    if title is None:
        if training:
            idle = pipeline.idle_fraction(timeline)
            title = f"{pipeline.LABELS[timeline.kind]}; idle {idle:.0%}"
        else:
            idle = pipeline.idle_fraction(timeline, timeline.steady_window)
            title = f"{pipeline.LABELS[timeline.kind]}; steady-state idle {idle:.0%}"
    _style_axes(ax, P, title)
    return coll


def schedule_chart(kind: str, stages: int, microbatches: int, figsize=(7.6, None), **schedule_kw) -> Figure:
    """One schedule's Gantt chart as a Figure (`pipeline.schedule(kind, stages, microbatches, ...)`)."""
    timeline = pipeline.schedule(kind, stages, microbatches, **schedule_kw)
    fig = static_figure((figsize[0], figsize[1] or 1.2 + 0.32 * stages))
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.11, right=0.9, bottom=0.9 / fig.get_figheight(), top=1 - 0.4 / fig.get_figheight())
    draw_schedule(ax, timeline)
    return fig


def schedules_figure(stages: int = 4, microbatches: int = 8, kinds=pipeline.KINDS, **schedule_kw) -> Figure:
    """The schedules of `kinds` stacked on one shared time axis (stages on y, time on x)."""
    timelines = [pipeline.schedule(k, stages, microbatches, **schedule_kw) for k in kinds]
    row_h = 0.55 + 0.3 * stages
    fig = static_figure((7.8, 0.5 + row_h * len(kinds)))
    axes = fig.subplots(len(kinds), 1, sharex=True)
    axes = np.atleast_1d(axes)
    fig.subplots_adjust(left=0.1, right=0.88, bottom=0.45 / fig.get_figheight(), top=1 - 0.3 / fig.get_figheight(),
                        hspace=0.7)
    xmax = max(t.makespan for t in timelines)
    for ax, tl in zip(axes, timelines):
        draw_schedule(ax, tl, xmax=xmax * 1.04)
        ax.tick_params(labelbottom=True, labelsize=8)       # every panel keeps its time ticks (sharex hides them)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    return fig


# --- the explorer's live Gantt chart ---------------------------------------------------------------
MAX_STAGES = 8
MAX_MICROBATCHES = 32
#: the explorer numbers the boxes only while there are at most this many (text is the costly part of a render)
MAX_LABELS = 32


class SchedulePlot(LivePlot):
    """Live Gantt chart: update(kind, stages, microbatches) redraws the boxes in place.

    Fixed y limits (MAX_STAGES rows); the x limit snaps to a few steps so most moves only swap data.
    state: kind, stages, microbatches, makespan, measured idle fraction, the formula's value.
    """

    params = dict(kind="gpipe", stages=4, microbatches=8)

    def __init__(self, kind="gpipe", stages=4, microbatches=8):
        super().__init__(figsize=(7.6, 3.9))
        self.ax = ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.1, right=0.8, bottom=0.13, top=0.86)
        self.idle = PolyCollection([], facecolors=IDLE_COLOR, edgecolors="#bbbbbb", linewidths=0.3, zorder=1)
        self.coll = PolyCollection([], edgecolors="white", linewidths=0.6, zorder=2)
        ax.add_collection(self.idle)
        ax.add_collection(self.coll)
        self.stop = ax.axvline(0, color="#a00", lw=1.5, zorder=4)
        self.stop_text = ax.text(0, 0, "hard stop: optimizer step", color="#a00", fontsize=7, va="center",
                                 ha="left", rotation=90, zorder=4)
        # above the axes (inside it covered the lower rows and their labels)
        self.info = ax.text(0.0, 1.02, "", transform=ax.transAxes, ha="left", va="bottom", fontsize=8, zorder=5)
        self.texts = [ax.text(0, 0, "", ha="center", va="center", fontsize=7, color="white", zorder=3,
                              visible=False) for _ in range(MAX_LABELS)]
        _style_axes(ax, MAX_STAGES)
        # P stages fill the fixed MAX_STAGES rows (no empty rows), so the stage names are drawn, not ticks
        ax.set_yticks([])
        self.stage_labels = [ax.text(-0.01, 0, f"stage {s}", transform=ax.get_yaxis_transform(), ha="right",
                                     va="center", fontsize=8, visible=False) for s in range(MAX_STAGES)]
        ax.set_xlim(0, 1.06)                # time as a fraction of the step: fixed, so renders only blit
        ax.set_xlabel("time, as a fraction of the step (1 = the last pass ends)")
        handles = [ax.bar(0, 0, color=c, label=l) for c, l in
                   ((PASS_COLORS["F"], "forward"), (PASS_COLORS["B"], "backward\n(B: input grad)"),
                    (PASS_COLORS["W"], "weight grad\n(W, zero bubble)"), (IDLE_COLOR, "idle"))]
        self.legend = ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        self.chrome(self.legend)
        self.dynamic(self.idle, self.coll, self.stop, self.stop_text, self.info, *self.texts, *self.stage_labels)
        self.update(kind, stages, microbatches)

    def update(self, kind="gpipe", stages=4, microbatches=8):
        self.clear_message()
        stages, microbatches = int(stages), int(microbatches)
        if not 1 <= stages <= MAX_STAGES:
            raise ValueError(f"stages must be between 1 and {MAX_STAGES}, got {stages}")
        if not 1 <= microbatches <= MAX_MICROBATCHES:
            raise ValueError(f"microbatches must be between 1 and {MAX_MICROBATCHES}, got {microbatches}")
        tl = pipeline.schedule(kind, stages, microbatches)
        end = tl.makespan
        verts, colors, labels, centres = boxes(tl, 1 / end)
        row = MAX_STAGES / stages                       # stage s is drawn in rows s·row … (s+1)·row of the axes

        def fill(y):
            return (y + 0.5) * row - 0.5

        verts = [[(x, fill(y)) for x, y in v] for v in verts]
        centres = [(x, fill(y)) for x, y in centres]
        self.coll.set_verts(verts)
        self.coll.set_facecolor(colors)
        self.idle.set_verts([[(x, fill(y)) for x, y in v] for v in idle_rows(tl, scale=1 / end)])
        for s, t in enumerate(self.stage_labels):
            t.set_visible(s < stages)
            t.set_y(fill(s))
        training = kind != "inference"
        self.stop.set_visible(training)
        self.stop_text.set_visible(training)
        self.stop.set_xdata([1, 1])
        self.stop_text.set_position((1, fill((stages - 1) / 2)))
        width_px = self.ax.get_position().width * self.figure.get_figwidth() * self.figure.dpi
        size = _label_size(tl, width_px, 1.06 * end) if len(labels) <= MAX_LABELS else 0
        for i, t in enumerate(self.texts):
            if size and i < len(labels):
                t.set_text(labels[i])
                t.set_position(centres[i])
                t.set_fontsize(size)
                t.set_visible(True)
            else:
                t.set_visible(False)
        if training:
            measured = pipeline.idle_fraction(tl)
            if kind == "zero-bubble":
                formula = pipeline.zero_bubble_fraction(stages, microbatches) if microbatches >= stages else None
                name = "ZB-H1 (P−1)(t_F+t_B−t_W) / ..."
            else:
                formula, name = pipeline.bubble_fraction(stages, microbatches), "(P−1)/(M+P−1)"
        else:
            measured = pipeline.idle_fraction(tl, tl.steady_window)
            formula, name = pipeline.inference_idle_fraction(stages, microbatches), "max(0, 1 − M/P)"
        formula_text = f"{formula:.1%}" if formula is not None else "n/a (M < P)"
        where = "idle (whole step)" if training else "idle (steady state)"
        self.info.set_text(f"{pipeline.LABELS[kind]}; step = {end:g} forward stage-passes\n"
                           f"P = {stages}, M = {microbatches}: {where} {measured:.1%}; formula {name} = {formula_text}")
        self.state = dict(kind=kind, stages=stages, microbatches=microbatches, makespan=end, idle=measured,
                          formula=formula, passes=len(tl), timeline=tl)
        return self


# --- the rack-boundary test ----------------------------------------------------------------------
BOUNDARY_YLIM = (0.02, 200.0)
MAX_LAYERS = 16


class BoundaryPlot(LivePlot):
    """t_scale-up / t_scale-out against layers per stage for k experts per token and bandwidth ratio ρ.

    update(experts_per_token, layers_per_stage, bandwidth_ratio). Below 1 the boundary is the bottleneck.
    """

    #: the lecture's case: k ≈ 8, one MoE layer per rack, scale-out ~8× slower than scale-up
    params = dict(experts_per_token=SAID["typical_k"], layers_per_stage=SAID["one_rack_per_layer"],
                  bandwidth_ratio=float(SAID["scaleout_slower"]))

    def __init__(self, experts_per_token=SAID["typical_k"], layers_per_stage=SAID["one_rack_per_layer"],
                 bandwidth_ratio=float(SAID["scaleout_slower"])):
        super().__init__(figsize=(7.2, 3.9))
        self.ax = ax = self.figure.add_subplot()
        self.figure.subplots_adjust(left=0.1, right=0.97, bottom=0.13, top=0.9)
        self.layers = np.arange(1, MAX_LAYERS + 1)
        ax.axhspan(BOUNDARY_YLIM[0], 1, color="#f4d6d6", zorder=0)
        ax.axhline(1, color="k", lw=1, ls=":")
        ax.text(MAX_LAYERS - 0.2, 0.9, "ratio < 1: the rack boundary is the bottleneck", ha="right", va="top",
                fontsize=8, color="#a00")
        (self.line,) = ax.plot([], [], color="C0", marker=".", lw=1.5)
        (self.point,) = ax.plot([], [], "o", color="C3", ms=8, zorder=4)
        self.min_line = ax.axvline(1, color="C2", ls="--", lw=1)
        self.text = ax.text(0.02, 0.97, "", transform=ax.transAxes, ha="left", va="top", fontsize=9,
                            bbox=dict(facecolor="white", edgecolor="#999", alpha=0.9))
        ax.set_yscale("log")
        ax.set_xlim(0.5, MAX_LAYERS + 0.5)
        ax.set_ylim(*BOUNDARY_YLIM)
        ax.set_xlabel("MoE layers per stage (per rack), L_stage")
        ax.set_ylabel("t_scale-up / t_scale-out")
        ax.set_title("Is the rack boundary a bottleneck?  ratio = (1/ρ) · k · L_stage · 2", fontsize=10)
        self.dynamic(self.line, self.point, self.min_line, self.text)
        self.update(experts_per_token, layers_per_stage, bandwidth_ratio)

    def update(self, experts_per_token=SAID["typical_k"], layers_per_stage=SAID["one_rack_per_layer"],
               bandwidth_ratio=float(SAID["scaleout_slower"])):
        self.clear_message()
        curve = pipeline.boundary_ratio_k(experts_per_token, self.layers, bandwidth_ratio)
        here = pipeline.boundary_ratio_k(experts_per_token, layers_per_stage, bandwidth_ratio)
        need = pipeline.min_layers_per_stage_k(experts_per_token, bandwidth_ratio)
        self.line.set_data(self.layers, np.clip(curve, *BOUNDARY_YLIM))
        self.point.set_data([layers_per_stage], [np.clip(here, *BOUNDARY_YLIM)])
        self.min_line.set_xdata([need, need])
        ok = here >= 1
        verdict = "fine: in-rack expert traffic dominates" if ok else "bottleneck: the boundary crossing dominates"
        self.text.set_text(f"k = {experts_per_token:g}, L_stage = {layers_per_stage:g}, ρ = {bandwidth_ratio:g}\n"
                           f"ratio = {here:.3g}: {verdict}\n"
                           f"needs L_stage ≥ ρ/(2k) = {need:.3g} (dashed)")
        self.text.get_bbox_patch().set_edgecolor("C2" if ok else "#a00")
        self.state = dict(experts_per_token=experts_per_token, layers_per_stage=layers_per_stage,
                          bandwidth_ratio=bandwidth_ratio, ratio=float(here), ok=bool(ok), min_layers=float(need),
                          curve=curve)
        return self


def boundary_by_system(model="Kimi-K2", systems=None) -> Figure:
    """Minimum MoE layers per stage, ρ/(2k), for `model`'s k on each registry system with both bandwidths."""
    ratios = pipeline.registry_bandwidth_ratios() if systems is None else \
        {s: pipeline.bandwidth_ratio(s) for s in systems}
    m = models.resolve(model)
    names = list(ratios)
    need = [pipeline.min_layers_per_stage(m, ratios[n]) for n in names]
    fig = static_figure((6.8, 0.9 + 0.42 * len(names)))
    ax = fig.add_subplot()
    y = np.arange(len(names))[::-1]
    ax.barh(y, need, color=["C2" if v <= 1 else "C1" for v in need])
    for yi, v, n in zip(y, need, names):
        ax.text(v, yi, f"  ρ = {ratios[n]:.0f}: ≥ {v:.2g} layers", va="center", fontsize=8)
    ax.axvline(1, color="k", ls=":", lw=1)
    ax.set_yticks(y, names, fontsize=8)
    ax.set_xlim(0, max(need) * 1.8)
    ax.set_xlabel(f"minimum MoE layers per stage for k = {m.experts_per_token} ({m.name})")
    ax.set_title("One rack per layer works where the bar stays left of the dotted line", fontsize=10)
    fig.tight_layout()
    return fig


def capacity_bars(model="Kimi-K2", systems=("HGX-H100", "HGX-B200", "GB200-NVL72", "GB300-NVL72"),
                  weight_dtype="fp8") -> Figure:
    """HBM of one scale-up domain beside the weights of `model` (bytes, TB on a linear axis)."""
    m = models.resolve(model)
    caps = [pipeline.capacity(s, m, 1, weight_dtype) for s in systems]
    fig = static_figure((6.8, 0.9 + 0.45 * len(systems)))
    ax = fig.add_subplot()
    y = np.arange(len(systems))[::-1]
    ax.barh(y, [c.rack_hbm / 1e12 for c in caps], color="#bbbbbb", label="HBM in the scale-up domain")
    ax.barh(y, [c.weights_per_rack / 1e12 for c in caps], color="C0", height=0.5,
            label=f"{m.name} weights in {weight_dtype}")
    for yi, c in zip(y, caps):
        ax.text(max(c.rack_hbm, c.weights_per_rack) / 1e12, yi, f"  weights {c.weight_fraction:.0%}", va="center",
                fontsize=8)
    ax.set_yticks(y, [hardware.resolve(s).name for s in systems], fontsize=8)
    ax.set_xlim(0, max(c.rack_hbm for c in caps) / 1e12 * 1.25)
    ax.set_xlabel("TB (10¹² bytes)")
    ax.set_title(f"A {m.total_params / 1e12:.2g}T-parameter model against one scale-up domain", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


__all__ = ["PASS_COLORS", "MICRO_COLORS", "boxes", "idle_rows", "draw_schedule", "schedule_chart",
           "schedules_figure", "SchedulePlot", "BoundaryPlot", "boundary_by_system", "capacity_bars",
           "MAX_STAGES", "MAX_MICROBATCHES", "MAX_LAYERS"]
