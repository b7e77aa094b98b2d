"""Export the flashcards to a tab-separated file that Anki imports (File > Import).

    python -m lecture_lib flashcards --export deck.txt
"""
from __future__ import annotations

import random
from pathlib import Path

from .cards import Drill, all_items, as_html


def export_anki(path, items=None, rng: random.Random | None = None) -> int:
    """Write a tab-separated file (front, back, tags) that Anki imports; returns the card count.

    Fields are HTML (Anki's "allow HTML"): <, >, & escaped, newlines as <br>, tabs as spaces.
    Drills are exported as one sample each, tagged `drill` (their numbers are fixed in Anki).
    """
    items = list(all_items() if items is None else items)
    rng = rng or random.Random(0)
    lines = ["#separator:tab", "#html:true", "#tags column:3"]
    for item in items:
        card = item.draw(rng) if isinstance(item, Drill) else item
        back = card.back
        if card.numeric:
            back = f"{card.value:.4g} {card.unit}".strip() + "\n" + back
        tags = " ".join(t.replace(" ", "_") for t in card.all_tags())
        lines.append("\t".join([as_html(card.front), as_html(back), tags]))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(items)

