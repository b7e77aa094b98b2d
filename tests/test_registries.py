"""Registries: names from design.md exist, every figure has a dated source, KV bytes match hand arithmetic."""
import re

import pytest

from lecture_lib import hardware, models, prices
from lecture_lib.units import GB, TB

DESIGN_CHIPS = ["A100-80GB", "H100-SXM", "H800", "H200", "B200", "GB200", "GB300", "Rubin", "TPU-v4",
                "TPU-v5e", "TPU-v5p", "TPU-v6e", "TPU7x", "MI300X", "MI355X"]
DESIGN_SYSTEMS = {"HGX-H100": 8, "GB200-NVL72": 72, "GB300-NVL72": 72}
DESIGN_MODELS = ["Llama-3-8B", "Llama-3-70B", "Llama-3-405B", "Mixtral-8x7B", "Qwen2.5-72B",
                 "Qwen3-235B-A22B", "DeepSeek-V3", "Kimi-K2", "gpt-oss-120b", "PaLM-540B"]
DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def _valid(src):
    return src is not None and src.url.startswith("https://") and DATE.match(src.as_of) and src.quality in "PSRU"


@pytest.mark.parametrize("name", DESIGN_CHIPS + list(DESIGN_SYSTEMS))
def test_every_design_hardware_name_resolves(name):
    assert hardware.get(name).name == name


@pytest.mark.parametrize("name,n", DESIGN_SYSTEMS.items())
def test_systems_aggregate_their_chips(name, n):
    rack = hardware.get(name)
    assert rack.n_chips == n
    assert rack.hbm_bandwidth == pytest.approx(n * rack.chip.hbm_bandwidth)
    assert rack.hbm_capacity == pytest.approx(n * rack.chip.hbm_capacity)
    assert rack.flops("bf16") == pytest.approx(n * rack.chip.flops("bf16"))


def test_gb200_rack_matches_published_rack_totals():
    # NVIDIA's GB200 NVL72 page: 720 PF dense FP4 (1,440 sparse), ~13.4 TB HBM3e, 576 TB/s
    rack = hardware.get("GB200-NVL72")
    assert rack.flops("fp4") == pytest.approx(720e15, rel=0.01)
    assert rack.hbm_capacity == pytest.approx(13.4 * TB, rel=0.01)
    assert rack.hbm_bandwidth == pytest.approx(576 * TB, rel=0.01)


@pytest.mark.parametrize("chip", hardware.CHIPS.values(), ids=lambda c: c.name)
def test_every_chip_figure_has_a_dated_source(chip):
    for figure in hardware.FIGURES:
        if figure == "scale_up_bandwidth" and chip.scale_up_bandwidth is None:
            continue
        assert _valid(chip.source_for(figure)), f"{chip.name}.{figure} lacks a source with URL and date"


@pytest.mark.parametrize("model", models.MODELS.values(), ids=lambda m: m.name)
def test_every_model_figure_has_a_dated_source(model):
    for figure in models.FIGURES:
        assert _valid(model.source_for(figure)), f"{model.name}.{figure} lacks a source"


def test_every_price_has_a_dated_source_and_positive_prices():
    assert {p.provider for p in prices.PRICES} >= {"Anthropic", "OpenAI", "Google", "DeepSeek"}
    for p in prices.PRICES:
        assert _valid(p.source), p.key
        assert p.input > 0 and p.output > 0


def test_announced_hardware_is_marked():
    assert hardware.get("Rubin").announced
    assert "announced" in repr(hardware.get("Rubin"))
    assert not hardware.get("H100-SXM").announced


def test_dense_not_sparse_flops():
    # the H100 datasheet headline 1,979 TFLOP/s BF16 is the 2:4-sparse figure; dense is half
    assert hardware.get("H100-SXM").flops("bf16") == pytest.approx(1979e12 / 2, rel=0.01)
    assert hardware.get("H100-SXM").flops("fp8") == pytest.approx(2 * hardware.get("H100-SXM").flops("bf16"), rel=0.01)


@pytest.mark.parametrize("name", DESIGN_MODELS)
def test_every_design_model_resolves(name):
    assert models.get(name).name == name


# KV bytes per token worked by hand from the published configs (layers x 2 x KV heads x head_dim x bytes)
HAND_KV_BF16 = {
    "Llama-2-7B": 32 * 2 * 32 * 128 * 2,          # MHA: 32 KV heads = 32 query heads -> 524,288
    "Llama-3-8B": 32 * 2 * 8 * 128 * 2,           # GQA: 8 KV heads -> 131,072
    "Llama-3-70B": 80 * 2 * 8 * 128 * 2,          # 327,680
    "Llama-3-405B": 126 * 2 * 8 * 128 * 2,        # 516,096
    "Qwen3-235B-A22B": 94 * 2 * 4 * 128 * 2,      # 192,512
    "PaLM-540B": 118 * 2 * 1 * 256 * 2,           # MQA: one KV head -> 120,832
    "DeepSeek-V3": 61 * (512 + 64) * 2,           # MLA: one 576-wide latent per layer -> 70,272
    "Kimi-K2": 61 * (512 + 64) * 2,
    "gpt-oss-120b": 18 * 2 * 8 * 64 * 2,          # only the 18 full-attention layers grow with context
}


@pytest.mark.parametrize("name,expected", HAND_KV_BF16.items())
def test_kv_bytes_per_token_matches_hand_arithmetic(name, expected):
    assert models.get(name).kv_bytes_per_token("bf16") == expected


def test_kv_attention_kinds_are_recognised():
    kinds = {n: models.get(n).attention for n in ("Llama-2-7B", "Llama-3-70B", "PaLM-540B", "DeepSeek-V3", "gpt-oss-120b")}
    assert kinds == {"Llama-2-7B": "MHA", "Llama-3-70B": "GQA", "PaLM-540B": "MQA",
                     "DeepSeek-V3": "MLA", "gpt-oss-120b": "GQA+sliding-window"}


def test_published_kv_figures_cross_check():
    # DeepSeek's ISCA'25 paper quotes 70.272 KB (DeepSeek-V3), 327.680 KB (Qwen2.5-72B), 516.096 KB (Llama-3.1-405B)
    assert models.get("DeepSeek-V3").kv_bytes_per_token() == pytest.approx(70.272e3)
    assert models.get("Qwen2.5-72B").kv_bytes_per_token() == pytest.approx(327.680e3)
    assert models.get("Llama-3-405B").kv_bytes_per_token() == pytest.approx(516.096e3)


def test_kv_heads_not_query_heads():
    m = models.get("Llama-3-70B")
    buggy = m.n_layers * 2 * m.n_heads * m.head_dim * 2      # the calculator bug: query heads
    assert buggy / m.kv_bytes_per_token() == m.n_heads / m.n_kv_heads == 8


def test_kv_dtype_scales_bytes():
    m = models.get("DeepSeek-V3")
    assert m.kv_bytes_per_token("fp8") == m.kv_bytes_per_token("bf16") / 2


def test_sliding_window_layers_hold_a_fixed_amount_per_sequence():
    m = models.get("gpt-oss-120b")
    per_layer_tok = 2 * 8 * 64 * 2
    # at 100K tokens: 18 full layers x 100K + 18 windowed layers x 128 tokens
    assert m.kv_bytes_per_sequence(100_000) == 18 * per_layer_tok * 100_000 + 18 * per_layer_tok * 128
    # below the window every layer grows
    assert m.kv_bytes_per_sequence(100) == 36 * per_layer_tok * 100


def test_moe_counts():
    m = models.get("DeepSeek-V3")
    assert (m.total_params, m.active_params) == (671e9, 37e9)
    assert (m.n_experts, m.experts_per_token) == (256, 8)
    assert m.sparsity == pytest.approx(37 / 671)


def test_user_built_chip_and_model_work_everywhere():
    from lecture_lib import roofline
    chip = hardware.Chip(name="MyChip", flops={"bf16": 1e15}, hbm_bandwidth=2e12, hbm_capacity=100 * GB)
    m = models.Model("Tiny", total_params=1e9, active_params=1e9, n_layers=4, d_model=256,
                     n_heads=4, n_kv_heads=4, head_dim=64)
    r = roofline.step_time(chip, m, batch=1)
    assert r.weights == pytest.approx(1e9 * 2 / 2e12)
    assert hardware.system(chip, 4).hbm_bandwidth == 8e12


def test_prices_lecture_facts():
    std, fast = prices.get("claude-opus-4.6"), prices.get("claude-opus-4.6", tier="fast")
    assert fast.output / std.output == 6 and fast.input / std.input == 6
    gem = prices.get("gemini-3.1-pro-preview")
    assert gem.per_token("input", 300_000) / gem.per_token("input", 1000) == 2.0
    assert gem.per_token("output", 300_000) / gem.per_token("output", 1000) == 1.5
    assert std.cache_read / std.input == pytest.approx(0.1)
    assert std.cache_write_5m / std.input == pytest.approx(1.25)
    assert std.cache_write_1h / std.input == pytest.approx(2.0)
    assert prices.get("gpt-5", tier="priority").output / prices.get("gpt-5").output == 2
