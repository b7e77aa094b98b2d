"""Hardware registry: accelerator chips and scale-up systems, every figure with its source and date.

The figures are in data/hardware.toml: one labelled row per chip, each with its source (url, date
checked, quality flag), and systems as rows {name, chip, n_chips}. `load` reads and checks that file.

Units: FLOP/s are DENSE peaks (no 2:4 structured sparsity; vendor "sparse" figures are halved),
counting 2 FLOPs per multiply-add. Bandwidths are bytes/s, capacities bytes (decimal GB = 1e9;
where a vendor states GiB we convert).

    chip = hardware.get("H100-SXM")
    chip.flops("bf16")            # 9.89e14 FLOP/s
    rack = hardware.get("GB200-NVL72")
    hardware.system(chip, 8)      # any n chips as one scale-up domain
"""
from __future__ import annotations

from ._registry import (DATA, Field, RegistryError, Source, UnknownNameError, build, load_file, lookup,
                        spread_sources)
from .units import canonical_dtype, check_positive

# figure names every chip carries; each must have a source
FIGURES = ("flops", "hbm_bandwidth", "hbm_capacity", "scale_up_bandwidth", "scale_out_bandwidth")


class Chip:
    """One accelerator (or, through `System`, n of them acting as one scale-up domain).

    flops:              {dtype: dense peak FLOP/s}, e.g. {"bf16": 989e12, "fp8": 1979e12}
    hbm_bandwidth:      HBM bandwidth, bytes/s
    hbm_capacity:       HBM capacity, bytes
    scale_up_bandwidth: scale-up (NVLink / ICI / Infinity Fabric) bandwidth per chip, bytes/s,
                        bidirectional total as vendors quote it (one direction is half); None if unknown
    scale_up_domain:    chips one scale-up network connects all-to-all (8 for HGX, 72 for NVL72)
    scale_out_bandwidth: the chip's share of the scale-out network (its NIC: InfiniBand / Ethernet),
                        bytes/s in ONE direction (a 400 Gb/s NIC is 50e9); None if unknown
    status:             "shipping" or "announced" (announced figures may change)
    source:             Source for the figures, or {figure: Source} per figure
    """

    n_chips = 1

    def __init__(self, name: str, flops: dict, hbm_bandwidth: float, hbm_capacity: float, *,
                 scale_up_bandwidth: float | None = None, scale_up_domain: int | None = None,
                 scale_out_bandwidth: float | None = None, vendor: str = "", year: int | None = None, status: str = "shipping",
                 source: Source | dict | None = None, notes: str = ""):
        if not isinstance(name, str) or not name:
            raise ValueError("name must be a non-empty string")
        if not isinstance(flops, dict) or not flops:
            raise ValueError(f"flops must be a dict like {{'bf16': 989e12}} (FLOP/s), got {flops!r}")
        self.peak_flops = {}
        for dtype, value in flops.items():
            check_positive(f"flops[{dtype!r}]", value)
            self.peak_flops[canonical_dtype(dtype, "flops key")] = float(value)
        check_positive("hbm_bandwidth", hbm_bandwidth)
        check_positive("hbm_capacity", hbm_capacity)
        if scale_up_bandwidth is not None:
            check_positive("scale_up_bandwidth", scale_up_bandwidth)
        if scale_out_bandwidth is not None:
            check_positive("scale_out_bandwidth", scale_out_bandwidth)
        if status not in ("shipping", "announced"):
            raise ValueError(f"status must be 'shipping' or 'announced', got {status!r}")
        self.name = name
        self.hbm_bandwidth = float(hbm_bandwidth)
        self.hbm_capacity = float(hbm_capacity)
        self.scale_up_bandwidth = None if scale_up_bandwidth is None else float(scale_up_bandwidth)
        self.scale_up_domain = scale_up_domain
        self.scale_out_bandwidth = None if scale_out_bandwidth is None else float(scale_out_bandwidth)
        self.vendor, self.year, self.status, self.notes = vendor, year, status, notes
        self.sources = spread_sources(source, FIGURES)

    def flops(self, dtype: str = "bf16") -> float:
        """Dense peak FLOP/s at `dtype` (2 FLOPs per multiply-add)."""
        key = canonical_dtype(dtype)
        if key not in self.peak_flops:
            raise ValueError(f"{self.name} has no published dense {key} rate; "
                             f"it has {sorted(self.peak_flops)}")
        return self.peak_flops[key] * self.n_chips

    @property
    def dtypes(self) -> list[str]:
        """Number formats with a published tensor rate on this chip."""
        return sorted(self.peak_flops, key=lambda d: -self.peak_flops[d])

    @property
    def announced(self) -> bool:
        return self.status == "announced"

    @property
    def scaleup_bandwidth(self) -> float | None:
        """Scale-up bandwidth per chip in ONE direction, bytes/s: half the vendors' bidirectional figure."""
        return None if self.scale_up_bandwidth is None else self.scale_up_bandwidth / 2

    @property
    def scaleout_bandwidth(self) -> float | None:
        """Scale-out (NIC) bandwidth per chip in ONE direction, bytes/s (None where unpublished)."""
        return self.scale_out_bandwidth

    def source_for(self, figure: str) -> Source | None:
        return self.sources.get(figure)

    def __repr__(self) -> str:
        tag = " (announced)" if self.announced else ""
        return (f"Chip({self.name!r}{tag}: {self.peak_flops.get('bf16', 0) / 1e12:g} TFLOP/s bf16, "
                f"{self.hbm_bandwidth / 1e12:g} TB/s, {self.hbm_capacity / 1e9:g} GB)")


def _per_chip(attr: str, doc: str) -> property:
    return property(lambda self: getattr(self.chip, attr), doc=doc)


class System(Chip):
    """n identical chips forming one scale-up domain: a chip and a count, nothing else.

    A System holds `.chip` (a Chip, checked by Chip.__init__) and `.n_chips`, and no figures of its
    own: flops(dtype), hbm_bandwidth and hbm_capacity are derived as the chip's times n_chips;
    peak_flops, the scale-up figures, status, sources and the rest are the chip's (per chip).
    It is a Chip (isinstance holds), so it goes anywhere a chip does.
    """

    def __init__(self, chip: Chip, n_chips: int, name: str | None = None):
        if not isinstance(chip, Chip) or isinstance(chip, System):
            raise TypeError(f"chip must be a single Chip, got {chip!r}")
        if isinstance(n_chips, bool) or not isinstance(n_chips, int) or n_chips < 1:
            raise ValueError(f"n_chips must be a positive integer, got {n_chips!r}")
        self.chip = chip
        self.n_chips = n_chips
        self.name = name or f"{n_chips}x{chip.name}"

    @property
    def hbm_bandwidth(self) -> float:
        """Aggregate HBM bandwidth of the n chips, bytes/s."""
        return self.chip.hbm_bandwidth * self.n_chips

    @property
    def hbm_capacity(self) -> float:
        """Aggregate HBM capacity of the n chips, bytes."""
        return self.chip.hbm_capacity * self.n_chips

    # flops() is Chip.flops: the per-chip peak_flops times n_chips
    peak_flops = _per_chip("peak_flops", "{dtype: dense peak FLOP/s} per chip; flops() multiplies")
    scale_up_bandwidth = _per_chip("scale_up_bandwidth", "scale-up bandwidth per chip, bytes/s")
    scale_up_domain = _per_chip("scale_up_domain", "chips one scale-up network connects")
    scale_out_bandwidth = _per_chip("scale_out_bandwidth", "scale-out (NIC) bandwidth per chip, one direction, bytes/s")
    vendor = _per_chip("vendor", "the chip's vendor")
    year = _per_chip("year", "the chip's year")
    status = _per_chip("status", "'shipping' or 'announced'")
    notes = _per_chip("notes", "the chip's notes")
    sources = _per_chip("sources", "{figure: Source} of the chip's figures")

    def __repr__(self) -> str:
        return f"System({self.name!r}: {self.n_chips} x {self.chip.name})"


def system(chip, n_chips: int, name: str | None = None) -> System:
    """n chips as one scale-up domain (aggregate FLOP/s, bandwidth and capacity)."""
    return System(resolve(chip), n_chips, name)


# --- the registry: read from data/hardware.toml ---------------------------------------------------
_CHIP_FIELDS = {
    "name": Field("text", required=True),
    "flops": Field("flops", required=True),                  # {dtype: "989 TFLOP/s"}
    "hbm_bandwidth": Field("bytes/s", required=True),
    "hbm_capacity": Field("bytes", required=True),
    "scale_up_bandwidth": Field("bytes/s"),
    "scale_up_domain": Field("count"),
    "scale_out_bandwidth": Field("bytes/s"),
    "vendor": Field("text"),
    "year": Field("count"),
    "status": Field("text", choices=("shipping", "announced")),
    "source": Field("source", required=True),
    "notes": Field("text"),
}
_SYSTEM_FIELDS = {
    "name": Field("text", required=True),
    "chip": Field("text", required=True),                    # the name of a chip in the same file
    "n_chips": Field("count", required=True),
}


def load(path=DATA / "hardware.toml") -> tuple[dict[str, Chip], dict[str, System]]:
    """Read and check a hardware file: ({name: Chip}, {name: System}).

    Raises RegistryError (a ValueError) naming the file, the row and the field of the first bad row.
    """
    tables = load_file(path, {"chips": _CHIP_FIELDS, "systems": _SYSTEM_FIELDS}, figures=FIGURES)
    chips = {row["name"]: build(path, label, Chip, row) for label, row in tables["chips"]}
    systems = {}
    for label, row in tables["systems"]:
        if row["name"] in chips:
            raise RegistryError(path, label, "name", "duplicate: a chip has the same name")
        if row["chip"] not in chips:
            raise RegistryError(path, label, "chip", f"unknown chip {row['chip']!r}; chips in this file: "
                                                     f"{', '.join(chips)}")
        systems[row["name"]] = build(path, label, System, dict(row, chip=chips[row["chip"]]))
    return chips, systems


CHIPS, SYSTEMS = load()          # {name: Chip}, {name: System}, in file order
REGISTRY: dict[str, Chip] = {**CHIPS, **SYSTEMS}
_ALIASES = {"A100": "A100-80GB", "H100": "H100-SXM", "NVL72": "GB200-NVL72", "B300": "GB300",
            "Ironwood": "TPU7x", "TPU-v7": "TPU7x", "Trillium": "TPU-v6e"}


def get(name: str) -> Chip:
    """A chip or system by name ('H100-SXM', 'GB200-NVL72'); case-insensitive.

    Raises KeyError (UnknownNameError) listing close matches on a typo.
    """
    return lookup("hardware", name, REGISTRY, _ALIASES)


def resolve(hw) -> Chip:
    """Accept a Chip/System object or a registry name."""
    if isinstance(hw, Chip):
        return hw
    return get(hw)


def names(kind: str = "all") -> list[str]:
    """Registry names: kind 'chips', 'systems' or 'all'."""
    return list({"chips": CHIPS, "systems": SYSTEMS, "all": REGISTRY}[kind])


__all__ = ["Chip", "System", "Source", "UnknownNameError", "get", "resolve", "system", "names",
           "CHIPS", "SYSTEMS", "REGISTRY"]
