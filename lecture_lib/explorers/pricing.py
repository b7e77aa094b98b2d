"""Chapter 6 explorers: hold time and reuse → the cheapest memory tier and the cost it justifies; and the
KV bytes per token read off a price step (each input a slider).

Controls map one-to-one onto the parameters of the live plots in lecture_lib.plots.pricing.
"""
from __future__ import annotations

from ..plots import pricing as pplots
from ..units import DAY, HOUR
from .base import Explorer, choice_slider, dropdown, labelled

HOLDS_S = [0.001, 0.01, 0.1, 1, 10, 60, 300, 1200, HOUR, 6 * HOUR, DAY, 7 * DAY, 30 * DAY]
READS = [0, 1, 2, 3, 5, 10, 30, 100]
ACTIVE = [5e9, 20e9, 37e9, 50e9, 100e9, 200e9, 400e9, 1e12]
RATIOS = [150, 200, 250, 300, 400, 500, 600]
STEPS = [32_000, 64_000, 128_000, 200_000, 272_000, 500_000, 1_000_000, 2_000_000]


class TierExplorer(Explorer):
    """Hold time and reads → the cheapest of remat, HBM, DDR, flash and disk, and its cost per million tokens."""

    title = "Prompt caching: hold time and reuse → the cheapest memory tier and the price it justifies"

    plot_class = pplots.TierPlot

    def make_controls(self):
        p = self.plot.params
        return {"hold_s": choice_slider(labelled(HOLDS_S, "s"), p["hold_s"], "hold time"),
                "reads": choice_slider(labelled(READS), p["reads"], "reads (cache hits)"),
                "model": dropdown(pplots.TIER_MODELS, p["model"], "model (KV bytes, active params)")}


class KvFromPriceExplorer(Explorer):
    """Active parameters, hardware ratio and the step's context → the KV bytes per token the step implies."""

    title = "KV bytes per token from a price step: move each input and watch the answer"

    plot_class = pplots.KvFromPricePlot

    def make_controls(self):
        p = self.plot.params
        return {"active_params": choice_slider(labelled(ACTIVE, "params"), p["active_params"], "active parameters"),
                "ratio": choice_slider(labelled(RATIOS), p["ratio"], "hardware ratio (lecture units)"),
                "context": choice_slider(labelled(STEPS), p["context"], "price step at (tokens)")}
