"""Problem bank for notebook 08 (mixing, Feistel networks, reversible layers and training memory;
lecture chapter 7).

Every expected value is computed by lecture_lib when check() runs. The "given" numbers live in GIVEN,
so the worksheet prints exactly what the bank checks against.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import sympy as sp

from .. import mixing, models, training
from .. import notation as nt
from ..units import TB
from .problems import Problem, Slip, register

#: the worksheet's numbers (bits, tokens, bytes; seeds for the experiments)
GIVEN = SimpleNamespace(
    # problems 1-2: syllabus §5 ch.7 problems 1 and 2, f(x) = x²
    x=3, y=5,
    # problems 3-5: the toy cipher
    n_bits=64, cipher_rounds=2, cipher_seed=7, trials=2000, trials_seed=1,
    # problems 6-8: training memory
    model="Llama-3-70B", tokens=1e6, dtype="bf16",
    toy_layers=100, toy_d_model=8192,          # syllabus §5 ch.7 problem 3
)

#: the symbols a worksheet answer may use (f is a function: write f(b))
F_SYM = sp.Function("f")
A_SYM, B_SYM = sp.symbols("a b")


def square(v):
    return v * v


def _toy_model():
    """Syllabus problem 3's model: 100 layers of width 8,192 (only the architecture numbers matter)."""
    return models.Model(name="syllabus-100-layers", total_params=1e11, active_params=1e11,
                        n_layers=GIVEN.toy_layers, d_model=GIVEN.toy_d_model, n_heads=64, n_kv_heads=8,
                        head_dim=128)


def _measured(rounds):
    cipher = mixing.FeistelCipher.random(rounds=8, seed=GIVEN.cipher_seed)
    return mixing.avalanche(lambda v: cipher.encrypt(v, rounds=rounds), GIVEN.n_bits, GIVEN.trials,
                            np.random.default_rng(GIVEN.trials_seed))


register(Problem(
    id="08.feistel_z", title="one Feistel step with f(x) = x²", unit="", points=1, rtol=1e-9,
    expected=lambda: mixing.feistel_forward(GIVEN.x, GIVEN.y, square)[1],
    slips=[Slip(lambda: GIVEN.y + GIVEN.x, "You added x itself; the step adds f(x) = x²."),
           Slip(lambda: GIVEN.x + square(GIVEN.y), "You applied f to y. The step keeps x and adds f(x) to y.")],
    hints=["(x, y) -> (x, y + f(x)): the second output is z = y + f(x)."],
))

register(Problem(
    id="08.lecture_inverse_expr", title="invert the lecture's reversible layer", kind="symbolic", points=2,
    expected=lambda: mixing.lecture_step_inverse(A_SYM, B_SYM, F_SYM)[1],
    symbols={"a": A_SYM, "b": B_SYM, "f": F_SYM},
    slips=[Slip(lambda: A_SYM - F_SYM(A_SYM),
                "You evaluated f at a. The layer computed f(x) from the OLD x, which is now the second output b."),
           Slip(lambda: B_SYM, "b is x, the first input. The question asks for y.")],
    hints=["The layer is (x, y) -> (a, b) = (y + f(x), x). Which output is x, unchanged?",
           "Read off x = b; then a = y + f(b)."],
))

register(Problem(
    id="08.avalanche_round1_pct", title="avalanche after one round, predicted", unit="%", points=2,
    rtol=0.01, expected=lambda: 100 * mixing.feistel_avalanche_model(1, GIVEN.n_bits),
    slips=[Slip(lambda: 100 * (1 + GIVEN.n_bits / 4) / GIVEN.n_bits,
                "That is the case of a flip in R only. The flipped bit is in L half of the time, and then "
                "one round moves just that one bit."),
           Slip(lambda: mixing.feistel_avalanche_model(1, GIVEN.n_bits),
                "That looks like a fraction; the question asks for a percentage.")],
    hints=["Average two cases of equal odds: the flipped bit in L, or in R.",
           "A changed input to F flips half of F's n/2 output bits, n/4 on average."],
))

register(Problem(
    id="08.avalanche_measured", title="avalanche of the toy cipher after two rounds, measured", unit="",
    points=2, rtol=1e-6, expected=lambda: _measured(GIVEN.cipher_rounds),
    slips=[Slip(lambda: _measured(8), "That is the full 8-round cipher; the question asks for 2 rounds."),
           Slip(lambda: mixing.feistel_avalanche_model(GIVEN.cipher_rounds, GIVEN.n_bits),
                "That is the random-function prediction; the question asks for the measurement with the given "
                "cipher, trials and seed.")],
    hints=["Build the printed cipher, then restrict it to its first two rounds: "
           "f = lambda v: cipher.encrypt(v, rounds=2).",
           "Pass exactly the given number of trials and a FRESH generator, np.random.default_rng(seed): "
           "a generator that has already drawn gives other numbers."],
))

register(Problem(
    id="08.differentials_choice", title="when do certain differentials disappear?", kind="choice", points=1,
    choices={"a": "After one round: F scrambles whatever it touches.",
             "b": "After two rounds: by then both halves have been through F.",
             "c": "After three rounds: after two, flipping a bit of L still flips the same bit of the "
                  "output's left half with certainty.",
             "d": "Never: a Feistel network is linear in L."},
    expected=lambda: "c",
    hints=["Trace a flip in L through two rounds: L1 = R0, R1 = L0 xor F(R0), L2 = R1, ...",
           "mixing.flip_probabilities shows the cells stuck at 0 or 1 per round."],
))

register(Problem(
    id="08.activation_tb", title="activations a backward pass keeps (Llama-3-70B)", unit="TB", points=2,
    rtol=0.01, expected=lambda: mixing.activation_bytes(GIVEN.model, GIVEN.tokens, GIVEN.dtype) / TB,
    slips=[Slip(lambda: mixing.residual_stream_bytes(GIVEN.model, GIVEN.tokens, GIVEN.dtype) / TB,
                "That is the lecture's one-vector-per-layer count. The standard count keeps about 34·d_model "
                "bytes per token per layer (matmul inputs, nonlinearity inputs, LayerNorm inputs, masks)."),
           Slip(lambda: mixing.activation_bytes(GIVEN.model, GIVEN.tokens, GIVEN.dtype)
                / models.get(GIVEN.model).n_layers / TB,
                "That is one layer's worth; multiply by the number of layers.")],
    hints=["mixing.layer_bytes_per_token(model) is 34·d_model bytes in bf16 (Korthikanti et al. 2022).",
           "× n_layers × tokens; 1 TB = 1e12 bytes."],
))

register(Problem(
    id="08.syllabus_memory_tb", title="syllabus problem 3: one vector per token per layer", unit="TB",
    points=1, rtol=0.01,
    expected=lambda: mixing.residual_stream_bytes(_toy_model(), GIVEN.tokens, GIVEN.dtype) / TB,
    slips=[Slip(lambda: mixing.residual_stream_bytes(_toy_model(), GIVEN.tokens, "fp8") / TB,
                "That counts one byte per number; bf16 takes two."),
           Slip(lambda: mixing.residual_stream_bytes(_toy_model(), GIVEN.tokens, GIVEN.dtype) / GIVEN.toy_layers / TB,
                "That is one layer: what a reversible net keeps. The question asks for all layers.")],
    hints=["layers × tokens × d_model × bytes per number."],
))

register(Problem(
    id="08.korthikanti_expr", title="bytes per token per layer in bf16, with dropout", kind="symbolic",
    points=2,
    expected=lambda: mixing.layer_bytes_per_token_expr.subs({nt.b_act: 2, nt.b_mask: 1}),
    symbols={"d_model": nt.d_model, "n_heads": nt.n_heads, "L_seq": nt.L_seq},
    slips=[Slip(lambda: mixing.layer_bytes_per_token_expr.subs({nt.b_act: 2, nt.b_mask: 0}),
                "You left out the dropout masks: one byte per element, 2·d_model + n_heads·L_seq per token."),
           Slip(lambda: mixing.layer_bytes_per_token_expr.subs({nt.b_act: 2, nt.b_mask: 1, nt.L_seq: 0}),
                "You left out the attention scores: 2 elements (softmax and dropout outputs) plus a mask byte "
                "per head per key token.")],
    hints=["Substitute b_act = 2 and b_mask = 1 into mixing.layer_bytes_per_token_expr.",
           "The paper writes it as s·b·h·(34 + 5·a·s/h) for s·b tokens."],
))

register(Problem(
    id="08.recompute_pct", title="extra compute of one more forward pass", unit="%", points=1, rtol=0.01,
    expected=lambda: 100 * mixing.recompute_overhead(),
    slips=[Slip(lambda: 100 * training.FORWARD_FLOPS_PER_PARAM / training.BACKWARD_FLOPS_PER_PARAM,
                "You compared the extra forward with the backward pass alone; compare with forward + backward."),
           Slip(lambda: 100 * training.FORWARD_FLOPS_PER_PARAM / (2 * training.FORWARD_FLOPS_PER_PARAM
                                                                + training.BACKWARD_FLOPS_PER_PARAM),
                "That is the extra forward as a share of the NEW total; the question asks relative to standard "
                "training.")],
    hints=["Standard training: 2 (forward) + 4 (backward) FLOPs per parameter per token.",
           "Recomputing adds one forward: 2 more."],
))

register(Problem(
    id="08.trade_choice", title="which way does each trade go?", kind="choice", points=1,
    choices={"a": "Both the KV cache and reversible layers spend memory to save compute.",
             "b": "The KV cache spends memory to save compute; reversible layers spend compute to save memory.",
             "c": "The KV cache spends compute to save memory; reversible layers spend memory to save compute.",
             "d": "Both spend compute to save memory."},
    expected=lambda: "b",
    hints=["Without a KV cache, what would each decode step have to redo?",
           "Without stored activations, what must the backward pass redo?"],
))


__all__ = ["GIVEN", "F_SYM", "A_SYM", "B_SYM", "square"]
