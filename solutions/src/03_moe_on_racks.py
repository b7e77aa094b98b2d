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
# # Worksheet 3: MoE models on GPU racks
#
# Practice for notebook `03_moe_on_racks` (lecture 32:09 to 47:12). Each problem has a question, the
# numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer cell** and a
# **check cell**.
#
# * **Answer in your own copy, `my_work/03_moe_on_racks.ipynb`**: `make lab` (or `python -m lecture_lib
#   workspace`) makes it; it is git-ignored and never overwritten. The worksheet in `exercises/` is
#   generated: leave it unanswered.
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the
#   check cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the
#   answer away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`hardware`, `models`, `moe`, `routing`, `roofline`,
#   `pipeline`); try each formula by hand first.
# * Conventions: 1 GB = 10^9 bytes; bandwidths per GPU, one direction; fp8 = 1 byte, bf16 = 2 bytes.

# %%
import sympy as sp
from lecture_lib import hardware, models, moe, pipeline, roofline, routing
from lecture_lib.units import dtype_bytes, fmt, MS
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_03 import GIVEN   # the numbers the checks use

m = models.get(GIVEN.model)
rack = hardware.get(GIVEN.rack)
print(f"{m.name}: d_model {m.d_model}, {m.n_layers} layers ({m.n_dense_layers} dense, {m.n_moe_layers} MoE), "
      f"{m.n_experts} routed experts, {m.experts_per_token} per token, {m.n_shared_experts} shared, expert width "
      f"{m.d_ff_expert}, dense width {m.d_ff}, vocabulary {m.vocab_size}, MLA ranks {m.q_lora_rank}/{m.kv_lora_rank}")
print(f"{rack.name}: {rack.n_chips} GPUs")

# %% [markdown]
# ## Part A: the layer

# %% [markdown]
# ### 1. Experts per GPU (1 point)
#
# Spread DeepSeek-V3's routed experts evenly over as many GPUs of the rack as you can (each GPU the same
# whole number of experts). How many experts does each used GPU hold? **Answer in experts.**

# %%
### BEGIN SOLUTION answer [experts]
used = max(g for g in range(1, rack.n_chips + 1) if m.n_experts % g == 0)
answer = m.n_experts // used
### END SOLUTION

# %%
check("03.experts_per_gpu", answer)

# %% [markdown]
# ### 2. One expert (1 point)
#
# How many parameters does one routed expert of DeepSeek-V3 have? (Its MLP is SwiGLU.) **Answer in parameters.**

# %%
### BEGIN SOLUTION answer [parameters]
answer = 3 * m.d_model * m.d_ff_expert
### END SOLUTION

# %%
check("03.expert_params", answer)

# %% [markdown]
# ### 3. 671B, from the config (2 points)
#
# Add up every parameter of DeepSeek-V3 from the printed config: embedding and output head (untied), 61
# layers of MLA attention, the 3 dense MLPs, and in each MoE layer the routed experts, the shared expert and
# the router. Leave out norms. **Answer in parameters.**

# %%
### BEGIN SOLUTION answer [parameters]
d, expert = m.d_model, 3 * m.d_model * m.d_ff_expert
mla = (d * m.q_lora_rank + m.q_lora_rank * m.n_heads * (m.head_dim + m.qk_rope_dim)
       + d * (m.kv_lora_rank + m.qk_rope_dim) + m.kv_lora_rank * m.n_heads * 2 * m.head_dim + m.n_heads * m.head_dim * d)
answer = (2 * m.vocab_size * d + m.n_layers * mla + m.n_dense_layers * 3 * d * m.d_ff
          + m.n_moe_layers * ((m.n_experts + m.n_shared_experts) * expert + m.n_experts * d))
### END SOLUTION

# %%
check("03.total_params", answer)

# %% [markdown]
# ## Part B: the all-to-all

# %% [markdown]
# ### 4. Bytes per token (1 point)
#
# One token in one MoE layer: dispatch in fp8, combine in bf16 (DeepSeek-V3's choice). How many bytes does
# it send to its experts and get back, together? **Answer in bytes.**

# %%
### BEGIN SOLUTION answer [bytes]
answer = m.experts_per_token * m.d_model * (1 + 2)
### END SOLUTION

# %%
check("03.bytes_per_token", answer)

# %% [markdown]
# ### 5. Per GPU per step, in SymPy (2 points)
#
# A decode step of `B` sequences runs on `n_chips` GPUs in each of `R_racks` racks; every token goes to
# `k_act` experts and back in each of `L_moe` MoE layers, `d_model` numbers at `b_disp` and `b_comb` bytes.
# Write the bytes one GPU sends in the step.

# %%
from lecture_lib.notation import B, k_act, d_model, b_disp, b_comb, L_moe, n_chips, R_rk   # positive symbols

# %%
### BEGIN SOLUTION answer [expression]
answer = B * k_act * d_model * (b_disp + b_comb) * L_moe / (n_chips * R_rk)
### END SOLUTION

# %%
check("03.step_bytes_expr", answer)

# %% [markdown]
# ### 6. Leaving the rack (1 point)
#
# The layer spans the number of racks printed below, routing uniform. What fraction of a token's routed
# traffic leaves its rack? **Answer as a fraction (0 to 1).**

# %%
print(f"racks R = {GIVEN.racks}")

# %%
### BEGIN SOLUTION answer [fraction]
answer = (GIVEN.racks - 1) / GIVEN.racks
### END SOLUTION

# %%
check("03.leave_fraction", answer)

# %% [markdown]
# ### 7. The lecture's two racks (1 point)
#
# Two racks, scale-out 8× slower than scale-up, the same tokens per GPU as in one rack, many GPUs per rack:
# how many times slower is the all-to-all than in one rack? **Answer as a multiple (×).**

# %%
### BEGIN SOLUTION answer [×]
answer = max(1 / 2, GIVEN.rho * (2 - 1) / 2) / 1
### END SOLUTION

# %%
check("03.two_rack_slowdown", answer)

# %% [markdown]
# ### 8. Is it really 8×? (1 point)
#
# A GB300 NVL72 GPU has NVLink 5 (1.8 TB/s, both directions together) and its share of an 800 Gb/s
# ConnectX-8 NIC. Scale-up ÷ scale-out bandwidth per GPU, one direction? **Answer as a multiple (×).**

# %%
### BEGIN SOLUTION answer [×]
gpu = hardware.get(GIVEN.ratio_system)            # per-GPU bandwidths, one direction, in B/s
answer = gpu.scaleup_bandwidth / gpu.scaleout_bandwidth
### END SOLUTION

# %%
check("03.bandwidth_ratio", answer)

# %% [markdown]
# ## Part C: scale-up domains

# %% [markdown]
# ### 9. The largest model a rack holds (1 point)
#
# A GB300 NVL72 rack (72 × 288 GB); keep half the HBM for KV; weights in fp8. The largest model?
# **Answer in parameters.**

# %%
### BEGIN SOLUTION answer [parameters]
rack = hardware.get(GIVEN.capacity_system)
answer = GIVEN.weight_fraction * rack.hbm_capacity / dtype_bytes(GIVEN.weight_dtype)
### END SOLUTION

# %%
check("03.max_params", answer)

# %% [markdown]
# ### 10. The latency floor on a Hopper box (1 point)
#
# A model of the size printed below, weights in fp8, on an 8 × H100 box (3.35 TB/s each): the time to read
# every weight once, the floor of a decode step? **Answer in ms.**

# %%
print(f"model: {fmt(GIVEN.floor_params, 'params')}")

# %%
### BEGIN SOLUTION answer [ms]
box = hardware.get(GIVEN.floor_system)
answer = GIVEN.floor_params * dtype_bytes(GIVEN.weight_dtype) / box.hbm_bandwidth / MS
### END SOLUTION

# %%
check("03.weight_floor", answer)

# %% [markdown]
# ### 11. What binds over two racks? (1 point)
#
# DeepSeek-V3 on two GB200 NVL72 racks, 4,096 sequences per rack, fp8 weights, fp8 dispatch and bf16 combine.
# Which term sets the decode step? Answer with the letter, as a string.

# %%
show_choices("03.which_binds")

# %%
### BEGIN SOLUTION answer [choice]
r = moe.step_time(GIVEN.rack, m, 2 * GIVEN.bind_batch_per_rack, racks=2, weight_dtype=GIVEN.weight_dtype,
                  dispatch_dtype=GIVEN.dispatch_dtype, combine_dtype=GIVEN.combine_dtype)
answer = {"compute": "a", "memory": "b", "network": "c"}[r.bound]
### END SOLUTION

# %%
check("03.which_binds", answer)

# %% [markdown]
# ### 12. The chapter's law (1 point)
#
# Answer with the letter, as a string.

# %%
show_choices("03.law")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("03.law", answer)
