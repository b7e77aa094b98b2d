"""Memory and storage devices a KV cache can be held in: HBM, host DDR, flash, spinning disk (chapter 6).

Each device has a capacity (bytes), a sustained bandwidth into HBM (bytes/s) and a cost: a purchase
price amortized straight-line over its service life (capex only: no power, no share of the host
server), or a rental price per hour. `dollars_per_second` puts both on one footing; `dollars_per_byte`
is the purchase price per byte of capacity.

The figures are in data/storage.toml, one labelled row per device, each with its source (url, date
checked, quality flag). Datasheet figures there are recalled (flag R) and street prices uncertain
(flag U): the notebook says so. An HBM row names a chip of the hardware registry and takes its HBM
capacity and bandwidth (and their sources) from there.

    d = storage.get("HDD 24 TB")
    d.capacity, d.bandwidth, d.dollars_per_second
    pricing.tier_drain_time(d.capacity, d.bandwidth)       # seconds to read the whole device once
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import hardware
from ._registry import DATA, Field, RegistryError, Source, build, load_file, lookup, refer, spread_sources
from .units import HOUR, YEAR, check_positive

KINDS = ("HBM", "DDR", "flash", "disk")
FIGURES = ("capacity", "bandwidth", "price_usd", "dollars_per_hour")   # fields a per-figure source names


@dataclass(frozen=True)
class Device:
    """One device. capacity: bytes; bandwidth: bytes/s; price_usd + service_years, or dollars_per_hour."""
    name: str
    kind: str
    capacity: float
    bandwidth: float
    description: str = ""
    chip: str | None = None
    price_usd: float | None = None
    service_years: float | None = None
    dollars_per_hour: float | None = None
    source: Source | dict | None = None
    notes: str = ""
    sources: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        check_positive("capacity", self.capacity)
        check_positive("bandwidth", self.bandwidth)
        bought = self.price_usd is not None or self.service_years is not None
        if bought == (self.dollars_per_hour is not None):
            raise ValueError("give a cost: price_usd with service_years (a purchase), or dollars_per_hour "
                             "(a rental), not both")
        if bought:
            if self.price_usd is None or self.service_years is None:
                raise ValueError("price_usd and service_years go together (purchase price, amortized)")
            check_positive("price_usd", self.price_usd)
            check_positive("service_years", self.service_years)
        else:
            check_positive("dollars_per_hour", self.dollars_per_hour)
        object.__setattr__(self, "sources", spread_sources(self.source, FIGURES))

    @property
    def dollars_per_second(self) -> float:
        """What one second of the whole device costs, $/s (rental, or price over service life)."""
        if self.dollars_per_hour is not None:
            return self.dollars_per_hour / HOUR
        return self.price_usd / (self.service_years * YEAR)

    @property
    def dollars_per_byte(self) -> float | None:
        """Purchase price per byte of capacity, $/byte (None for a rented device)."""
        return None if self.price_usd is None else self.price_usd / self.capacity

    def source_for(self, figure: str) -> Source | None:
        """The Source of 'capacity', 'bandwidth' or 'cost' (the price or the rental, whichever the row gives)."""
        if figure == "cost":
            return self.sources.get("price_usd") or self.sources.get("dollars_per_hour")
        return self.sources.get(figure)


# --- the registry: read from data/storage.toml ----------------------------------------------------
_FIELDS = {
    "name": Field("text", required=True),
    "kind": Field("text", required=True, choices=KINDS),
    "description": Field("text"),
    "chip": Field("text"),
    "capacity": Field("bytes"),
    "bandwidth": Field("bytes/s"),
    "price_usd": Field("number"),
    "service_years": Field("number"),
    "dollars_per_hour": Field("number"),
    "source": Field("source", required=True),
    "notes": Field("text"),
}


def _with_chip(path, label: str, row: dict) -> dict:
    """An HBM row that names a chip: its capacity and bandwidth (and their sources) from the hardware registry."""
    name = row.get("chip")
    if name is None:
        for figure in ("capacity", "bandwidth"):
            if figure not in row:
                raise RegistryError(path, label, figure, "missing: give capacity and bandwidth, or a chip")
        return row
    for figure in ("capacity", "bandwidth"):
        if figure in row:
            raise RegistryError(path, label, figure, "leave it out: it comes from the chip "
                                                     f"{name!r} of the hardware registry")
    chip = refer(path, label, "chip", hardware.get, name)
    given = row["source"] if isinstance(row["source"], dict) else {f: row["source"] for f in FIGURES[2:] if f in row}
    return dict(row, capacity=chip.hbm_capacity, bandwidth=chip.hbm_bandwidth,
                source={"capacity": chip.source_for("hbm_capacity"), "bandwidth": chip.source_for("hbm_bandwidth"),
                        **{f: src for f, src in given.items() if f in FIGURES[2:]}})


def load(path=DATA / "storage.toml") -> dict[str, Device]:
    """Read and check a storage file: {name: Device}, in file order.

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    rows = load_file(path, {"devices": _FIELDS}, figures=FIGURES)["devices"]
    return {row["name"]: build(path, label, Device, _with_chip(path, label, row)) for label, row in rows}


DEVICES: dict[str, Device] = load()


def get(name: str) -> Device:
    """A device by name ('HDD 24 TB'); KeyError with close matches on a typo."""
    return lookup("storage device", name, DEVICES)


def resolve(device) -> Device:
    """Accept a Device or a registry name."""
    return device if isinstance(device, Device) else get(device)


def names() -> list[str]:
    return list(DEVICES)


def by_kind(kind: str) -> Device:
    """The (first) registry device of a kind: 'HBM', 'DDR', 'flash' or 'disk'."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    return next(d for d in DEVICES.values() if d.kind == kind)


__all__ = ["Device", "DEVICES", "KINDS", "FIGURES", "YEAR", "get", "resolve", "names", "by_kind", "load"]
