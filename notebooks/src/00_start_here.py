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
# # The math of how LLMs are trained and served: an interactive course
#
# **Start here.** This course follows Reiner Pope's blackboard lecture on the Dwarkesh Podcast
# (*How GPT-5, Claude, and Gemini are actually trained and served*, 2026-04-29), chapter by chapter.
# Every equation on the blackboard is derived here in SymPy, every number is computed from public
# hardware, model and price data, and every graph is one you can move with sliders.

# %% [markdown]
# ## How to use it
#
# 1. **Watch a section** of the lecture (links below jump to each chapter).
# 2. **Open the matching notebook** and run it top to bottom (*Run ▸ Run All Cells*). Each idea is a short
#    question, the derivation, the picture, a **Takeaway:** line, and then an `assert` that checks the claim
#    against the library. If the data ever drifts, that check fails: the notebooks are tests.
# 3. **Move the sliders** in the live explorers. They redraw in well under a tenth of a second.
# 4. **Practise**: the graded worksheets, in **your own copies in `my_work/`** (made by `make lab` or
#    `python -m lecture_lib workspace`; git-ignored and never overwritten, so nothing you type changes the
#    course). Open [../my_work/](../my_work/), not `exercises/`; `check(...)` checks each answer. Then the
#    flashcard drill in `notebooks/flashcards.ipynb` for the numbers worth knowing by heart.
#
# Every number comes from the small library `lecture_lib` (`hardware`, `models`, `prices`, `roofline`, ...).
# Where the lecture says a number, the notebook shows it beside the computed one and explains any difference.

# %%
from pathlib import Path

from lecture_lib import hardware, lecture, models, notation
from lecture_lib.plots import tables
from lecture_lib.prose import say
from lecture_lib.units import fmt


# %% [markdown]
# ## The lecture's chapters
#
# Official chapter times; each link opens the video at that point.

# %%
rows = ["| # | starts | chapter |", "|---:|---|---|"]
rows += [f"| {c.number} | [{lecture.timestamp(c.start_s)}]({lecture.video_url(c.start_s)}) | {c.title} |"
         for c in lecture.CHAPTERS]
say("\n".join(rows))
assert len(lecture.CHAPTERS) == 7
assert [c.start_s for c in lecture.CHAPTERS] == sorted(c.start_s for c in lecture.CHAPTERS)

# %% [markdown]
# ## The course notebooks
#
# In lecture order. A notebook marked *(in preparation)* is not in this copy of the course yet.

# %%
here = Path.cwd()
rows = ["| notebook | lecture | topic |", "|---|---|---|"]
for nb in lecture.NOTEBOOKS:
    span = (f"[{lecture.timestamp(nb.start_s)}]({lecture.video_url(nb.start_s)})–{lecture.timestamp(nb.end_s)}"
            if nb.start_s is not None else "–")
    name = f"[{nb.file}]({nb.file})" if (here / nb.file).exists() else f"{nb.file} *(in preparation)*"
    rows.append(f"| {name} | {span} | {nb.topic} |")
say("\n".join(rows))
assert (here / "00_start_here.ipynb").exists(), "run this notebook from the notebooks/ folder"

# %% [markdown]
# ## Notation
#
# One symbol, one meaning, across the whole course. The last column is how the lecture writes or says it.

# %%
say(notation.markdown(), math=True)   # the symbol column is LaTeX
assert len({e.symbol for e in notation.TABLE}) == len(notation.TABLE)   # no symbol is defined twice

# %% [markdown]
# **Conventions.** A FLOP is half a multiply-add (one multiply-add = 2 FLOPs); FLOP/s are *dense* peaks at
# the stated number format (vendor "with sparsity" figures are halved). Weight bytes = parameters × bytes
# per parameter (bf16 2, fp8 1, fp4 0.5). Decimal prefixes: 1 GB = 10⁹ bytes. The lecture counts
# multiply-adds and folds the bytes into N; notebook 01 shows that both forms give the same answers.

# %% [markdown]
# ## Hardware
#
# Chips, and systems of n chips that act as one scale-up domain (figures aggregated over the chips).
# *Drain time* is HBM capacity ÷ HBM bandwidth: the time to read the whole memory once.
# Source quality: P primary page, S secondary source quoting one, R recalled and checked by arithmetic,
# U uncertain, announced or conflicting.

# %%
say(tables.hardware())
announced = [n for n in hardware.names() if hardware.get(n).announced]
say(f"Announced, not shipping (figures may change): {', '.join(announced)}.")
assert "Rubin" in announced
assert all(hardware.get(n).sources for n in hardware.names()), "every chip carries its sources"

# %% [markdown]
# ## Models
#
# KV bytes per token are computed from each model's architecture (layers, KV heads, head size; the MLA
# latent for DeepSeek and Kimi), never typed in.

# %%
say(tables.models())
ds = models.get("DeepSeek-V3")
say(f"The lecture's running example, {ds.name}: {fmt(ds.total_params, 'params')} total, "
    f"{fmt(ds.active_params, 'params')} active, KV cache {fmt(ds.kv_bytes_per_token('bf16'), 'B/token')} in bf16.")
assert ds.active_params < ds.total_params
assert all(models.get(n).sources for n in models.names()), "every model carries its sources"

# %% [markdown]
# ## Next
#
# Open [01_roofline_and_batching.ipynb](01_roofline_and_batching.ipynb): why batch size sets both the
# speed and the price of a token.
