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
# # Worksheet 6: 6·N·D, the "terms equal" heuristic, and ~100× past Chinchilla
#
# Practice for notebook `06_overtraining` (lecture 1:18:59 to 1:33:02). Each problem has a question, the
# numbers it uses (printed by a code cell, straight from `lecture_lib`), an **answer cell** and a
# **check cell**.
#
# * Replace the `...` in the answer cell with your answer, **in the unit asked for**, then run the check
#   cell. `check()` prints ✓ when you are right; when you are not, it says so without giving the answer
#   away, recognises common slips, and gives hints.
# * You may compute with Python and the library (`training`, `training_runs`, `hardware`); try each
#   formula by hand first.
# * Conventions: 2 FLOPs per multiply-add; FLOP/s are dense peaks; N is the **active** parameter count.
#   The frontier-model figures are the lecture's guesses, not published facts.

# %%
import sympy as sp
from lecture_lib import hardware, training, training_runs
from lecture_lib.units import fmt, DAY, HOUR
from lecture_lib.practice import check, show_choices
from lecture_lib.practice.bank_06 import GIVEN   # the numbers the checks use

print(f"Frontier guess: {fmt(GIVEN.frontier_active, 'params')} active, {fmt(GIVEN.pretrain_tokens)} pre-training tokens")
print(f"Serving: {fmt(GIVEN.model_tok_s, 'tok/s')} per model, world {fmt(GIVEN.world_tok_s, 'tok/s')}, "
      f"deployment {GIVEN.deployment_s / DAY:.0f} days")

# %% [markdown]
# ## Part A: 6·N·D

# %% [markdown]
# ### 1. Pre-training FLOPs (1 point)
#
# How many FLOPs does pre-training the frontier guess printed above take? **Answer in FLOP** (e.g. `1.2e26`).

# %%
### BEGIN SOLUTION answer [FLOP]
answer = 6 * GIVEN.frontier_active * GIVEN.pretrain_tokens
### END SOLUTION

# %%
check("06.pretrain_flops", answer)

# %% [markdown]
# ### 2. The backward pass of one matrix (SymPy) (2 points)
#
# A weight matrix $W$ has shape `d_in × d_out`; one token's activation `x` is `1 × d_in`. How many FLOPs does
# the **backward** pass take for this matrix and this token? Your answer is a SymPy expression in `d_in`
# and `d_out`.

# %%
from lecture_lib.notation import d_in, d_out

# %%
### BEGIN SOLUTION answer [expression]
grad_input = 2 * 1 * d_out * d_in      # dL/dx (1×d_in) = dL/dy (1×d_out) · Wᵀ (d_out×d_in)
grad_weight = 2 * d_in * 1 * d_out     # dL/dW (d_in×d_out) = xᵀ (d_in×1) · dL/dy (1×d_out)
answer = grad_input + grad_weight
### END SOLUTION

# %%
check("06.backward_expr", answer)

# %% [markdown]
# ### 3. DeepSeek-V3's utilisation (2 points)
#
# DeepSeek-V3's report gives its pre-training GPU-hours but no FLOP count. Estimate the FLOPs with 6·N·D
# and turn them into a model FLOP utilisation against the H800's dense **FP8** peak (the run's matmul
# format). **Answer in %.**

# %%
run = training_runs.get(GIVEN.dsv3_run)
chip = hardware.get(run.chip)
print(f"{run.name}: {fmt(run.params, 'params')} active, {fmt(run.tokens)} tokens, {fmt(run.chip_hours)} "
      f"{run.chip}-hours ({run.source.url}); {run.chip} fp8 peak {fmt(chip.flops('fp8'), 'FLOP/s')}")

# %%
### BEGIN SOLUTION answer [%]
answer = 100 * 6 * run.params * run.tokens / (run.chip_hours * 3600 * chip.flops("fp8"))
### END SOLUTION

# %%
check("06.dsv3_mfu_pct", answer)

# %% [markdown]
# ## Part B: "the minimum is where the terms are equal"

# %% [markdown]
# ### 4. The ratio at the minimum (SymPy) (2 points)
#
# A total cost $a\,x^{-p} + b\,x^{q}$ ($a, b, p, q > 0$) has one term falling and one rising in $x$. At the
# minimum, what is the falling term divided by the rising term? Your answer is an expression in `p` and `q`.

# %%
from lecture_lib.notation import a_h as a, b_h as b, p_h as p, q_h as q, x_h as x

# %%
### BEGIN SOLUTION answer [expression]
cost = a * x**-p + b * x**q
(x_star,) = sp.solve(sp.diff(cost, x), x)
answer = sp.simplify((a * x**-p / (b * x**q)).subs(x, x_star))
### END SOLUTION

# %%
check("06.heuristic_expr", answer)

# %% [markdown]
# ### 5. A lopsided pair (1 point)
#
# Which is true at the minimum of $a/x + b\,x^2$? Answer with the letter, as a string.

# %%
show_choices("06.heuristic_choice")

# %%
### BEGIN SOLUTION answer [choice]
answer = "a"
### END SOLUTION

# %%
check("06.heuristic_choice", answer)

# %% [markdown]
# ## Part C: equal cost across pre-training, RL and inference

# %% [markdown]
# ### 6. RL tokens at equal cost (2 points)
#
# Pre-training costs 6 FLOPs per active parameter per token. RL costs the printed FLOPs per parameter per
# token times the printed inefficiency. If RL and pre-training cost the same, what is $D_\text{RL} /
# D_\text{PT}$? **Answer as a pure number.**

# %%
print(f"RL: {GIVEN.rl_flops} FLOPs per parameter per token, inefficiency {GIVEN.inefficiency}×")

# %%
### BEGIN SOLUTION answer [ratio]
answer = 6 / (GIVEN.rl_flops * GIVEN.inefficiency)
### END SOLUTION

# %%
check("06.rl_over_pretrain", answer)

# %% [markdown]
# ### 7. The direction flip (1 point)
#
# On the blackboard the correction for RL's low efficiency first went the wrong way. Which statement is
# right? Answer with the letter, as a string.

# %%
show_choices("06.blackboard_flip")

# %%
### BEGIN SOLUTION answer [choice]
answer = "b"
### END SOLUTION

# %%
check("06.blackboard_flip", answer)

# %% [markdown]
# <!-- ### BEGIN SOLUTION explain_flip -->
# **Why (b).** Hold C_RL = k_RL·N·D_RL·u_RL fixed. A bigger inefficiency u makes each token dearer, so
# D_RL = C_RL / (k_RL·N·u_RL) falls. Writing the efficiency (1/10, 2/10, 30%) where the inefficiency
# belongs turns that division into a multiplication, which is the flip.
# <!-- ### END SOLUTION -->

# %% [markdown]
# ## Part D: how many inference tokens, and how far past Chinchilla?

# %% [markdown]
# ### 8. Tokens served (1 point)
#
# One model serves the printed tokens per second for the printed deployment. How many tokens is that?
# **Answer in tokens.**

# %%
### BEGIN SOLUTION answer [tokens]
answer = GIVEN.model_tok_s * GIVEN.deployment_s
### END SOLUTION

# %%
check("06.inference_tokens", answer)

# %% [markdown]
# ### 9. The rumoured 150T (1 point)
#
# *A rumour, not a published figure:* a frontier model was pre-trained on the tokens printed below. With the
# frontier guess of active parameters, how many times Chinchilla-optimal (20 tokens per parameter) is that?
# **Answer as a multiple (×).**

# %%
print(f"rumoured pre-training tokens: {fmt(GIVEN.rumoured_tokens)}")

# %%
### BEGIN SOLUTION answer [×]
answer = GIVEN.rumoured_tokens / (20 * GIVEN.frontier_active)
### END SOLUTION

# %%
check("06.rumour_overtraining", answer)

# %% [markdown]
# ### 10. Derating (2 points)
#
# The world's traffic is split over a family of models, and each model has only the printed expected
# fraction of its planned deployment before it is shelved. Equal cost makes pre-training tokens equal to
# the expected inference tokens. How many times Chinchilla-optimal is the frontier guess then?
# **Answer as a multiple (×).**

# %%
print(f"world {fmt(GIVEN.world_tok_s, 'tok/s')}, {GIVEN.deployment_s / DAY:.0f} days, {GIVEN.family} models in "
      f"the family, expected fraction served {GIVEN.keep}")

# %%
### BEGIN SOLUTION answer [×]
d_inf = GIVEN.world_tok_s * GIVEN.deployment_s * GIVEN.keep / GIVEN.family
answer = d_inf / (20 * GIVEN.frontier_active)
### END SOLUTION

# %%
check("06.derated_overtraining", answer)

# %% [markdown]
# ### 11. How many B200s? (2 points)
#
# Serve the frontier guess at the printed tokens per second on B200s in FP8 at the printed utilisation.
# How many chips? **Answer in chips.**

# %%
b200 = hardware.get(GIVEN.chip)
print(f"{b200.name} dense {GIVEN.chip_dtype}: {fmt(b200.flops(GIVEN.chip_dtype), 'FLOP/s')}; "
      f"utilisation {GIVEN.utilisation:.0%}")

# %%
### BEGIN SOLUTION answer [chips]
answer = 2 * GIVEN.frontier_active * GIVEN.model_tok_s / (b200.flops(GIVEN.chip_dtype) * GIVEN.utilisation)
### END SOLUTION

# %%
check("06.b200_count", answer)
