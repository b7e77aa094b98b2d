"""Headless tests of the chapter-4 explorer: set controls' .value, read the bars' data.

Expected values are worked out by hand from published figures, not read back from lecture_lib.
"""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_lib import explorers  # noqa: E402
from lecture_lib.plots import memory as mplots  # noqa: E402


def _bars(ex):
    w = np.array([b.get_height() for b in ex.plot.w_bars])
    kv_bottom = np.array([b.get_y() for b in ex.plot.kv_bars])
    kv = np.array([b.get_height() for b in ex.plot.kv_bars])
    return w, kv_bottom, kv


def test_registered():
    assert "memory_per_gpu" in explorers.names()


def test_default_is_the_lectures_model_on_an_h100():
    ex = explorers.get("memory_per_gpu")()
    assert ex.error == ""
    w, bottom, kv = _bars(ex)
    # 2 TB of fp8 weights over 64 GPUs = 31.25 GB at P = 1; 80 GB HBM per GPU
    assert w[0] == pytest.approx(31.25 / 80)
    assert np.allclose(w * np.array(mplots.STAGES), 31.25 / 80)
    assert np.allclose(bottom, w)
    # KV: 2,400 sequences x 1M tokens x 2,048 B / 64 GPUs = 76.8 GB at every P
    assert np.allclose(kv[:3], 76.8 / 80)
    assert ex.state["first_fit"] == 12           # 2000/(64·P) + 76.8 <= 80 GB first at P = 12 (P = 8: 80.7 GB)


def test_controls_move_the_bars():
    ex = explorers.get("memory_per_gpu")()
    ex.controls["hw"].value = "GB300"             # 288 GB per GPU
    _, _, kv = _bars(ex)
    assert kv[0] == pytest.approx(76.8 / 288)
    assert ex.state["first_fit"] == 1
    ex.controls["micro_batch"].value = 1000
    assert ex.state["kv"][0] == pytest.approx(1000 * 1e6 * 2048 / 64)
    ex.controls["context"].value = 100_000
    ex.controls["expert_parallel"].value = 8
    assert ex.state["kv"][0] == pytest.approx(1000 * 1e5 * 2048 / 8)
    assert ex.render_png()[:4] == b"\x89PNG"


def test_kv_alone_too_big_is_a_warning_and_bars_are_clipped():
    ex = explorers.get("memory_per_gpu")()
    ex.controls["model"].value = "DeepSeek-V3"
    # 2,400 x 1M x 70,272 B / 64 = 2.64 TB per GPU against 80 GB
    assert ex.state["kv"][0] == pytest.approx(2400 * 1e6 * 61 * 576 * 2 / 64)
    assert not ex.state["kv_alone_fits"] and ex.state["first_fit"] is None
    assert "pipelining cannot help" in ex.plot.warning and ex.error == ""
    w, bottom, kv = _bars(ex)
    assert np.all(w + kv <= mplots.Y_TOP)
    assert ex.plot.labels[0].get_text().startswith("↑")


def test_fixed_axes_so_moves_only_blit():
    ex = explorers.get("memory_per_gpu")()
    ex.render_png()
    key = ex.plot.static_key()
    for name, value in (("hw", "B200"), ("model", "Llama-3-70B"), ("context", 8_000), ("expert_parallel", 8)):
        ex.controls[name].value = value
        assert ex.plot.static_key() == key
