"""Chapter 4 explorer: weights and KV per GPU against pipeline depth, with the HBM of one GPU.

Controls map one-to-one onto MemoryBarsPlot.update (lecture_lib.plots.memory).
"""
from __future__ import annotations

from .. import hardware, models
from ..plots import memory as mplots
from .base import DTYPES, Explorer, choice_slider, dropdown, labelled

CONTEXTS = [1_000, 4_000, 8_000, 16_000, 32_000, 64_000, 100_000, 128_000, 200_000, 500_000, 1_000_000,
            2_000_000, 10_000_000]
MICRO_BATCHES = [1, 8, 32, 64, 128, 256, 512, 1_000, 2_000, 2_400, 4_000, 8_000, 16_000]
EXPERT_PARALLEL = [1, 4, 8, 16, 32, 64, 72, 128, 144, 256, 320]


def model_options() -> list:
    """The chapter's ~2 KB/token model (the plot's default) first, then every registry model by name."""
    return [("the lecture's ~2 KB/token model", mplots.LECTURE_MODEL)] + [(n, n) for n in models.names()]


class MemoryExplorer(Explorer):
    """Model, chip, E, micro-batch b and context -> stacked weights + KV per GPU at P = 1 ... 16."""

    title = "Memory per GPU against pipeline depth: why pipelining does not shrink the KV cache"

    plot_class = mplots.MemoryBarsPlot

    def make_controls(self):
        p = self.plot.params
        return {"model": dropdown(model_options(), p["model"], "model"),
                "hw": dropdown(hardware.names("chips"), p["hw"], "chip (HBM line)"),
                "expert_parallel": choice_slider(labelled(EXPERT_PARALLEL), p["expert_parallel"], "GPUs per stage E"),
                "micro_batch": choice_slider(labelled(MICRO_BATCHES), p["micro_batch"], "micro-batch b"),
                "context": choice_slider(labelled(CONTEXTS, "tok"), p["context"], "context"),
                "weight_dtype": dropdown(DTYPES, p["weight_dtype"], "weights"),
                "kv_dtype": dropdown(DTYPES, p["kv_dtype"], "KV cache")}
