"""The public API exactly as design.md and the README write it (a contract for exercises and outside checks)."""
import re
from pathlib import Path

import pytest

from lecture_lib import hardware, models, roofline, training

ROOT = Path(__file__).resolve().parents[1]


def test_design_md_api_block_runs_as_written():
    chip = hardware.get("H100-SXM")
    assert chip.flops("bf16") == pytest.approx(989e12)
    assert chip.hbm_bandwidth == pytest.approx(3.35e12) and chip.hbm_capacity == pytest.approx(80e9)
    rack = hardware.get("GB200-NVL72")
    assert rack.n_chips == 72
    eight = hardware.system(chip, 8)
    assert eight.n_chips == 8 and eight.hbm_bandwidth == pytest.approx(8 * 3.35e12)
    mine = hardware.Chip(name="Mine", flops={"bf16": 1e15}, hbm_bandwidth=1e12, hbm_capacity=1e11)
    m = models.get("DeepSeek-V3")
    assert (m.total_params, m.active_params) == (671e9, 37e9)
    assert m.kv_bytes_per_token("bf16") == 70_272
    hw = rack
    r = roofline.step_time(hw, m, batch=2048, context=100_000, weight_dtype="fp8", kv_dtype="bf16")
    # by hand from the datasheets: 72 GPUs × 5 PFLOP/s fp8 dense, 72 × 8 TB/s, MLA cache 70,272 B/token
    assert r.compute == pytest.approx(2 * 2048 * 37e9 / (72 * 5e15))
    assert r.weights == pytest.approx(671e9 / (72 * 8e12))
    assert r.kv == pytest.approx(2048 * 100_000 * 70_272 / (72 * 8e12))
    assert r.memory == pytest.approx(r.weights + r.kv) and r.total == pytest.approx(r.memory)
    assert r.bound == "memory"
    prefill = roofline.step_time(hw, m, batch=1, tokens_per_seq=2048)
    assert prefill.compute == pytest.approx(2048 * roofline.step_time(hw, m, batch=1).compute)
    assert roofline.balance_batch(hw, m, weight_dtype="fp8") == pytest.approx(5e15 / 8e12 / 2 * 671 / 37)
    assert roofline.drain_time(hw) == pytest.approx(hw.hbm_capacity / hw.hbm_bandwidth)
    assert roofline.max_batch(hw, m, context=100_000, weight_dtype="fp8", kv_dtype="bf16") == \
        (72 * 186e9 - 671e9) // (100_000 * 70_272)
    assert training.flops(1e9, 1e12) == pytest.approx(6e21)
    assert roofline.step_time(mine, "Llama-3-8B", batch=1).total > 0
    with pytest.raises(KeyError, match="H100-SXM"):
        hardware.get("H100-SMX")


def test_readme_api_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## The library's public API\s+```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)     # the README's example must run as printed
    assert namespace["m"].kv_bytes_per_token("bf16") == 70_272
