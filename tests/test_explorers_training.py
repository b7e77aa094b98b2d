"""Headless tests of the chapter-5 explorers: set controls' .value, read the figure's data.

Expected values are worked out by hand from the lecture's and the flashcard's numbers.
"""
import os

os.environ.setdefault("MPLBACKEND", "Agg")

import pytest  # noqa: E402

from lecture_lib import explorers  # noqa: E402


def heights(bars):
    return [b.get_height() for b in bars]


def test_registered():
    for name in ("cost_split", "overtraining_range"):
        assert name in explorers.names()


def test_cost_split_follows_controls():
    ex = explorers.get("cost_split")()
    assert ex.error == ""
    # the flashcard: 6·D_PT = 3·3·D_RL = 2·3·D_inf
    assert heights(ex.plot.token_bars) == pytest.approx([1, 2 / 3, 1])
    assert heights(ex.plot.share_bars) == pytest.approx([1 / 3] * 3)
    assert ex.state["pretrain_over_rl"] == pytest.approx(1.5)
    ex.controls["split"].value = "50/50"          # Dwarkesh: inference gets half, twice pre-training's share
    assert heights(ex.plot.share_bars) == pytest.approx([0.25, 0.25, 0.5])
    assert heights(ex.plot.token_bars) == pytest.approx([1, 2 / 3, 2])
    ex.controls["split"].value = "thirds"
    ex.controls["rl_flops"].value = 6             # trained on every rollout, 10x inefficient: 6/(6·10)
    ex.controls["rl_inefficiency"].value = 10
    assert heights(ex.plot.token_bars)[1] == pytest.approx(0.1)
    ex.controls["inference_inefficiency"].value = 1   # decode as efficient as training: 6/2 = 3x the tokens
    assert heights(ex.plot.token_bars)[2] == pytest.approx(3)
    assert max(heights(ex.plot.token_bars)) < ex.plot.ax_t.get_ylim()[1]
    assert ex.render_png()[:4] == b"\x89PNG"


def test_overtraining_range_brackets_the_lecture():
    ex = explorers.get("overtraining_range")()
    lo, hi = ex.plot.bar.get_xdata()
    assert lo < 100 < hi                       # the lecture's ~100x is inside the default error bar
    x = ex.plot.dot.get_xdata()[0]
    assert lo < x < hi
    # pin every range to the lecture's point guess: 500M tok/s, family 10, keep 1, 100B active;
    # 1 month = 30.44 days: 5e8 x 2.63e6 s / 10 = 1.315e14 tokens / 2e12 = 65.7x
    for name, v in {"world_tok_s": (500e6, 500e6), "months": (1, 1), "family": (10, 10), "keep": (1.0, 1.0),
                    "active": (100e9, 100e9)}.items():
        ex.controls[name].value = v
    lo, hi = ex.plot.bar.get_xdata()
    assert lo == pytest.approx(hi) == pytest.approx(5e8 * 365.25 / 12 * 86400 / 10 / 2e12)
    ex.controls["months"].value = (1, 2)      # twice the deployment, twice the tokens at the top end
    assert ex.plot.bar.get_xdata()[1] == pytest.approx(2 * lo)
    ex.controls["family"].value = (5, 10)     # fewer models in the family: more tokens each
    assert ex.plot.bar.get_xdata()[1] == pytest.approx(4 * lo)
    assert ex.render_png()[:4] == b"\x89PNG"
