import math

import pytest

from lecture_lib import units
from lecture_lib.units import fmt


@pytest.mark.parametrize("value,unit,kw,expected", [
    (3.35e12, "B/s", {}, "3.35 TB/s"),
    (80e9, "B", {}, "80 GB"),
    (80e9, "B", {"binary": True}, "74.5 GiB"),
    (2**30, "B", {"binary": True}, "1 GiB"),
    (0.0234, "s", {}, "23.4 ms"),
    (421e-6, "s", {}, "421 µs"),
    (7200, "s", {}, "2 h"),
    (989e12, "FLOP/s", {}, "989 TFLOP/s"),
    (1.2e26, "FLOP", {}, "1.2e26 FLOP"),
    (128_000, "tok/s", {}, "128 ktok/s"),
    (0.28, "$", {}, "$0.28"),
    (128.0, "$", {}, "$128.00"),
    (1.5e9, "$", {}, "$1.5B"),
    (999.9e9, "B", {}, "1 TB"),
    (2400, "", {}, "2.4k"),
])
def test_fmt(value, unit, kw, expected):
    assert fmt(value, unit, **kw) == expected


def test_fmt_rejects_unknown_unit_and_non_numbers():
    with pytest.raises(ValueError, match="unknown unit"):
        fmt(1.0, "furlongs")
    with pytest.raises(TypeError):
        fmt("3", "s")
    assert fmt(math.inf, "s") == "∞ s"


def test_dtype_bytes_and_aliases():
    assert units.dtype_bytes("bf16") == 2 and units.dtype_bytes("FP8") == 1 and units.dtype_bytes("nvfp4") == 0.5
    with pytest.raises(ValueError, match="weight_dtype='fp5'"):
        units.dtype_bytes("fp5", "weight_dtype")


def test_gb_vs_gib():
    assert units.GiB / units.GB == pytest.approx(1.073741824)
