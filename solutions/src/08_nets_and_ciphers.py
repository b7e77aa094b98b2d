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
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Worksheet 8: mixing, Feistel networks, reversible layers and training memory
#
# Practice for notebook `08_nets_and_ciphers` (lecture 2:04:02 to the end). Each problem has a
# question, the numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer
# cell** and a **check cell**.
#
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the check
#   cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the answer
#   away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`mixing`, `models`, `training`); try each formula by
#   hand first.
# * Conventions: 1 TB = 10^12 bytes; 2 FLOPs per multiply-add; activations in bf16 (2 bytes).

# %%
import numpy as np
import sympy as sp
from lecture_lib import mixing, models, training
from lecture_lib.units import fmt, TB
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_08 import GIVEN, A_SYM as a, B_SYM as b, F_SYM as f   # the numbers the checks use

m = models.get(GIVEN.model)
print(f"Feistel example: f(x) = x², input (x, y) = ({GIVEN.x}, {GIVEN.y})")
print(f"Toy cipher: {GIVEN.n_bits}-bit blocks, FeistelCipher.random(rounds=8, seed={GIVEN.cipher_seed}); "
      f"{GIVEN.trials:,} trials drawn from np.random.default_rng({GIVEN.trials_seed})")
print(f"{m.name}: d_model = {m.d_model:,}, {m.n_layers} layers; {fmt(GIVEN.tokens)} tokens in flight, "
      f"activations in {GIVEN.dtype}")

# %% [markdown]
# ## Part A: Feistel steps

# %% [markdown]
# ### 1. One Feistel step (1 point)
#
# The Feistel step maps (x, y) to (x, y + f(x)). With f(x) = x² and the input printed above, what is
# the second output z? **Answer as a number.**

# %%
### BEGIN SOLUTION answer []
answer = GIVEN.y + GIVEN.x ** 2
### END SOLUTION

# %%
check("08.feistel_z", answer)

# %% [markdown]
# ### 2. Invert the lecture's layer (SymPy) (2 points)
#
# The lecture's reversible layer maps (x, y) to (a, b) = (y + f(x), x). Write the input **y** in terms
# of the outputs `a`, `b` and the function `f` (already defined as SymPy objects: write `f(b)` for f
# applied to b).

# %%
### BEGIN SOLUTION answer [expression]
answer = a - f(b)
### END SOLUTION

# %%
check("08.lecture_inverse_expr", answer)

# %% [markdown]
# ## Part B: avalanche

# %% [markdown]
# ### 3. One round, predicted (2 points)
#
# A Feistel network on 64-bit blocks: (L, R) -> (R, L xor F(R xor K)), halves of 32 bits. Assume F acts
# like a random function: whenever its input changes, each of its 32 output bits flips with probability
# ½. One input bit, chosen at random, is flipped. What percentage of the 64 output bits flips after
# **one** round, on average? **Answer in %.**

# %%
### BEGIN SOLUTION answer [%]
half = GIVEN.n_bits / 2
flip_in_L = 1                      # the bit moves to R; F's input (R) did not change
flip_in_R = 1 + half / 2           # the bit moves to L, and F's changed input flips half of the new R
answer = 100 * (flip_in_L + flip_in_R) / 2 / GIVEN.n_bits
### END SOLUTION

# %%
check("08.avalanche_round1_pct", answer)

# %% [markdown]
# ### 4. Two rounds, measured (2 points)
#
# Build the toy cipher printed above and measure the avalanche of its first **two** rounds with
# `mixing.avalanche`, using the given number of trials and a fresh generator with the given seed.
# **Answer as a fraction (0 to 1).**

# %%
### BEGIN SOLUTION answer []
cipher = mixing.FeistelCipher.random(rounds=8, seed=GIVEN.cipher_seed)
answer = mixing.avalanche(lambda v: cipher.encrypt(v, rounds=2), GIVEN.n_bits, GIVEN.trials,
                          np.random.default_rng(GIVEN.trials_seed))
### END SOLUTION

# %%
check("08.avalanche_measured", answer)

# %% [markdown]
# ### 5. Certain differentials (1 point)
#
# Differential cryptanalysis looks for input differences whose output differences are predictable. In
# a Feistel network with random round functions, after how many rounds does no flipped input bit
# determine any output bit with certainty? Answer with the letter, as a string.

# %%
show_choices("08.differentials_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "c"
### END SOLUTION

# %%
check("08.differentials_choice", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_differentials -->
# **Why (c).** Flip bit j of L0. Round 1: L1 = R0 (unchanged), R1 = L0 xor F(R0) (bit j flips, always).
# Round 2: L2 = R1 (bit j flips, always), R2 = L1 xor F(R1) (random). So after two rounds the left half
# of the difference is certain; `mixing.flip_probabilities` shows those cells at exactly 1. From round 3
# on, every half has passed through F since the flip.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ## Part C: training memory, stored or rebuilt

# %% [markdown]
# ### 6. Activations a backward pass keeps (2 points)
#
# With the standard per-layer count (Korthikanti et al. 2022: 34·d_model bytes per token per layer in
# bf16, attention scores left to a fused kernel), how much activation memory does a training step of the
# model printed above keep for the tokens in flight? **Answer in TB.**

# %%
### BEGIN SOLUTION answer [TB]
answer = 34 * m.d_model * m.n_layers * GIVEN.tokens / TB
### END SOLUTION

# %%
check("08.activation_tb", answer)

# %% [markdown]
# ### 7. The lecture's count (syllabus problem) (1 point)
#
# A 100-layer model of width d_model = 8,192 stores one bf16 vector per token per layer, with 1M tokens
# in flight. How much activation memory is that? **Answer in TB.**

# %%
print(f"layers = {GIVEN.toy_layers}, d_model = {GIVEN.toy_d_model:,}, tokens = {fmt(GIVEN.tokens)}")

# %%
### BEGIN SOLUTION answer [TB]
answer = GIVEN.toy_layers * GIVEN.tokens * GIVEN.toy_d_model * 2 / TB
### END SOLUTION

# %%
check("08.syllabus_memory_tb", answer)

# %% [markdown]
# ### 8. Korthikanti's count in symbols (SymPy) (2 points)
#
# Per token per layer a GPT-style layer keeps 16·d_model + 2·n_heads·L_seq numbers at 2 bytes each
# (bf16) and 2·d_model + n_heads·L_seq dropout-mask entries at 1 byte each. Write the bytes per token per
# layer as a SymPy expression in `d_model`, `n_heads` and `L_seq`.

# %%
from lecture_lib.notation import d_model, n_heads, L_seq   # positive symbols

# %%
### BEGIN SOLUTION answer [expression]
answer = 2 * (16 * d_model + 2 * n_heads * L_seq) + 1 * (2 * d_model + n_heads * L_seq)
### END SOLUTION

# %%
check("08.korthikanti_expr", answer)

# %% [markdown]
# ### 9. The price of rebuilding (1 point)
#
# A reversible network rebuilds each layer's input during the backward pass: about one more forward pass.
# With 2 FLOPs per parameter per token forward and 4 backward, how much more compute does training take?
# **Answer in % of standard training.**

# %%
### BEGIN SOLUTION answer [%]
fwd, bwd = training.FORWARD_FLOPS_PER_PARAM, training.BACKWARD_FLOPS_PER_PARAM   # 2 and 4 FLOPs per parameter per token
answer = 100 * fwd / (fwd + bwd)
### END SOLUTION

# %%
check("08.recompute_pct", answer)

# %% [markdown]
# ### 10. Two trades (1 point)
#
# Compare the KV cache in serving with reversible layers in training. Answer with the letter, as a string.

# %%
show_choices("08.trade_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("08.trade_choice", answer)
