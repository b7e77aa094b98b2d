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
# # Worksheet 5: the memory wall
#
# Practice for notebook `05_memory_wall` (lecture 1:03:37 to 1:18:59). Each problem has a question, the
# numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer cell** and a
# **check cell**.
#
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the check
#   cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the answer
#   away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`memory`, `hardware`, `models`); try each formula by hand
#   first.
# * Conventions: the lecture's even sharding (weights and KV caches spread evenly over the E GPUs of a stage
#   and the P stages); weights in fp8 (1 byte per parameter), KV caches in bf16; GB = 10⁹ bytes.

# %%
import sympy as sp
from lecture_lib import hardware, memory, models
from lecture_lib.units import fmt
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_05 import GIVEN   # the numbers the checks use

toy = memory.lecture_model(GIVEN.params, GIVEN.active)
print(f"The chapter's model: {fmt(GIVEN.params, 'params')} ({fmt(toy.weight_bytes('fp8'), 'B')} in fp8), "
      f"KV {fmt(toy.kv_bytes_per_token('bf16'), 'B/token')}")
print(f"E = {GIVEN.expert_parallel} GPUs per stage, P = {GIVEN.stages} stages, micro-batch b = {GIVEN.micro_batch:,}, "
      f"context {GIVEN.context:,} tokens")

# %% [markdown]
# ## Part A: memory per GPU

# %% [markdown]
# ### 1. Weights per GPU (1 point)
#
# The model above is pipelined over P racks, each spreading its layers over E GPUs. How many bytes of
# weights does each GPU hold? **Answer in GB.**

# %%
### BEGIN SOLUTION answer [GB]
answer = GIVEN.params * 1 / (GIVEN.expert_parallel * GIVEN.stages) / 1e9
### END SOLUTION

# %%
check("05.weights_per_gpu_gb", answer)

# %% [markdown]
# ### 2. KV per GPU in the decode loop (2 points)
#
# The decode loop keeps P micro-batches of b sequences in flight, each at the printed context. How many bytes
# of KV cache does each GPU hold? **Answer in GB.**

# %%
### BEGIN SOLUTION answer [GB]
B = GIVEN.stages * GIVEN.micro_batch                       # sequences in flight
answer = B * GIVEN.context * toy.kv_bytes_per_token("bf16") / (GIVEN.expert_parallel * GIVEN.stages) / 1e9
### END SOLUTION

# %%
check("05.kv_per_gpu_gb", answer)

# %% [markdown]
# ### 3. The KV term after B = P·b (SymPy) (2 points)
#
# The KV part of the memory per GPU is $B\,L_\text{ctx}\,b_\text{kv}/(E\,P)$. Substitute $B = P\,b$ and give
# the simplified expression, in the symbols below.

# %%
from lecture_lib.notation import B as B_sym, E, L_ctx, P, b_kv, b_mb as b

# %%
### BEGIN SOLUTION answer [expression]
answer = sp.simplify((B_sym * L_ctx * b_kv / (E * P)).subs(B_sym, P * b))
### END SOLUTION

# %%
check("05.kv_term_expr", answer)

# %% [markdown]
# ### 4. How many micro-batches? (1 point)
#
# In a decode loop over P pipeline stages, what is the fewest number of micro-batches in flight that leaves no
# stage idle? Answer with the letter, as a string.

# %%
show_choices("05.min_microbatches")

# %%
### BEGIN SOLUTION answer [choice]
answer = "c"
### END SOLUTION

# %%
check("05.min_microbatches", answer)

# %% [markdown]
# ## Part B: hop latency

# %% [markdown]
# ### 5. The top of the range (1 point)
#
# A decode step takes the printed time without pipelining. With P stages the loop crosses P rack boundaries
# per token. The lecture's hop latency is "a few ms" (2.5 ms here) and may be off by 10× either way. What is
# the step time if each hop takes 10× the lecture's value? **Answer in ms.**

# %%
print(f"T_step = {fmt(GIVEN.step_s, 's')}, P = {GIVEN.stages}, t_hop = {fmt(GIVEN.hop_s, 's')} (±{GIVEN.spread}×)")

# %%
### BEGIN SOLUTION answer [ms]
answer = (GIVEN.step_s + GIVEN.stages * GIVEN.hop_s * GIVEN.spread) * 1e3
### END SOLUTION

# %%
check("05.hop_high_ms", answer)

# %% [markdown]
# ## Part C: bandwidth, not capacity

# %%
box, rack = hardware.get(GIVEN.box), hardware.get(GIVEN.rack)
for s in (box, rack):
    print(f"{s.name}: {s.n_chips} GPUs × {fmt(s.hbm_bandwidth / s.n_chips, 'B/s')} of HBM bandwidth, "
          f"{fmt(s.hbm_capacity, 'B')} in all")
print(f"Model: {fmt(GIVEN.one_t, 'params')} in fp8")

# %% [markdown]
# ### 6. One read of the weights on a Hopper box (1 point)
#
# How long does the 8-GPU box take to read the model's weights once (the decode latency floor)? Ignore that
# they do not fit. **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
answer = GIVEN.one_t * 1 / (box.n_chips * box.hbm_bandwidth / box.n_chips) * 1e3
### END SOLUTION

# %%
check("05.weight_read_box_ms", answer)

# %% [markdown]
# ### 7. Pipelined over two boxes (2 points)
#
# The weights do not fit in one box, so they are pipelined over two: each box holds half the layers. How long
# does one decode step now spend reading weights? **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
per_stage = (GIVEN.one_t / 2) * 1 / box.hbm_bandwidth          # each box reads its half ...
answer = 2 * per_stage * 1e3                                   # ... one after the other
### END SOLUTION

# %%
check("05.pipelined_read_ms", answer)

# %% [markdown]
# ### 8. The rack against the box (1 point)
#
# How many times faster does the NVL72 rack read the same weights than the Hopper box? **Answer as a ratio.**

# %%
### BEGIN SOLUTION answer [ratio]
answer = rack.hbm_bandwidth / box.hbm_bandwidth
### END SOLUTION

# %%
check("05.scaleup_speedup", answer)

# %% [markdown]
# ### 9. HBM bandwidth per GPU, Hopper to Blackwell (1 point)
#
# The lecture says bandwidth per GPU grows 1.5–2× per generation. What is the factor from the H100 to the
# B200? **Answer as a ratio.**

# %%
old, new = hardware.get(GIVEN.old), hardware.get(GIVEN.new)
print(f"{old.name}: {fmt(old.hbm_bandwidth, 'B/s')}, {fmt(old.hbm_capacity, 'B')};  "
      f"{new.name}: {fmt(new.hbm_bandwidth, 'B/s')}, {fmt(new.hbm_capacity, 'B')}")

# %%
### BEGIN SOLUTION answer [ratio]
answer = new.hbm_bandwidth / old.hbm_bandwidth
### END SOLUTION

# %%
check("05.bw_growth", answer)

# %% [markdown]
# ## Part D: the longest context

# %%
ds = models.get(GIVEN.dsv3)
chip = hardware.get(GIVEN.ceiling_chip)
print(f"{ds.name}: {fmt(ds.weight_bytes('fp8'), 'B')} in fp8, KV {fmt(ds.kv_bytes_per_token('bf16'), 'B/token')} in bf16")
print(f"{chip.name}: {fmt(chip.hbm_capacity, 'B')} per GPU;  {rack.name}: {fmt(rack.hbm_capacity / rack.n_chips, 'B')} "
      f"per GPU, {rack.n_chips} GPUs")

# %% [markdown]
# ### 10. The ceiling no P can pass (2 points)
#
# With enough pipeline stages the weights per GPU vanish. Each GPU of a stage then holds b/E sequences'
# KV caches. With b and E as printed at the top, how long can the context be on a GB300 GPU? **Answer in
# tokens.**

# %%
### BEGIN SOLUTION answer [tokens]
answer = chip.hbm_capacity * GIVEN.expert_parallel / (GIVEN.micro_batch * ds.kv_bytes_per_token("bf16"))
### END SOLUTION

# %%
check("05.context_ceiling_tok", answer)

# %% [markdown]
# ### 11. Beside the weights, on one rack (2 points)
#
# Now no pipelining: DeepSeek-V3 in fp8 spread over all 72 GPUs of a GB200 NVL72 (E = 72, P = 1), with
# B = b sequences (printed at the top) in flight. What is the longest context that fits? **Answer in tokens.**

# %%
### BEGIN SOLUTION answer [tokens]
per_gpu = rack.hbm_capacity / rack.n_chips
answer = (per_gpu * rack.n_chips - ds.weight_bytes("fp8")) / (GIVEN.micro_batch * ds.kv_bytes_per_token("bf16"))
### END SOLUTION

# %%
check("05.max_context_rack_tok", answer)

# %% [markdown]
# ### 12. What pipelining removes (1 point)
#
# Answer with the letter, as a string.

# %%
show_choices("05.what_pipelining_removes")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("05.what_pipelining_removes", answer)
