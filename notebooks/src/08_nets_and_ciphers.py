# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     notebook_metadata_filter: kernelspec,-jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 08 · Convergent evolution: neural nets and ciphers
#
# *Lecture chapter 7 (2:04:02 to the end).* The last part of the lecture is a conversation more than
# a blackboard. Reiner points out that ciphers and neural networks look alike: both stack layers that
# **mix information across all their inputs**, with a nonlinearity in between (his blog post
# ["neural-net ciphers"](https://reiner.org/neural-net-ciphers) makes the same comparison). Dwarkesh
# adds that they want opposite things. Then Reiner names one idea that moved from cryptography into
# deep learning: the Feistel network, and from it the reversible network, which **spends compute to
# save memory**.
#
# **The chapter's question:** what does "mixing" mean, measurably, and what can a network borrow from a cipher?
#
# 1. **Mixing, measured**: a toy cipher and a random MLP, flip one input bit, count the output bits that change.
# 2. **Opposite goals**: differential cryptanalysis is a derivative over GF(2); the gradient is one over ℝ.
# 3. **Feistel**: an invertible layer from a function that is not invertible.
# 4. **RevNets**: a whole network you can run backwards, and the memory that buys in training.
#
# All experiments are small NumPy runs with fixed seeds, so the notebook prints the same numbers every
# time; every claim is followed by an `assert` with a margin that does not depend on the seed.

# %%
import numpy as np
import sympy as sp

from lecture_lib import explorers, fmt, lecture, mixing, models, training
from lecture_lib import notation as nt
from lecture_lib.lecture import SAID as L
from lecture_lib.plots import mixing as plots
from lecture_lib.prose import say, show

say(f"[Watch the chapter from {lecture.timestamp(lecture.CHAPTERS[6].start_s)}]"
    f"({lecture.video_url(lecture.CHAPTERS[6].start_s)}).")

# %% [markdown]
# ## 1. Mixing, measured
#
# **Question.** A cipher must make every output bit depend on every input bit in a complicated way. A
# simple test (Feistel 1973 called it the *avalanche*): flip one input bit and count how many output
# bits change. An ideal cipher changes each output bit with probability ½, so about half of them.
#
# Our toy cipher is a **Feistel network on 64-bit blocks**: split the block into halves $L, R$ of 32 bits
# and repeat $(L, R) \to (R,\ L \oplus F(R \oplus K_i))$. The round function $F$ is Blowfish's shape with
# four random S-boxes (seeded). Before measuring, predict: if $F$ behaved like a random function, how
# many bits would flip after one, two, three rounds? With $n$ bits per block and $n/2$ per half, a
# changed input to $F$ flips half of its $n/2$ output bits:

# %%
n = nt.n_bits
half = n / 2
F_flip = half / 2                                  # bits of F's output that change when its input changes
# the flipped bit sits in L or in R with equal odds
round1 = sp.Rational(1, 2) * (1 + (1 + F_flip))    # L-flip: the bit moves to R; R-flip: the bit moves to L, F changes R
round2 = sp.Rational(1, 2) * ((1 + F_flip) + (F_flip + F_flip))
model = [1 / n, round1 / n, round2 / n, sp.Rational(1, 2)]
for r, e in enumerate(model):
    show(sp.simplify(e), lhs=rf"\text{{avalanche after {r} round{'s' if r != 1 else ''}}}")
assert all(sp.simplify(a - b) == 0 for a, b in zip(model, mixing.feistel_avalanche_exprs))

# %%
cipher = mixing.FeistelCipher.random(rounds=8, seed=0)
measured = mixing.avalanche_curve(cipher.trace, 64, 4000, np.random.default_rng(1))
rows = ["| rounds | predicted (random F) | measured (4,000 flips) |", "|---:|---:|---:|"]
rows += [f"| {r} | {mixing.feistel_avalanche_model(r):.3f} | {measured[r]:.3f} |" for r in range(6)]
say("\n".join(rows))
for r in range(6):
    assert abs(measured[r] - mixing.feistel_avalanche_model(r)) < 0.01

# %% [markdown]
# Now a **randomly initialised MLP** as a bit function: 64 inputs of ±1 (one per bit), square layers
# $h \to \tanh(g\,hW)$ with $W_{ij} \sim \mathcal N(0, 1/64)$ and no biases; the "output bits" of a
# layer are the signs of its 64 units. Gain $g = 1$ is the usual initialisation; larger $g$ makes the
# network chaotic (Poole et al. 2016, [arXiv 1606.05340](https://arxiv.org/abs/1606.05340)).

# %%
plots.avalanche_curves(gains=(1.0, 4.0, 100.0))

# %%
c_av = mixing.cipher_avalanche()
g1, g4, g100 = (mixing.mlp_avalanche(g) for g in (1.0, 4.0, 100.0))
first_half = lambda curve: int(np.argmax(curve > 0.45))      # first step past 45%  # noqa: E731
say(f"The cipher passes 45% after **{first_half(c_av)} rounds**. The MLP at gain 4 needs "
    f"**{first_half(g4)} layers**, at gain 100 **{first_half(g100)}**; at the usual gain 1 it is still at "
    f"**{g1[-1]:.0%}** after {len(g1) - 1} layers.")
assert first_half(c_av) <= 3 and g1[-1] < 0.2 and first_half(g4) > 2 * first_half(c_av)

# %%
gap = max(abs(measured[r] - mixing.feistel_avalanche_model(r)) for r in range(6))
say(f"**Takeaway:** a good cipher reaches the ideal ½ in {first_half(c_av)} rounds, and the random-function "
    f"model above predicts the measured curve to within {gap:.1%}. A network at its usual initialisation "
    f"barely mixes in this sense: one flipped bit changes at most {g1.max():.0%} of the signs, layer after layer.")
assert gap < 0.01 and g1.max() < 0.15

# %% [markdown]
# ### 1.1 "A randomly initialised network might be a passable cipher"
#
# The lecture floats this. Turn the gain up and the network does mix: at gain 100 (tanh becomes a sign
# function) it approaches ½. But a cipher also has to be a **permutation** (decryptable), and a layer of
# signs is not; and, as the next section shows, such a network has lost its derivative.
#
# ### 1.2 The continuous analogue: how far a small change travels
#
# A network's inputs are real numbers, so the natural question is not "which bits flip" but "how much
# does the output move when the input moves a little": the derivative. For a random direction $v$,
# we follow the exact Jacobian-vector product layer by layer and report the relative change of each
# layer's output per relative change of the input, $\frac{|J_\ell v| / |h_\ell|}{|v| / |x|}$. Besides the
# plain MLP, two forms every transformer uses: a **residual** connection $h + \tanh(g\,hW)$ and a
# pre-**LayerNorm** residual $h + \tanh(g\,\mathrm{LN}(h)W)$:

# %%
plots.sensitivity_curves(gain=4.0)

# %%
depth = mixing.EXPERIMENT["depth"]
sens = {a: mixing.mlp_sensitivity(4.0, a)[-1] for a in mixing.ARCHITECTURES}
say(f"After {depth} layers at gain 4, a small relative change of the input is amplified "
    f"**{sens['plain']:.2g}×** by the plain MLP, **{sens['residual']:.3g}×** with residual connections and "
    f"**{sens['residual+norm']:.3g}×** with residuals and LayerNorm. At gain 1 the plain MLP gives "
    f"{mixing.mlp_sensitivity(1.0)[-1]:.2f}×; at gain 100 {mixing.mlp_sensitivity(100.0)[-1]:.1e}×.")
assert sens["plain"] > 100 * sens["residual+norm"] and sens["residual+norm"] < sens["residual"]
assert mixing.mlp_sensitivity(100.0)[-1] < 1e-3 and 0.5 < mixing.mlp_sensitivity(1.0)[-1] < 2

# %% [markdown]
# That exponential growth in the chaotic plain network is the continuous version of the avalanche: a
# tiny change of the input swings the output. In a network that is the **adversarial example**
# (Szegedy et al. 2013, [arXiv 1312.6199](https://arxiv.org/abs/1312.6199)): "common in ciphers,
# undesired in neural nets", as the lecture puts it. The gain-100 network shows the other failure: it
# mixes bits like a cipher, but its derivative is zero almost everywhere, so gradient descent has
# nothing to follow.
#
# **Takeaway:** networks are built to sit between the two failures. Residual connections keep each
# layer close to the identity, and normalisation keeps the nonlinearity out of saturation, so the
# derivative neither explodes nor vanishes: "they keep the derivative simple", in Reiner's words. That is
# exactly what a cipher designer does *not* want.
#
# ### 1.3 Explore
#
# Move the depth cursor, the MLP's gain and its architecture. The cipher's curve is fixed; every
# setting was computed once (seeded), so a change only redraws lines.

# %%
ex = explorers.get("avalanche")()
ex

# %%
assert ex.error == "" and abs(ex.state["cipher"] - 0.5) < 0.03 and ex.state["mlp"] < 0.2

# %% [markdown]
# ## 2. Opposite goals
#
# Dwarkesh's framing: a cipher turns structured data into something indistinguishable from random; a
# network pulls structure out of data that looks random (protein sequences, DNA, garbled text). The
# mathematics of the two sides mirrors this.
#
# * **Differential cryptanalysis** (Biham and Shamir, 1990) "differentiates" a cipher over GF(2), the
#   field of bits where addition is XOR: the difference of $E$ in direction $a$ is
#   $\Delta_a E(x) = E(x \oplus a) \oplus E(x)$. The attacker looks for an input difference whose output
#   difference is predictable, more often than the ½ per bit of a random function.
# * **Gradient descent** differentiates a network over the reals, $\partial_v f(x) = \lim_{\varepsilon\to 0}
#   (f(x+\varepsilon v) - f(x))/\varepsilon$, and needs that derivative to be informative.
#
# The cipher designer wants every $\Delta_a E$ to look random; the network designer wants every
# derivative to be useful. Here is the attacker's view of our toy cipher: for each input bit $i$ and
# output bit $j$, the probability that flipping $i$ flips $j$. After two rounds some cells are exactly 0
# or 1: **differentials that hold with certainty**, the foothold of an attack (Luby and Rackoff showed in
# 1988 that two rounds can always be told from a random permutation, while three rounds with random
# round functions cannot be, by an attacker who only gets to encrypt).

# %%
flips = mixing.flip_probabilities(cipher.trace, 64, 1024, np.random.default_rng(2))
bias = np.abs(flips - 0.5).max(axis=(1, 2))
rows = ["| rounds | certain differentials (cells at 0 or 1) | largest \\|P − ½\\| |", "|---:|---:|---:|"]
rows += [f"| {r} | {int(np.sum((flips[r] == 0) | (flips[r] == 1)))} of {64 * 64} | {bias[r]:.3f} |"
         for r in range(1, 7)]
say("\n".join(rows))
assert bias[2] == 0.5 and bias[6] < 0.15

# %% [markdown]
# **Takeaway:** the same tool, a derivative, is the attacker's weapon against a cipher and the trainer's
# tool for a network; a cipher is designed to make it useless, a network to keep it useful.
#
# Dwarkesh also offered an image for **backdoors** in models: like a hidden input that reaches the
# backward pass. That is an analogy from the conversation, not an analysis; this notebook does not
# test it.
#
# Which direction has the transfer gone?

# %%
say(f"Building ciphers *from* networks is a bad idea, Reiner says: almost every newly invented cipher gets "
    f"broken (\"like {L['new_ciphers_broken']:.0%}\", an off-hand figure, not a measured one). The other "
    "direction has paid off at least once: the Feistel network.")

# %% [markdown]
# ## 3. Feistel: an invertible layer from any function
#
# **Question.** $f$ (an MLP, say) mixes nicely but is not invertible. Can we build an invertible layer
# around it? Keep two inputs and add: $(x, y) \to (x,\ z)$ with $z = y + f(x)$. Solve for the inputs:

# %%
x, y, z = sp.symbols("x y z")
f = sp.Function("f")
forward = sp.Eq(z, y + f(x))
(y_back,) = sp.solve(forward, y)
show(forward)
show(y_back, lhs="y")
assert sp.simplify(y_back.subs(z, y + f(x)) - y) == 0          # x is read off; y comes back exactly

# %% [markdown]
# $f$ is never inverted, only evaluated again. Numerically, with an MLP that squeezes 16 numbers through
# 4 (so many inputs share an output: it cannot be inverted):

# %%
rng = np.random.default_rng(8)
f_mlp = mixing.random_mlp_function(16, rng, hidden=4)
xs, ys = rng.standard_normal((5, 16)), rng.standard_normal((5, 16))
blind = np.linalg.svd(f_mlp.W1.T)[2][-1]                        # a direction the first layer cannot see
collision = np.abs(f_mlp(xs + 5 * blind) - f_mlp(xs)).max()
x_out, z_out = mixing.feistel_forward(xs, ys, f_mlp)
_, y_rec = mixing.feistel_inverse(x_out, z_out, f_mlp)
err = np.abs(y_rec - ys).max()
say(f"f maps x and x + 5·(a blind direction) to outputs **{collision:.1e}** apart: it loses information. "
    f"The Feistel step built on it recovers y to **{err:.1e}** (float64 rounding).")
assert collision < 1e-12 and err < 1e-14

# %% [markdown]
# The toy cipher of section 1 is this construction with XOR as the addition: its round function $F$
# (sums and XORs of S-box outputs) maps many inputs to one output, yet decryption runs the rounds
# backwards and recovers every block:

# %%
blocks = np.random.default_rng(3).integers(0, 2 ** 64, size=10_000, dtype=np.uint64)
assert np.array_equal(cipher.decrypt(cipher.encrypt(blocks)), blocks)
say(f"{len(blocks):,} random blocks encrypted with {cipher.rounds} rounds and decrypted: all recovered.")

# %% [markdown]
# **Takeaway:** a Feistel step is invertible whatever $f$ is. Ciphers use it everywhere (DES, Blowfish)
# because a cipher must be a permutation: an invertible layer loses nothing, so the designer can spend
# all the effort on making $f$ mix.

# %% [markdown]
# ## 4. RevNets: a network you can run backwards
#
# **The lecture's form.** Each layer takes two streams: new $x$ = $y + f(x)$, new $y$ = old $x$, a
# Feistel step that swaps its halves. Written along the depth, with $x_\ell$ the stream entering layer
# $\ell$, that is $x_{\ell+1} = x_{\ell-1} + f(x_\ell)$: a residual connection from **two** layers back.
# Gomez et al. 2017 ([arXiv 1707.04585](https://arxiv.org/abs/1707.04585)) write one block as
# $y_1 = x_1 + F(x_2)$, $y_2 = x_2 + G(y_1)$. Two lecture steps are one such block:

# %%
x1, x2 = sp.symbols("x_1 x_2")
Fn, Gn = sp.Function("F"), sp.Function("G")
step = lambda a, b, fn: (b + fn(a), a)                           # the lecture's layer  # noqa: E731
a1, b1 = step(x2, x1, Fn)
a2, b2 = step(a1, b1, Gn)
y1, y2 = x1 + Fn(x2), x2 + Gn(x1 + Fn(x2))                       # Gomez et al., one block
show(sp.Matrix([a2, b2]), lhs=r"\text{two lecture steps}")
assert sp.simplify(b2 - y1) == 0 and sp.simplify(a2 - y2) == 0
seq = [sp.Symbol("x_0"), sp.Symbol("x_1")]                       # run the lecture's layer and record new x
state = (seq[1], seq[0])
for _ in range(4):
    state = step(*state, Fn)
    seq.append(state[0])
k = L["revnet_skip_layers"]                                       # "a residual from two layers back"
assert all(sp.simplify(seq[i + 1] - seq[i + 1 - k] - Fn(seq[i])) == 0 for i in range(1, len(seq) - 1))

# %% [markdown]
# The inverse undoes the layers last to first: $x_2 = y_2 - G(y_1)$, then $x_1 = y_1 - F(x_2)$. In exact
# arithmetic the input comes back exactly. In floating point every subtraction rounds, and the error is
# carried back through 100 layers. Here are 100 random reversible blocks (each $F$, $G$ a small random
# MLP; streams of 32 numbers), run forward and then backward, in float64 and float32:

# %%
depths = np.array([1, 2, 5, 10, 20, 50, 100])
errors = {}
for name, dtype in (("float64", np.float64), ("float32", np.float32)):
    r = np.random.default_rng(11)
    fs, gs = mixing.random_revnet(100, 32, r, dtype=dtype)
    s1, s2 = (r.standard_normal((16, 32)).astype(dtype) for _ in range(2))
    errors[name] = mixing.revnet_roundtrip_error(s1, s2, fs, gs, depths)
plots.roundtrip_errors(depths, errors)

# %%
e64, e32 = errors["float64"], errors["float32"]
say(f"After 100 layers the reconstruction is off by **{e64[-1]:.1e}** (float64) and **{e32[-1]:.1e}** "
    f"(float32) of the input's size; after one layer by {e64[0]:.1e} and {e32[0]:.1e}, about one rounding "
    f"(machine epsilon {np.finfo(np.float64).eps:.1e} and {np.finfo(np.float32).eps:.1e}).")
assert e64[-1] < 1e-10 and e32[-1] > 1e3 * e64[-1]
assert e64[-1] > 10 * e64[0] and e32[-1] > 10 * e32[0]

# %%
say(f"**Takeaway:** reversibility is exact in algebra and approximate in floating point. The error grows "
    f"with depth because each inverse step carries the rounding of the steps after it; in float32 over "
    f"{depths[-1]} layers it is {e32[-1] / np.finfo(np.float32).eps:,.0f} roundings. That is why reversible "
    "training keeps the arithmetic precise or checks its reconstructions.")
assert e32[-1] / np.finfo(np.float32).eps > 100

# %% [markdown]
# ### 4.1 What reversibility buys: training memory
#
# A normal backward pass needs every layer's activations, so the forward pass stores them: memory
# linear in depth, "can be the largest memory footprint in training", says Reiner. A reversible network
# stores only the last layer's output and rebuilds each layer's input from the one above, in lockstep
# with the backward pass.
#
# How much is stored? The lecture's picture is one $d_\text{model}$ vector per token per layer. The
# standard count (Korthikanti et al. 2022, [arXiv 2205.05198](https://arxiv.org/abs/2205.05198), §4.1)
# lists every tensor a GPT-style layer keeps for the backward pass: the inputs of its matmuls,
# nonlinearities and LayerNorms (multiples of $d_\text{model}$, at $b_\text{act}$ bytes each), its dropout
# masks (at $b_\text{mask}$ = 1 byte each), and the attention scores (a multiple of
# $n_\text{heads} L_\text{seq}$ per token), which a fused attention kernel does not store:

# %%
show(mixing.layer_bytes_per_token_expr, lhs=r"\text{bytes per token per layer}")
paper = mixing.layer_bytes_per_token_expr.subs({nt.b_act: 2, nt.b_mask: 1})
show(sp.expand(paper), lhs=r"\text{in bf16}")
assert sp.expand(paper - (34 * nt.d_model + 5 * nt.n_heads * nt.L_seq)) == 0      # the paper's 34·h + 5·a·s
show(mixing.activation_bytes_expr, lhs=r"\text{activations stored}")

# %% [markdown]
# For Llama-3-405B from the registry, with a million tokens in flight in one training step (the scale
# of syllabus problem 3) and the attention scores left to a fused kernel:

# %%
m = models.get("Llama-3-405B")
tokens = 1e6
per_layer = mixing.layer_bytes_per_token(m)
stored = mixing.activation_bytes(m, tokens)
lecture_count = mixing.residual_stream_bytes(m, tokens)
rev = mixing.reversible_bytes(m, tokens)
state = mixing.training_state_bytes(m)
say(f"{m.name}: d_model = {m.d_model:,}, {m.n_layers} layers. Per token per layer "
    f"**{fmt(per_layer, 'B')}** (= {per_layer / m.d_model:.0f} × {m.d_model:,}); × {m.n_layers} layers × {fmt(tokens)} tokens = "
    f"**{fmt(stored, 'B')}** of activations. The lecture's one-vector count gives {fmt(lecture_count, 'B')}. "
    f"Weights, gradients and Adam state (16 bytes per parameter): {fmt(state, 'B')}. "
    f"Reversible: **{fmt(rev, 'B')}**, {stored / rev:.0f}× less.")
assert stored > 10 * state                 # at this scale activations are the largest footprint
assert stored / rev > 0.9 * m.n_layers and lecture_count < stored

# %%
plots.memory_bars([("activations, stored (Korthikanti)", stored), ("activations, lecture's count", lecture_count),
                   ("weights + grads + Adam", state), ("activations, reversible", rev)])

# %% [markdown]
# **The price.** Rebuilding each layer's input costs about one more forward pass:

# %%
say(f"Forward {training.FORWARD_FLOPS_PER_PARAM} FLOPs per parameter per token, backward "
    f"{training.BACKWARD_FLOPS_PER_PARAM}, one more forward {training.FORWARD_FLOPS_PER_PARAM}:")
show(mixing.recompute_flops_expr, lhs=r"C_\text{reversible}")
overhead = sp.simplify(mixing.recompute_flops_expr / training.flops_expr - 1)
show(overhead, lhs=r"\text{extra compute}")
assert overhead == sp.Rational(1, 3) == mixing.recompute_overhead_expr()

# %% [markdown]
# ### 4.2 The KV cache makes the opposite trade
#
# In serving, the KV cache keeps each past token's keys and values so a decode step need not run the
# forward over that token again: it **spends memory to save compute**. A reversible network **spends
# compute to save memory**. Per token, for Llama-3-405B:

# %%
kv = mixing.kv_cache_trade(m)
rt = mixing.reversible_trade(m)
say("| trade | memory | compute |\n|---|---:|---:|\n"
    f"| KV cache (serving) | keeps {fmt(kv['bytes'], 'B')} per cached token | saves {fmt(kv['flops'], 'FLOP')} "
    "per cached token per decode step |\n"
    f"| reversible layers (training) | saves {fmt(rt['bytes'], 'B')} per token | costs {fmt(rt['flops'], 'FLOP')} "
    "per token per step (+⅓) |")
assert kv["bytes"] < rt["bytes"] and np.isclose(kv["flops"], rt["flops"])

# %% [markdown]
# **Takeaway:** reversibility trades one more forward pass (the extra compute above) for activation
# memory that no longer grows with depth. Reiner's judgement is that on today's hardware spending memory to save compute (the KV
# cache's trade) is usually the profitable direction. Activation checkpointing (Chen et al. 2016,
# [arXiv 1604.06174](https://arxiv.org/abs/1604.06174)), which recomputes from a few stored layers, buys
# a similar saving for a similar extra forward pass without needing invertible layers.
#
# ## Practice
#
# The worksheet `exercises/08_nets_and_ciphers.ipynb` has graded problems on all four sections, and the
# flashcard deck has this chapter's cards (notebooks/flashcards.ipynb, chapter 7).
