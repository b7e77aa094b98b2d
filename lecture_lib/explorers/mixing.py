"""Chapter 7 explorer: rounds / layers -> avalanche, a Feistel cipher against a random MLP.

Controls map one-to-one onto AvalanchePlot.update (lecture_lib.plots.mixing).
"""
from __future__ import annotations

from .. import mixing
from ..plots import mixing as mplots
from .base import Explorer, choice_slider, dropdown, labelled


class AvalancheExplorer(Explorer):
    """Depth (rounds or layers), the MLP's weight gain and its architecture -> avalanche and sensitivity."""

    title = "Avalanche: a cipher mixes in a few rounds; a network at the usual initialisation does not"

    plot_class = mplots.AvalanchePlot

    def make_controls(self):
        p = self.plot.params
        depth = mixing.EXPERIMENT["depth"]
        return {"layers": choice_slider(labelled(range(depth + 1)), p["layers"], "rounds / layers"),
                "gain": choice_slider(labelled(mplots.GAINS), p["gain"], "MLP weight gain"),
                "architecture": dropdown(mixing.ARCHITECTURES, p["architecture"], "MLP")}
