"""Hardware registry: accelerator chips and scale-up systems, every figure with its source and date.

Units: FLOP/s are DENSE peaks (no 2:4 structured sparsity; vendor "sparse" figures are halved),
counting 2 FLOPs per multiply-add. Bandwidths are bytes/s, capacities bytes (decimal GB = 1e9;
where a vendor states GiB we convert). Figures come from `shared/reference/specs.md` of the course
project, which cites the primary pages.

    chip = hardware.get("H100-SXM")
    chip.flops("bf16")            # 9.89e14 FLOP/s
    rack = hardware.get("GB200-NVL72")
    hardware.system(chip, 8)      # any n chips as one scale-up domain
"""
from __future__ import annotations

from ._registry import Source, UnknownNameError, lookup
from .units import GB, GiB, TB, canonical_dtype, check_positive

# figure names every chip carries; each must have a source
FIGURES = ("flops", "hbm_bandwidth", "hbm_capacity", "scale_up_bandwidth")


class Chip:
    """One accelerator (or, through `System`, n of them acting as one scale-up domain).

    flops:              {dtype: dense peak FLOP/s}, e.g. {"bf16": 989e12, "fp8": 1979e12}
    hbm_bandwidth:      HBM bandwidth, bytes/s
    hbm_capacity:       HBM capacity, bytes
    scale_up_bandwidth: scale-up (NVLink / ICI / Infinity Fabric) bandwidth per chip, bytes/s,
                        bidirectional total as vendors quote it (one direction is half); None if unknown
    scale_up_domain:    chips one scale-up network connects all-to-all (8 for HGX, 72 for NVL72)
    status:             "shipping" or "announced" (announced figures may change)
    source:             Source for the figures, or {figure: Source} per figure
    """

    n_chips = 1

    def __init__(self, name: str, flops: dict, hbm_bandwidth: float, hbm_capacity: float, *,
                 scale_up_bandwidth: float | None = None, scale_up_domain: int | None = None,
                 vendor: str = "", year: int | None = None, status: str = "shipping",
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
        if status not in ("shipping", "announced"):
            raise ValueError(f"status must be 'shipping' or 'announced', got {status!r}")
        self.name = name
        self.hbm_bandwidth = float(hbm_bandwidth)
        self.hbm_capacity = float(hbm_capacity)
        self.scale_up_bandwidth = None if scale_up_bandwidth is None else float(scale_up_bandwidth)
        self.scale_up_domain = scale_up_domain
        self.vendor, self.year, self.status, self.notes = vendor, year, status, notes
        self.sources = self._spread_sources(source)

    @staticmethod
    def _spread_sources(source) -> dict:
        if source is None:
            return {}
        if isinstance(source, Source):
            return {f: source for f in FIGURES}
        return dict(source)

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

    def source_for(self, figure: str) -> Source | None:
        return self.sources.get(figure)

    def __repr__(self) -> str:
        tag = " (announced)" if self.announced else ""
        return (f"Chip({self.name!r}{tag}: {self.peak_flops.get('bf16', 0) / 1e12:g} TFLOP/s bf16, "
                f"{self.hbm_bandwidth / 1e12:g} TB/s, {self.hbm_capacity / 1e9:g} GB)")


class System(Chip):
    """n identical chips forming one scale-up domain; every figure is the chip's times n."""

    def __init__(self, chip: Chip, n_chips: int, name: str | None = None):
        if not isinstance(chip, Chip) or isinstance(chip, System):
            raise TypeError(f"chip must be a single Chip, got {chip!r}")
        if isinstance(n_chips, bool) or not isinstance(n_chips, int) or n_chips < 1:
            raise ValueError(f"n_chips must be a positive integer, got {n_chips!r}")
        self.chip = chip
        self.n_chips = n_chips
        self.name = name or f"{n_chips}x{chip.name}"
        self.peak_flops = chip.peak_flops            # per chip; flops() multiplies by n_chips
        self.hbm_bandwidth = chip.hbm_bandwidth * n_chips
        self.hbm_capacity = chip.hbm_capacity * n_chips
        self.scale_up_bandwidth = chip.scale_up_bandwidth
        self.scale_up_domain = chip.scale_up_domain
        self.vendor, self.year, self.status = chip.vendor, chip.year, chip.status
        self.notes = chip.notes
        self.sources = chip.sources

    def __repr__(self) -> str:
        return f"System({self.name!r}: {self.n_chips} x {self.chip.name})"


def system(chip, n_chips: int, name: str | None = None) -> System:
    """n chips as one scale-up domain (aggregate FLOP/s, bandwidth and capacity)."""
    return System(resolve(chip), n_chips, name)


# --- sources ------------------------------------------------------------------------------------
_CHECKED = "2026-11"   # when these figures were checked against the cited pages for the course
_A100 = Source("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf", _CHECKED, "S")
_H100 = Source("https://www.nvidia.com/en-us/data-center/h100/", _CHECKED, "S", "datasheet lists sparse 1,979/3,958 TF; halved")
_H800 = Source("https://www.nvidia.com/en-us/data-center/h100/", _CHECKED, "U", "H100 silicon; NVLink cut to 400 GB/s (widely reported)")
_H200 = Source("https://www.nvidia.com/en-us/data-center/h200/", _CHECKED, "S")
_B200 = Source("https://verda.com/blog/gb300-nvl72-architecture", _CHECKED, "S", "HGX B200 dense table; DGX B200 64 TB/s / 8 = 8 TB/s")
_GB200 = Source("https://www.nvidia.com/en-us/data-center/gb200-nvl72/", _CHECKED, "S", "per GPU = rack sparse total / 2 / 72")
_GB300 = Source("https://www.nvidia.com/en-us/data-center/gb300-nvl72/", _CHECKED, "S", "also glennklockwood.com/garden/processors/B300")
_RUBIN = Source("https://hyper.ai/en/stories/3422d6a72152beb34a564461208438ff", _CHECKED, "U",
                "announced (CES 2026): 288 GB HBM4, ~22 TB/s, 50 PF NVFP4 'inference' (dense vs sparse unclear)")
_V4 = Source("https://cloud.google.com/tpu/docs/v4", _CHECKED, "P")
_V5E = Source("https://cloud.google.com/tpu/docs/v5e", _CHECKED, "P")
_V5P = Source("https://cloud.google.com/tpu/docs/v5p", _CHECKED, "P")
_V6E = Source("https://cloud.google.com/tpu/docs/v6e", _CHECKED, "P")
_TPU7X = Source("https://cloud.google.com/tpu/docs/tpu7x", _CHECKED, "P")
_TPU7X_BW = Source("https://mattfife.com/?p=15269", _CHECKED, "U", "Hot Chips 2025 coverage")
_MI300X = Source("https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html", _CHECKED, "S", "via gpu.blog/gpus/instinct-mi300x-mi300x")
_MI355X = Source("https://www.tomshardware.com/pc-components/gpus/amds-instinct-mi355x-accelerator-will-consume-1-400-watts", _CHECKED, "U",
                 "AMD's 20.1 PF FP4 headline appears to be the sparse figure; halved")

CHIPS: dict[str, Chip] = {c.name: c for c in [
    Chip("A100-80GB", {"bf16": 312e12, "fp16": 312e12, "int8": 624e12}, 2.039 * TB, 80 * GB,
         scale_up_bandwidth=600 * GB, scale_up_domain=8, vendor="NVIDIA", year=2020, source=_A100),
    Chip("H100-SXM", {"bf16": 989e12, "fp16": 989e12, "fp8": 1979e12, "int8": 1979e12}, 3.35 * TB, 80 * GB,
         scale_up_bandwidth=900 * GB, scale_up_domain=8, vendor="NVIDIA", year=2022, source=_H100),
    Chip("H800", {"bf16": 989e12, "fp16": 989e12, "fp8": 1979e12, "int8": 1979e12}, 3.35 * TB, 80 * GB,
         scale_up_bandwidth=400 * GB, scale_up_domain=8, vendor="NVIDIA", year=2023,
         source={"flops": _H100, "hbm_bandwidth": _H100, "hbm_capacity": _H100, "scale_up_bandwidth": _H800},
         notes="export version of H100: same compute and HBM, NVLink 400 GB/s"),
    Chip("H200", {"bf16": 989e12, "fp16": 989e12, "fp8": 1979e12, "int8": 1979e12}, 4.8 * TB, 141 * GB,
         scale_up_bandwidth=900 * GB, scale_up_domain=8, vendor="NVIDIA", year=2024, source=_H200),
    Chip("B200", {"bf16": 2250e12, "fp16": 2250e12, "fp8": 4500e12, "fp4": 9000e12}, 8 * TB, 180 * GB,
         scale_up_bandwidth=1800 * GB, scale_up_domain=8, vendor="NVIDIA", year=2025, source=_B200,
         notes="HGX B200 (1 kW); 192 GB physical, 180 GB usable"),
    Chip("GB200", {"bf16": 2500e12, "fp16": 2500e12, "fp8": 5000e12, "fp4": 10000e12}, 8 * TB, 186 * GB,
         scale_up_bandwidth=1800 * GB, scale_up_domain=72, vendor="NVIDIA", year=2025, source=_GB200,
         notes="one Blackwell GPU of a GB200 NVL72 rack (rack clocks; HGX B200 is ~10% lower)"),
    Chip("GB300", {"bf16": 2500e12, "fp16": 2500e12, "fp8": 5000e12, "fp4": 15000e12}, 8 * TB, 288 * GB,
         scale_up_bandwidth=1800 * GB, scale_up_domain=72, vendor="NVIDIA", year=2025, source=_GB300,
         notes="Blackwell Ultra (B300) GPU of a GB300 NVL72 rack; 288 GB nominal, ~279 GB usable"),
    Chip("Rubin", {"fp4": 50000e12}, 22 * TB, 288 * GB,
         scale_up_bandwidth=3600 * GB, scale_up_domain=72, vendor="NVIDIA", year=2026, status="announced",
         source=_RUBIN, notes="announced, not shipped: 50 PF NVFP4 'inference' (dense vs sparse unclear); "
         "the lecture uses 20 TB/s, earlier announcements 13 TB/s"),
    Chip("TPU-v4", {"bf16": 275e12, "int8": 275e12}, 1.2 * TB, 32 * GiB,
         scale_up_bandwidth=540 * GB, scale_up_domain=4096, vendor="Google", year=2021,
         source={"flops": _V4, "hbm_bandwidth": _V4, "hbm_capacity": _V4,
                 "scale_up_bandwidth": Source("https://jax-ml.github.io/scaling-book/tpus/", _CHECKED, "S", "6 ICI links x ~45 GB/s one way")}),
    Chip("TPU-v5e", {"bf16": 197e12, "int8": 394e12}, 819 * GB, 16 * GB,
         scale_up_bandwidth=400 * GB, scale_up_domain=256, vendor="Google", year=2023, source=_V5E),
    Chip("TPU-v5p", {"bf16": 459e12, "int8": 918e12}, 2765 * GB, 95 * GiB,
         scale_up_bandwidth=1200 * GB, scale_up_domain=8960, vendor="Google", year=2023, source=_V5P,
         notes="95 GiB usable of 96 physical"),
    Chip("TPU-v6e", {"bf16": 918e12, "int8": 1836e12}, 1638 * GB, 32 * GB,
         scale_up_bandwidth=800 * GB, scale_up_domain=256, vendor="Google", year=2024, source=_V6E),
    Chip("TPU7x", {"bf16": 2307e12, "fp8": 4614e12}, 7.37 * TB, 192 * GiB,
         scale_up_bandwidth=1200 * GB, scale_up_domain=9216, vendor="Google", year=2025,
         source={"flops": _TPU7X, "hbm_capacity": _TPU7X, "hbm_bandwidth": _TPU7X_BW, "scale_up_bandwidth": _TPU7X_BW},
         notes="Ironwood"),
    Chip("MI300X", {"bf16": 1307e12, "fp16": 1307e12, "fp8": 2615e12}, 5.3 * TB, 192 * GB,
         scale_up_bandwidth=896 * GB, scale_up_domain=8, vendor="AMD", year=2023, source=_MI300X),
    Chip("MI355X", {"bf16": 2500e12, "fp16": 2500e12, "fp8": 5000e12, "fp4": 10000e12}, 8 * TB, 288 * GB,
         scale_up_bandwidth=1080 * GB, scale_up_domain=8, vendor="AMD", year=2025, source=_MI355X),
]}

SYSTEMS: dict[str, System] = {s.name: s for s in [
    System(CHIPS["H100-SXM"], 8, "HGX-H100"),
    System(CHIPS["H200"], 8, "HGX-H200"),
    System(CHIPS["B200"], 8, "HGX-B200"),
    System(CHIPS["GB200"], 72, "GB200-NVL72"),
    System(CHIPS["GB300"], 72, "GB300-NVL72"),
]}

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
