"""Flashcards for notebook 08 (lecture chapter 7: nets and ciphers): numeric cards and drills (see cards.py).

The chapter's two lecture cards (26-27) are L7.01 and L7.02 in cards_lecture.py. Every answer here is
computed by lecture_lib when the deck is built. Ids start with "N7." (numeric) and "D7." (drills).
"""
from __future__ import annotations

import random

from ..units import fmt
from .cards import Card, Drill

NOTEBOOK = "08"
CHAPTER = 7


def _card(cid, front, back, value, unit, rtol=0.02, tags=()):
    return Card(cid, CHAPTER, front, back, NOTEBOOK, ("nets-and-ciphers",) + tuple(tags), float(value), unit,
                rtol, "numeric")


def cards() -> list[Card]:
    """The numeric cards of notebook 08 (computed now, from the library)."""
    from .. import mixing, models, training
    from ..units import TB
    out = []

    r1 = mixing.feistel_avalanche_model(1)
    r2 = mixing.feistel_avalanche_model(2)
    out.append(_card("N7.avalanche_round1", "A Feistel network on 64-bit blocks with a random round function: "
                     "what fraction of the output bits does one flipped input bit change after ONE round, on "
                     "average? (0 to 1)",
                     f"{r1:.3f} = (1 + (1 + 16)) / 2 / 64: a flip in L just moves; a flip in R moves and changes "
                     f"F's input, which flips half of its 32 output bits. Two rounds: {r2:.3f}; three: "
                     f"{mixing.feistel_avalanche_model(3):.1f}.",
                     r1, "", 0.02))

    out.append(_card("N7.rounds_to_half", "How many rounds does a Feistel network with a random round function "
                     "need before a one-bit flip changes half of the output bits (and no output bit is "
                     "predictable)?",
                     "3: after two rounds, a flip in L still reappears in the left half with certainty "
                     "(Luby-Rackoff: three rounds for a pseudorandom permutation).",
                     next(r for r in range(10) if mixing.feistel_avalanche_model(r) == 0.5), "rounds", 0.01))

    l70 = models.get("Llama-3-70B")
    per = mixing.layer_bytes_per_token(l70)
    out.append(_card("N7.bytes_per_token_layer", "Korthikanti et al.'s activation count in bf16 (attention scores "
                     "left to a fused kernel): bytes per token per layer, in units of d_model?",
                     f"{per / l70.d_model:.0f}·d_model: 16 numbers × 2 bytes (matmul, GeLU and LayerNorm inputs) "
                     "+ 2 one-byte dropout masks. With stored attention scores add 5·n_heads·L_seq.",
                     per / l70.d_model, "× d_model", 0.01))

    stored = mixing.activation_bytes(l70, 1e6)
    k = per / l70.d_model
    out.append(_card("N7.llama70_activations", f"Llama-3-70B (d_model {l70.d_model:,}, {l70.n_layers} layers), 1M "
                     f"tokens in flight, bf16, {k:.0f}·d_model bytes per token per layer: activation memory in TB?",
                     f"{stored / TB:.1f} TB = {k:.0f} × {l70.d_model:,} × {l70.n_layers} × 1e6 bytes; a reversible "
                     "version keeps "
                     f"{fmt(mixing.reversible_bytes(l70, 1e6), 'B')}.", stored / TB, "TB", 0.02))

    toy = models.Model(name="syllabus-100-layers", total_params=1e11, active_params=1e11, n_layers=100,
                       d_model=8192, n_heads=64, n_kv_heads=8, head_dim=128)
    lect = mixing.residual_stream_bytes(toy, 1e6)
    out.append(_card("N7.syllabus_memory", "100 layers, one bf16 vector of 8,192 per token per layer, 1M tokens: "
                     "activation memory in TB?",
                     f"{lect / TB:.2f} TB = 100 × 1e6 × 8,192 × 2 B; one layer's worth is "
                     f"{fmt(lect / 100, 'B')}.", lect / TB, "TB", 0.02))

    extra = mixing.recompute_overhead()
    out.append(_card("N7.recompute_pct", "Rebuilding activations (reversible layers or recomputation) costs one "
                     "more forward pass. How much more training compute is that, in %?",
                     f"{100 * extra:.0f}%: one more forward of {training.FORWARD_FLOPS_PER_PARAM}·N·D on top of "
                     f"({training.FORWARD_FLOPS_PER_PARAM} + {training.BACKWARD_FLOPS_PER_PARAM})·N·D.",
                     100 * extra, "%", 0.02))

    kv = mixing.kv_cache_trade(l70)
    out.append(_card("N7.kv_trade", f"Llama-3-70B's KV cache keeps 2 × {l70.n_layers} layers × {l70.n_kv_heads} KV "
                     f"heads × {l70.head_dim} × 2 bytes per token. How many "
                     "kB is that, the memory spent to save a forward pass over the token at every decode step?",
                     f"{kv['bytes'] / 1e3:.1f} kB, saving {fmt(kv['flops'], 'FLOP')} (2·N_active) per cached token "
                     "per step: memory for compute, the opposite of a reversible network.",
                     kv["bytes"] / 1e3, "kB", 0.02))
    return out


# --- drills ----------------------------------------------------------------------------------------
def _feistel_drill(rng: random.Random):
    from .. import mixing
    x, y = rng.randint(-9, 9), rng.randint(-20, 20)
    c = rng.choice([1, 2, 3])
    f = lambda v: c * v * v            # noqa: E731
    inverse = rng.random() < 0.5
    if inverse:
        z = mixing.feistel_forward(x, y, f)[1]
        value = mixing.feistel_inverse(x, z, f)[1]
        return (f"Feistel step (x, y) -> (x, y + f(x)) with f(x) = {c}·x². The output is ({x}, {z}). What was y?",
                value, f"y = z − f(x) = {z} − {c}·({x})² = {value}")
    value = mixing.feistel_forward(x, y, f)[1]
    return (f"Feistel step (x, y) -> (x, y + f(x)) with f(x) = {c}·x². Input ({x}, {y}): the second output z?",
            value, f"z = y + f(x) = {y} + {c}·({x})² = {value}")


def _activation_drill(rng: random.Random):
    from .. import mixing, models
    d = rng.choice([2048, 4096, 5120, 8192, 12288, 16384])
    layers = rng.choice([24, 32, 40, 48, 64, 80, 96, 126])
    tokens = rng.choice([1e5, 2.5e5, 5e5, 1e6, 4e6])
    m = models.Model(name="drill", total_params=1e10, active_params=1e10, n_layers=layers, d_model=d,
                     n_heads=d // 128, n_kv_heads=8 if d >= 1024 else 1, head_dim=128)
    value = mixing.activation_bytes(m, tokens) / 1e9
    k = mixing.layer_bytes_per_token(m) / d
    return (f"A model with d_model = {d:,} and {layers} layers trains with {tokens:,.0f} tokens in flight. "
            f"Activations at {k:.0f}·d_model bytes per token per layer (bf16): how many GB?", value,
            f"{k:.0f} × {d:,} × {layers} × {tokens:,.0f} B = {value:,.4g} GB")


def _avalanche_drill(rng: random.Random):
    from .. import mixing
    n = rng.choice([16, 32, 48, 64, 128, 256])
    r = rng.choice([0, 1, 2, 3])
    value = mixing.feistel_avalanche_model(r, n)
    return (f"An ideal Feistel network on {n}-bit blocks (random round function): expected fraction of output "
            f"bits flipped by one input bit after {r} round{'s' if r != 1 else ''}? (0 to 1)", value,
            "0: 1/n; 1: (2 + n/4)/(2n); 2: (1 + 3n/4)/(2n); 3 or more: 1/2. Here " f"{value:.4g}")


DRILLS = [
    Drill("D7.feistel", CHAPTER, _feistel_drill, unit="", rtol=1e-9, notebook=NOTEBOOK),
    Drill("D7.activations", CHAPTER, _activation_drill, unit="GB", rtol=0.02, notebook=NOTEBOOK),
    Drill("D7.avalanche", CHAPTER, _avalanche_drill, unit="", rtol=0.02, notebook=NOTEBOOK),
]
