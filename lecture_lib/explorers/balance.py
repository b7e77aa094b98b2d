"""Chapter 1 (second half) explorers: the balance batch vs context, the train schedule, fast mode.

Controls map one-to-one onto the parameters of the plots in lecture_lib.plots.balance.
"""
from __future__ import annotations

from ..plots import balance as bplots
from .base import Explorer, choice_slider, dropdown, labelled, system_model_controls

PERIODS_MS = [5, 10, 15, 20, 25, 30, 40, 50]
RATES = [250, 500, 1_000, 1_500, 2_000, 2_500, 2_800, 3_000, 3_100, 3_200, 3_500, 4_000, 5_000]
SEATS = [16, 32, 64, 128, 256]
MULTIPLES = [1, 1.5, 2, 2.5, 3, 4, 6, 8, 10, 20, 50, 100]
CONTEXTS = [0, 100, 250, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 120_000, 150_000, 200_000]
TARGETS = [1.5, 2, 2.5, 3, 4, 5]


class BalanceExplorer(Explorer):
    """B* with the KV cache vs context for any system, model and number formats; the wall past which no batch balances."""

    title = "Balance batch vs context: where the KV reads make decode memory-bound at every batch"

    plot_class = bplots.BalancePlot

    def make_controls(self):
        return system_model_controls(self.plot.params)


class TrainExplorer(Explorer):
    """The train schedule: step period, arrival rate and seats per train -> latency distribution."""

    title = "The train that leaves every T: wait + ride, and what happens when trains fill up"

    plot_class = bplots.TrainPlot

    def make_controls(self):
        p = self.plot.params
        return {"period_ms": choice_slider(labelled(PERIODS_MS), p["period_ms"], "step period (ms)"),
                "arrival_rate": choice_slider(labelled(RATES), p["arrival_rate"], "arrivals per second"),
                "capacity": choice_slider(labelled(SEATS), p["capacity"], "seats per train (batch)")}


class FastModeExplorer(Explorer):
    """Fast mode: price multiple -> batch -> speed-up, saturating at the weight-read floor; and the
    context from which a target speed-up (the lecture's 2.5×) becomes possible.

    A context past a scenario's balance context is clamped below it (a warning says so)."""

    title = "Fast mode: how much speed a higher price per token buys"

    plot_class = bplots.FastModePlot

    def make_controls(self):
        p = self.plot.params
        return {"multiple": choice_slider(labelled(MULTIPLES), p["multiple"], "price multiple"),
                "scenario": dropdown(list(bplots.FAST_SCENARIOS), p["scenario"], "scenario"),
                "context": choice_slider(labelled(CONTEXTS), p["context"], "context (tokens)"),
                "target": choice_slider(labelled(TARGETS), p["target"], "target speed-up (×)")}
