"""Published training runs: parameters, tokens, reported FLOPs and chip-hours, each with its source.

The figures are in data/training_runs.toml (one labelled row per run; url, date checked and quality flag
for each). A row may name a model of the model registry; its active parameters and training tokens then
come from there unless the row gives its own. Notebook 06 checks 6·N·D against `reported_flops` and turns
`chip_hours` into a utilisation with `training.mfu` (see `training.run_mfu`).

    run = training_runs.get("DeepSeek-V3")
    run.params, run.tokens, run.chip_hours, run.chip, run.dtype
"""
from __future__ import annotations

from dataclasses import dataclass

from . import models
from ._registry import DATA, Field, RegistryError, Source, build, load_file, lookup, refer
from .units import check_positive


@dataclass(frozen=True)
class TrainingRun:
    """One published pre-training run. Counts are parameters and tokens; chip_hours are accelerator-hours.

    params: active parameters per token; tokens: pre-training tokens; reported_flops: the paper's own
    FLOP count (None when it gives none); chip: a hardware registry name; dtype: the format of the main
    matmuls (the peak a utilisation is measured against).
    """
    name: str
    params: float
    tokens: float
    source: Source
    model: str | None = None
    reported_flops: float | None = None
    chip: str | None = None
    chip_hours: float | None = None
    dtype: str | None = None
    year: int | None = None
    notes: str = ""

    def __post_init__(self):
        check_positive("params", self.params)
        check_positive("tokens", self.tokens)
        for name in ("reported_flops", "chip_hours"):
            if getattr(self, name) is not None:
                check_positive(name, getattr(self, name))
        if (self.chip is None) != (self.chip_hours is None) or (self.chip is None) != (self.dtype is None):
            raise ValueError("chip, chip_hours and dtype go together: give all three or none")


_FIELDS = {
    "name": Field("text", required=True),
    "model": Field("text"),
    "params": Field("number"),
    "tokens": Field("number"),
    "reported_flops": Field("number"),
    "chip": Field("text"),
    "chip_hours": Field("number"),
    "dtype": Field("text"),
    "year": Field("count"),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


def load(path=DATA / "training_runs.toml") -> dict[str, TrainingRun]:
    """Read and check a training-run file: {name: TrainingRun}.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    out = {}
    for label, row in load_file(path, {"runs": _FIELDS})["runs"]:
        if "model" in row:
            m = refer(path, label, "model", models.get, row["model"])
            row.setdefault("params", m.active_params)
            if m.training_tokens is not None:
                row.setdefault("tokens", m.training_tokens)
        for field in ("params", "tokens"):
            if field not in row:
                raise RegistryError(path, label, field, "missing: give it here or name a model that has it")
        out[row["name"]] = build(path, label, TrainingRun, row)
    return out


RUNS: dict[str, TrainingRun] = load()


def get(name: str) -> TrainingRun:
    """A run by name ('Llama-3-405B'); KeyError with close matches on a typo."""
    return lookup("training run", name, RUNS)


def names() -> list[str]:
    return list(RUNS)


__all__ = ["TrainingRun", "RUNS", "get", "names", "load"]
