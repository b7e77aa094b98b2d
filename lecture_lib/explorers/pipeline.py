"""Chapter 3 explorers: the rack-boundary test, and pipeline schedules with their bubbles.

Controls map one-to-one onto BoundaryPlot.update and SchedulePlot.update (lecture_lib.plots.pipeline).
"""
from __future__ import annotations

from .. import pipeline
from ..lecture import SAID
from ..plots import pipeline as pplots
from .base import Explorer, choice_slider, dropdown, labelled


def _ratio_options():
    """Bandwidth ratios to offer: round values plus every registry system's, labelled with its name."""
    named = {}
    for name, rho in pipeline.registry_bandwidth_ratios().items():
        named.setdefault(rho, []).append(name)
    options = {float(v): f"{v:g}" for v in (2, 4, 8, 16, 32)}
    lecture = float(SAID["scaleout_slower"])
    options[lecture] = f"{lecture:g} (the lecture)"
    for rho, names in named.items():
        options[float(rho)] = f"{rho:g} ({', '.join(names)})"
    return [(label, value) for value, label in sorted(options.items())]


class BoundaryExplorer(Explorer):
    """k experts per token, MoE layers per stage, bandwidth ratio -> the scale-up/scale-out ratio and verdict."""

    title = "Is a rack boundary a bottleneck? (1/ρ) · k · L_stage · 2 against 1"

    plot_class = pplots.BoundaryPlot

    def make_controls(self):
        p = self.plot.params
        return {"experts_per_token": choice_slider(labelled(range(1, 17)), p["experts_per_token"],
                                                   "experts per token k"),
                "layers_per_stage": choice_slider(labelled(range(1, pplots.MAX_LAYERS + 1)), p["layers_per_stage"],
                                                  "MoE layers per stage"),
                "bandwidth_ratio": dropdown(_ratio_options(), p["bandwidth_ratio"], "scale-up ÷ scale-out ρ")}


class ScheduleExplorer(Explorer):
    """Schedule kind, stages P, micro-batches M -> the Gantt chart and its idle fraction."""

    title = "Pipeline schedules: where the bubble comes from"

    plot_class = pplots.SchedulePlot

    def make_controls(self):
        p = self.plot.params
        kinds = [(pipeline.SHORT_LABELS[k], k) for k in pipeline.KINDS]
        return {"kind": dropdown(kinds, p["kind"], "schedule"),
                "stages": choice_slider(labelled(range(1, pplots.MAX_STAGES + 1)), p["stages"], "stages P"),
                "microbatches": choice_slider(labelled(range(1, pplots.MAX_MICROBATCHES + 1)), p["microbatches"],
                                              "micro-batches M")}
