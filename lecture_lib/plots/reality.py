"""Notebook 09's pictures: measurements against their bounds, and this machine's own roofline.

    efficiency_by_workload(cases)  -> Figure   measured ÷ bound per row, grouped by kind of workload,
                                               coloured by the term that binds
    ladder(steps)                  -> Figure   each row's efficiency as the bound gains the terms it left out
    machine_roofline(measured)     -> Figure   achieved FLOP/s against intensity on the measured roofline,
                                               with the ridge point (chapter 1's log-log style)

Pure functions: parameters in, matplotlib Figure out. Every number comes from lecture_lib.reality or
lecture_lib.machine; this module only places points and labels.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..units import fmt
from .live import log_axes, static_figure
from .roofline import COLORS

BINDING_COLORS = {"compute": COLORS["compute"], "memory": COLORS["memory"], "network": "#9467bd"}


def efficiency_by_workload(cases, title: str = "Published measurements ÷ the library's bound") -> Figure:
    """One dot per measurement: its efficiency (measured ÷ bound, 0 to 1) on x, its kind of workload on y,
    coloured by the term that binds the bound. A dot right of 1 would beat physics (none may)."""
    fig = static_figure((8.2, 4.2))
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.33, right=0.97, top=0.88, bottom=0.13)
    groups = sorted({c.workload for c in cases})
    rows = {g: i for i, g in enumerate(groups)}
    seen = set()
    for c in cases:
        jitter = (hash(c.measurement.key) % 7 - 3) * 0.06
        label = c.binding if c.binding not in seen else None
        seen.add(c.binding)
        ax.scatter(c.efficiency, rows[c.workload] + jitter, s=36, color=BINDING_COLORS[c.binding],
                   edgecolor="black", linewidth=0.4, label=label, zorder=3)
    ax.axvline(1.0, color="black", lw=1.2)
    ax.text(0.99, len(groups) - 0.75, "the bound", ha="right", va="bottom", fontsize=8)
    ax.set_yticks(range(len(groups)), groups, fontsize=8)
    ax.set_ylim(-0.6, len(groups) - 0.4)
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("efficiency: measured ÷ bound (fraction of what physics allows)")
    ax.set_title(title, fontsize=11, loc="left")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(title="binding term", fontsize=8, title_fontsize=8, loc="lower right", frameon=False)
    return fig


def ladder(steps, title: str = "Closing the gap: the bound with what it left out") -> Figure:
    """Each row's efficiency (y, 0 to 1) after each addition (x: the steps of reality.ladder()), a thin
    line per row and the median in black."""
    fig = static_figure((8.6, 4.4))
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.3)
    names = [name for name, _ in steps]
    eff = np.array([[c.efficiency for c in cases] for _, cases in steps])     # steps × rows
    x = np.arange(len(names))
    for j in range(eff.shape[1]):
        ax.plot(x, eff[:, j], color="#999", lw=0.8, marker="o", ms=2.5)
    ax.plot(x, np.median(eff, axis=1), color="black", lw=2.5, marker="o", label="median")
    ax.axhline(1.0, color="black", lw=1)
    ax.set_xticks(x, names, rotation=25, ha="right", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("efficiency: measured ÷ bound")
    ax.set_title(title, fontsize=11, loc="left")
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    return fig


def machine_roofline(measured, title: str | None = None) -> Figure:
    """Achieved FLOP/s (y, log) against arithmetic intensity (x, FLOP/byte, log) for a machine.Roofline:
    the measured points, the roofline min(peak, I·BW) drawn from the two measured ceilings, the ridge."""
    fig = static_figure((7.6, 4.6))
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.12, right=0.97, top=0.86, bottom=0.13)
    log_axes(ax)
    lo, hi = measured.intensity.min() / 4, max(measured.intensity.max(), measured.ridge) * 4
    grid = np.geomspace(lo, hi, 64)
    ax.plot(grid, measured.ceiling(grid), color="black", lw=6, alpha=0.25, solid_capstyle="butt",
            label="roofline: min(peak, I × bandwidth)")
    ax.plot(grid, grid * measured.bandwidth, "--", color=COLORS["memory"], lw=1.2,
            label=f"memory: copy at {fmt(measured.bandwidth, 'B/s')}")
    ax.axhline(measured.peak_flops, color=COLORS["compute"], lw=1.2, ls="--",
               label=f"compute: best matmul {fmt(measured.peak_flops, 'FLOP/s')}")
    ax.plot(measured.intensity, measured.flops, "o", color="black", ms=5, label=f"matmuls ({measured.dtype})")
    ax.axvline(measured.ridge, color="#555", lw=1, ls=":")
    xaxis = ax.get_xaxis_transform()
    ax.text(measured.ridge, 0.03, f" ridge {measured.ridge:.3g} FLOP/byte", transform=xaxis, rotation=90,
            fontsize=8, ha="right", va="bottom", color="#333")
    ax.text(measured.ridge / 1.3, 0.97, "memory-bound", transform=xaxis, ha="right", va="top", fontsize=9,
            fontweight="bold", color="#333")
    ax.text(measured.ridge * 1.3, 0.97, "compute-bound", transform=xaxis, ha="left", va="top", fontsize=9,
            fontweight="bold", color="#333")
    ax.set_xlim(lo, hi)
    ymin = min(measured.flops.min(), measured.ceiling(lo)) / 3
    ax.set_ylim(ymin, measured.peak_flops * 5)
    ax.set_xlabel("arithmetic intensity (FLOP per byte moved)")
    ax.set_ylabel("achieved FLOP/s")
    threads = f", {measured.threads} BLAS threads" if measured.threads else ""
    ax.set_title(title or f"This machine's roofline: {measured.device}{threads}", fontsize=11, loc="left")
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    return fig


UNITS = {"output_tokens_per_s": "tok/s", "input_tokens_per_s": "tok/s", "time_per_output_token_s": "s",
         "request_latency_s": "s", "mfu": "%"}


def _value(x, quantity) -> str:
    return f"{x:.0%}" if quantity == "mfu" else fmt(x, UNITS[quantity])


def table(cases) -> str:
    """A Markdown table: each measurement, its bound, the efficiency and the binding term (cells from the
    library, formatted with units.fmt)."""
    lines = ["| row | system | model | measured | bound | efficiency | binds | batch used | source |",
             "|---|---|---|---:|---:|---:|---|---|---|"]
    for c in cases:
        r = c.measurement
        batch = "–" if c.batch is None else f"{fmt(c.batch)} ({c.batch_note})"
        lines.append(f"| {r.key} | {r.chips} × {r.chip} | {r.model} ({r.weight_dtype}) | "
                     f"{_value(c.measured, r.quantity)} | {_value(c.bound, r.quantity)} | {c.efficiency:.0%} | "
                     f"{c.binding} | {batch} | [{r.source.quality}]({r.source.url}) {r.date} |")
    return "\n".join(lines)


def ladder_table(steps) -> str:
    """A Markdown table: rows × steps of reality.ladder(), each cell the efficiency after that step."""
    names = [n for n, _ in steps]
    lines = ["| row | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for j, c in enumerate(steps[0][1]):
        cells = " | ".join(f"{cases[j].efficiency:.0%}" for _, cases in steps)
        lines.append(f"| {c.measurement.key} | {cells} |")
    medians = " | ".join(f"**{np.median([c.efficiency for c in cases]):.0%}**" for _, cases in steps)
    lines.append(f"| **median** | {medians} |")
    return "\n".join(lines)


__all__ = ["efficiency_by_workload", "ladder", "machine_roofline", "table", "ladder_table"]
