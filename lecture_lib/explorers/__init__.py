"""THE registry of interactive explorers: name -> factory (a class; call it to build one).

    from lecture_lib import explorers
    explorers.names()                       # ['latency_vs_batch', 'cost_vs_batch', ...]
    ex = explorers.get("latency_vs_batch")()  # build; display `ex` (or ex.widget) in Jupyter
    explorers.get("cost_vs_batch")(context=10_000)   # starting control values

Tests (tests/test_explorers.py) and the latency benchmark (benchmarks/widget_latency.py) walk this
registry, so registering a new explorer is one line below. Base class: explorers/base.py.
"""
from __future__ import annotations

from .._registry import lookup
from .base import Explorer  # noqa: F401
from .roofline import ContextSlopeExplorer, CostExplorer, LatencyExplorer
from .balance import BalanceExplorer, FastModeExplorer, TrainExplorer
from .training import CostSplitExplorer, OvertrainingExplorer
from .pricing import KvFromPriceExplorer, TierExplorer
from .mixing import AvalancheExplorer
from .pipeline import BoundaryExplorer, ScheduleExplorer
from .moe import RackExplorer
from .memory import MemoryExplorer

REGISTRY: dict[str, type] = {
    "latency_vs_batch": LatencyExplorer,
    "cost_vs_batch": CostExplorer,
    "context_slopes": ContextSlopeExplorer,
    "balance_vs_context": BalanceExplorer,
    "train_schedule": TrainExplorer,
    "fast_mode": FastModeExplorer,
    "cost_split": CostSplitExplorer,
    "overtraining_range": OvertrainingExplorer,
    "cache_tiers": TierExplorer,
    "kv_from_price": KvFromPriceExplorer,
    "avalanche": AvalancheExplorer,
    "moe_on_racks": RackExplorer,
    "rack_boundary": BoundaryExplorer,
    "pipeline_schedule": ScheduleExplorer,
    "memory_per_gpu": MemoryExplorer,
}


def get(name: str):
    """The factory registered as `name`; KeyError with close matches on a typo."""
    return lookup("explorer", name, REGISTRY)


def names() -> list[str]:
    return list(REGISTRY)
