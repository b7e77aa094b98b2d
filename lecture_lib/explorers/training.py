"""Chapter 5 explorers: the cost split across pre-training, RL and inference, and how far past Chinchilla.

Controls map one-to-one onto the parameters of the plots in lecture_lib.plots.training.
"""
from __future__ import annotations

from .. import training
from ..plots import training as tplots
from .base import Explorer, choice_slider, dropdown, labelled, range_slider

RL_FLOPS = [2, 3, 4, 5, 6]
INEFFICIENCIES = [1, 1.5, 2, 3, 4, 5, 7, 10]
WORLD_TOK_S = [100e6, 250e6, 500e6, 1e9, 2e9]
MONTHS = [0.5, 1, 2, 3, 6, 12]
FAMILY = [1, 2, 3, 5, 10, 20]
KEEP = [0.25, 0.5, 0.75, 1.0]
ACTIVE = [20e9, 37e9, 50e9, 100e9, 200e9, 400e9, 1e12]


class CostSplitExplorer(Explorer):
    """RL FLOPs per token, the two inefficiencies and the split of compute -> the token ratios."""

    title = "Equal cost, unequal tokens: how many RL and inference tokens a pre-training run 'pays for'"

    plot_class = tplots.CostSplitPlot

    def make_controls(self):
        p = self.plot.params
        return {"rl_flops": choice_slider(labelled(RL_FLOPS), p["rl_flops"], "RL FLOPs/param/token"),
                "rl_inefficiency": choice_slider(labelled(INEFFICIENCIES), p["rl_inefficiency"], "RL inefficiency ×"),
                "inference_inefficiency": choice_slider(labelled(INEFFICIENCIES), p["inference_inefficiency"],
                                                        "inference inefficiency ×"),
                "split": dropdown(list(training.SPLITS), p["split"], "split of compute")}


class OvertrainingExplorer(Explorer):
    """Traffic, deployment, family size, derating and active parameters, each a range -> x past Chinchilla."""

    title = "How many inference tokens, and so how far past Chinchilla? Every input a range"

    plot_class = tplots.OvertrainingPlot

    def make_controls(self):
        p = self.plot.params
        return {"world_tok_s": range_slider(labelled(WORLD_TOK_S, "tok/s"), p["world_tok_s"], "world traffic"),
                "months": range_slider([(f"{m:g}", m) for m in MONTHS], p["months"], "months deployed"),
                "family": range_slider([(f"{n}", n) for n in FAMILY], p["family"], "models in the family"),
                "keep": range_slider([(f"{k:g}", k) for k in KEEP], p["keep"], "fraction kept (derating)"),
                "active": range_slider(labelled(ACTIVE, "params"), p["active"], "active parameters")}
