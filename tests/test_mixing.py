"""Tests for lecture_lib.mixing (chapter 7): invertible layers, avalanche, the toy cipher, the random MLP,
and training memory stored vs reversible.

Expected values come from outside the code under test: the syllabus's worked answers (§5 ch.7),
Korthikanti et al. 2022's published per-layer count (arXiv 2205.05198), bounds derived by hand from the
Feistel structure, finite differences, and functions whose avalanche is known exactly.
"""
import numpy as np
import pytest
import sympy as sp

from lecture_lib import mixing, models
from lecture_lib.notation import L_seq, b_act, b_mask, d_model, n_heads, n_layers, n_tok

rng = np.random.default_rng(20260429)


# --- 1. Feistel and RevNet ---------------------------------------------------------------------------
def test_feistel_syllabus_problem_1_and_2_by_hand():
    square = lambda x: x * x                                             # noqa: E731
    assert mixing.feistel_forward(3, 5, square) == (3, 14)                # (3, 5 + 9)
    assert mixing.feistel_inverse(3, 14, square) == (3, 5)
    assert mixing.lecture_step(3, 5, square) == (14, 3)                   # (y + f(x), x)
    assert mixing.lecture_step_inverse(14, 3, square) == (3, 5)           # x = b, y = a - f(b)


def test_feistel_inverts_a_non_invertible_mlp():
    f = mixing.random_mlp_function(16, rng, hidden=4)                     # 16 -> 4 -> 16: a bottleneck
    x, y = rng.standard_normal((5, 16)), rng.standard_normal((5, 16))
    null = np.linalg.svd(f.W1.T)[2][-1]                                   # a direction W1 cannot see
    np.testing.assert_allclose(f(x + 3 * null), f(x), atol=1e-12)         # f loses information ...
    x2, z = mixing.feistel_forward(x, y, f)
    xr, yr = mixing.feistel_inverse(x2, z, f)
    np.testing.assert_allclose(yr, y, rtol=0, atol=1e-14)                 # ... the Feistel step does not
    assert xr is x2


def test_two_lecture_steps_are_one_gomez_block():
    f, g = mixing.random_mlp_function(8, rng), mixing.random_mlp_function(8, rng)
    x1, x2 = rng.standard_normal((3, 8)), rng.standard_normal((3, 8))
    a, b = mixing.lecture_step(x2, x1, f)          # (x1 + f(x2), x2)
    c, d = mixing.lecture_step(a, b, g)            # (x2 + g(x1 + f(x2)), x1 + f(x2))
    y1, y2 = mixing.revnet_forward(x1, x2, [f], [g])
    np.testing.assert_array_equal(d, y1)
    np.testing.assert_array_equal(c, y2)


def test_revnet_roundtrip_100_layers_float64_and_float32():
    for dtype, tol in ((np.float64, 1e-10), (np.float32, 1e-2)):
        r = np.random.default_rng(3)
        fs, gs = mixing.random_revnet(100, 16, r, dtype=dtype)
        x1, x2 = (r.standard_normal((4, 16)).astype(dtype) for _ in range(2))
        y1, y2 = mixing.revnet_forward(x1, x2, fs, gs)
        assert y1.dtype == dtype and not np.allclose(y1, x1)
        r1, r2 = mixing.revnet_inverse(y1, y2, fs, gs)
        scale = max(np.abs(x1).max(), np.abs(x2).max())
        assert max(np.abs(r1 - x1).max(), np.abs(r2 - x2).max()) < tol * scale


def test_revnet_roundtrip_error_grows_with_depth_and_precision():
    out = {}
    for dtype in (np.float64, np.float32):
        fs, gs = mixing.random_revnet(100, 32, np.random.default_rng(1), dtype=dtype)
        x1, x2 = (np.random.default_rng(2).standard_normal((16, 32)).astype(dtype) for _ in range(2))
        out[dtype] = mixing.revnet_roundtrip_error(x1, x2, fs, gs, [1, 10, 100])
    assert out[np.float64][0] < 10 * np.finfo(np.float64).eps           # one layer: a few roundings
    assert out[np.float64][-1] < 1e-11 and out[np.float32][-1] > 1e3 * out[np.float64][-1]
    for e in out.values():
        assert e[-1] > 10 * e[0]                                           # and it grows with depth


def test_revnet_bad_input_names_the_parameter():
    f = mixing.random_mlp_function(4, rng)
    with pytest.raises(ValueError, match="fs and gs"):
        mixing.revnet_forward(np.zeros(4), np.zeros(4), [f, f], [f])
    with pytest.raises(TypeError, match="gs"):
        mixing.revnet_inverse(np.zeros(4), np.zeros(4), [f], f)
    with pytest.raises(TypeError, match=r"fs\[0\]"):
        mixing.revnet_forward(np.zeros(4), np.zeros(4), [3], [f])
    with pytest.raises(TypeError, match="f must be a function"):
        mixing.feistel_forward(1, 2, None)
    with pytest.raises(ValueError, match="depths"):
        mixing.revnet_roundtrip_error(np.zeros(4), np.zeros(4), [f], [f], [2])


# --- 2. avalanche ------------------------------------------------------------------------------------
def test_avalanche_of_functions_known_exactly():
    r = np.random.default_rng(5)
    assert mixing.avalanche(lambda x: x, 64, 100, r) == pytest.approx(1 / 64)            # one bit in, one out
    assert mixing.avalanche(lambda x: x ^ 0xFFFF, 16, 100, r) == pytest.approx(1 / 16)   # xor a constant
    assert mixing.avalanche(lambda x: 7, 8, 50, r) == 0                                  # ignores its input
    rev = lambda x: int(f"{x:012b}"[::-1], 2)                                            # noqa: E731
    assert mixing.avalanche(rev, 12, 50, r) == pytest.approx(1 / 12)                     # Python-only path
    assert mixing.avalanche(lambda x: x, 100, 20, r) == pytest.approx(1 / 100)           # more than 64 bits
    perm = np.random.default_rng(9).permutation(2 ** 12).astype(np.uint64)
    # a random permutation of 12-bit words: E[distance] = 12/2 · 4096/4095 bits, ±0.01 at 4,000 trials
    assert mixing.avalanche(lambda x: perm[x], 12, 4000, r) == pytest.approx(0.5 * 4096 / 4095, abs=0.01)


def test_avalanche_bad_input():
    with pytest.raises(ValueError, match="n_bits"):
        mixing.avalanche(lambda x: x, 0, 10, rng)
    with pytest.raises(ValueError, match="trials"):
        mixing.avalanche(lambda x: x, 8, 0, rng)
    with pytest.raises(ValueError, match="8-bit"):
        mixing.avalanche(lambda x: x + 1000, 8, 10, rng)
    with pytest.raises(TypeError, match="encrypt"):
        mixing.avalanche("not a function", 8, 10, rng)


def test_popcount():
    x = np.array([0, 1, 3, 2 ** 63, 2 ** 64 - 1], dtype=np.uint64)
    assert mixing.popcount(x).tolist() == [0, 1, 2, 1, 64]


def test_cipher_decrypts_and_scalar_equals_vector():
    c = mixing.FeistelCipher.random(16, seed=4)
    x = np.random.default_rng(0).integers(0, 2 ** 64, size=200, dtype=np.uint64)
    np.testing.assert_array_equal(c.decrypt(c.encrypt(x)), x)
    assert c.decrypt(c.encrypt(12345)) == 12345 and isinstance(c.encrypt(12345), int)
    assert c.encrypt(int(x[7])) == int(c.encrypt(x)[7])
    assert c.encrypt(x, rounds=0).tolist() == x.tolist()
    with pytest.raises(ValueError, match="rounds"):
        c.encrypt(x, rounds=17)
    with pytest.raises(ValueError, match="rounds"):
        mixing.FeistelCipher.random(0)


def test_cipher_avalanche_curve_and_the_one_round_bound():
    c = mixing.FeistelCipher.random(8, seed=0)
    curve = mixing.avalanche_curve(c.trace, 64, 2000, np.random.default_rng(1))
    assert curve[0] == pytest.approx(1 / 64)
    # one round, by hand: a flip in L changes 1 bit; a flip in R changes 1 bit plus at most 32 in F's output
    assert curve[1] <= (1 + (1 + 32)) / 2 / 64
    assert abs(curve[4] - 0.5) < 0.02 and np.all(np.abs(curve[4:] - 0.5) < 0.02)
    # the curve and the one-function avalanche draw the same inputs: identical numbers
    for r in (1, 3):
        one = mixing.avalanche(lambda x: c.encrypt(x, rounds=r), 64, 2000, np.random.default_rng(1))
        assert one == curve[r]
    assert mixing.avalanche(lambda x: c.encrypt(x, rounds=3), 64, 300, np.random.default_rng(1),
                            vectorized=False) == mixing.avalanche(lambda x: c.encrypt(x, rounds=3), 64, 300,
                                                                  np.random.default_rng(1))


def test_flip_probabilities_show_the_certain_differentials_of_two_rounds():
    c = mixing.FeistelCipher.random(6, seed=0)
    p = mixing.flip_probabilities(c.trace, 64, 1024, np.random.default_rng(2))
    j = np.arange(32)
    # round 1: R1 = L0 xor F(R0): flipping bit 32+j of L0 flips bit j, always
    assert np.all(p[1][32 + j, j] == 1)
    # round 2: L2 = L0 xor F(R0): the same flip reappears in bit 32+j, and no other bit of L2 moves
    assert np.all(p[2][32 + j, 32 + j] == 1) and p[2][32:, 32:].sum() == 32
    assert np.max(np.abs(p[2] - 0.5)) == 0.5
    assert np.max(np.abs(p[6] - 0.5)) < 0.15            # six rounds: every cell near 1/2


# --- 2b. the random MLP --------------------------------------------------------------------------------
@pytest.mark.parametrize("arch", mixing.ARCHITECTURES)
def test_mlp_jvp_equals_finite_differences(arch):
    m = mixing.RandomMLP.random(6, 16, gain=2.0, architecture=arch, seed=1)
    x, v = rng.standard_normal((3, 16)), rng.standard_normal((3, 16))
    hs, ts = m.jvp_trace(x, v)
    np.testing.assert_allclose(hs, m.trace(x), rtol=1e-12)
    eps = 1e-6
    fd = (m.trace(x + eps * v) - m.trace(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(ts, fd, rtol=1e-5, atol=1e-7)


def test_mlp_bits_and_avalanche():
    m = mixing.RandomMLP.random(8, 64, gain=4.0, seed=2)
    x = np.random.default_rng(0).integers(0, 2 ** 64, size=10, dtype=np.uint64)
    np.testing.assert_array_equal(m.bit_trace(x)[0], x)                    # row 0 is the input
    f = m.as_bit_function(8)
    assert f(int(x[3])) == int(f(x)[3])
    a_vec = mixing.avalanche(f, 64, 200, np.random.default_rng(1))
    assert a_vec == mixing.avalanche(f, 64, 200, np.random.default_rng(1), vectorized=False)
    # residual, layer 1: h + tanh(.) with |tanh| < 1 cannot change the sign of a ±1 input
    res = mixing.RandomMLP.random(4, 64, gain=4.0, architecture="residual", seed=0)
    assert mixing.avalanche_curve(res.bit_trace, 64, 300, np.random.default_rng(0))[1] == pytest.approx(1 / 64)
    with pytest.raises(ValueError, match="architecture"):
        mixing.RandomMLP.random(2, 8, architecture="dense")
    with pytest.raises(ValueError, match="gain"):
        mixing.RandomMLP.random(2, 8, gain=0)


def test_mlp_mixing_regimes():
    # the usual initialisation (gain 1) does not avalanche; a chaotic one approaches 1/2
    assert mixing.mlp_avalanche(1.0, "plain")[-1] < 0.2
    assert mixing.mlp_avalanche(10.0, "plain")[-1] > 0.45
    assert mixing.mlp_avalanche(4.0, "residual+norm")[-1] < mixing.mlp_avalanche(4.0, "plain")[-1]
    s = {a: mixing.mlp_sensitivity(4.0, a) for a in mixing.ARCHITECTURES}
    assert all(v[0] == pytest.approx(1) for v in s.values())
    assert s["plain"][-1] > 1e3 and s["residual+norm"][-1] < s["plain"][-1] / 100
    assert s["residual+norm"][-1] < s["residual"][-1]
    assert 0.5 < mixing.mlp_sensitivity(1.0, "plain")[-1] < 2             # the edge of chaos: neither way
    assert mixing.mlp_sensitivity(100.0, "plain")[-1] < 1e-3              # saturated: mixes, no derivative
    curve = mixing.mlp_avalanche(1.0, "plain")
    with pytest.raises(ValueError):
        curve[0] = 1.0                                                    # cached arrays are read-only


# --- 3. training memory ------------------------------------------------------------------------------
def test_korthikanti_count_by_hand_for_gpt3():
    # Korthikanti et al. 2022, §4.1: s·b·h·(34 + 5·a·s/h) bytes per layer; GPT-3 175B: h = 12288,
    # a = 96, s = 2048, so 5·a·s/h = 80 and one token in one layer keeps 12288 × 114 bytes
    per = mixing.layer_bytes_per_token("GPT-3-175B", "bf16", seq_len=2048)
    assert per == pytest.approx(12288 * 114)
    assert 5 * 96 * 2048 / 12288 == 80
    assert mixing.layer_bytes_per_token("GPT-3-175B") == pytest.approx(12288 * 34)           # scores not kept
    assert mixing.layer_bytes_per_token("GPT-3-175B", dropout=False) == pytest.approx(12288 * 32)
    assert mixing.activation_bytes("GPT-3-175B", 2048, seq_len=2048) == pytest.approx(96 * 2048 * 12288 * 114)


def test_syllabus_problem_3_lecture_count():
    m = models.Model(name="toy-100", total_params=1e11, active_params=1e11, n_layers=100, d_model=8192,
                     n_heads=64, n_kv_heads=8, head_dim=128)
    assert mixing.residual_stream_bytes(m, 1e6, "bf16") == pytest.approx(100 * 1e6 * 8192 * 2)   # ≈1.6 TB
    assert mixing.residual_stream_bytes(m, 1e6) / m.n_layers == pytest.approx(16.384e9)          # one layer
    assert mixing.recompute_overhead() == pytest.approx(1 / 3)
    assert mixing.recompute_overhead_expr() == sp.Rational(1, 3)
    assert mixing.recompute_flops(1e9, 1e12) == pytest.approx(8e21)


def test_memory_expressions_match_numeric_and_order():
    for _ in range(10):
        vals = dict(d_model=rng.uniform(512, 2e4), n_heads=rng.uniform(8, 128), L_seq=rng.uniform(0, 1e5),
                    b_act=rng.choice([1.0, 2.0, 4.0]), b_mask=rng.choice([0.0, 1.0]), n_tok=rng.uniform(1, 1e7),
                    n_layers=rng.uniform(1, 200))
        subs = {d_model: vals["d_model"], n_heads: vals["n_heads"], L_seq: vals["L_seq"], b_act: vals["b_act"],
                b_mask: vals["b_mask"], n_tok: vals["n_tok"], n_layers: vals["n_layers"]}
        sym = float(mixing.activation_bytes_expr.subs(subs))
        by_hand = vals["n_tok"] * vals["n_layers"] * (
            vals["b_act"] * (16 * vals["d_model"] + 2 * vals["n_heads"] * vals["L_seq"])
            + vals["b_mask"] * (2 * vals["d_model"] + vals["n_heads"] * vals["L_seq"]))
        assert sym == pytest.approx(by_hand, rel=1e-12)
    tokens = np.geomspace(1e3, 1e7, 9)
    stored = mixing.activation_bytes("Llama-3-70B", tokens)
    rev = mixing.reversible_bytes("Llama-3-70B", tokens)
    lecture = mixing.residual_stream_bytes("Llama-3-70B", tokens)
    assert np.all(np.diff(stored) > 0) and np.all(rev < lecture) and np.all(lecture < stored)
    assert np.allclose(stored / rev, 80 * 34 / (34 + 2))                  # 80 layers; one layer + one vector
    assert mixing.activation_bytes("Llama-3-70B", 1e6, seq_len=8192) > mixing.activation_bytes("Llama-3-70B", 1e6)
    assert mixing.activation_bytes("Llama-3-70B", 1e6, "fp32") == pytest.approx(
        mixing.activation_bytes("Llama-3-70B", 1e6, "bf16") * (64 + 2) / 34)


def test_trades_against_the_kv_cache():
    kv = mixing.kv_cache_trade("Llama-3-70B")
    assert kv["bytes"] == 2 * 80 * 8 * 128 * 2 and kv["flops"] == pytest.approx(2 * 70.6e9)
    rev = mixing.reversible_trade("Llama-3-70B")
    assert rev["flops"] == pytest.approx(2 * 70.6e9)
    assert rev["bytes"] == pytest.approx(8192 * 34 * 79 - 8192 * 2)


def test_memory_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="tokens"):
        mixing.activation_bytes("Llama-3-70B", 0)
    with pytest.raises(ValueError, match="seq_len"):
        mixing.activation_bytes("Llama-3-70B", 1e6, seq_len=-1)
    with pytest.raises(ValueError, match="dtype"):
        mixing.activation_bytes("Llama-3-70B", 1e6, dtype="fp7")
    with pytest.raises(KeyError, match="Llama-3-70B"):
        mixing.activation_bytes("Llama-3-70b-x", 1e6)


def test_ideal_feistel_model_by_hand_and_against_the_toy_cipher():
    # 64-bit blocks, 32-bit halves, F flips 16 bits on average: round 1 = (1 + 17)/2 = 9 bits,
    # round 2 = (17 + 32)/2 = 24.5 bits, then 32 of 64
    assert mixing.feistel_avalanche_model(1) == pytest.approx(9 / 64)
    assert mixing.feistel_avalanche_model(2) == pytest.approx(24.5 / 64)
    assert mixing.feistel_avalanche_model(0) == pytest.approx(1 / 64)
    assert mixing.feistel_avalanche_model(7) == 0.5
    curve = mixing.avalanche_curve(mixing.FeistelCipher.random(4, seed=1).trace, 64, 4000,
                                   np.random.default_rng(0))
    for r in range(5):
        assert curve[r] == pytest.approx(mixing.feistel_avalanche_model(r), abs=0.01)
    with pytest.raises(ValueError, match="rounds"):
        mixing.feistel_avalanche_model(-1)


def test_training_state_is_16_bytes_per_parameter():
    assert mixing.training_state_bytes("Llama-3-70B") == pytest.approx(16 * 70.6e9)
