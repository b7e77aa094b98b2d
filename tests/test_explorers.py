"""Every registered explorer, driven headlessly: set each control's .value, assert on the figure data."""
import ipywidgets as widgets
import numpy as np
import pytest
from matplotlib.figure import Figure

from lecture_lib import explorers, roofline
from lecture_lib.explorers.base import Explorer
from lecture_lib.plots import roofline as rplots
from lecture_lib.units import MS

PNG = b"\x89PNG\r\n\x1a\n"
NAMES = explorers.names()                                   # every registered explorer
CH1 = ["latency_vs_batch", "cost_vs_batch", "context_slopes"]  # this file also checks their data


def png(ex):
    return bytes(ex.image.value)


def test_registry():
    assert set(NAMES) >= set(CH1)
    assert all(issubclass(factory, Explorer) for factory in explorers.REGISTRY.values())
    assert explorers.get("Latency_vs_Batch") is explorers.REGISTRY["latency_vs_batch"]
    with pytest.raises(KeyError, match="Did you mean"):
        explorers.get("latency_vs_bach")


@pytest.fixture(params=NAMES)
def ex(request):
    return explorers.get(request.param)()


def check_against_library(ex):
    """The plotted lines equal the library's numbers for the explorer's current control values.

    Only for the chapter-1 plots; other explorers' data are checked in their own test files.
    """
    if not isinstance(ex.plot, (rplots.LatencyVsBatch, rplots.CostVsBatch, rplots.ContextSlopes)):
        return
    v = ex.values()
    lines = ex.plot.lines
    if "batch_range" in v:
        batch = np.asarray(lines["total"].get_xdata(), float)
        assert batch[0] == pytest.approx(v["batch_range"][0]) and batch[-1] == pytest.approx(v["batch_range"][1])
        r = roofline.step_time(v["hw"], v["model"], batch, v["context"], v["weight_dtype"], v["kv_dtype"])
        if "dollars_per_chip_hour" in v:
            expected = roofline.cost_per_token(v["hw"], v["model"], batch, v["context"], v["weight_dtype"],
                                               v["kv_dtype"], dollars_per_chip_hour=v["dollars_per_chip_hour"]) * 1e6
        else:
            expected = r.total / MS
            np.testing.assert_allclose(lines["compute"].get_ydata(), r.compute / MS, rtol=1e-12)
        np.testing.assert_allclose(lines["total"].get_ydata(), expected, rtol=1e-12)
        np.testing.assert_allclose(lines["total"].get_ydata(),
                                   np.maximum(lines["compute"].get_ydata(), lines["memory"].get_ydata()), rtol=1e-12)
    else:
        l_star = roofline.balance_context(v["hw"], v["model"], v["weight_dtype"], v["kv_dtype"])
        assert ex.state["balance_context"] == pytest.approx(l_star)


def test_builds_headlessly(ex):
    assert isinstance(ex, Explorer) and isinstance(ex.figure, Figure)
    assert isinstance(ex.widget, widgets.VBox) and ex.image in ex.widget.children
    assert png(ex).startswith(PNG) and ex.render_png().startswith(PNG)
    if ex.__class__.__name__ in {explorers.REGISTRY[n].__name__ for n in CH1}:
        assert set(ex.controls) <= set(ex.plot.params)      # controls map 1:1 onto plot parameters
    assert all(isinstance(c, widgets.ValueWidget) for c in ex.controls.values())
    assert ex.error == "" and ex.state
    check_against_library(ex)


def test_every_bench_step_renders_and_matches_the_library(ex):
    steps = ex.bench_steps()
    assert len(steps) >= 20 and {name for name, _ in steps} == set(ex.controls)
    for name, value in steps:
        before = ex.renders
        ex.controls[name].value = value                    # the observer redraws synchronously
        assert ex.renders == before + 1, f"setting {name}={value!r} did not redraw"
        assert png(ex).startswith(PNG)
        if ex.error:
            assert ex.state == {"error": ex.error} and ex.error in ex.message.value.replace("&#x27;", "'")
        else:
            check_against_library(ex)


def test_regime_label_changes_when_context_crosses_balance_context():
    ex = explorers.get("latency_vs_batch")(batch_range=(1, 1_000_000))
    v = ex.values()
    l_star = roofline.balance_context(v["hw"], v["model"], v["weight_dtype"], v["kv_dtype"])
    options = [value for _, value in ex.controls["context"].options]
    below = max(c for c in options if c < l_star)
    above = min(c for c in options if c > l_star)
    ex.controls["context"].value = below
    assert "compute-bound" in " ".join(ex.state["regime"]) and ex.plot.balance_marker.get_visible()
    ex.controls["context"].value = above
    assert "memory-bound at every batch" in ex.plot.regime_labels[0].get_text()
    assert not ex.plot.balance_marker.get_visible()


@pytest.mark.parametrize("name", CH1)
def test_chip_without_the_dtype_shows_a_message(name):
    ex = explorers.get(name)()
    ex.controls["weight_dtype"].value = "fp4"
    ex.controls["hw"].value = "H100-SXM"                   # no fp4 on Hopper: a message, no exception
    assert "fp4" in ex.error and "fp4" in ex.message.value
    assert ex.state == {"error": ex.error} and png(ex).startswith(PNG)
    ex.controls["weight_dtype"].value = "fp8"              # fixing it clears the message
    assert ex.error == "" and "error" not in ex.state
    check_against_library(ex)


def test_weights_that_do_not_fit_are_reported():
    ex = explorers.get("cost_vs_batch")(hw="H100-SXM", weight_dtype="bf16")
    assert ex.error == "" and "do not fit" in ex.message.value
    ex.controls["hw"].value = "GB200-NVL72"
    assert ex.message.value == ""                         # 1.34 TB fits in the rack's HBM


def test_price_slider_scales_cost():
    ex = explorers.get("cost_vs_batch")()
    base = np.asarray(ex.plot.lines["total"].get_ydata(), float)
    ex.controls["dollars_per_chip_hour"].value = 4.0
    np.testing.assert_allclose(ex.plot.lines["total"].get_ydata(), 2 * base, rtol=1e-12)
