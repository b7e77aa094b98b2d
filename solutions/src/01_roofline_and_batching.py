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
# # Worksheet 1: the roofline of one decode step, and what batching buys
#
# Practice for notebook `01_roofline_and_batching` (lecture 00:00 to about 16:00). Each problem has
# a question, the numbers it uses (printed by a code cell, straight from `lecture_lib`'s registries),
# an **answer cell** and a **check cell**.
#
# * **Answer in your own copy, `my_work/01_roofline_and_batching.ipynb`**: `make lab` (or `python -m lecture_lib
#   workspace`) makes it; it is git-ignored and never overwritten, so your answers stay yours and
#   `make test` stays green. The worksheet in `exercises/` is generated: leave it unanswered.
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the
#   check cell. `check()` prints ✓ when you are right. When you are not, it says so without giving
#   the answer away, and it recognises common slips (a unit prefix, FLOPs vs multiply-adds, bits vs
#   bytes, GiB vs GB, total vs active parameters) and gives hints.
# * You may compute with Python and the library (`hardware`, `models`, `roofline`, `units`); try
#   the formula by hand first, then check it with the library.
# * Conventions: 2 FLOPs per multiply-add; 1 GB = 10^9 bytes; FLOP/s are dense peaks.

# %%
from lecture_lib import hardware, models, roofline, units
from lecture_lib.units import fmt, MS
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_01 import GIVEN   # the numbers the checks use

hw = hardware.get(GIVEN.hw)        # a rack, used as one big accelerator
m = models.get(GIVEN.model)
batch, context = GIVEN.batch, GIVEN.context

print(f"Hardware  {hw.name}: {hw.n_chips} GPUs; dense {GIVEN.weight_dtype} compute "
      f"F = {fmt(hw.flops(GIVEN.weight_dtype), 'FLOP/s')}; HBM bandwidth BW = {fmt(hw.hbm_bandwidth, 'B/s')}; "
      f"HBM capacity {fmt(hw.hbm_capacity, 'B')}")
print(f"Model     {m.name}: N_total = {fmt(m.total_params, 'params')}, N_active = {fmt(m.active_params, 'params')}, "
      f"KV cache {fmt(m.kv_bytes_per_token(GIVEN.kv_dtype), 'B/token')} in {GIVEN.kv_dtype}")
print(f"Serving   batch B = {batch:,} sequences, context {context:,} tokens each, weights in "
      f"{GIVEN.weight_dtype}, KV cache in {GIVEN.kv_dtype}, rent ${GIVEN.dollars_per_chip_hour:.2f} per GPU-hour")
fit = roofline.step_time(hw, m, batch, context, GIVEN.weight_dtype, GIVEN.kv_dtype)
print(f"Memory    weights + KV caches = {fmt(fit.hbm_bytes, 'B')} of {fmt(fit.hbm_capacity, 'B')} HBM: "
      f"{'it fits' if fit.fits else 'it does NOT fit'}")

# %% [markdown]
# ## Part A: one decode step of a big MoE on a rack
#
# In one decode step every one of the `batch` sequences gets one new token. The step needs at least
# the time to do its arithmetic and at least the time to read what it needs from HBM; it cannot
# take less than either.

# %% [markdown]
# ### 1. Compute time (1 point)
#
# How long does the arithmetic of one decode step take at the rack's peak? Each new token does one
# multiply-add (2 FLOPs) with every **active** weight. **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
answer = 2 * batch * m.active_params / hw.flops(GIVEN.weight_dtype) / MS
### END SOLUTION

# %%
check("01.t_compute_ms", answer)

# %% [markdown]
# ### 2. Weight fetch time (1 point)
#
# How long does it take to read all the weights once from HBM, at full bandwidth? (At this batch each
# token picks its experts and together they touch every expert, so the step reads all of them; at batch 1
# it would read only the active ones.) The weights are stored in the dtype printed above (bytes per
# parameter: `units.dtype_bytes`). **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
from lecture_lib.units import dtype_bytes
answer = m.total_params * dtype_bytes(GIVEN.weight_dtype) / hw.hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.weight_fetch_ms", answer)

# %% [markdown]
# ### 3. KV-cache fetch time (1 point)
#
# Every sequence reads its own KV cache (all `context` tokens of it) in every step. How long do the
# KV reads of the whole batch take? **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
answer = batch * context * m.kv_bytes_per_token(GIVEN.kv_dtype) / hw.hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.kv_fetch_ms", answer)

# %% [markdown]
# ### 4. Which term sets the pace? (1 point)
#
# Compare your three times. Which one sets the step time? Answer with the letter, as a string
# (e.g. `answer = "a"`).

# %%
show_choices("01.bound_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "c"
### END SOLUTION

# %%
check("01.bound_choice", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_bound -->
# **Why (c).** At 100K tokens of context the KV reads dwarf both the weight read and the
# arithmetic: the step is memory-bound, and it is the *context* that makes it so. Shorter contexts,
# or an attention that reads fewer past tokens (the lecture mentions DeepSeek's sparse attention),
# move the balance back towards compute.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 5. Step time (1 point)
#
# What is the roofline step time, T = max(t_compute, t_weights + t_kv)? **Answer in ms.**
# (`roofline.step_time(hw, m, batch=..., context=..., weight_dtype=..., kv_dtype=...)` returns all
# the parts, in seconds, if you want to check your arithmetic.)

# %%
### BEGIN SOLUTION answer [ms]
r = roofline.step_time(hw, m, batch=batch, context=context,
                      weight_dtype=GIVEN.weight_dtype, kv_dtype=GIVEN.kv_dtype)
answer = r.total / MS
### END SOLUTION

# %%
check("01.step_time_ms", answer)

# %% [markdown]
# ### 6. Cost per million tokens (2 points)
#
# The whole rack is rented at the price per GPU-hour printed above, and one step produces one token
# per sequence. What do a million generated tokens cost at this batch and context?
# **Answer in dollars per million tokens ($/Mtok).**

# %%
### BEGIN SOLUTION answer [$/Mtok]
step_s = roofline.step_time(hw, m, batch=batch, context=context,
                           weight_dtype=GIVEN.weight_dtype, kv_dtype=GIVEN.kv_dtype).total
dollars_per_step = step_s * hw.n_chips * GIVEN.dollars_per_chip_hour / 3600
answer = dollars_per_step / batch * 1e6
### END SOLUTION

# %%
check("01.cost_per_mtok", answer)

# %% [markdown]
# ## Part B: batching, the balance point and the floor

# %% [markdown]
# ### 7. Derive the balance batch (SymPy) (3 points)
#
# Ignore the KV cache. Write t_compute (one new token per sequence) and t_weights with the course's
# symbols, set them equal and solve for `B`. Your answer is a SymPy expression in `F`, `BW`,
# `N_act`, `N_tot` and `b_w` (bytes per weight).

# %%
import sympy as sp
from lecture_lib.notation import B, F, BW, N_act, N_tot, b_w   # positive symbols

# %%
### BEGIN SOLUTION answer [expression]
t_compute = 2 * B * N_act / F
t_weights = N_tot * b_w / BW
answer = sp.solve(sp.Eq(t_compute, t_weights), B)[0]
### END SOLUTION

# %%
check("01.balance_batch_expr", answer)

# %% [markdown]
# ### 8. The balance batch of this deployment (1 point)
#
# Evaluate your expression for the rack and model above (weights in the printed dtype, KV ignored):
# below how many sequences does the weight read dominate the step? **Answer in sequences.**
# (The lecture's "~2,400 for DeepSeek" rests on a slip about its expert count; notebook 02
# untangles it.)

# %%
### BEGIN SOLUTION answer [sequences]
from lecture_lib.units import dtype_bytes
answer = (hw.flops(GIVEN.weight_dtype) / hw.hbm_bandwidth) * (dtype_bytes(GIVEN.weight_dtype) / 2) \
         * (m.total_params / m.active_params)
### END SOLUTION

# %%
check("01.balance_batch", answer)

# %% [markdown]
# ### 9. What batching buys (2 points)
#
# With no context (KV ignored), how many times more does a token cost at batch 1 than at the balance
# batch? Use `roofline.cost_per_token(hw, m, batch=..., context=0, weight_dtype=..., kv_dtype=...)`
# and `roofline.balance_batch(hw, m, weight_dtype=...)`. **Answer as a pure ratio (×).**
# The lecture says "without batching it would be ~1000× worse"; careful what one token at batch 1
# actually reads from an MoE.

# %%
### BEGIN SOLUTION answer [×]
kw = dict(context=0, weight_dtype=GIVEN.weight_dtype, kv_dtype=GIVEN.kv_dtype)
b_star = roofline.balance_batch(hw, m, weight_dtype=GIVEN.weight_dtype)
answer = roofline.cost_per_token(hw, m, batch=1, **kw) / roofline.cost_per_token(hw, m, batch=b_star, **kw)
### END SOLUTION

# %%
check("01.no_batching_ratio", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_ratio -->
# **Why it is the hardware ratio, not B\*.** At batch 1 one token is routed to its few experts and the
# step reads only its *active* weights, N_active·b_w/BW; at the balance batch each token costs its compute,
# 2·N_active/F. The ratio is F·b_w/(2·BW), the rack's hardware ratio (~300), whatever the model. The
# lecture's "~1000×" (and B\* itself, in thousands) is the all-weights reading: right for a dense model,
# and for an MoE once the batch touches every expert, not at batch 1.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 10. The latency floor (1 point)
#
# A different deployment: the dense model and the 8-GPU box printed below, weights in the printed
# dtype. However small the batch, a decode step cannot be faster than what? Compute that floor.
# **Answer in ms per step.**

# %%
box, llama = hardware.get(GIVEN.floor_hw), models.get(GIVEN.floor_model)
print(f"{box.name}: {box.n_chips} GPUs, HBM bandwidth {fmt(box.hbm_bandwidth, 'B/s')} in all "
      f"({fmt(box.chip.hbm_bandwidth, 'B/s')} each)")
print(f"{llama.name}: {fmt(llama.total_params, 'params')} (dense), weights in {GIVEN.floor_dtype}")

# %%
### BEGIN SOLUTION answer [ms]
answer = llama.weight_bytes(GIVEN.floor_dtype) / box.hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.latency_floor_ms", answer)

# %% [markdown]
# ### 11. Can money buy any speed? (1 point)
#
# "Fast mode" sells faster tokens at a higher price. Why can't paying 100× more buy 100× faster
# decoding on the same hardware? Answer with the letter, as a string.

# %%
show_choices("01.fast_mode_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("01.fast_mode_choice", answer)


# %% [markdown]
# ## Part C: spot the bug
#
# A KV-cache calculator found online gives this for the model below:

# %%
def calculator_kv_bytes_per_token(model, bytes_per_value=2):
    """KV-cache bytes per token of context (from a calculator found online)."""
    return 2 * model.n_layers * model.n_heads * model.head_dim * bytes_per_value   # K and V, all layers

gqa = models.get(GIVEN.bug_model)
print(f"{gqa.name}: {gqa.n_layers} layers, {gqa.n_heads} query heads, {gqa.n_kv_heads} KV heads, "
      f"head_dim {gqa.head_dim}, KV stored in {GIVEN.bug_dtype}")
print(f"the calculator says {fmt(calculator_kv_bytes_per_token(gqa), 'B/token')}")

# %% [markdown]
# ### 12. How far off is it? (1 point)
#
# The calculator has one bug. By what factor is its number too large? **Answer as a ratio (×).**

# %%
### BEGIN SOLUTION answer [×]
answer = gqa.n_heads / gqa.n_kv_heads
### END SOLUTION

# %%
check("01.kv_bug_factor", answer)

# %% [markdown]
# ### 13. The corrected value (2 points)
#
# What is the right KV-cache size per token of context for this model, in its KV dtype?
# **Answer in kB (1 kB = 1000 bytes).**

# %%
### BEGIN SOLUTION answer [kB]
from lecture_lib.units import dtype_bytes
answer = 2 * gqa.n_layers * gqa.n_kv_heads * gqa.head_dim * dtype_bytes(GIVEN.bug_dtype) / 1e3
### END SOLUTION

# %%
check("01.kv_fixed_kB", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_bug -->
# **The bug.** The cache stores keys and values for the *key/value* heads. With grouped-query
# attention several query heads share one KV head, so using the query-head count overstates the
# cache by n_heads / n_kv_heads. The library's `m.kv_bytes_per_token` uses the KV heads.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ## Part D: the chapter's numbers against the world
#
# ### 14. The cost floor at a realistic context (2 points)
#
# Chat and coding traffic carries a few thousand tokens of context per sequence. At the context printed
# below, serve the model on the same rack with **the largest batch whose KV caches fit in HBM** beside the
# weights (why the largest? past the balance context every batch is memory-bound). What does a million
# output tokens cost at the printed rent? **Answer in $/Mtok.**

# %%
print(f"Context {GIVEN.realistic_context:,} tokens; the balance context of this deployment is "
      f"{fmt(roofline.balance_context(hw, m, GIVEN.weight_dtype, GIVEN.kv_dtype))} tokens.")

# %%
### BEGIN SOLUTION answer [$/Mtok]
ctx = GIVEN.realistic_context
most = int((hw.hbm_capacity - m.weight_bytes(GIVEN.weight_dtype)) // (ctx * m.kv_bytes_per_token(GIVEN.kv_dtype)))
step = roofline.step_time(hw, m, most, ctx, GIVEN.weight_dtype, GIVEN.kv_dtype)
answer = step.total * hw.n_chips * GIVEN.dollars_per_chip_hour / 3600 / most * 1e6
### END SOLUTION

# %%
check("01.realistic_cost_mtok", answer)

# %% [markdown]
# ### 15. The syllabus's version (1 point)
#
# The lecture's deployment, rounded: a rack of the printed number of GPUs at the printed rent producing the
# printed tokens per second. What is its cost per million tokens? **Answer in $/Mtok.**

# %%
print(f"{GIVEN.toy_gpus} GPUs, {GIVEN.toy_tok_s:,} tokens/s, ${GIVEN.dollars_per_chip_hour:.2f} per GPU-hour")

# %%
### BEGIN SOLUTION answer [$/Mtok]
answer = GIVEN.toy_gpus * GIVEN.dollars_per_chip_hour / 3600 / GIVEN.toy_tok_s * 1e6
### END SOLUTION

# %%
check("01.toy_cost_mtok", answer)

# %% [markdown]
# ### 16. The gap to a list price (1 point)
#
# DeepSeek's own list price for output tokens is printed below. How many times your problem-14 floor is
# it? **Answer as a ratio (×).**

# %%
from lecture_lib import prices
listed = prices.get(GIVEN.list_price)
print(f"{listed.model}: {fmt(listed.output, '$')} per million output tokens ({listed.source.as_of})")

# %%
### BEGIN SOLUTION answer [×]
answer = listed.output / (step.total * hw.n_chips * GIVEN.dollars_per_chip_hour / 3600 / most * 1e6)
### END SOLUTION

# %%
check("01.list_price_gap", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_gap -->
# **Why the gap.** The floor assumes every byte of bandwidth busy on decode alone, at peak, all the time.
# Real kernels reach a fraction of peak, prompts (prefill) and idle capacity cost extra, traffic is uneven,
# the price includes a margin, and the provider may run a bigger or less sparse model than the one here.
# Notebook 09 compares bounds with measured systems.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 17–20. Drain times (1 point each)
#
# The *drain time* of an accelerator is its HBM capacity divided by its HBM bandwidth: how long it takes
# to read all of its memory once. Notebook 02 shows why a decode step that fills memory lands near it.
# For each chip printed below, **answer in ms**. (For Rubin use the lecture's 20 TB/s.)

# %%
from lecture_lib import balance
rubin = balance.rubin_as_in_lecture()
for name in GIVEN.drain_chips:
    c = hardware.get(name)
    print(f"{c.name}: {fmt(c.hbm_capacity, 'B')} at {fmt(c.hbm_bandwidth, 'B/s')}")
print(f"Rubin (as in the lecture): {fmt(rubin.hbm_capacity, 'B')} at {fmt(rubin.hbm_bandwidth, 'B/s')}")

# %%
### BEGIN SOLUTION answer [ms]
answer = hardware.get("H100-SXM").hbm_capacity / hardware.get("H100-SXM").hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.drain_h100_ms", answer)

# %%
### BEGIN SOLUTION answer [ms]
answer = hardware.get("B200").hbm_capacity / hardware.get("B200").hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.drain_b200_ms", answer)

# %%
### BEGIN SOLUTION answer [ms]
answer = hardware.get("GB300").hbm_capacity / hardware.get("GB300").hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.drain_gb300_ms", answer)

# %%
### BEGIN SOLUTION answer [ms]
answer = rubin.hbm_capacity / rubin.hbm_bandwidth / MS
### END SOLUTION

# %%
check("01.drain_rubin_ms", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_drain -->
# **What it shows.** Across four generations the drain time stays within a small factor, a few tens of
# milliseconds: capacity and bandwidth have grown together. (For the B200 the syllabus uses the physical
# HBM; the registry uses the smaller usable capacity, so its drain time is a little shorter.)
# <!-- ### END SOLUTION -->

# %% [markdown]
# **Takeaway.** A decode step is bounded below by max(compute, weights + KV). The weight read is
# shared by the batch, so batching divides its cost; compute and KV reads are per sequence and are
# not shared. The balance batch is a hardware ratio times total/active parameters; below it a token
# costs more, up to the hardware ratio (~300×) for an MoE at batch 1 and B\* times for a dense model. At a
# realistic context the floor is set by memory, not compute, and list prices sit well above it.
