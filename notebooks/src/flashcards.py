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
# # Flashcards: a few minutes a day
#
# One deck for the whole lecture: its 27 flashcards in our words, numeric cards whose answers
# `lecture_lib` computes from the registries, and **drills** that draw fresh numbers every time.
#
# * **Text cards**: think of the answer, press *Reveal*, then grade yourself: *again* (no idea),
#   *hard*, *good*, *easy*.
# * **Numeric cards and drills**: type a number in the unit shown (`1,200`, `2.4e3` and `6.4x10^24`
#   all work) and press *Check*; within a couple of percent counts as right.
#
# Scheduling is the **Leitner system** with 5 boxes: *again* sends a card to box 1, *hard* keeps it,
# *good* moves it up one box, *easy* two. Box 1 comes back at once (later in the same session), box 2
# after 1 day, then 3, 7 and 21 days. Your progress is saved after every grade, in `flashcards.json`
# in your data folder (printed below; set `LECTURE_LIB_DATA_DIR` to move it).
#
# Prefer a terminal? `python -m lecture_lib flashcards [--chapter N]`. Prefer Anki?
# `python -m lecture_lib flashcards --export deck.txt`, then *File > Import* in Anki.

# %%
from collections import Counter
from lecture_lib.practice.cards import CHAPTERS, Card, Drill, all_items
from lecture_lib.practice.cards_lecture import LECTURE_CARDS
from lecture_lib.practice.drill_widget import FlashcardWidget
from lecture_lib.practice.scheduler import Progress

items = all_items()
by_chapter = Counter(i.chapter for i in items)
for k, title in CHAPTERS.items():
    print(f"chapter {k}: {title:28s} {by_chapter[k]:3d} cards")
print(f"{len(items)} in all: {len(LECTURE_CARDS)} from the lecture, "
      f"{sum(isinstance(i, Card) and i.numeric for i in items)} numeric, "
      f"{sum(isinstance(i, Drill) for i in items)} drills")
assert len(LECTURE_CARDS) == 27 and set(by_chapter) == set(CHAPTERS)

# %%
progress = Progress()
print("progress file:", progress.path)
print(f"{len(progress.cards)} cards seen so far")

# %% [markdown]
# Pick a chapter (or all of them) and start:

# %%
FlashcardWidget(progress=progress)

# %% [markdown]
# **A drill, drawn just now.** Run the cell again for different numbers; the answer is computed
# by the same library function the notebooks use.

# %%
import random
drill = next(i for i in items if isinstance(i, Drill))
card = drill.draw(random.Random())
print(card.front)
print("answer:", f"{card.value:.4g} {card.unit}", "|", card.back)
assert card.check(card.value)
