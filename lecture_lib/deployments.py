"""Published parallelism layouts: how a lab spread one model over its GPUs, as the lab described it.

Chapter 4 of the lecture says what labs do: wide expert parallelism, little or no pipelining, no tensor
parallelism now that experts are small. This registry holds what DeepSeek published, so a notebook can
put the claim beside the source. The rows are in data/deployments.toml, each with its source (url, date
checked, quality flag). Counts are GPUs or ways; `pipeline_stages = 1` means none is described.

    d = deployments.get("deepseek-online-decode")
    d.expert_parallel, d.gpus, d.scale_up_domains      # 144, 144, 18.0 (H800: 8 GPUs per NVLink domain)
"""
from __future__ import annotations

from dataclasses import dataclass

from . import hardware
from ._registry import DATA, Field, Source, build, load_file, lookup

PHASES = ("decode", "prefill", "training")


@dataclass(frozen=True)
class Layout:
    """One published layout of one model copy (a deployment unit)."""
    key: str
    lab: str
    model: str
    phase: str
    chip: str
    gpus: int                 # GPUs in one deployment unit
    expert_parallel: int      # GPUs one MoE layer's routed experts are spread over
    tensor_parallel: int      # TP degree anywhere in the layout (1 = none)
    pipeline_stages: int      # 1 = none described
    attention: str
    experts_per_gpu: str
    source: Source
    notes: str = ""

    def __post_init__(self):
        hardware.get(self.chip)           # KeyError with close matches for an unknown chip
        if self.expert_parallel > self.gpus:
            raise ValueError(f"expert_parallel ({self.expert_parallel}) must be <= gpus ({self.gpus})")

    @property
    def scale_up_domains(self) -> float:
        """Scale-up (NVLink) domains the expert-parallel group spans: EP / the chip's domain size."""
        return self.expert_parallel / hardware.get(self.chip).scale_up_domain


_FIELDS = {
    "key": Field("text", required=True),
    "lab": Field("text", required=True),
    "model": Field("text", required=True),
    "phase": Field("text", required=True, choices=PHASES),
    "chip": Field("text", required=True),
    "gpus": Field("count", required=True),
    "expert_parallel": Field("count", required=True),
    "tensor_parallel": Field("count", required=True),
    "pipeline_stages": Field("count", required=True),
    "attention": Field("text", required=True),
    "experts_per_gpu": Field("text", required=True),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


def load(path=DATA / "deployments.toml") -> list[Layout]:
    """Read and check a layouts file: [Layout], in file order (RegistryError names the bad row and field)."""
    rows = load_file(path, {"layouts": _FIELDS}, key={"layouts": ("key",)})["layouts"]
    return [build(path, label, Layout, row) for label, row in rows]


LAYOUTS: list[Layout] = load()
REGISTRY: dict[str, Layout] = {d.key: d for d in LAYOUTS}


def get(key: str) -> Layout:
    """A layout by key ('deepseek-online-decode'); KeyError with close matches on a typo."""
    return lookup("deployment layout", key, REGISTRY)


__all__ = ["Layout", "LAYOUTS", "REGISTRY", "PHASES", "get", "load"]
