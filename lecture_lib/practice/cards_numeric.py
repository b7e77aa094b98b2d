"""Numeric cards and randomized drills across the lecture chapters (a card module, see cards.py).

Every answer is computed by lecture_lib: the cards' when the deck is built, the drills' on each draw.
"""
from __future__ import annotations

from .. import hardware, models, roofline, training
from ..units import MS, dtype_bytes, fmt
from .cards import Card, Drill


def cards() -> list[Card]:
    """The numeric cards of this module (computed now, from the registries)."""
    out = []
    h100, rubin = hardware.get("H100-SXM"), hardware.get("Rubin")
    ratio = roofline.hardware_ratio(h100, "bf16")
    out.append(Card("N1.h100_ratio", 1, "H100-SXM: dense bf16 FLOP/s ÷ HBM bandwidth (FLOP per byte)?",
                    f"{ratio:.0f} FLOP/byte = {fmt(h100.flops('bf16'), 'FLOP/s')} / "
                    f"{fmt(h100.hbm_bandwidth, 'B/s')}.", "02", value=ratio, unit="FLOP/byte",
                    rtol=0.05, origin="numeric"))
    lr = roofline.lecture_ratio("B200", "fp8")
    out.append(Card("N1.b200_lecture_ratio", 1,
                    "B200 at fp8, in the lecture's units: multiply-adds per second ÷ weights read per second?",
                    f"≈ {lr:.0f} (dimensionless): the lecture's '~300'.", "02", value=lr, unit="",
                    rtol=0.05, origin="numeric"))
    for chip in (h100, rubin):
        d = roofline.drain_time(chip)
        out.append(Card(f"N1.drain_{chip.name}", 1, f"Drain time of one {chip.name} (HBM capacity ÷ bandwidth), in ms?",
                        f"{d / MS:.1f} ms = {fmt(chip.hbm_capacity, 'B')} / {fmt(chip.hbm_bandwidth, 'B/s')}.",
                        "02", value=d / MS, unit="ms", rtol=0.05, origin="numeric"))
    rack, dsv3 = hardware.get("GB200-NVL72"), models.get("DeepSeek-V3")
    bb = roofline.balance_batch(rack, dsv3, weight_dtype="fp8")
    out.append(Card("N1.balance_dsv3", 1,
                    "Balance batch of DeepSeek-V3 (fp8 weights, KV ignored) on a GB200-NVL72, in sequences?",
                    f"≈ {fmt(bb)} sequences = hardware ratio × total/active parameters "
                    f"({fmt(dsv3.total_params, 'params')} / {fmt(dsv3.active_params, 'params')}), i.e. "
                    f"ratio / sparsity with sparsity = active / total = {dsv3.sparsity:.3f}.",
                    "02", value=bb, unit="sequences", rtol=0.05, origin="numeric"))
    l70, hgx = models.get("Llama-3-70B"), hardware.get("HGX-H100")
    floor = roofline.step_time(hgx, l70, batch=1, context=0, weight_dtype="bf16").weights
    out.append(Card("N1.floor_llama70b", 1,
                    "Latency floor of Llama-3-70B in bf16 on an HGX-H100 (8 GPUs), in ms per decode step?",
                    f"{floor / MS:.2f} ms: {fmt(l70.weight_bytes('bf16'), 'B')} of weights / "
                    f"{fmt(hgx.hbm_bandwidth, 'B/s')}.", "01", value=floor / MS, unit="ms", rtol=0.05,
                    origin="numeric"))
    out.append(Card("N2.nvl72_hbm", 2, "Total HBM of a GB200-NVL72 rack, in TB?",
                    f"{rack.hbm_capacity / 1e12:.1f} TB ({rack.n_chips} GPUs).", "03",
                    value=rack.hbm_capacity / 1e12, unit="TB", rtol=0.05, origin="numeric"))
    kv = dsv3.kv_bytes_per_token("bf16")
    out.append(Card("N6.kv_dsv3", 6, "DeepSeek-V3's KV cache per token of context in bf16 (MLA), in kB?",
                    f"{kv / 1e3:.1f} kB = {dsv3.n_layers} layers × ({dsv3.kv_lora_rank} latent + "
                    f"{dsv3.qk_rope_dim} RoPE) values × 2 bytes.", "07", value=kv / 1e3, unit="kB",
                    rtol=0.02, origin="numeric"))
    kv70 = l70.kv_bytes_per_token("bf16")
    out.append(Card("N6.kv_llama70b", 6, "Llama-3-70B's KV cache per token in bf16 (GQA), in kB?",
                    f"{kv70 / 1e3:.1f} kB = 2 × {l70.n_layers} layers × {l70.n_kv_heads} KV heads × "
                    f"{l70.head_dim} × 2 bytes.", "07", value=kv70 / 1e3, unit="kB", rtol=0.02,
                    origin="numeric"))
    tokens = l70.training_tokens          # the Llama 3 paper: 15T tokens
    c = training.flops(l70.active_params, tokens)
    out.append(Card("N5.6nd_llama70b", 5,
                    f"Training FLOPs (6·N·D) of Llama-3-70B on {tokens / 1e12:.0f}T tokens? "
                    "(type e.g. 1.2e25)",
                    f"≈ {c:.2g} FLOP = 6 × {fmt(l70.active_params, 'params')} × {tokens / 1e12:.0f}T tokens.",
                    "06", value=c, unit="FLOP", rtol=0.03, origin="numeric"))
    return out


# --- randomized drills: fresh numbers on every draw ----------------------------------------------
def _drain_drill(rng):
    cap_gb = rng.choice([40, 80, 96, 141, 192, 288])
    bw_tbs = round(rng.uniform(1.5, 22), 1)
    chip = hardware.Chip(name="drill chip", flops={"bf16": 1e15}, hbm_bandwidth=bw_tbs * 1e12,
                         hbm_capacity=cap_gb * 1e9)
    d = roofline.drain_time(chip) * 1e3
    return (f"A chip has {cap_gb} GB of HBM at {bw_tbs} TB/s. Drain time, in ms?", d,
            f"{cap_gb} GB / {bw_tbs} TB/s = {d:.1f} ms")


def _balance_drill(rng):
    tflops = rng.choice([400, 1000, 2000, 4500, 9000])
    bw = round(rng.uniform(2, 10), 1)
    total_b = rng.choice([100, 200, 400, 671, 1000, 2000])
    active_b = rng.choice([10, 20, 37, 50, 100])
    active_b = min(active_b, total_b)
    chip = hardware.Chip(name="drill chip", flops={"fp8": tflops * 1e12}, hbm_bandwidth=bw * 1e12,
                         hbm_capacity=1e12)
    model = models.Model(name="drill model", total_params=total_b * 1e9, active_params=active_b * 1e9,
                         n_layers=1, d_model=1, n_heads=1, n_kv_heads=1, head_dim=1)
    b = roofline.balance_batch(chip, model, weight_dtype="fp8")
    return (f"A chip does {tflops} TFLOP/s (fp8, 2 FLOPs per multiply-add) with {bw} TB/s of HBM. "
            f"A model has {total_b}B total and {active_b}B active parameters, stored in fp8. "
            "Balance batch (KV ignored), in sequences?", b,
            f"B* = (F / BW) × (1 byte / 2) × (total / active) = {tflops}e12/{bw}e12 × 0.5 × "
            f"{total_b}/{active_b} ≈ {b:,.0f}")


def _weight_read_drill(rng):
    params_b = rng.choice([8, 70, 120, 405, 671, 1000])
    dtype = rng.choice(["bf16", "fp8"])
    bw = rng.choice([3.35, 4.8, 8.0, 26.8, 64.0, 576.0])
    chip = hardware.Chip(name="drill chip", flops={dtype: 1e15}, hbm_bandwidth=bw * 1e12, hbm_capacity=1e12)
    model = models.Model(name="drill model", total_params=params_b * 1e9, active_params=params_b * 1e9,
                         n_layers=1, d_model=1, n_heads=1, n_kv_heads=1, head_dim=1)
    t = roofline.step_time(chip, model, batch=1, weight_dtype=dtype).weights * 1e3
    return (f"Read {params_b}B parameters stored in {dtype} at {bw} TB/s: how many ms per decode step "
            "at least?", t, f"{params_b}e9 × {dtype_bytes(dtype):g} B / {bw}e12 B/s = {t:.3g} ms")


def _six_nd_drill(rng):
    n_b = rng.choice([1, 7, 8, 13, 37, 70, 100, 405])
    d_t = rng.choice([1, 2, 10, 15, 30, 100, 200])
    c = training.flops(n_b * 1e9, d_t * 1e12)
    return (f"Training FLOPs for {n_b}B (active) parameters on {d_t}T tokens? (e.g. 1.2e24)", c,
            f"6 × {n_b}e9 × {d_t}e12 = {c:.3g} FLOP")


def _kv_drill(rng):
    layers = rng.choice([32, 40, 48, 64, 80, 126])
    kv_heads = rng.choice([1, 4, 8, 16])
    head_dim = rng.choice([64, 128, 256])
    dtype = rng.choice(["bf16", "fp8"])
    m = models.Model(name="drill model", total_params=1e9, active_params=1e9, n_layers=layers,
                     d_model=kv_heads * head_dim * 8, n_heads=kv_heads * 8, n_kv_heads=kv_heads,
                     head_dim=head_dim)
    kv = m.kv_bytes_per_token(dtype) / 1e3
    return (f"{layers} layers, {kv_heads * 8} query heads, {kv_heads} KV heads, head_dim {head_dim}, "
            f"KV stored in {dtype}: KV cache per token, in kB?", kv,
            f"2 × {layers} × {kv_heads} (KV heads, not query heads) × {head_dim} × bytes = {kv:.4g} kB")


def _chinchilla_drill(rng):
    n_b = rng.choice([8, 30, 70, 100, 400])
    d_t = rng.choice([2, 15, 36, 100, 200])
    x = training.overtraining(n_b * 1e9, d_t * 1e12)
    per = training.CHINCHILLA_TOKENS_PER_PARAM
    return (f"{n_b}B parameters trained on {d_t}T tokens: how many times the Chinchilla-optimal "
            f"token count ({per} tokens per parameter)?", x, f"{d_t}e12 / ({per} × {n_b}e9) = {x:.3g}×")


DRILLS = [
    Drill("D1.drain", 1, _drain_drill, unit="ms", notebook="02"),
    Drill("D1.balance", 1, _balance_drill, unit="sequences", rtol=0.03, notebook="02"),
    Drill("D1.weight_read", 1, _weight_read_drill, unit="ms", notebook="01"),
    Drill("D5.six_nd", 5, _six_nd_drill, unit="FLOP", notebook="06"),
    Drill("D6.kv_bytes", 6, _kv_drill, unit="kB", notebook="07"),
    Drill("D5.chinchilla", 5, _chinchilla_drill, unit="×", notebook="06"),
]
