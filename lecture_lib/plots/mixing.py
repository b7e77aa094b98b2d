"""Plots for notebook 08 (nets and ciphers): avalanche per round / layer, sensitivity, RevNet error, memory.

Pure presentation: every number comes from `lecture_lib.mixing`. `AvalanchePlot` is the live plot of
the chapter's explorer: the curves are computed once per setting (cached in `mixing`), so a control
change only swaps line data.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import mixing
from .live import LivePlot, static_figure

#: the MLP settings the explorer offers (weight gain g; 1 is the usual initialisation)
GAINS = (0.5, 1.0, 2.0, 4.0, 10.0, 100.0)
#: bits in the cipher's block and the MLP's input (the experiment's width)
BITS = mixing.EXPERIMENT["width"]
ARCH_LABELS = {"plain": "plain", "residual": "residual", "residual+norm": "residual + LayerNorm"}


class AvalanchePlot(LivePlot):
    """Left: avalanche per round (cipher) and per layer (MLP); right: the MLP's continuous sensitivity.

    update(layers, gain, architecture): the MLP setting, and the depth at which the cursor reads both.
    """

    SENS_YLIM = (1e-10, 1e10)
    params = dict(layers=4, gain=1.0, architecture="plain")

    def __init__(self, layers=4, gain=1.0, architecture="plain"):
        super().__init__(figsize=(7.6, 3.9))
        depth = mixing.EXPERIMENT["depth"]
        self.depth = depth
        self.steps = np.arange(depth + 1)
        self.ax, self.ax_s = self.figure.subplots(1, 2, gridspec_kw=dict(width_ratios=(1.35, 1)))
        ax, axs = self.ax, self.ax_s
        self.cipher_y = mixing.cipher_avalanche()
        for g in GAINS:                      # every setting once (cached in mixing): a control change
            for arch in mixing.ARCHITECTURES:    # then only swaps line data
                mixing.mlp_avalanche(g, arch), mixing.mlp_sensitivity(g, arch)
        ax.plot(self.steps, self.cipher_y, color="C3", marker=".", ms=4, lw=1.5, label="Feistel cipher (rounds)")
        ax.axhline(0.5, color="k", ls=":", lw=1, label="random: 1/2")
        (self.mlp_line,) = ax.plot([], [], color="C0", marker=".", ms=4, lw=1.5, label="random MLP (layers)")
        self.cursor = ax.axvline(layers, color="C7", ls="--", lw=1)
        self.text = ax.text(0.97, 0.05, "", transform=ax.transAxes, ha="right", va="bottom", fontsize=8,
                            bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        ax.set_xlim(0, depth)
        ax.set_ylim(0, 0.56)
        ax.set_xlabel("rounds (cipher) or layers (MLP)")
        ax.set_ylabel("output bits flipped by one input bit")
        ax.set_title(f"Avalanche: flip one of {BITS} input bits", fontsize=10)
        ax.legend(fontsize=7, loc="center right")
        (self.sens_line,) = axs.plot([], [], color="C0", lw=1.5)
        self.sens_cursor = axs.axvline(layers, color="C7", ls="--", lw=1)
        axs.axhline(1.0, color="k", ls=":", lw=1)
        axs.set_yscale("log")
        axs.set_xlim(0, depth)
        axs.set_ylim(*self.SENS_YLIM)
        axs.set_yticks([1e-10, 1e-5, 1, 1e5, 1e10])
        axs.set_xlabel("layer")
        axs.set_ylabel("relative change out ÷ in")
        axs.set_title("The MLP's derivative (continuous)", fontsize=10)
        self.dynamic(self.mlp_line, self.cursor, self.text, self.sens_line, self.sens_cursor)
        self.figure.subplots_adjust(left=0.08, right=0.98, bottom=0.13, top=0.9, wspace=0.32)
        self.update(layers, gain, architecture)

    def update(self, layers=4, gain=1.0, architecture="plain"):
        self.clear_message()
        layers = int(layers)
        if not 0 <= layers <= self.depth:
            raise ValueError(f"layers must be between 0 and {self.depth}, got {layers}")
        if architecture not in mixing.ARCHITECTURES:
            raise ValueError(f"architecture must be one of {mixing.ARCHITECTURES}, got {architecture!r}")
        mlp_y = mixing.mlp_avalanche(float(gain), architecture)
        sens = mixing.mlp_sensitivity(float(gain), architecture)
        self.mlp_line.set_data(self.steps, mlp_y)
        self.sens_line.set_data(self.steps, np.clip(sens, *self.SENS_YLIM))
        self.cursor.set_xdata([layers, layers])
        self.sens_cursor.set_xdata([layers, layers])
        c, m, s = self.cipher_y[layers], mlp_y[layers], sens[layers]
        self.text.set_text(f"at {layers}: cipher {c:.1%}, MLP {m:.1%}\n"
                           f"MLP: {ARCH_LABELS[architecture]}, gain {gain:g}; derivative ×{s:.3g}")
        self.state = dict(layers=layers, gain=float(gain), architecture=architecture, cipher=float(c),
                          mlp=float(m), sensitivity=float(s), cipher_curve=self.cipher_y, mlp_curve=mlp_y,
                          sensitivity_curve=sens)
        return self


def avalanche_curves(gains=(1.0, 4.0, 100.0), architecture="plain") -> Figure:
    """The cipher's avalanche per round beside random MLPs' per layer, for several gains."""
    steps = np.arange(mixing.EXPERIMENT["depth"] + 1)
    fig = static_figure((6.8, 3.9))
    ax = fig.add_subplot()
    ax.plot(steps, mixing.cipher_avalanche(), color="C3", marker=".", label="Feistel cipher, per round")
    for i, g in enumerate(gains):
        ax.plot(steps, mixing.mlp_avalanche(g, architecture), color=f"C{i}", marker=".", ms=3,
                label=f"random MLP, gain {g:g}, per layer")
    ax.axhline(0.5, color="k", ls=":", lw=1)
    ax.set_xlim(0, steps[-1])
    ax.set_ylim(0, 0.56)
    ax.set_xlabel("rounds (cipher) or layers (MLP)")
    ax.set_ylabel(f"fraction of {BITS} output bits flipped")
    ax.set_title("Flip one input bit: a cipher mixes in a few rounds, a standard MLP never", fontsize=10)
    ax.legend(fontsize=8, loc="center right")
    fig.tight_layout()
    return fig


def sensitivity_curves(gain=4.0) -> Figure:
    """Relative output change per relative input change, per layer, for the three architectures (log y)."""
    steps = np.arange(mixing.EXPERIMENT["depth"] + 1)
    fig = static_figure((6.8, 3.9))
    ax = fig.add_subplot()
    for arch in mixing.ARCHITECTURES:
        ax.plot(steps, mixing.mlp_sensitivity(gain, arch), label=f"{ARCH_LABELS[arch]}, gain {gain:g}")
    ax.plot(steps, mixing.mlp_sensitivity(1.0, "plain"), color="k", ls="--", lw=1, label="plain, gain 1")
    ax.set_yscale("log")
    ax.set_xlim(0, steps[-1])
    ax.set_xlabel("layer")
    ax.set_ylabel("relative change out ÷ relative change in")
    ax.set_title("How far a small input change travels: residuals and LayerNorm tame it", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def roundtrip_errors(depths, errors: dict) -> Figure:
    """RevNet reconstruction error vs depth, one line per precision (log-log). errors: {label: array}."""
    fig = static_figure((6.4, 3.7))
    ax = fig.add_subplot()
    for label, e in errors.items():
        ax.plot(depths, e, marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("reversible layers (forward, then inverse)")
    ax.set_ylabel("max error ÷ max input")
    ax.set_title("RevNet: inverse(forward(x)) − x grows with depth", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def memory_bars(rows) -> Figure:
    """Bars of training memory (bytes, log x): rows = [(label, bytes), ...]."""
    fig = static_figure((6.8, 0.5 + 0.45 * len(rows)))
    ax = fig.add_subplot()
    labels, values = zip(*rows)
    y = np.arange(len(rows))[::-1]
    ax.barh(y, values, color=[f"C{i}" for i in range(len(rows))])
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("bytes")
    ax.set_title("Training memory for the tokens of one step", fontsize=10)
    fig.tight_layout()
    return fig


__all__ = ["AvalanchePlot", "GAINS", "ARCH_LABELS", "avalanche_curves", "sensitivity_curves",
           "roundtrip_errors", "memory_bars"]
