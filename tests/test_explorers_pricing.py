"""Headless tests of the chapter-6 explorers: set controls' .value, read the figure's data.

Expected values are worked out by hand from the lecture and the device datasheets, not read back from
lecture_lib.
"""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_lib import explorers  # noqa: E402

YEAR_S = 365.25 * 86400


def test_registered():
    assert {"cache_tiers", "kv_from_price"} <= set(explorers.names())


def test_tier_explorer_follows_its_controls():
    ex = explorers.get("cache_tiers")()
    assert ex.error == "" and ex.state["hold_s"] == 300 and ex.state["kv_bytes"] == 2048
    assert ex.state["cheapest"] == "NVMe SSD 7.68 TB"          # 5 minutes: flash (drain ~19 min)
    # the HDD line by hand: $430 over 5 years; 2,048 B held for t plus one read at 285 MB/s, per million tokens
    p = 430 / (5 * YEAR_S)
    x, y = ex.plot.lines["HDD 24 TB"].get_data()
    assert np.allclose(y, 1e6 * (2048 * p * x / 24e12 + 2048 * p / 285e6))
    # remat: 2 × 100e9 / (1,979e12 × 0.5) s of an H200 at $2/hour, flat in hold time
    _, y = ex.plot.lines["remat"].get_data()
    assert np.allclose(y, 1e6 * 2e11 / (1979e12 * 0.5) * 2 / 3600)
    ex.controls["hold_s"].value = 0.001
    assert ex.state["cheapest"] == "HBM (H200)"
    ex.controls["hold_s"].value = 30 * 86400
    assert ex.state["cheapest"] == "HDD 24 TB"
    ex.controls["reads"].value = 0
    assert ex.state["cheapest"] == "remat" and ex.state["cost_per_million"] == 0
    ex.controls["reads"].value = 1
    ex.controls["model"].value = "DeepSeek-V3"
    assert ex.state["kv_bytes"] == 61 * 576 * 2 and ex.state["active_params"] == 37e9
    assert ex.plot.dot.get_xdata()[0] == 30 * 86400
    assert ex.render_png()[:4] == b"\x89PNG"


def test_kv_from_price_explorer_follows_its_controls():
    ex = explorers.get("kv_from_price")()
    assert ex.state["implied_bytes"] == pytest.approx(1e11 / (300 * 200_000))
    ex.controls["ratio"].value = 600
    assert ex.state["implied_bytes"] == pytest.approx(1e11 / (600 * 200_000))
    ex.controls["active_params"].value = 400e9
    ex.controls["context"].value = 1_000_000
    assert ex.state["implied_bytes"] == pytest.approx(4e11 / (600 * 1e6))
    x, y = ex.plot.line.get_data()
    assert np.all(np.diff(y) < 0) and y[0] == pytest.approx(4e11 / (600 * x[0]))
    assert ex.plot.dot.get_ydata()[0] == pytest.approx(ex.state["implied_bytes"])
    assert ex.error == "" and ex.render_png()[:4] == b"\x89PNG"
