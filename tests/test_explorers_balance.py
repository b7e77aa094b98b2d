"""Headless tests of the chapter-1 (second half) explorers: set controls' .value, read figure data.

Expected values are worked out by hand from published figures, not read back from lecture_lib.
"""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_lib import explorers  # noqa: E402


def test_registered():
    for name in ("balance_vs_context", "train_schedule", "fast_mode"):
        assert name in explorers.names()


def test_balance_explorer_follows_controls():
    ex = explorers.get("balance_vs_context")()
    assert ex.error == ""
    # DeepSeek-V3 on GB200-NVL72, fp8 weights, bf16 KV: wall = (2·37e9 / 360e15 s) · 576e12 B/s / 70,272 B
    wall = 2 * 37e9 / (72 * 5e15) * (72 * 8e12) / (61 * 576 * 2)
    assert ex.plot.wall.get_xdata()[0] == pytest.approx(wall, rel=1e-9)
    ex.controls["model"].value = "Llama-3-70B"
    ex.controls["kv_dtype"].value = "fp8"
    # Llama-3-70B: 80 layers x 8 KV heads x 128 x 2 (K,V) x 1 byte
    wall = 2 * 70.6e9 / (72 * 5e15) * (72 * 8e12) / (80 * 8 * 128 * 2)
    assert ex.state["balance_context"] == pytest.approx(wall, rel=1e-9)
    x, y = ex.plot.line.get_data()
    assert x.max() < wall and np.all(np.diff(y) > 0)
    assert y[0] == pytest.approx(ex.state["balance_batch"], rel=0.01)
    # B* without KV = (5e15/2)/(8e12/1) x 1 = 312.5 for a dense model in fp8
    assert ex.plot.flat.get_ydata()[0] == pytest.approx(312.5)
    assert ex.render_png()[:4] == b"\x89PNG"


def test_balance_explorer_reports_missing_dtype():
    ex = explorers.get("balance_vs_context")()
    ex.controls["hw"].value = "H100-SXM"
    ex.controls["weight_dtype"].value = "fp4"
    assert "fp4" in ex.error and "error" in ex.state
    ex.controls["weight_dtype"].value = "fp8"
    assert ex.error == ""


def test_train_explorer_mean_worst_and_overload():
    ex = explorers.get("train_schedule")()
    assert ex.state["mean_ms"] == pytest.approx(30, abs=0.6)
    assert ex.state["max_ms"] <= 40 + 1e-9
    values = ex.plot.bars.get_data().values
    assert values.sum() * 2.5 == pytest.approx(1.0)           # a density over 2.5 ms bins
    assert ex.plot.mean_line.get_xdata()[0] == pytest.approx(30)
    ex.controls["period_ms"].value = 10
    assert ex.plot.worst_line.get_xdata()[0] == pytest.approx(20)
    assert ex.state["mean_ms"] == pytest.approx(15, abs=0.3)
    ex.controls["period_ms"].value = 20
    ex.controls["arrival_rate"].value = 4_000                  # 80 per train, 64 seats: load 1.25
    assert ex.state["load"] == pytest.approx(4000 * 0.020 / 64)
    assert ex.state["miss_fraction"] > 0.5 and ex.state["mean_ms"] > 100


def test_fast_mode_explorer_reproduces_problem_8():
    ex = explorers.get("fast_mode")()
    x, y = ex.plot.dot.get_data()
    assert x[0] == 6 and y[0] == pytest.approx(2.25, rel=2e-3)       # syllabus §5 ch.1 problem 8
    assert ex.plot.ceiling.get_ydata()[0] == pytest.approx(9.766 / 3.906, rel=1e-3)
    ex.controls["multiple"].value = 100
    assert ex.state["speedup"] < ex.state["ceiling"]
    cx, cy = ex.plot.curve.get_data()
    assert np.all(np.diff(cy) > 0) and cy.max() < ex.state["ceiling"]
    # 200K tokens x 2 kB over 512 TB/s (0.78 µs) exceeds compute per sequence (0.65 µs): no balance;
    # the plot clamps to a tidy context below the 166,667-token wall (0.9 × wall -> 100K) and says so
    ex.controls["context"].value = 200_000
    assert ex.error == "" and ex.state["clamped"] and ex.state["context"] == 100_000
    assert "balance context (166,667 tokens)" in ex.message.value
    ex.controls["scenario"].value = "GB200-NVL72 · DeepSeek-V3 (fp8)"
    ex.controls["context"].value = 1_000
    assert ex.error == "" and not ex.state["clamped"] and ex.message.value == ""
    assert 1 < ex.state["speedup"] < ex.state["ceiling"]


def test_fast_mode_explorer_every_scenario_draws_at_the_default_context():
    ex = explorers.get("fast_mode")()
    for scenario in ex.controls["scenario"].options:
        ex.controls["scenario"].value = scenario
        assert ex.error == "", scenario
        x, y = ex.plot.curve.get_data()
        assert len(x) > 10 and np.all(np.isfinite(y)) and ex.state["context"] < ex.state["balance_context"]


def test_fast_mode_explorer_finds_the_context_for_the_target():
    ex = explorers.get("fast_mode")()                      # the problem-8 toy: wall 166,667 tokens
    wall = 2 * 100e9 / (2 * 300 * 512e12) * 512e12 / 2e3
    assert ex.state["context_for_target"] == pytest.approx(0.6 * wall, rel=1e-9)     # 2.5x: x = 3/5
    assert ex.plot.need_marker.get_xdata()[0] == pytest.approx(9 / 14, rel=1e-9)   # at 6x: 9/14 of the wall
    ex.controls["target"].value = 2
    assert ex.state["context_for_target"] == pytest.approx(0.5 * wall, rel=1e-9)     # 1/(1-x) = 2
    cx, cy = ex.plot.ctx_ceiling.get_data()
    np.testing.assert_allclose(cy, 1 / (1 - cx), rtol=1e-9)          # x = context ÷ balance context


def test_explorer_image_is_shown_at_its_pixel_width():
    for name in explorers.names():
        ex = explorers.get(name)()
        png = bytes(ex.image.value)                   # what the widget shows; its IHDR holds the size
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert ex.image.layout.width == f"{w}px", name          # shown 1:1, not stretched
        fig_w, fig_h = ex.figure.get_size_inches() * ex.figure.dpi
        assert (w, h) == (round(fig_w), round(fig_h)), name     # the whole figure, at its own dpi
