"""Mixing: ciphers and neural nets, measured; Feistel and reversible layers; training memory (chapter 7).

The chapter is talk more than blackboard, so this module holds small NumPy experiments and the few
formulas the talk implies:

1. Invertible layers built from any function f, invertible or not (Feistel; Gomez et al. 2017):
       Feistel     (x, y) -> (x, y + f(x))            inverse: y = z - f(x)
       RevNet      y1 = x1 + F(x2),  y2 = x2 + G(y1)  inverse: x2 = y2 - G(y1), x1 = y1 - F(x2)
2. Avalanche: flip one input bit, count the output bits that change (a good cipher: half of them).
   A toy 64-bit Feistel cipher with a random Blowfish-style round function, and a seeded random MLP
   read as a bit function (the signs of its units), measured per round / per layer. The continuous
   analogue: how much a small input change moves each layer (a Jacobian-vector product), for plain,
   residual and residual + normalised MLPs.
3. Memory vs compute in training (SymPy expressions over the notation table):
       activations stored  = n_tok · n_layers · [b_act·(16·d + 2·h·L_seq) + b_mask·(2·d + h·L_seq)]
       reversible network  = n_tok · [d·b_act + one layer's activations]     (rebuilt layer by layer)
       recomputation costs one more forward: (2 + 4 + 2)·N·D instead of 6·N·D, i.e. +1/3.
   The per-layer count is Korthikanti et al. 2022 (arXiv 2205.05198, section 4.1) for a GPT-style
   layer, in elements: 16·d per token (attention 5, MLP 9 with a 4·d hidden layer, two LayerNorm
   inputs 2) plus 2·h·L_seq for the softmax output and its dropout (stored only without a fused
   attention kernel), and 1-byte dropout masks (2·d + h·L_seq). At 2 bytes per element that is the
   paper's 34·d + 5·h·L_seq bytes per token per layer.

Random generators are always passed in or seeded, so every experiment repeats exactly.
Units: bits and fractions are dimensionless; bytes; FLOP (2 per multiply-add); tokens.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from . import models, training
from .formula import numeric, out
from .notation import D, N, L_seq, b_act, b_mask, d_model, n_heads, n_layers, n_tok
from .notation import n_bits as n_bits_sym
from .units import check_at_least, check_positive, dtype_bytes


# --- 1. invertible layers from any function ---------------------------------------------------------
def feistel_forward(x, y, f):
    """One Feistel step: (x, y) -> (x, y + f(x)). f may be any function of x, invertible or not."""
    _check_callable("f", f)
    return x, y + f(x)


def feistel_inverse(x, z, f):
    """Undo feistel_forward: from (x, z = y + f(x)) recover (x, y) with y = z - f(x)."""
    _check_callable("f", f)
    return x, z - f(x)


def lecture_step(x, y, f):
    """The lecture's RevNet layer: (x, y) -> (y + f(x), x): a Feistel step that also swaps the streams."""
    _check_callable("f", f)
    return y + f(x), x


def lecture_step_inverse(a, b, f):
    """Undo lecture_step: from (a, b) = (y + f(x), x) recover x = b, then y = a - f(b)."""
    _check_callable("f", f)
    return b, a - f(b)


def revnet_forward(x1, x2, fs, gs):
    """Reversible blocks of Gomez et al. 2017 (arXiv 1707.04585), one per (F, G) pair, in order:

        y1 = x1 + F(x2),  y2 = x2 + G(y1).

    x1, x2: arrays (the two streams); fs, gs: equal-length lists of per-layer functions.
    Returns (y1, y2) after every layer; nothing in between is kept.
    """
    _check_layers(fs, gs)
    for f, g in zip(fs, gs):
        x1 = x1 + f(x2)
        x2 = x2 + g(x1)
    return x1, x2


def revnet_inverse(y1, y2, fs, gs):
    """Undo revnet_forward layer by layer, last layer first: x2 = y2 - G(y1), then x1 = y1 - F(x2)."""
    _check_layers(fs, gs)
    for f, g in zip(reversed(fs), reversed(gs)):
        y2 = y2 - g(y1)
        y1 = y1 - f(y2)
    return y1, y2


def _check_callable(name, f):
    if not callable(f):
        raise TypeError(f"{name} must be a function of an array, got {f!r}")


def _check_layers(fs, gs):
    for name, seq in (("fs", fs), ("gs", gs)):
        if callable(seq) or not hasattr(seq, "__len__"):
            raise TypeError(f"{name} must be a list of per-layer functions, got {seq!r}")
        for i, f in enumerate(seq):
            _check_callable(f"{name}[{i}]", f)
    if len(fs) != len(gs):
        raise ValueError(f"fs and gs must have one function per layer each; got {len(fs)} and {len(gs)}")


def random_mlp_function(width, rng, hidden=None, dtype=np.float64, scale=1.0):
    """A seeded random two-layer MLP x -> tanh(x·W1)·W2 on rows of width `width`.

    W1 is width × hidden (hidden < width makes it plainly non-invertible: x and x + n map to the same
    output for any n in W1's null space); entries N(0, 1/width) and N(0, scale²/hidden). `dtype`
    (np.float32 or np.float64) is the precision the function computes in. Returns the function,
    with its matrices as attributes W1, W2.
    """
    width, hidden = int(width), int(hidden or width)
    check_at_least("width", width, 1)
    check_at_least("hidden", hidden, 1)
    w1 = (rng.standard_normal((width, hidden)) / np.sqrt(width)).astype(dtype)
    w2 = (scale * rng.standard_normal((hidden, width)) / np.sqrt(hidden)).astype(dtype)

    def f(x):
        return np.tanh(x @ w1) @ w2

    f.W1, f.W2 = w1, w2
    return f


def random_revnet(n_layers, width, rng, dtype=np.float64, scale=1.0):
    """(fs, gs): 2·n_layers seeded random MLP functions for a RevNet whose streams have `width` numbers."""
    check_at_least("n_layers", n_layers, 1)
    fs = [random_mlp_function(width, rng, dtype=dtype, scale=scale) for _ in range(int(n_layers))]
    gs = [random_mlp_function(width, rng, dtype=dtype, scale=scale) for _ in range(int(n_layers))]
    return fs, gs


def revnet_roundtrip_error(x1, x2, fs, gs, depths):
    """Relative error of inverse(forward(x)) after each depth in `depths` (layers 1..depth of fs, gs).

    Error = max |reconstructed - original| / max |original| over both streams (dimensionless); the
    arrays' dtype (and the functions') sets the precision. Returns an array, one value per depth.
    """
    _check_layers(fs, gs)
    depths = np.atleast_1d(np.asarray(depths, dtype=int))
    if depths.min() < 1 or depths.max() > len(fs):
        raise ValueError(f"depths must lie between 1 and the number of layers ({len(fs)}), got {depths}")
    scale = max(np.max(np.abs(x1)), np.max(np.abs(x2)))
    errs = []
    for d in depths:
        y1, y2 = revnet_forward(x1, x2, fs[:d], gs[:d])
        r1, r2 = revnet_inverse(y1, y2, fs[:d], gs[:d])
        errs.append(max(np.max(np.abs(r1 - x1)), np.max(np.abs(r2 - x2))) / scale)
    return np.array(errs, dtype=float)


# --- 2. bits and avalanche -----------------------------------------------------------------------------
_BYTE_COUNTS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def popcount(x) -> np.ndarray:
    """Number of set bits of each element of an unsigned 64-bit integer array."""
    x = np.asarray(x, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):                       # NumPy >= 2
        return np.bitwise_count(x).astype(np.int64)
    as_bytes = np.ascontiguousarray(x).view(np.uint8).reshape(x.shape + (8,))
    return _BYTE_COUNTS[as_bytes].sum(axis=-1)


def _draw(n_bits, trials, rng):
    """The inputs and the flipped bit of each trial (one order of draws, shared by every avalanche)."""
    if n_bits <= 64:
        x = rng.integers(0, 2 ** n_bits, size=trials, dtype=np.uint64, endpoint=False)
    else:
        x = [int.from_bytes(rng.bytes((n_bits + 7) // 8), "little") % (1 << n_bits) for _ in range(trials)]
    bits = rng.integers(0, n_bits, size=trials)
    return x, bits


def _vectorizes(encrypt, n_bits) -> bool:
    """Does `encrypt` take a uint64 array and give, element by element, what it gives for Python ints?"""
    if n_bits > 64:
        return False
    probe = np.array([0, 1, 2 ** (n_bits - 1), 2 ** n_bits - 1, 0x5A5A5A5A5A5A5A5A % 2 ** n_bits],
                     dtype=np.uint64)
    try:
        with np.errstate(all="ignore"):
            y = np.asarray(encrypt(probe))
    except Exception:                      # noqa: BLE001 - any failure means: call it per element
        return False
    if y.shape != probe.shape or y.dtype.kind not in "ui":
        return False
    return all(int(a) == int(encrypt(int(p))) for a, p in zip(y, probe))


def avalanche(encrypt, n_bits, trials, rng, vectorized=None) -> float:
    """Mean fraction of output bits that change when one random input bit flips (dimensionless).

    encrypt: any function from integers of `n_bits` bits to integers of `n_bits` bits (a Python
    function of one int; if it also takes a NumPy uint64 array and agrees element by element, it is
    called once on all trials). trials: random inputs, each with one random bit flipped; rng: a
    np.random.Generator. A good cipher gives 0.5; the identity gives 1/n_bits.
    """
    _check_callable("encrypt", encrypt)
    check_at_least("n_bits", n_bits, 1)
    check_at_least("trials", trials, 1)
    n_bits, trials = int(n_bits), int(trials)
    x, bits = _draw(n_bits, trials, rng)
    if vectorized is None:
        vectorized = _vectorizes(encrypt, n_bits)
    if vectorized:
        x = np.asarray(x, dtype=np.uint64)
        flip = np.left_shift(np.uint64(1), bits.astype(np.uint64))
        y0, y1 = np.asarray(encrypt(x)), np.asarray(encrypt(x ^ flip))
        for y in (y0, y1):
            if y.shape != x.shape or (n_bits < 64 and np.any(y.astype(np.uint64) >> np.uint64(n_bits))):
                raise ValueError(f"encrypt must map {n_bits}-bit integers to {n_bits}-bit integers")
        return float(popcount(y0.astype(np.uint64) ^ y1.astype(np.uint64)).mean() / n_bits)
    changed = 0
    for xi, b in zip(x, bits):
        xi = int(xi)
        y0, y1 = int(encrypt(xi)), int(encrypt(xi ^ (1 << int(b))))
        if not (0 <= y0 < 1 << n_bits and 0 <= y1 < 1 << n_bits):
            raise ValueError(f"encrypt must map {n_bits}-bit integers to {n_bits}-bit integers, "
                             f"got {y0 if not 0 <= y0 < 1 << n_bits else y1}")
        changed += bin(y0 ^ y1).count("1")
    return changed / (trials * n_bits)


def avalanche_curve(trace, n_bits, trials, rng) -> np.ndarray:
    """Avalanche after every round / layer, in one pass (dimensionless, index 0 = the input itself).

    trace: a function from a uint64 array of inputs (N,) to the states after each step, (steps+1, N)
    uint64 (e.g. FeistelCipher.trace, RandomMLP.bit_trace). Draws inputs and flipped bits exactly as
    `avalanche` does, so curve[r] equals avalanche(<the first r steps>, n_bits, trials, rng) for a
    generator in the same state.
    """
    _check_callable("trace", trace)
    check_at_least("trials", trials, 1)
    if not 1 <= n_bits <= 64:
        raise ValueError(f"n_bits must be between 1 and 64 for avalanche_curve, got {n_bits!r}")
    x, bits = _draw(int(n_bits), int(trials), rng)
    flip = np.left_shift(np.uint64(1), bits.astype(np.uint64))
    t0, t1 = np.asarray(trace(x), dtype=np.uint64), np.asarray(trace(x ^ flip), dtype=np.uint64)
    return popcount(t0 ^ t1).mean(axis=1) / n_bits


def flip_probabilities(trace, n_bits, trials, rng) -> np.ndarray:
    """P(output bit j flips | input bit i flips) after every step: array (steps+1, n_bits, n_bits).

    The strict avalanche criterion (Webster & Tavares 1985) asks for 1/2 everywhere; a cell stuck at
    0 or 1 is a differential that holds with certainty, the foothold of differential cryptanalysis.
    """
    check_at_least("trials", trials, 1)
    n_bits, trials = int(n_bits), int(trials)
    x, _ = _draw(n_bits, trials, rng)
    t0 = np.asarray(trace(x), dtype=np.uint64)
    shifts = np.arange(n_bits, dtype=np.uint64)
    out_p = np.empty((t0.shape[0], n_bits, n_bits))
    for i in range(n_bits):
        diff = t0 ^ np.asarray(trace(x ^ (np.uint64(1) << np.uint64(i))), dtype=np.uint64)
        out_p[:, i, :] = ((diff[..., None] >> shifts) & np.uint64(1)).mean(axis=1)
    return out_p


# --- 2a. a toy block cipher ------------------------------------------------------------------------------
_MASK32 = np.uint64(0xFFFFFFFF)


@dataclass(frozen=True, eq=False)
class FeistelCipher:
    """A toy Feistel block cipher on 64-bit blocks (two 32-bit halves L, R).

    Round i: (L, R) -> (R, L xor F(R xor K_i)), with Blowfish's round function (Schneier 1993)
    F(x) = ((S0[a] + S1[b]) xor S2[c]) + S3[d] mod 2^32 over the bytes a, b, c, d of x, and four
    random 8-bit -> 32-bit S-boxes. F is not invertible; the cipher is. For teaching only: it has
    no key schedule worth the name and no analysis behind it.
    """
    sboxes: np.ndarray    # (4, 256) uint32
    keys: np.ndarray      # (rounds,) uint32 round keys

    @classmethod
    def random(cls, rounds: int = 16, seed: int = 0) -> "FeistelCipher":
        """A cipher with S-boxes and round keys drawn from np.random.default_rng(seed)."""
        check_at_least("rounds", rounds, 1)
        rng = np.random.default_rng(seed)
        sboxes = rng.integers(0, 2 ** 32, size=(4, 256), dtype=np.uint32)
        keys = rng.integers(0, 2 ** 32, size=int(rounds), dtype=np.uint32)
        return cls(sboxes, keys)

    @property
    def rounds(self) -> int:
        return len(self.keys)

    def round_function(self, x) -> np.ndarray:
        """F on 32-bit words (uint32 array in, uint32 array out)."""
        x = np.atleast_1d(np.asarray(x, dtype=np.uint32))
        s = self.sboxes
        return ((s[0][x >> 24] + s[1][(x >> 16) & 0xFF]) ^ s[2][(x >> 8) & 0xFF]) + s[3][x & 0xFF]

    def _rounds(self, rounds):
        rounds = self.rounds if rounds is None else int(rounds)
        if not 0 <= rounds <= self.rounds:
            raise ValueError(f"rounds must be between 0 and {self.rounds}, got {rounds!r}")
        return rounds

    def trace(self, x, rounds=None) -> np.ndarray:
        """The 64-bit state before round 1 and after every round: (rounds+1, N) uint64."""
        rounds = self._rounds(rounds)
        x = np.atleast_1d(np.asarray(x, dtype=np.uint64))
        left, right = (x >> np.uint64(32)).astype(np.uint32), (x & _MASK32).astype(np.uint32)
        states = [x]
        for k in self.keys[:rounds]:
            left, right = right, left ^ self.round_function(right ^ k)
            states.append((left.astype(np.uint64) << np.uint64(32)) | right.astype(np.uint64))
        return np.stack(states)

    def encrypt(self, x, rounds=None):
        """Encrypt 64-bit blocks (an int or a uint64 array) with the first `rounds` rounds (default all)."""
        y = self.trace(x, rounds)[-1]
        return int(y[0]) if np.ndim(x) == 0 else y.reshape(np.shape(x))

    def decrypt(self, c, rounds=None):
        """Undo encrypt: run the rounds backwards, (L, R) = (R' xor F(L' xor K_i), L')."""
        rounds = self._rounds(rounds)
        c1 = np.atleast_1d(np.asarray(c, dtype=np.uint64))
        left, right = (c1 >> np.uint64(32)).astype(np.uint32), (c1 & _MASK32).astype(np.uint32)
        for k in self.keys[:rounds][::-1]:
            left, right = right ^ self.round_function(left ^ k), left
        y = (left.astype(np.uint64) << np.uint64(32)) | right.astype(np.uint64)
        return int(y[0]) if np.ndim(c) == 0 else y.reshape(np.shape(c))


#: Expected avalanche of a Feistel network after 0, 1, 2 and 3+ rounds if F behaved as a random function
#: (a fresh random word whenever its input changes: half of a half's bits flip). The flipped input bit
#: is in L or in R with equal odds; the two cases, per round:
#:   r = 1   L-flip: only that bit (now in R).           R-flip: that bit (now in L) + F's output in R
#:   r = 2   L-flip: the bit (in L) + F's output in R.   R-flip: F's output in L + F's output in R
#:   r >= 3  every half has passed through F at least once since the flip: half of all bits
_HALF = n_bits_sym / 2
feistel_avalanche_exprs = (
    1 / n_bits_sym,
    (1 + (1 + _HALF / 2)) / 2 / n_bits_sym,
    ((1 + _HALF / 2) + (_HALF / 2 + _HALF / 2)) / 2 / n_bits_sym,
    sp.Rational(1, 2),
)


def feistel_avalanche_model(rounds, n_bits=64) -> float:
    """Expected fraction of output bits flipped after `rounds` rounds of an ideal Feistel network."""
    check_at_least("rounds", rounds, 0)
    check_at_least("n_bits", n_bits, 2)
    expr = feistel_avalanche_exprs[min(int(rounds), 3)]
    return numeric(expr)(**({"n_bits": n_bits} if expr.free_symbols else {}))


# --- 2b. a random MLP ------------------------------------------------------------------------------------
ARCHITECTURES = ("plain", "residual", "residual+norm")
LAYERNORM_EPS = 1e-5


#: OpenBLAS spreads a product of more than 2^18 multiply-adds over threads; for these small layers
#: that costs ten times more than it saves on a busy 2-core machine, so rows go in blocks below it
_ROW_BLOCK = 64


def _matmul(a, w):
    """a @ w, in blocks of rows small enough that BLAS keeps each product on one thread."""
    if a.shape[0] <= _ROW_BLOCK:
        return a @ w
    return np.concatenate([a[i:i + _ROW_BLOCK] @ w for i in range(0, a.shape[0], _ROW_BLOCK)])


def _layernorm(h):
    c = h - h.mean(axis=-1, keepdims=True)
    sigma = np.sqrt((c * c).mean(axis=-1, keepdims=True) + LAYERNORM_EPS)
    return c, sigma


@dataclass(frozen=True, eq=False)
class RandomMLP:
    """A randomly initialised MLP of `depth` square layers (no biases, tanh), in one of three forms:

        plain            h' = tanh(g · h W)
        residual         h' = h + tanh(g · h W)
        residual+norm    h' = h + tanh(g · LN(h) W)       (pre-LayerNorm, no learned scale)

    W ~ N(0, 1/width) per entry, g = `gain` (g = 1 is the usual initialisation; larger g is the
    "chaotic" regime of Poole et al. 2016, arXiv 1606.05340). Inputs are rows of width `width`;
    as a bit function, bit k of a 64-bit word is input +1 (bit 0) or -1 (bit 1) and each layer's bits
    are the signs of its units.
    """
    weights: np.ndarray     # (depth, width, width)
    gain: float = 1.0
    architecture: str = "plain"

    def __post_init__(self):
        check_positive("gain", self.gain)
        if self.architecture not in ARCHITECTURES:
            raise ValueError(f"architecture must be one of {ARCHITECTURES}, got {self.architecture!r}")

    @classmethod
    def random(cls, depth: int, width: int = 64, gain: float = 1.0, architecture: str = "plain",
               seed: int = 0) -> "RandomMLP":
        """Weights drawn from np.random.default_rng(seed)."""
        check_at_least("depth", depth, 1)
        check_at_least("width", width, 1)
        rng = np.random.default_rng(seed)
        w = rng.standard_normal((int(depth), int(width), int(width))) / np.sqrt(width)
        return cls(w, float(gain), architecture)

    @property
    def depth(self) -> int:
        return self.weights.shape[0]

    @property
    def width(self) -> int:
        return self.weights.shape[1]

    def _branch_input(self, h):
        if self.architecture == "residual+norm":
            c, sigma = _layernorm(h)
            return c / sigma
        return h

    def layer(self, i: int, h):
        """Layer i applied to rows h."""
        z = np.tanh(self.gain * _matmul(self._branch_input(h), self.weights[i]))
        return z if self.architecture == "plain" else h + z

    def trace(self, x) -> np.ndarray:
        """The input and every layer's output: (depth+1, N, width)."""
        h = np.atleast_2d(np.asarray(x, dtype=float))
        states = [h]
        for i in range(self.depth):
            h = self.layer(i, h)
            states.append(h)
        return np.stack(states)

    def jvp_trace(self, x, v):
        """(states, tangents): each layer's output and its derivative along input direction v.

        The tangent is the exact Jacobian-vector product J_l·v (forward-mode differentiation), the
        continuous counterpart of a cipher's bit difference.
        """
        h = np.atleast_2d(np.asarray(x, dtype=float))
        t = np.broadcast_to(np.asarray(v, dtype=float), h.shape).copy()
        hs, ts = [h], [t]
        for i in range(self.depth):
            w = self.weights[i]
            if self.architecture == "residual+norm":
                c, sigma = _layernorm(h)
                dc = t - t.mean(axis=-1, keepdims=True)
                u, du = c / sigma, dc / sigma - c * (c * dc).mean(axis=-1, keepdims=True) / sigma ** 3
            else:
                u, du = h, t
            z = np.tanh(self.gain * _matmul(u, w))
            dz = (1 - z * z) * (self.gain * _matmul(du, w))
            h, t = (z, dz) if self.architecture == "plain" else (h + z, t + dz)
            hs.append(h)
            ts.append(t)
        return np.stack(hs), np.stack(ts)

    def _bits_to_inputs(self, x):
        x = np.atleast_1d(np.asarray(x, dtype=np.uint64))
        bits = (x[:, None] >> np.arange(self.width, dtype=np.uint64)) & np.uint64(1)
        return 1.0 - 2.0 * bits

    def bit_trace(self, x) -> np.ndarray:
        """Each layer's sign bits as 64-bit words: (depth+1, N) uint64 (row 0 = the input). width <= 64."""
        if self.width > 64:
            raise ValueError(f"bit_trace packs a layer into one 64-bit word; width={self.width} > 64")
        neg = self.trace(self._bits_to_inputs(x)) < 0
        return (neg.astype(np.uint64) << np.arange(self.width, dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)

    def as_bit_function(self, layers=None):
        """The first `layers` layers (default all) as a function on integers: input bits -> sign bits."""
        layers = self.depth if layers is None else int(layers)
        if not 0 <= layers <= self.depth:
            raise ValueError(f"layers must be between 0 and {self.depth}, got {layers!r}")

        def f(x):
            y = self.bit_trace(x)[layers]
            return int(y[0]) if np.ndim(x) == 0 else y.reshape(np.shape(x))
        return f


def sensitivity_curve(mlp: RandomMLP, trials: int, rng) -> np.ndarray:
    """How much each layer amplifies a small relative change of the input (dimensionless, per layer).

    For random ±1 inputs x and random directions v: (|J_l v| / |h_l|) / (|v| / |x|), the relative
    change of layer l's output per relative change of the input, averaged geometrically over the
    trials (the growth is multiplicative). Index 0 is 1 by definition.
    """
    check_at_least("trials", trials, 1)
    x = rng.choice([-1.0, 1.0], size=(int(trials), mlp.width))
    v = rng.standard_normal((int(trials), mlp.width))
    hs, ts = mlp.jvp_trace(x, v)
    rel = np.linalg.norm(ts, axis=-1) / np.linalg.norm(hs, axis=-1)
    return np.exp(np.log(rel / rel[0]).mean(axis=1))


# --- 2c. the curves the explorer and the notebook share (computed once per setting) ----------------------
#: the seed and sizes of the chapter's experiments: 64-bit blocks, 32 rounds / layers
EXPERIMENT = dict(depth=32, width=64, trials=256, seed=0)


def _frozen(a):
    a = np.asarray(a, dtype=float)
    a.setflags(write=False)
    return a


@lru_cache(maxsize=None)
def cipher_avalanche(rounds=EXPERIMENT["depth"], trials=EXPERIMENT["trials"], seed=EXPERIMENT["seed"]):
    """Avalanche of FeistelCipher.random(rounds, seed) after 0..rounds rounds (read-only array)."""
    cipher = FeistelCipher.random(rounds, seed)
    return _frozen(avalanche_curve(cipher.trace, 64, trials, np.random.default_rng(seed + 1)))


@lru_cache(maxsize=None)
def mlp_avalanche(gain, architecture="plain", depth=EXPERIMENT["depth"], trials=EXPERIMENT["trials"],
                  seed=EXPERIMENT["seed"]):
    """Avalanche of RandomMLP.random(depth, 64, gain, architecture, seed) after 0..depth layers."""
    mlp = RandomMLP.random(depth, 64, gain, architecture, seed)
    return _frozen(avalanche_curve(mlp.bit_trace, 64, trials, np.random.default_rng(seed + 1)))


@lru_cache(maxsize=None)
def mlp_sensitivity(gain, architecture="plain", depth=EXPERIMENT["depth"], width=EXPERIMENT["width"],
                    trials=EXPERIMENT["trials"], seed=EXPERIMENT["seed"]):
    """sensitivity_curve of RandomMLP.random(depth, width, gain, architecture, seed), 0..depth."""
    mlp = RandomMLP.random(depth, width, gain, architecture, seed)
    return _frozen(sensitivity_curve(mlp, trials, np.random.default_rng(seed + 2)))


# --- 3. training memory: stored vs reversible --------------------------------------------------------------
#: stored elements per token per layer in units of d_model, and of n_heads·L_seq (Korthikanti et al. 2022)
ELEMENTS_PER_D = 16          # attention 5 (QKV input, Q, K, V, output-projection input), MLP 9, LayerNorms 2
ELEMENTS_PER_HEAD_TOKEN = 2  # softmax output and its dropout output, per head per key token
MASKS_PER_D = 2              # dropout masks after attention and after the MLP, 1 byte per element
MASKS_PER_HEAD_TOKEN = 1     # dropout mask on the attention probabilities
MASK_BYTES = 1.0

#: activation bytes a standard backward pass keeps for one token in one layer
layer_bytes_per_token_expr = (b_act * (ELEMENTS_PER_D * d_model + ELEMENTS_PER_HEAD_TOKEN * n_heads * L_seq)
                              + b_mask * (MASKS_PER_D * d_model + MASKS_PER_HEAD_TOKEN * n_heads * L_seq))
#: ... for n_tok tokens and every layer: what a reversible network avoids
activation_bytes_expr = n_tok * n_layers * layer_bytes_per_token_expr
#: the lecture's simpler count: one residual-stream vector per token per layer
residual_stream_bytes_expr = n_tok * n_layers * d_model * b_act
#: a reversible network at its peak: the top layer's output plus the one layer being back-propagated
reversible_bytes_expr = n_tok * (d_model * b_act + layer_bytes_per_token_expr)
#: one forward pass over D tokens: what recomputation adds, and what a KV cache saves per cached token
extra_forward_flops_expr = training.FORWARD_FLOPS_PER_PARAM * N * D
#: training FLOPs when every layer is recomputed (or inverted) once more in the backward pass
recompute_flops_expr = training.flops_expr + extra_forward_flops_expr


@lru_cache(maxsize=None)
def recompute_overhead_expr():
    """Extra compute of recomputation as a fraction of standard training: 8ND / 6ND - 1 = 1/3."""
    return sp.simplify(recompute_flops_expr / training.flops_expr - 1)


def _layer_values(model, dtype, seq_len, dropout):
    m = models.resolve(model)
    values = dict(d_model=m.d_model, n_heads=m.n_heads, b_act=dtype_bytes(dtype, "dtype"),
                  b_mask=MASK_BYTES if dropout else 0.0, L_seq=0.0)
    if seq_len is not None:
        check_positive("seq_len", seq_len)
        values["L_seq"] = seq_len
    return m, values


def layer_bytes_per_token(model, dtype="bf16", seq_len=None, dropout=True):
    """Activation bytes one layer keeps per token for the backward pass (bytes/token/layer).

    The standard per-layer count of Korthikanti et al. 2022 (arXiv 2205.05198, §4.1), without
    recomputation, for a GPT-style layer (multi-head attention, a 4·d_model GeLU MLP, dropout),
    applied to the model's d_model and n_heads: 16·d elements + 2·d mask bytes per token, i.e. 34·d
    bytes in bf16. seq_len=None leaves out the attention scores (2·n_heads·seq_len elements and
    n_heads·seq_len mask bytes per token), which fused attention kernels such as FlashAttention, and
    the paper's selective recomputation, do not store; give seq_len to count them (the paper's
    34·d + 5·n_heads·seq_len). dropout=False drops the 1-byte masks (most LLM pre-training today).
    SwiGLU MLPs, GQA and MoE layers store somewhat different amounts: this is the standard count.
    """
    _, v = _layer_values(model, dtype, seq_len, dropout)
    return numeric(layer_bytes_per_token_expr)(**v)


def activation_bytes(model, tokens, dtype="bf16", seq_len=None, dropout=True):
    """Activation bytes a standard backward pass keeps for `tokens` tokens in flight (bytes).

    = tokens × model.n_layers × layer_bytes_per_token(model, dtype, seq_len, dropout): the memory a
    reversible network avoids. model: a registry name or Model; tokens: sequences × sequence length
    held by one training step (arrays broadcast); dtype: the activations' format.
    """
    check_positive("tokens", tokens)
    m, v = _layer_values(model, dtype, seq_len, dropout)
    return numeric(activation_bytes_expr)(n_tok=tokens, n_layers=m.n_layers, **v)


def residual_stream_bytes(model, tokens, dtype="bf16"):
    """The lecture's count: one d_model vector per token per layer, tokens × n_layers × d_model × b (bytes)."""
    check_positive("tokens", tokens)
    m = models.resolve(model)
    return numeric(residual_stream_bytes_expr)(n_tok=tokens, n_layers=m.n_layers, d_model=m.d_model,
                                               b_act=dtype_bytes(dtype, "dtype"))


def reversible_bytes(model, tokens, dtype="bf16", seq_len=None, dropout=True):
    """Peak activation bytes of the same network made reversible (bytes): the top layer's output
    (d_model per token) plus the one layer being back-propagated, whatever the depth."""
    check_positive("tokens", tokens)
    _, v = _layer_values(model, dtype, seq_len, dropout)
    return numeric(reversible_bytes_expr)(n_tok=tokens, **v)


#: bytes of training state per parameter with mixed-precision Adam: bf16 weights and gradients (2 + 2)
#: and fp32 master weights, momentum and variance (4 + 4 + 4); Rajbhandari et al. 2019 (ZeRO,
#: arXiv 1910.02054, section 3.1: "16Ψ bytes")
ADAM_BYTES_PER_PARAM = 2 + 2 + 4 + 4 + 4
training_state_bytes_expr = ADAM_BYTES_PER_PARAM * N


def training_state_bytes(model):
    """Weights, gradients and Adam state of all (total) parameters, 16 bytes each (bytes)."""
    return numeric(training_state_bytes_expr)(N=models.resolve(model).total_params)


def recompute_overhead() -> float:
    """Extra training FLOPs of recomputing every layer once (reversible or checkpointed): 1/3 of 6·N·D."""
    return numeric(recompute_overhead_expr)()


def recompute_flops(params, tokens):
    """Training FLOPs with one extra forward: (2 + 4 + 2)·N·D (FLOP). params N active, tokens D."""
    check_positive("params", params)
    check_positive("tokens", tokens)
    return numeric(recompute_flops_expr)(N=params, D=tokens)


def kv_cache_trade(model, dtype="bf16") -> dict:
    """What the KV cache buys per cached token: bytes kept, and the FLOPs of one decode step it saves
    (without it, each step would run the forward over that token again: 2·N_active).

    Returns {"bytes": b_kv, "flops": FLOP per step}.
    """
    m = models.resolve(model)
    return {"bytes": m.kv_bytes_per_token(dtype),
            "flops": numeric(extra_forward_flops_expr)(N=m.active_params, D=1)}


def reversible_trade(model, dtype="bf16", seq_len=None, dropout=True) -> dict:
    """What a reversible network buys per token of a training step: activation bytes it need not keep
    (all but one layer's, for a deep model) and the FLOPs it pays (one more forward: 2·N_active).

    Returns {"bytes": bytes saved per token, "flops": FLOP per token}.
    """
    m = models.resolve(model)
    saved = activation_bytes(m, 1, dtype, seq_len, dropout) - reversible_bytes(m, 1, dtype, seq_len, dropout)
    extra = recompute_flops(m.active_params, 1) - training.flops(m.active_params, 1)
    return {"bytes": out(saved), "flops": out(extra)}


__all__ = ["feistel_forward", "feistel_inverse", "lecture_step", "lecture_step_inverse", "revnet_forward",
           "revnet_inverse", "random_mlp_function", "random_revnet", "revnet_roundtrip_error", "popcount",
           "avalanche", "avalanche_curve", "flip_probabilities", "FeistelCipher", "RandomMLP", "ARCHITECTURES",
           "sensitivity_curve", "feistel_avalanche_exprs", "feistel_avalanche_model", "EXPERIMENT", "cipher_avalanche", "mlp_avalanche", "mlp_sensitivity",
           "layer_bytes_per_token_expr", "activation_bytes_expr",
           "residual_stream_bytes_expr", "reversible_bytes_expr", "extra_forward_flops_expr", "recompute_flops_expr",
           "recompute_overhead_expr", "layer_bytes_per_token", "activation_bytes", "residual_stream_bytes",
           "reversible_bytes", "ADAM_BYTES_PER_PARAM", "training_state_bytes_expr", "training_state_bytes",
           "recompute_overhead", "recompute_flops", "kv_cache_trade", "reversible_trade"]
