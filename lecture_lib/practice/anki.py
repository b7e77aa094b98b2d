"""Export the flashcards to a tab-separated file that Anki imports (File > Import).

    python -m lecture_lib flashcards --export deck.txt [--seed N]

The file starts with Anki's header lines (#separator, #html, #notetype, #deck, #guid column, #tags
column), then one note per line: GUID, front, back, tags. The same deck and seed give the same file,
byte for byte, so importing it again updates the notes instead of adding duplicates (Anki matches
notes by GUID). Drills are exported as one sample each, drawn from the seed and the drill's id; another
seed gives other samples with other GUIDs, which Anki adds as new notes.
"""
from __future__ import annotations

import random
import re

from .cards import Drill, all_items, as_html

DECK = "LLM math (lecture_lib)"
NOTETYPE = "Basic"


def _guid(card_id: str, seed: int | None = None) -> str:
    """A stable Anki GUID: 'lecture_lib:<card id>' (drills: '...:seed<N>'), no spaces or tabs."""
    base = re.sub(r"\s+", "_", f"lecture_lib:{card_id}")
    return base if seed is None else f"{base}:seed{seed}"


def export_anki(path, items=None, rng: random.Random | None = None, seed: int = 0) -> int:
    """Write a tab-separated file (GUID, front, back, tags) that Anki imports; returns the card count.

    Fields are HTML (Anki's "allow HTML"): <, >, & escaped, line breaks (\\n, \\r\\n or a lone \\r) as
    <br>, tabs as spaces. Each drill draws its sample from random.Random(f"{seed}:{drill id}"), so one
    drill's numbers do not depend on the others; `rng`, if given, is used instead (not stable).
    """
    items = list(all_items() if items is None else items)
    lines = ["#separator:tab", "#html:true", f"#notetype:{NOTETYPE}", f"#deck:{DECK}",
             "#guid column:1", "#tags column:4"]
    for item in items:
        if isinstance(item, Drill):
            card = item.draw(rng or random.Random(f"{seed}:{item.id}"))
            guid = _guid(card.id, seed)
        else:
            card, guid = item, _guid(item.id)
        back = card.back
        if card.numeric:
            back = f"{card.value:.4g} {card.unit}".strip() + "\n" + back
        tags = " ".join(re.sub(r"\s+", "_", t.strip()) for t in card.all_tags())
        lines.append("\t".join([guid, as_html(card.front), as_html(back), tags]))
    with open(path, "w", encoding="utf-8", newline="\n") as f:   # \n line ends on every platform
        f.write("\n".join(lines) + "\n")
    return len(items)
