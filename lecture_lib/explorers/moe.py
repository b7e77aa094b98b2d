"""Chapter 2 explorer: an MoE layer over R racks, and which of compute, memory and network binds.

Controls map one-to-one onto RackPlot.update (lecture_lib.plots.moe).
"""
from __future__ import annotations

from .. import models
from ..plots import moe as mplots
from .base import Explorer, choice_slider, dropdown, labelled

RACKS = [1, 2, 3, 4, 6, 8]
RATIOS = [1, 2, 4, 8, 9, 16, 18, 32]
BATCHES = [1, 16, 64, 256, 1024, 2048, 4096, 8192, 16384, 32768, 65536]


class RackExplorer(Explorer):
    """System, model, racks R, experts per token k, dispatch dtype, scale-out ratio ρ and batch ->
    compute, memory and network time of a decode step, and which binds."""

    title = "MoE on racks: when does the all-to-all network bind?"

    plot_class = mplots.RackPlot

    def make_controls(self):
        p = self.plot.params
        moes = [n for n in models.names() if models.get(n).is_moe]
        return {"system": dropdown(list(mplots.SYSTEMS), p["system"], "scale-up domain"),
                "model": dropdown(moes, p["model"], "model"),
                "racks": choice_slider(labelled(RACKS), p["racks"], "racks R"),
                "experts_per_token": choice_slider(labelled(range(1, 17)), p["experts_per_token"], "experts per token k"),
                "dispatch_dtype": dropdown(["fp8", "bf16"], p["dispatch_dtype"], "dispatch dtype"),
                "scaleout_ratio": choice_slider(labelled(RATIOS), p["scaleout_ratio"], "scale-up ÷ scale-out ρ"),
                "batch": choice_slider(labelled(BATCHES), p["batch"], "batch B")}
