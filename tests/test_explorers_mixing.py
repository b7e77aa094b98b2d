"""Headless tests of the chapter-7 explorer (avalanche): set controls' .value, read the figure's data."""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_lib import explorers, mixing  # noqa: E402


def test_registered():
    assert "avalanche" in explorers.names()


def test_avalanche_explorer_follows_its_controls():
    ex = explorers.get("avalanche")()
    assert ex.error == "" and ex.render_png()[:4] == b"\x89PNG"
    x, y = ex.plot.mlp_line.get_data()
    assert list(x) == list(range(mixing.EXPERIMENT["depth"] + 1))
    np.testing.assert_array_equal(y, mixing.mlp_avalanche(1.0, "plain"))
    # the cipher, read at the cursor: 4 rounds of a Feistel network are past ~50%; the usual MLP is not
    assert abs(ex.state["cipher"] - 0.5) < 0.03 and ex.state["mlp"] < 0.2
    assert ex.plot.cursor.get_xdata()[0] == 4
    ex.controls["layers"].value = 1
    assert ex.plot.cursor.get_xdata()[0] == 1 and ex.plot.sens_cursor.get_xdata()[0] == 1
    # one round, by hand: (1 + (1 + 32)) / 2 of 64 bits at most
    assert ex.state["cipher"] <= 34 / 128
    ex.controls["layers"].value = 32
    ex.controls["gain"].value = 100.0
    assert ex.state["mlp"] > 0.45 and ex.state["sensitivity"] < 1e-3      # mixes, but has no derivative
    assert "gain 100" in ex.plot.text.get_text()
    ex.controls["gain"].value = 4.0
    plain = ex.state["sensitivity"]
    ex.controls["architecture"].value = "residual+norm"
    assert ex.state["sensitivity"] < plain / 100
    _, sy = ex.plot.sens_line.get_data()
    np.testing.assert_allclose(sy, np.clip(mixing.mlp_sensitivity(4.0, "residual+norm"), *ex.plot.SENS_YLIM))


def test_limits_stay_fixed_when_controls_move():
    ex = explorers.get("avalanche")()
    limits = (ex.plot.ax.get_xlim(), ex.plot.ax.get_ylim(), ex.plot.ax_s.get_ylim())
    for name, value in ex.bench_steps():
        ex.controls[name].value = value
        assert (ex.plot.ax.get_xlim(), ex.plot.ax.get_ylim(), ex.plot.ax_s.get_ylim()) == limits
    with pytest.raises(ValueError, match="layers"):
        ex.plot.update(layers=99)
