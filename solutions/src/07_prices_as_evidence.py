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
# # Worksheet 7: prices as evidence (the long-context step, input vs output price, the context ceiling, memory tiers)
#
# Practice for notebook `07_prices_as_evidence` (lecture 1:33:02 to 2:04:02). Each problem has a
# question, the numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer
# cell** and a **check cell**.
#
# * **Answer in your own copy, `my_work/07_prices_as_evidence.ipynb`**: `make lab` (or `python -m lecture_lib
#   workspace`) makes it; it is git-ignored and never overwritten, so your answers stay yours and
#   `make test` stays green. The worksheet in `exercises/` is generated: leave it unanswered.
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the
#   check cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the
#   answer away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`models`, `prices`, `storage`, `pricing`, `roofline`); try
#   each formula by hand first.
# * Conventions: 2 FLOPs per multiply-add; 1 GB = 10^9 bytes. The lecture's dimensionless "≈300" is
#   multiply-adds per second ÷ weight parameters read per second, with weights at 1 byte per parameter.

# %%
import sympy as sp
from lecture_lib import models, prices, pricing, roofline, storage
from lecture_lib.units import dtype_bytes, fmt, HOUR, MS
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_07 import GIVEN   # the numbers the checks use

print(f"The lecture's hardware ratio: {GIVEN.ratio}; active parameters: {fmt(GIVEN.active_params, 'params')}; "
      f"price step at {GIVEN.step_context:,} tokens of context")

# %% [markdown]
# ## Part A: KV bytes per token from a price step

# %% [markdown]
# ### 1. The lecture's deduction (1 point)
#
# A price steps up at the context printed above. Assume that is where a sequence's KV read per decode step
# equals its compute (B large, weight reads negligible), with the active parameters and hardware ratio
# printed above and weights at 1 byte per parameter. How many bytes of KV does each token hold?
# **Answer in bytes.**

# %%
### BEGIN SOLUTION answer [bytes]
answer = GIVEN.active_params / (GIVEN.ratio * GIVEN.step_context)
### END SOLUTION

# %%
check("07.kv_from_step", answer)

# %% [markdown]
# ### 2. Derive it in SymPy (2 points)
#
# Per decode step, t_kv = B·L_ctx·b_kv/BW and t_compute = 2·B·N_act/F (2 FLOPs per multiply-add). Set
# them equal and solve for `b_kv`. Your answer is a SymPy expression in `F`, `BW`, `N_act` and `L_ctx`.

# %%
from lecture_lib.notation import B, F, BW, N_act, L_ctx, b_kv   # positive symbols

# %%
### BEGIN SOLUTION answer [expression]
answer = sp.solve(sp.Eq(B * L_ctx * b_kv / BW, 2 * B * N_act / F), b_kv)[0]
### END SOLUTION

# %%
check("07.kv_expr", answer)

# %% [markdown]
# ### 3. How sensitive is it? (1 point)
#
# The "~100B active" is a rumour. Redo problem 1 with **twice** the active parameters (same step, same
# ratio). **Answer in bytes.**

# %%
### BEGIN SOLUTION answer [bytes]
answer = 2 * GIVEN.active_params / (GIVEN.ratio * GIVEN.step_context)
### END SOLUTION

# %%
check("07.kv_spread", answer)

# %% [markdown]
# ### 4. The reverse problem (1 point)
#
# A model holds the KV bytes per token printed below, with the active parameters and ratio above. At what
# context should its price step sit? **Answer in tokens.**

# %%
print(f"KV per token: {GIVEN.kv_bytes:,.0f} bytes")

# %%
### BEGIN SOLUTION answer [tokens]
answer = GIVEN.active_params / (GIVEN.ratio * GIVEN.kv_bytes)
### END SOLUTION

# %%
check("07.step_context", answer)

# %% [markdown]
# ### 5. The sanity check (1 point)
#
# The lecture checks the answer against an architecture: the number of unique global KV layers, K and V,
# the KV heads, the head dimension and the bytes per element printed below. How many bytes per token is
# that? (The model has more query heads than KV heads.) **Answer in bytes.**

# %%
print(f"unique KV layers {GIVEN.kv_layers}, query heads {GIVEN.query_heads}, KV heads {GIVEN.kv_heads}, "
      f"d_head {GIVEN.head_dim}, {GIVEN.bytes_per_element} byte per element")

# %%
### BEGIN SOLUTION answer [bytes]
answer = GIVEN.kv_layers * 2 * GIVEN.kv_heads * GIVEN.head_dim * GIVEN.bytes_per_element
### END SOLUTION

# %%
check("07.kv_sanity", answer)

# %% [markdown]
# ### 6. A dense GQA model's step (2 points)
#
# Where would the price step of the dense model printed below sit if priced like problem 4 (its KV in
# bf16, the lecture's ratio, weights at 1 byte per parameter)? **Answer in tokens.**

# %%
dense = models.get(GIVEN.dense_model)
print(f"{dense.name}: {fmt(dense.active_params, 'params')}, {dense.n_layers} layers, {dense.n_heads} query heads, "
      f"{dense.n_kv_heads} KV heads, head_dim {dense.head_dim}; KV in {GIVEN.dense_kv_dtype}")

# %%
### BEGIN SOLUTION answer [tokens]
kv = pricing.kv_bytes_from_architecture(dense.n_layers, dense.n_kv_heads, dense.head_dim,
                                        dtype_bytes(GIVEN.dense_kv_dtype))
answer = dense.active_params / (GIVEN.ratio * kv)
### END SOLUTION

# %%
check("07.dense_step", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_dense_step -->
# **Why so short.** Llama-3-70B holds some two orders of magnitude more KV per token than the price
# implies (problem 4), so its crossover sits at a few hundred tokens: at any longer context its decode is
# memory-bound at every batch. A step at the lecture's 200K therefore says the priced model keeps far
# less KV per token (few global layers, fp8, sparse attention).
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 7. What the price sheet says (1 point)
#
# Which statement about the long-context step of the model printed below is right? Answer with the letter,
# as a string.

# %%
step_p = prices.get(GIVEN.step_price)
print(f"{step_p.model}: input {fmt(step_p.input, '$')} / {fmt(step_p.input_long, '$')}, output "
      f"{fmt(step_p.output, '$')} / {fmt(step_p.output_long, '$')} per M tokens (≤ / > {step_p.long_context_threshold:,})")
show_choices("07.gemini_step")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("07.gemini_step", answer)

# %% [markdown]
# ## Part B: input against output price, and the context ceiling

# %% [markdown]
# ### 8. Decode MFU from a price sheet (1 point)
#
# Prefill is compute-bound, decode memory-bound, and prices follow time per token. What fraction of
# prefill's utilisation does decode reach, by the prices printed below? **Answer as a fraction (0 to 1).**

# %%
mfu_p = prices.get(GIVEN.mfu_price)
print(f"{mfu_p.model}: input {fmt(mfu_p.input, '$')}, output {fmt(mfu_p.output, '$')} per M tokens")

# %%
### BEGIN SOLUTION answer [fraction]
answer = mfu_p.input / mfu_p.output
### END SOLUTION

# %%
check("07.decode_mfu", answer)

# %% [markdown]
# ### 9. When prefill turns compute-bound (1 point)
#
# A pass reads memory for t_mem whatever its length and computes t_tok per new token (values below). From
# how many new tokens per pass is it compute-bound? **Answer in tokens.**

# %%
print(f"t_mem = {fmt(GIVEN.t_mem_s, 's')}, t_tok = {fmt(GIVEN.t_tok_s, 's')}")

# %%
### BEGIN SOLUTION answer [tokens]
answer = GIVEN.t_mem_s / GIVEN.t_tok_s
### END SOLUTION

# %%
check("07.prefill_len", answer)

# %% [markdown]
# ### 10. The attention ceiling of a dense model (2 points)
#
# For the dense model of problem 6 (full attention in every layer), at what context do the attention
# FLOPs per new token equal the weight FLOPs per token, 2·N_active? Every query head takes a dot product
# with each cached key and adds each cached value in. **Answer in tokens.**

# %%
### BEGIN SOLUTION answer [tokens]
f_att = 2 * dense.n_layers * 2 * dense.n_heads * dense.head_dim      # FLOPs per new token per cached token
answer = 2 * dense.active_params / f_att
### END SOLUTION

# %%
check("07.attention_ceiling", answer)

# %% [markdown]
# ## Part C: memory tiers and prompt caching

# %% [markdown]
# ### 11. The drain-time rule (SymPy) (2 points)
#
# Holding a token's KV (b_kv bytes) for T_hold on a device of capacity C_dev costing p_dev dollars per
# second costs b_kv·p_dev·T_hold/C_dev; reading it back once costs b_kv·p_dev/W_dev. Solve for the hold
# time `T_hold` at which the two are equal. Your answer is a SymPy expression.

# %%
from lecture_lib.notation import T_hold, p_dev, C_dev, W_dev

# %%
### BEGIN SOLUTION answer [expression]
answer = sp.solve(sp.Eq(b_kv * p_dev * T_hold / C_dev, b_kv * p_dev / W_dev), T_hold)[0]
### END SOLUTION

# %%
check("07.drain_expr", answer)

# %% [markdown]
# ### 12. A hard disk's drain time (1 point)
#
# How long does the disk printed below take to read itself once? (The lecture guessed an hour.)
# **Answer in hours.**

# %%
disk = storage.get(GIVEN.disk)
print(f"{disk.name}: {fmt(disk.capacity, 'B')} at {fmt(disk.bandwidth, 'B/s')} "
      f"(datasheet figure, recalled: quality {disk.source_for('bandwidth').quality})")

# %%
### BEGIN SOLUTION answer [h]
answer = disk.capacity / disk.bandwidth / HOUR
### END SOLUTION

# %%
check("07.drain_disk_h", answer)

# %% [markdown]
# ### 13. Which tier for a 1-hour cache? (1 point)
#
# Use the drain-time rule and the devices in `storage.DEVICES`. Answer with the letter, as a string.

# %%
for d in storage.DEVICES.values():
    print(f"{d.name}: {fmt(d.capacity, 'B')} at {fmt(d.bandwidth, 'B/s')}")
show_choices("07.tier_1h")

# %%
### BEGIN SOLUTION answer [choice]
answer = "c"
### END SOLUTION

# %%
check("07.tier_1h", answer)

# %% [markdown]
# ### 14. When does a 1-hour cache pay? (1 point)
#
# With the cache prices printed below (multiples of the base input price), what is the smallest whole
# number of reuses of a cached prefix at which writing it to the 1-hour cache is cheaper than sending it
# fresh every time? **Answer in reuses.**

# %%
cache_p = prices.get(GIVEN.cache_price)
print(f"{cache_p.model}: input {fmt(cache_p.input, '$')}, 1-hour write {fmt(cache_p.cache_write_1h, '$')}, "
      f"5-minute write {fmt(cache_p.cache_write_5m, '$')}, hit {fmt(cache_p.cache_read, '$')} per M tokens")

# %%
### BEGIN SOLUTION answer [reuses]
w, r = cache_p.cache_write_1h / cache_p.input, cache_p.cache_read / cache_p.input
n = 0
while w + r * n >= 1 + n:
    n += 1
answer = n
### END SOLUTION

# %%
check("07.cache_reuses", answer)

# %% [markdown]
# **Takeaway.** A price step at a context says where KV reads overtake compute, hence the KV bytes per
# token (~1.7 KB for the lecture's inputs, far below dense models); an output premium says how far below
# prefill's decode's utilisation sits; attention compute joins in late for few-global-layer models; and the
# drain time (capacity ÷ bandwidth) says which memory suits a hold time: with public drives, the 1-hour
# tier looks like flash, not spinning disk.
