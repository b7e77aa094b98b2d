"""Markdown tables rendered from the registries (presentation only: every cell is a registry figure
or a library function of one, formatted with units.fmt).

    from IPython.display import Markdown
    Markdown(tables.hardware())      # chips and systems, with status and sources
    Markdown(tables.models())        # models with parameters and KV bytes per token
"""
from __future__ import annotations

from urllib.parse import urlparse

from .. import hardware as _hardware
from .. import models as _models
from .. import roofline
from ..units import fmt

DASH = "–"


def _source(src) -> str:
    if src is None:
        return DASH
    host = urlparse(src.url).netloc.removeprefix("www.")
    return f"[{host}]({src.url}) ({src.as_of}, {src.quality})"


def _flops(chip, dtype) -> str:
    return fmt(chip.flops(dtype), "FLOP/s") if dtype in chip.peak_flops else DASH


def hardware(names=None) -> str:
    """Chips and systems: dense FLOP/s by dtype, HBM bandwidth and capacity, drain time, status, source.

    Systems show aggregate figures (n chips); 'announced' marks figures that may still change.
    """
    names = names or _hardware.names()
    lines = ["| name | chips | bf16 | fp8 | fp4 | HBM bandwidth | HBM capacity | drain time | status | source |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for name in names:
        c = _hardware.get(name)
        status = "**announced**" if c.announced else c.status
        lines.append(f"| {c.name} | {c.n_chips} | {_flops(c, 'bf16')} | {_flops(c, 'fp8')} | "
                     f"{_flops(c, 'fp4')} | {fmt(c.hbm_bandwidth, 'B/s')} | {fmt(c.hbm_capacity, 'B')} | "
                     f"{fmt(roofline.drain_time(c), 's')} | {status} | {_source(c.source_for('flops'))} |")
    return "\n".join(lines)


def models(names=None) -> str:
    """Models: total and active parameters, sparsity (active/total), attention kind, KV bytes per token
    (full-attention layers) and, for models with sliding-window layers, the fixed KV those layers hold
    per sequence; source."""
    names = names or _models.names()
    lines = ["| name | total params | active params | sparsity (active / total) | layers | attention | "
             "KV per token (bf16) | + windowed KV per sequence (bf16) | source |",
             "|---|---:|---:|---:|---:|---|---:|---:|---|"]
    for name in names:
        m = _models.get(name)
        windowed = (f"{fmt(m.windowed_kv_bytes_per_sequence('bf16'), 'B')} ({m.n_sliding_layers} layers × "
                    f"{m.sliding_window:,} tokens)" if m.n_sliding_layers else DASH)
        lines.append(f"| {m.name} | {fmt(m.total_params, 'params')} | {fmt(m.active_params, 'params')} | "
                     f"{m.sparsity:.3g} | {m.n_layers} | {m.attention} | "
                     f"{fmt(m.kv_bytes_per_token('bf16'), 'B/token')} | {windowed} | "
                     f"{_source(m.source_for('total_params'))} |")
    return "\n".join(lines)
