"""Plots: titles, axis labels with units, and plotted data equal to the library's numbers."""
import numpy as np
import pytest
from matplotlib.figure import Figure

from lecture_lib import hardware, lecture, models, roofline
from lecture_lib.plots import live, tables
from lecture_lib.plots import roofline as rplots
from lecture_lib.units import HOUR, MS, US

HW, MODEL, WD, KD = "GB200-NVL72", "DeepSeek-V3", "fp8", "bf16"
PNG = b"\x89PNG\r\n\x1a\n"


def ydata(line):
    return np.asarray(line.get_ydata(), float)


@pytest.mark.parametrize("make, ylabel_unit, xlabel_unit", [
    (rplots.latency_vs_batch, "(ms)", "(sequences"),
    (rplots.cost_vs_batch, "($ per million tokens)", "(sequences"),
    (rplots.context_slopes, "(µs)", "(tokens)"),
])
def test_figures_have_title_units_legend_and_log_axes(make, ylabel_unit, xlabel_unit):
    fig = make()
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_title(loc="left")
    assert ylabel_unit in ax.get_ylabel() and xlabel_unit in ax.get_xlabel()
    assert ax.get_legend() is not None and len(ax.get_legend().get_texts()) >= 3
    assert ax.get_xscale() == ax.get_yscale() == "log"


@pytest.mark.parametrize("context", [0, 500, 100_000])
def test_latency_lines_are_the_roofline(context):
    p = rplots.LatencyVsBatch(hw=HW, model=MODEL, weight_dtype=WD, kv_dtype=KD, context=context,
                              batch_range=(1, 1e6))
    batch = np.asarray(p.lines["total"].get_xdata(), float)
    r = roofline.step_time(HW, MODEL, batch, context, WD, KD)
    for name in ("compute", "weights", "memory", "total"):
        np.testing.assert_allclose(ydata(p.lines[name]), getattr(r, name) / MS, rtol=1e-12)
    kv = ydata(p.lines["kv"])
    if context == 0:
        assert np.all(np.isnan(kv))                          # zero is left off a log axis
    else:
        np.testing.assert_allclose(kv, r.kv / MS, rtol=1e-12)
    np.testing.assert_allclose(ydata(p.lines["total"]),
                               np.maximum(ydata(p.lines["compute"]), ydata(p.lines["memory"])))
    b_star = roofline.balance_batch(HW, MODEL, WD, context=context, kv_dtype=KD)
    assert p.state["balance_batch"] == b_star
    if np.isfinite(b_star):
        assert p.balance_marker.get_visible() and p.balance_marker.get_xdata()[0] == b_star
        assert "B*" in p.balance_label.get_text()


def test_cost_lines_are_the_library_cost():
    price = 3.5
    p = rplots.CostVsBatch(hw=HW, model=MODEL, weight_dtype=WD, kv_dtype=KD, context=2000,
                           dollars_per_chip_hour=price)
    batch = np.asarray(p.lines["total"].get_xdata(), float)
    expected = roofline.cost_per_token(HW, MODEL, batch, 2000, WD, KD, dollars_per_chip_hour=price) * 1e6
    np.testing.assert_allclose(ydata(p.lines["total"]), expected, rtol=1e-12)
    np.testing.assert_allclose(ydata(p.lines["total"]),
                               np.maximum(ydata(p.lines["compute"]), ydata(p.lines["memory"])), rtol=1e-12)
    r = roofline.step_time(HW, MODEL, batch, 2000, WD, KD)
    n = hardware.get(HW).n_chips
    np.testing.assert_allclose(ydata(p.lines["weights"]), r.weights * n * price / HOUR / batch * 1e6, rtol=1e-12)
    compute = ydata(p.lines["compute"])
    assert np.allclose(compute, compute[0])                # the flat compute floor
    weights = ydata(p.lines["weights"])
    # the 1/B hyperbola once the batch touches every expert (touched-experts default: below that the
    # weight read itself grows with B, so weights × B rises toward the all-weights constant)
    read = weights * batch
    assert np.all(np.diff(read) >= -1e-12 * read.max())
    big = batch > 1_000
    np.testing.assert_allclose(read[big], read[-1], rtol=1e-6)
    assert "$3.5/chip-hour" in p.subtitle.get_text()


def test_context_slopes_cross_at_the_balance_context():
    p = rplots.ContextSlopes(hw=HW, model=MODEL, weight_dtype=WD, kv_dtype=KD)
    l_star = roofline.balance_context(HW, MODEL, WD, KD)
    ctx = np.asarray(p.lines["dense"].get_xdata(), float)
    one = roofline.step_time(HW, MODEL, 1, 0, WD, KD)
    np.testing.assert_allclose(ydata(p.lines["compute"]), one.compute / US)
    np.testing.assert_allclose(ydata(p.lines["dense"]), roofline.step_time(HW, MODEL, 1, ctx, WD, KD).kv / US)
    sqrt_ctx = roofline.kv_tokens_read(ctx, "sqrt")
    np.testing.assert_allclose(ydata(p.lines["sparse"]), roofline.step_time(HW, MODEL, 1, sqrt_ctx, WD, KD).kv / US)
    assert p.balance_marker.get_xdata()[0] == pytest.approx(l_star)
    dense, compute = ydata(p.lines["dense"]), ydata(p.lines["compute"])
    assert np.all((dense < compute) == (ctx < l_star))


def test_regime_label_flips_at_the_balance_context():
    l_star = roofline.balance_context(HW, MODEL, WD, KD)
    p = rplots.LatencyVsBatch(context=0.5 * l_star, batch_range=(1, 1e6))
    assert any("compute-bound" in t for t in p.state["regime"])
    p.update(context=2 * l_star)
    assert p.state["regime"] == (p.regime_labels[0].get_text(),)
    assert "memory-bound at every batch" in p.regime_labels[0].get_text()
    assert not p.balance_marker.get_visible()


def test_linear_axes_and_updates_in_place():
    p = rplots.LatencyVsBatch(log=False, batch_range=(1, 10_000))
    assert p.ax.get_xscale() == "linear"
    line = p.lines["total"]
    p.update(model="Llama-3-70B", hw="HGX-H100", weight_dtype="bf16")
    assert p.lines["total"] is line                       # same artist, new data
    assert "Llama-3-70B" in p.subtitle.get_text()


def test_render_png_is_a_png_and_leaves_savefig_complete():
    p = rplots.CostVsBatch()
    first = p.render_png()
    p.update(context=1000)                                 # same limits: the fast (blit) path
    second = p.render_png()
    assert first.startswith(PNG) and second.startswith(PNG) and first != second
    assert not any(a.get_animated() for a in p._dynamic)  # a plain savefig still draws the lines
    assert p._repr_png_().startswith(PNG)


def test_invalid_parameters_raise_clear_errors():
    p = rplots.LatencyVsBatch()
    with pytest.raises(ValueError, match="fp4"):
        p.update(hw="A100-80GB", weight_dtype="fp4")
    with pytest.raises(ValueError, match="batch_range"):
        p.update(hw=HW, weight_dtype=WD, batch_range=(0, 10))
    with pytest.raises(TypeError, match="unknown parameter"):
        p.update(batch=3)
    with pytest.raises(KeyError, match="Did you mean"):
        p.update(batch_range=(1, 10), model="DeepSeek-V4x")


def test_message_hides_the_data():
    p = rplots.LatencyVsBatch()
    p.show_message("no fp4 here")
    assert p.state == {"error": "no fp4 here"} and p.render_png().startswith(PNG)
    p.clear_message()
    assert p.message.get_text() == ""


def test_weights_that_do_not_fit_give_a_warning_and_hbm_marker():
    p = rplots.LatencyVsBatch(hw="H100-SXM", model=MODEL, weight_dtype="bf16", context=500)
    assert "do not fit" in p.warning
    p.update(hw=HW, weight_dtype=WD, context=100_000)
    max_b = roofline.max_batch(HW, MODEL, 100_000, WD, KD)
    assert p.state["max_batch"] == max_b and p.hbm_marker.get_visible()
    assert p.hbm_marker.get_xdata()[0] == max_b and f"{max_b:,}" in p.warning


def test_limits_helpers():
    assert live.decade_limits([0.03, 7]) == (0.01, 10.0)
    assert live.decade_limits([0, np.nan]) == (1e-3, 1.0)
    lo, hi = live.decade_limits([1e-12, 1.0], max_decades=3)
    assert (lo, hi) == (1e-3, 1.0)
    assert live.sticky_log_limits((0.01, 100), [0.5, 5]) == (0.01, 100)   # still holds: kept
    assert live.sticky_log_limits((0.01, 100), [0.5, 500]) == (0.1, 1000)
    assert live.tick_label(1e4) == "10k" and live.tick_label(0.01) == "0.01"


def test_tables_cover_the_registries():
    hw_table = tables.hardware()
    for name in hardware.names():
        assert f"| {name} |" in hw_table
    assert "**announced**" in hw_table.split("| Rubin |")[1].split("\n")[0]
    model_table = tables.models()
    for name in models.names():
        assert f"| {name} |" in model_table


def test_lecture_links():
    assert lecture.video_url(1929) == "https://youtu.be/xmkSf5IS-zw?t=1929"
    assert lecture.timestamp(1929) == "0:32:09"
    assert [c.number for c in lecture.CHAPTERS] == list(range(1, 8))


def test_model_table_shows_windowed_kv():
    # gpt-oss-120b: 18 sliding layers × 2·8 KV heads·64 × 2 bytes × 128 tokens = 4,718,592 B ≈ 4.72 MB
    row = next(line for line in tables.models().splitlines() if line.startswith("| gpt-oss-120b |"))
    assert "4.72 MB" in row
    assert models.get("gpt-oss-120b").windowed_kv_bytes_per_sequence("bf16") == 18 * 2 * 8 * 64 * 2 * 128
    row = next(line for line in tables.models().splitlines() if line.startswith("| DeepSeek-V3 |"))
    assert row.split("|")[-3].strip() == "–"


def test_error_box_fits_and_hides_the_legend():
    from lecture_lib.plots import roofline as rplots
    p = rplots.LatencyVsBatch()
    p.show_message("x" * 40 + " " + "a long message that must wrap inside the axes " * 4)
    p.render_png()
    renderer = p.canvas.get_renderer()
    box = p.message.get_bbox_patch().get_window_extent(renderer)
    axes = p.ax.get_window_extent(renderer)
    assert axes.x0 - 1 <= box.x0 and box.x1 <= axes.x1 + 1          # inside the axes: not clipped
    p.clear_message()
    p.render_png()                                                  # legends come back afterwards
    assert p.ax.get_legend().get_visible()
