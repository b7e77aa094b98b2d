"""Units, dtype sizes, input checks and the one formatting helper.

Everything inside the library is SI: seconds, bytes, FLOP (2 per multiply-add), FLOP/s, bytes/s,
US dollars. Decimal prefixes (kB, MB, GB, TB) are powers of 1000; binary ones (KiB, MiB, GiB) are
powers of 1024 and only appear where a source or the learner uses them. Display goes through
`fmt`, so every number a notebook prints has its unit and a sensible prefix.
"""
from __future__ import annotations

import math
from numbers import Real

import numpy as np

# --- decimal and binary multipliers -------------------------------------------------------------
K, M, G, T, P, E = 1e3, 1e6, 1e9, 1e12, 1e15, 1e18
KB, MB, GB, TB, PB = K, M, G, T, P          # bytes
KiB, MiB, GiB, TiB = 2**10, 2**20, 2**30, 2**40
MS, US, NS = 1e-3, 1e-6, 1e-9               # seconds
HOUR = 3600.0                               # seconds
DAY = 24 * HOUR
YEAR = 365.25 * DAY                         # a Julian year (the average Gregorian one to 4 digits)

FLOPS_PER_MAC = 2   # one multiply-add counts as 2 FLOPs everywhere in this course

# --- bytes per element of each number format ----------------------------------------------------
DTYPE_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "fp4": 0.5,     # NVFP4 / MXFP4 element; the small per-block scale factors are ignored
}
DTYPE_ALIASES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16", "nvfp4": "fp4",
                 "mxfp4": "fp4", "fp8_e4m3": "fp8", "e4m3": "fp8"}


def canonical_dtype(dtype: str, name: str = "dtype") -> str:
    """Return the canonical name of a number format ('bf16', 'fp8', ...) or raise ValueError."""
    if not isinstance(dtype, str):
        raise TypeError(f"{name} must be a string such as 'bf16' or 'fp8', got {dtype!r}")
    key = dtype.strip().lower()
    key = DTYPE_ALIASES.get(key, key)
    if key not in DTYPE_BYTES:
        raise ValueError(f"{name}={dtype!r} is not a known number format; "
                         f"use one of {sorted(DTYPE_BYTES)}")
    return key


def dtype_bytes(dtype: str, name: str = "dtype") -> float:
    """Bytes per element of `dtype` (bf16 -> 2.0, fp8 -> 1.0, fp4 -> 0.5)."""
    return DTYPE_BYTES[canonical_dtype(dtype, name)]


# --- input checks: clear errors that name the parameter -----------------------------------------
def _as_array(name: str, value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}") from None
    if np.any(np.isnan(arr)):
        raise ValueError(f"{name} must not be NaN")
    return arr


def check_positive(name: str, value, *, allow_inf: bool = False):
    """Raise a ValueError naming `name` unless every element of `value` is > 0 (and finite)."""
    arr = _as_array(name, value)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be > 0, got {value!r}")
    if not allow_inf and np.any(np.isinf(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_nonnegative(name: str, value):
    """Raise a ValueError naming `name` unless every element of `value` is >= 0 and finite."""
    arr = _as_array(name, value)
    if np.any(arr < 0) or np.any(np.isinf(arr)):
        raise ValueError(f"{name} must be >= 0 and finite, got {value!r}")
    return value


def check_at_least(name: str, value, minimum: float):
    """Raise a ValueError naming `name` unless every element of `value` is >= minimum."""
    arr = _as_array(name, value)
    if np.any(arr < minimum) or np.any(np.isinf(arr)):
        raise ValueError(f"{name} must be >= {minimum:g} and finite, got {value!r}")
    return value


# --- formatting ---------------------------------------------------------------------------------
_SI = [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]
_SMALL = [(1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n"), (1e-12, "p")]
_BINARY = [(2**50, "Pi"), (2**40, "Ti"), (2**30, "Gi"), (2**20, "Mi"), (2**10, "Ki"), (1, "")]

# unit name -> (suffix shown, allow prefixes below 1)
_UNITS = {
    "B": ("B", False), "bytes": ("B", False),
    "B/s": ("B/s", False),
    "s": ("s", True),
    "FLOP": ("FLOP", False), "FLOP/s": ("FLOP/s", False),
    "tok": ("tok", False), "tokens": ("tokens", False), "tok/s": ("tok/s", False),
    "params": ("params", False),
    "B/token": ("B/token", False),
    "": ("", False),
}


def _sig(x: float, digits: int) -> str:
    if x == 0:
        return "0"
    s = f"{x:.{digits}g}"
    if "e" in s:   # .g switched to exponent form: fall back to fixed point
        decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
        s = f"{x:.{decimals}f}"
    return s


def fmt(value, unit: str = "", digits: int = 3, binary: bool = False) -> str:
    """Format a number with an SI prefix and its unit: fmt(3.35e12, 'B/s') -> '3.35 TB/s'.

    Units: 'B' (bytes), 'B/s', 's' (uses ms, µs, ns below one second; minutes/hours above 1000 s),
    'FLOP', 'FLOP/s', 'tok', 'tok/s', 'params', '$' (dollars), or '' for a bare number
    (k, M, G, T suffixes). `binary=True` uses KiB/MiB/GiB (powers of 1024) for bytes.
    """
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(fmt(v, unit, digits, binary) for v in np.ravel(value)) + "]"
    if not isinstance(value, Real):
        raise TypeError(f"fmt: value must be a real number, got {value!r}")
    x = float(value)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return ("-" if x < 0 else "") + "∞" + (f" {unit}" if unit else "")
    if unit == "$":
        return _fmt_dollars(x, digits)
    if unit == "s":
        ax = abs(x)
        if ax >= 2 * DAY:
            return f"{_sig(x / DAY, digits)} days"
        if ax >= 2 * HOUR:
            return f"{_sig(x / HOUR, digits)} h"
        if ax >= 120:
            return f"{_sig(x / 60, digits)} min"
    if unit == "params":               # parameter counts read best in the field's short scale: 671B
        for scale, pre in [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]:
            if abs(x) >= scale:
                return f"{_sig(x / scale, digits)}{pre} params"
        return f"{_sig(x, digits)} params"
    if unit not in _UNITS:
        raise ValueError(f"fmt: unknown unit {unit!r}; use one of {sorted(_UNITS) + ['$']}")
    suffix, small = _UNITS[unit]
    sep = " " if suffix else ""
    ax = abs(x)
    if ax >= 1e21 and not binary:      # past exa: scientific notation, e.g. '1.2e26 FLOP'
        mant, exp = f"{x:.{digits - 1}e}".split("e")
        mant = mant.rstrip("0").rstrip(".")
        return f"{mant}e{int(exp)}{sep}{suffix}"
    if binary:
        if suffix not in ("B", "B/s", "B/token"):
            raise ValueError("fmt: binary=True only applies to byte units")
        for scale, pre in _BINARY:
            if ax >= scale:
                return f"{_sig(x / scale, digits)} {pre}{suffix}"
        return f"{_sig(x, digits)} {suffix}"
    if ax == 0:
        return f"0{sep}{suffix}"
    if ax < 1 and small:
        for scale, pre in _SMALL:
            if ax >= scale:
                return f"{_sig(x / scale, digits)} {pre}{suffix}"
        return f"{x:.{digits}g} {suffix}"
    if ax < 1:
        return f"{_sig(x, digits)}{sep}{suffix}"
    for i, (scale, pre) in enumerate(_SI):
        if ax >= scale:
            body = _sig(x / scale, digits)
            if abs(float(body)) >= 1000 and i > 0:     # rounding carried into the next prefix
                scale, pre = _SI[i - 1]
                body = _sig(x / scale, digits)
            return f"{body}{sep}{pre}{suffix}"
    return f"{_sig(x, digits)}{sep}{suffix}"


def _fmt_dollars(x: float, digits: int) -> str:
    sign = "-" if x < 0 else ""
    ax = abs(x)
    for scale, pre in [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]:
        if ax >= scale:
            return f"{sign}${_sig(ax / scale, digits)}{pre}"
    if ax >= 0.01 or ax == 0:
        return f"{sign}${ax:,.2f}" if ax >= 1 else f"{sign}${_sig(ax, digits)}"
    return f"{sign}${ax:.{digits}g}"
