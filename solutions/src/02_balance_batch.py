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
# # Worksheet 2: the balance batch, the 20 ms train, drain time, fast mode and sparsity
#
# Practice for notebook `02_balance_batch` (lecture about 16:00 to 32:09). Each problem has a
# question, the numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer
# cell** and a **check cell**.
#
# * **Answer in your own copy, `my_work/02_balance_batch.ipynb`**: `make lab` (or `python -m lecture_lib
#   workspace`) makes it; it is git-ignored and never overwritten, so your answers stay yours and
#   `make test` stays green. The worksheet in `exercises/` is generated: leave it unanswered.
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the
#   check cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the
#   answer away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`hardware`, `models`, `roofline`, `balance`, `moe`, `routing`, `queueing`, `fastmode`,
#   `traffic`); try each formula by hand first.
# * Conventions: 2 FLOPs per multiply-add; 1 GB = 10^9 bytes; FLOP/s are dense peaks. The lecture's
#   dimensionless "≈300" is multiply-adds per second ÷ weight parameters read per second.

# %%
import sympy as sp
from lecture_lib import balance, fastmode, hardware, models, moe, queueing, roofline, routing, traffic
from lecture_lib.units import fmt, MS
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_02 import GIVEN   # the numbers the checks use

dsv3 = models.get(GIVEN.dsv3)
print(f"The lecture's hardware ratio: {GIVEN.ratio}")
print(f"{dsv3.name}: {fmt(dsv3.total_params, 'params')} total, {fmt(dsv3.active_params, 'params')} active, "
      f"{dsv3.n_experts} routed experts, {dsv3.experts_per_token} routed per token "
      f"(+{dsv3.n_shared_experts} shared)")

# %% [markdown]
# ## Part A: the balance batch

# %% [markdown]
# ### 1. A 1T-parameter MoE (1 point)
#
# A model has 1T total and 50B active parameters. With the lecture's hardware ratio of 300 and the KV
# cache ignored, how many sequences must share a decode step before compute catches up with the
# weight read? Use the aggregate roofline (the whole step's compute against reading every weight once,
# as in the lecture; a batch this large touches every expert). **Answer in sequences.**

# %%
### BEGIN SOLUTION answer [sequences]
answer = GIVEN.ratio * GIVEN.total_params / GIVEN.active_params
### END SOLUTION

# %%
check("02.balance_batch_moe", answer)

# %% [markdown]
# ### 2. DeepSeek-V3, corrected (2 points)
#
# The lecture computes DeepSeek-V3's balance batch as 300 × 256/32 = 2,400. Redo it with the
# model's **parameter counts** (printed above) and the same ratio of 300. **Answer in sequences.**

# %%
### BEGIN SOLUTION answer [sequences]
answer = GIVEN.ratio * dsv3.total_params / dsv3.active_params
### END SOLUTION

# %%
check("02.dsv3_balance_batch", answer)

# %% [markdown]
# ### 3. Spot the slip (1 point)
#
# What is wrong with the lecture's "32 of 256 experts → sparsity 8 → B ≈ 2,400"? (The lecture's "sparsity 8" is
# N_total / N_active; this course's sparsity is N_active / N_total, so B* ≈ 300 / sparsity.) Answer with the
# letter, as a string.

# %%
show_choices("02.dsv3_slip")

# %%
### BEGIN SOLUTION answer [choice]
answer = "a"
### END SOLUTION

# %%
check("02.dsv3_slip", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_dsv3_slip -->
# **Why (a).** DeepSeek-V3's config routes each token to k of its n routed experts, plus one shared
# expert. The weight term of the roofline counts *bytes read*, and a batch of a few hundred tokens
# already touches essentially every expert (`routing.experts_touched_fraction`), so the right ratio is
# total ÷ active parameters (`m.total_params / m.active_params`), not k. The expert ratio n/k overshoots,
# because it forgets the attention, shared-expert and dense-layer weights every token uses.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 4. Derive the balance batch with the KV reads (SymPy) (3 points)
#
# Put the KV reads back on the memory side: every sequence reads `L_ctx` tokens of `b_kv` bytes each
# per step. Set t_compute (one new token per sequence) equal to t_weights + t_kv and solve for `B`.
# Your answer is a SymPy expression in `F`, `BW`, `N_act`, `N_tot`, `b_w`, `L_ctx` and `b_kv`.

# %%
from lecture_lib.notation import B, F, BW, N_act, N_tot, b_w, L_ctx, b_kv   # positive symbols

# %%
### BEGIN SOLUTION answer [expression]
t_compute = 2 * B * N_act / F
t_memory = N_tot * b_w / BW + B * L_ctx * b_kv / BW
answer = sp.solve(sp.Eq(t_compute, t_memory), B)[0]
### END SOLUTION

# %%
check("02.balance_kv_expr", answer)

# %% [markdown]
# ### 5. The context wall (2 points)
#
# Your expression's denominator reaches zero at some context length: past it, each extra sequence adds
# more memory time than compute time and **no** batch balances. Find that length for the deployment
# printed below. **Answer in tokens.**

# %%
rack, llama = hardware.get(GIVEN.wall_hw), models.get(GIVEN.wall_model)
print(f"{rack.name}: F = {fmt(rack.flops(GIVEN.wall_weight_dtype), 'FLOP/s')} ({GIVEN.wall_weight_dtype}), "
      f"BW = {fmt(rack.hbm_bandwidth, 'B/s')}")
print(f"{llama.name}: {fmt(llama.active_params, 'params')} active; KV in {GIVEN.wall_kv_dtype}: "
      f"{fmt(llama.kv_bytes_per_token(GIVEN.wall_kv_dtype), 'B/token')}")

# %%
### BEGIN SOLUTION answer [tokens]
compute_per_seq = 2 * llama.active_params / rack.flops(GIVEN.wall_weight_dtype)
answer = compute_per_seq * rack.hbm_bandwidth / llama.kv_bytes_per_token(GIVEN.wall_kv_dtype)
### END SOLUTION

# %%
check("02.wall_tokens", answer)

# %% [markdown]
# ## Part B: the train schedule and drain time

# %% [markdown]
# ### 6. Drain time (1 point)
#
# How long does one GB300 GPU take to read its whole HBM once? **Answer in ms.**

# %%
gb300 = hardware.get(GIVEN.drain_hw)
print(f"{gb300.name}: {fmt(gb300.hbm_capacity, 'B')} of HBM at {fmt(gb300.hbm_bandwidth, 'B/s')}")

# %%
### BEGIN SOLUTION answer [ms]
answer = gb300.hbm_capacity / gb300.hbm_bandwidth / MS
### END SOLUTION

# %%
check("02.drain_ms", answer)

# %% [markdown]
# ### 7. The mean wait + ride (1 point)
#
# Steps leave every 25 ms whether or not they are full, and there are always free seats. A request
# arrives at a uniformly random moment, boards the next step and gets its token when that step ends.
# What is its **mean** latency? **Answer in ms.**

# %%
### BEGIN SOLUTION answer [ms]
T = GIVEN.period_s / MS
answer = T / 2 + T     # mean wait + one ride
### END SOLUTION

# %%
check("02.train_mean_ms", answer)

# %% [markdown]
# ### 8. Simulation: when trains fill up (2 points)
#
# Now each train has 64 seats. Simulate 20,000 Poisson arrivals at 3,100 requests per second with
# trains every 20 ms (`queueing.simulate_trains(GIVEN.sim_period_s, GIVEN.sim_arrival_rate,
# capacity=GIVEN.sim_capacity, n_requests=GIVEN.sim_requests, seed=GIVEN.sim_seed)`). What
# percentage of requests find their first train full and have to wait for a later one?
# **Answer in %.** (Look also at the simulation's mean and 99th-percentile latency: is the 40 ms
# worst case still true?)

# %%
### BEGIN SOLUTION answer [%]
sim = queueing.simulate_trains(GIVEN.sim_period_s, GIVEN.sim_arrival_rate, capacity=GIVEN.sim_capacity,
                             n_requests=GIVEN.sim_requests, seed=GIVEN.sim_seed)
print(f"load {sim.load:.2f}, mean {fmt(sim.latency.mean(), 's')}, p99 {fmt(sim.percentile(99), 's')}")
answer = 100 * sim.miss_fraction
### END SOLUTION

# %%
check("02.train_sim_miss_pct", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_sim -->
# **What it shows.** The load (arrival rate × period ÷ seats, printed above) is just under one request
# per seat: on average the trains are almost full, so random bunching fills some of them and a sizeable
# share of the requests wait for a later train. The mean rises only a little above the free-seat mean
# (1.5 periods), but the p99 passes the lecture's "worst case" of two periods, which holds only when
# there are free seats.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ## Part C: throughput, fast mode, sparsity

# %% [markdown]
# ### 9. One deployment against Google (2 points)
#
# One deployment runs a batch of 2,000 sequences with a 20 ms step. Google reported 1.3 quadrillion
# tokens per month in October 2025 (`traffic.get(GIVEN.volume)`). One deployment is "1 in N" of that
# traffic: what is N? **Answer as a pure number.** (Google's count includes input tokens, the deployment's
# is decoded output only: a rough share, not like for like.)

# %%
### BEGIN SOLUTION answer []
tok_s = GIVEN.batch / GIVEN.step_s
answer = traffic.get(GIVEN.volume).tokens_per_second / tok_s
### END SOLUTION

# %%
check("02.google_one_in", answer)

# %% [markdown]
# ### 10. Fast mode's speed-up (2 points)
#
# The fast-mode toy: 64 GPUs with 8 TB/s each (512 TB/s), the lecture's ratio of 300, a 2T-parameter
# model in fp8 with 100B active, 100K tokens of context at 2 kB per token
# (`fastmode.FastModeToy.problem8()`; the lecture's all-weights reading: every weight is read every
# step). At the balance batch the step is compute-bound. If a provider
# shrinks the batch until a token costs **6×** as much, how many times faster is each step?
# **Answer as a ratio (×).**

# %%
### BEGIN SOLUTION answer [×]
toy = fastmode.FastModeToy.problem8()
t_w, c, k = toy.weights_s, toy.compute_per_seq_s, toy.kv_per_seq_s
b_star = t_w / (c - k)                 # balance batch with KV
b_fast = t_w / (6 * c - k)             # cost per token (t_w/B + k) = 6 c
answer = (b_star * c) / (t_w + b_fast * k)
### END SOLUTION

# %%
check("02.fast_speedup", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_fast -->
# **Why not 6×.** The step can never be shorter than the weight read (`toy.weights_s`), and the balance
# step is only `toy.max_speedup` = c/(c − k) times that, so no price buys more than that ceiling. Six
# times the price buys a batch many times smaller but a speed-up just under the ceiling, close to the
# lecture's "6× the price for 2.5× the speed".
# <!-- ### END SOLUTION -->

# %% [markdown]
# ### 11. What 64 experts buy (1 point)
#
# Clark et al. (2022) found a 64-expert model with 370M active parameters matching a dense 1.3B model
# (`balance.CLARK_2022`). How many times its active size is the dense model it matches? (The lecture
# said "64× for 4×".) **Answer as a ratio (×).**

# %%
### BEGIN SOLUTION answer [×]
answer = balance.CLARK_2022.dense_equivalent_params / balance.CLARK_2022.active_params
### END SOLUTION

# %%
check("02.clark_multiple", answer)

# %% [markdown]
# ### 12. DeepSeek-V3's balance batch, per expert (2 points)
#
# The aggregate roofline lets every operation of a step overlap. A GPU, though, runs each routed expert's
# matmul on the tokens sent to it. With uniform routing, how many tokens per step (sequences in decode)
# make **each** routed expert's matmul compute-bound on its own, at the lecture's ratio of 300 (an expert
# needs about 300 tokens per weight read)? **Answer in tokens.**

# %%
### BEGIN SOLUTION answer [tokens]
answer = GIVEN.ratio * dsv3.n_experts / dsv3.experts_per_token     # B·k/n = 300
### END SOLUTION

# %%
check("02.expert_balance_batch", answer)

# %% [markdown]
# ### 13. From what context can fast mode buy 2.5×? (2 points)
#
# DeepSeek-V3 on a GB200-NVL72, fp8 weights and bf16 KV, in the lecture's all-weights reading
# (`fastmode.FastModeToy.from_system(GIVEN.fast_hw, GIVEN.fast_model, 0, GIVEN.fast_weight_dtype)`).
# Below the balance batch the step is t_w + k·B, so the speed-up of any smaller batch is at most the
# ceiling c/(c − k), with c the compute and k the KV read per sequence. From what context length does a
# **2.5×** speed-up become possible at any price? **Answer in tokens.**

# %%
fast = fastmode.FastModeToy.from_system(GIVEN.fast_hw, GIVEN.fast_model, 0, GIVEN.fast_weight_dtype)
print(f"c = {fmt(fast.compute_per_seq_s, 's')} per sequence; KV: {fmt(fast.kv_bytes_per_token, 'B/token')} "
      f"at {fmt(fast.bandwidth, 'B/s')}")

# %%
### BEGIN SOLUTION answer [tokens]
L_ctx_sym, c_, S_ = sp.symbols("L c S", positive=True)
k_ = L_ctx_sym * fast.kv_bytes_per_token / fast.bandwidth
(answer,) = sp.solve(sp.Eq(c_ / (c_ - k_), S_), L_ctx_sym)
answer = float(answer.subs({c_: fast.compute_per_seq_s, S_: GIVEN.fast_target}))
### END SOLUTION

# %%
check("02.fast_context", answer)

# %% [markdown]
# **Takeaway.** The balance batch is a hardware ratio times total ÷ active parameters; the KV reads push
# it up until, past a context wall, no batch balances. Steps leave about every drain time (~20 ms), so a
# request waits 1.5 steps on average and 2 at worst, as long as seats are free. Fast mode trades
# amortisation for speed but cannot beat the weight-read floor; sparsity is free in compute and
# bandwidth and costs memory instead.
