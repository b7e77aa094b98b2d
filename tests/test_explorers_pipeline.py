"""Headless tests of the chapter-3 explorers (rack boundary, pipeline schedules): set .value, read the data."""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_lib import explorers, pipeline  # noqa: E402
from lecture_lib.plots import pipeline as pplots  # noqa: E402


def test_registered():
    assert {"rack_boundary", "pipeline_schedule"} <= set(explorers.names())


def test_boundary_explorer_follows_its_controls():
    ex = explorers.get("rack_boundary")()
    assert ex.error == "" and ex.render_png()[:4] == b"\x89PNG"
    # the lecture's case: (1/8)·8·1·2 = 2, fine
    assert ex.state["ratio"] == pytest.approx(2.0) and ex.state["ok"]
    x, y = ex.plot.line.get_data()
    assert list(x) == list(range(1, pplots.MAX_LAYERS + 1))
    np.testing.assert_allclose(y, np.clip(2 * 8 * np.arange(1, 17) / 8, *pplots.BOUNDARY_YLIM))
    ex.controls["bandwidth_ratio"].value = 18.0          # GB200 with a 400 Gb/s NIC
    assert ex.state["ratio"] == pytest.approx(16 / 18) and not ex.state["ok"]
    assert "bottleneck" in ex.plot.text.get_text()
    assert ex.plot.min_line.get_xdata()[0] == pytest.approx(18 / 16)
    ex.controls["layers_per_stage"].value = 2
    assert ex.state["ok"] and ex.plot.point.get_data()[0][0] == 2
    ex.controls["experts_per_token"].value = 1
    assert ex.state["ratio"] == pytest.approx(2 * 1 * 2 / 18) and ex.state["min_layers"] == pytest.approx(9)


def test_boundary_ratio_options_include_the_registry():
    ex = explorers.get("rack_boundary")()
    values = [v for _, v in ex.controls["bandwidth_ratio"].options]
    for name, rho in pipeline.registry_bandwidth_ratios().items():
        assert rho in values
    assert 8.0 in values


@pytest.mark.parametrize("kind", pipeline.KINDS)
def test_schedule_explorer_draws_the_library_timeline(kind):
    ex = explorers.get("pipeline_schedule")()
    ex.controls["kind"].value = kind
    ex.controls["stages"].value = 4
    ex.controls["microbatches"].value = 6
    assert ex.error == ""
    tl = pipeline.schedule(kind, 4, 6)
    verts = ex.plot.coll.get_paths()
    assert len(verts) == len(tl) == ex.state["passes"]
    # the boxes are the timeline, scaled to the step: first box's x-extent = start/makespan .. end/makespan
    xs = verts[0].vertices[:, 0]
    assert xs.min() == pytest.approx(tl[0].start / tl.makespan) and xs.max() == pytest.approx(tl[0].end / tl.makespan)
    if kind in ("gpipe", "1f1b"):
        assert ex.state["idle"] == pytest.approx(3 / 9) == ex.state["formula"]
        assert ex.plot.stop.get_visible()
    elif kind == "zero-bubble":
        assert ex.state["idle"] == pytest.approx(ex.state["formula"]) and ex.state["idle"] < 3 / 9
    else:
        assert ex.state["idle"] == 0 == ex.state["formula"] and not ex.plot.stop.get_visible()
    assert "formula" in ex.plot.info.get_text()


def test_schedule_limits_fixed_and_labels_only_when_few():
    ex = explorers.get("pipeline_schedule")()
    limits = (ex.plot.ax.get_xlim(), ex.plot.ax.get_ylim())
    for name, value in ex.bench_steps():
        ex.controls[name].value = value
        assert (ex.plot.ax.get_xlim(), ex.plot.ax.get_ylim()) == limits
        shown = sum(t.get_visible() for t in ex.plot.texts)
        assert shown == (ex.state["passes"] if ex.state["passes"] <= pplots.MAX_LABELS else 0)
    ex.controls["kind"].value = "gpipe"
    ex.controls["stages"].value = 2
    ex.controls["microbatches"].value = 2
    assert sorted(t.get_text() for t in ex.plot.texts if t.get_visible()) == ["0", "0", "0", "0", "1", "1", "1", "1"]
    with pytest.raises(ValueError, match="stages"):
        ex.plot.update(stages=9)


def test_static_pictures_render():
    for fig in (pplots.schedules_figure(3, 4), pplots.schedule_chart("1f1b", 2, 3), pplots.boundary_by_system(),
                pplots.capacity_bars()):
        assert fig._repr_png_()[:4] == b"\x89PNG"
