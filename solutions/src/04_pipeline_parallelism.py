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
# # Worksheet 4: pipeline parallelism across racks
#
# Practice for notebook `04_pipeline_parallelism` (lecture 47:12 to 1:03:37). Each problem has a
# question, the numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer
# cell** and a **check cell**.
#
# * **Answer in your own copy, `my_work/04_pipeline_parallelism.ipynb`**: `make lab` (or `python -m lecture_lib
#   workspace`) makes it; it is git-ignored and never overwritten, so your answers stay yours and
#   `make test` stays green. The worksheet in `exercises/` is generated: leave it unanswered.
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the
#   check cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the
#   answer away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`hardware`, `models`, `pipeline`); try each formula by
#   hand first.
# * Conventions: bandwidths per chip and per direction; 1 GB = 10^9 bytes; times in units of one forward
#   stage-pass where no unit is given.

# %%
import math
import sympy as sp
from lecture_lib import hardware, models, pipeline
from lecture_lib.units import fmt, GB, dtype_bytes
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_04 import GIVEN, RHO as rho, K as k, P_SYM as P, M_SYM as M   # the numbers the checks use

rack, model = hardware.get(GIVEN.rack), models.get(GIVEN.model)
print(f"Lecture: scale-out {GIVEN.rho}× slower than scale-up; k = {GIVEN.k}; {GIVEN.layers} MoE layer per stage")
print(f"{rack.name}: scale-up {fmt(rack.scaleup_bandwidth, 'B/s')} one way per GPU (NVLink, "
      f"{fmt(rack.scale_up_bandwidth, 'B/s')} both ways), scale-out {fmt(rack.scaleout_bandwidth, 'B/s')} per GPU (NIC)")
print(f"{model.name}: {model.experts_per_token} routed experts per token (+{model.n_shared_experts} shared), "
      f"{model.n_layers} layers")
print(f"Bubbles: P = {GIVEN.stages} stages, M = {GIVEN.microbatches} micro-batches; P = {GIVEN.big_stages} for problem 7")
print(f"Inference: P = {GIVEN.inf_stages} stages, {GIVEN.inf_microbatches} micro-batches in flight")
print(f"Capacity: {fmt(GIVEN.params, 'params')} in {GIVEN.dtype}; {GIVEN.capacity_rack}; spread over {GIVEN.racks} racks")

# %% [markdown]
# ## Part A: is a rack boundary a bottleneck?

# %% [markdown]
# ### 1. The lecture's test (1 point)
#
# Each rack holds the given number of MoE layers. Per token, the expert all-to-all sends its activation
# to k experts and back on every layer (scale-up); at the boundary the activation crosses once
# (scale-out, the lecture's ratio slower). What is t_scale-up / t_scale-out? **Answer as a number.**

# %%
### BEGIN SOLUTION answer []
answer = (1 / GIVEN.rho) * GIVEN.k * GIVEN.layers * 2
### END SOLUTION

# %%
check("04.boundary_ratio", answer)

# %% [markdown]
# ### 2. One expert per token (1 point)
#
# A model routes each token to a single expert (k = 1, `GIVEN.k_small`). With the
# lecture's bandwidth ratio, how many MoE layers per stage make the boundary stop being the bottleneck
# (ratio = 1)? **Answer in layers.**

# %%
### BEGIN SOLUTION answer [layers]
answer = GIVEN.rho / (2 * GIVEN.k_small)
### END SOLUTION

# %%
check("04.min_layers_k1", answer)

# %% [markdown]
# ### 3. The general answer (SymPy) (2 points)
#
# Solve (1/ρ)·k·L_stage·2 = 1 for L_stage. Use the symbols `rho` and `k` defined above (positive).

# %%
L_stage = sp.Symbol("L_stage", positive=True)

# %%
### BEGIN SOLUTION answer [expression]
answer = sp.solve(sp.Eq(2 * k * L_stage / rho, 1), L_stage)[0]
### END SOLUTION

# %%
check("04.min_layers_expr", answer)

# %% [markdown]
# ### 4. A real rack (2 points)
#
# Take the rack and the model printed above, with both bandwidths **per GPU, one direction**. How many
# whole MoE layers must each rack hold so that the boundary is not the bottleneck? **Answer in layers.**

# %%
### BEGIN SOLUTION answer [layers]
ratio = rack.scaleup_bandwidth / rack.scaleout_bandwidth
answer = math.ceil(ratio / (2 * model.experts_per_token))
### END SOLUTION

# %%
check("04.gb200_layers", answer)

# %% [markdown]
# ## Part B: bubbles

# %% [markdown]
# ### 5. The GPipe bubble (1 point)
#
# Training with the given P stages and M micro-batches: all forwards, then all backwards, then the
# optimizer step. What percentage of the step is each stage idle? **Answer in %.**

# %%
### BEGIN SOLUTION answer [%]
answer = 100 * (GIVEN.stages - 1) / (GIVEN.microbatches + GIVEN.stages - 1)
### END SOLUTION

# %%
check("04.bubble_pct", answer)

# %% [markdown]
# ### 6. The bubble from the picture (SymPy) (2 points)
#
# One micro-batch takes t_F forward and t_B backward on one stage. Write the step's length and each
# stage's busy time, and give the idle fraction as an expression in `P` and `M` (defined above).

# %%
t_F, t_B = sp.symbols("t_F t_B", positive=True)

# %%
### BEGIN SOLUTION answer [expression]
makespan = (M + P - 1) * (t_F + t_B)
busy = M * (t_F + t_B)
answer = sp.simplify(1 - busy / makespan)
### END SOLUTION

# %%
check("04.bubble_expr", answer)

# %% [markdown]
# ### 7. Buying the bubble down (2 points)
#
# With the larger stage count printed above, how many micro-batches per step (the smallest whole
# number) keep the GPipe bubble at or below the target percentage (5%)? **Answer in micro-batches.**

# %%
### BEGIN SOLUTION answer [micro-batches]
target = GIVEN.target_pct / 100
answer = math.ceil((GIVEN.big_stages - 1) * (1 / target - 1) - 1e-9)
### END SOLUTION

# %%
check("04.microbatches_5pct", answer)

# %% [markdown]
# ### 8. Zero bubble (1 point)
#
# Qi et al. 2024 (arXiv 2401.10241; not in the lecture) fill most of the bubble. What do they exploit?
# Answer with the letter, as a string.

# %%
show_choices("04.zero_bubble_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("04.zero_bubble_choice", answer)

# %% [markdown]
# ### 9. Inference with too few micro-batches (1 point)
#
# Pipelined inference on the given stages with the given micro-batches in flight: after each trip through
# the last stage a micro-batch has its next token and goes back to stage 0. In steady state, what
# percentage of the time is each stage idle? **Answer in %.**

# %%
### BEGIN SOLUTION answer [%]
answer = 100 * max(0, 1 - GIVEN.inf_microbatches / GIVEN.inf_stages)
### END SOLUTION

# %%
check("04.inference_idle_pct", answer)

# %% [markdown]
# ## Part C: what pipelining buys

# %% [markdown]
# ### 10. The memory surplus (1 point)
#
# What percentage of the printed rack's HBM do the weights of the printed model size take in the printed
# number format? **Answer in %.**

# %%
### BEGIN SOLUTION answer [%]
weights = GIVEN.params * dtype_bytes(GIVEN.dtype)
answer = 100 * weights / hardware.get(GIVEN.capacity_rack).hbm_capacity
### END SOLUTION

# %%
check("04.weight_fraction_pct", answer)

# %% [markdown]
# ### 11. Less HBM per GPU (1 point)
#
# Spread the same weights over the printed number of racks of that kind (a pipeline stage per rack). How
# many GB of weights does each GPU hold? **Answer in GB.**

# %%
### BEGIN SOLUTION answer [GB]
n = hardware.get(GIVEN.capacity_rack).n_chips
answer = GIVEN.params * dtype_bytes(GIVEN.dtype) / (GIVEN.racks * n) / GB
### END SOLUTION

# %%
check("04.weights_per_gpu_gb", answer)

# %% [markdown]
# ### 12. Latency and batch (1 point)
#
# Answer with the letter, as a string.

# %%
show_choices("04.latency_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "c"
### END SOLUTION

# %%
check("04.latency_choice", answer)
