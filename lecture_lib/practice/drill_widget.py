"""The flashcard drill as an ipywidgets widget, for the notebooks (scheduling lives in scheduler.py).

    from lecture_lib.practice.drill_widget import FlashcardWidget
    FlashcardWidget()          # displays itself: question, reveal or typed answer, four grades
"""
from __future__ import annotations

import html
import random

from .cards import CHAPTERS, as_html
from .scheduler import GRADES, Progress, Session


class FlashcardWidget:
    """The drill in a notebook: question, reveal, typed answers for numeric cards, four grades.

        w = FlashcardWidget();  w          # displays itself
    Test it headlessly: set w.chapter.value, w.answer.value; call w.reveal_button.click() etc.
    """

    def __init__(self, items=None, progress: Progress | None = None, chapter: int | None = None,
                 rng: random.Random | None = None, now: float | None = None):
        import ipywidgets as W
        self._items = items
        self.progress = progress if progress is not None else Progress()
        self.rng = rng or random.Random()
        self.now = now
        opts = [("all chapters", 0)] + [(f"{k}. {v}", k) for k, v in CHAPTERS.items()]
        self.chapter = W.Dropdown(options=opts, value=chapter or 0, description="Chapter")
        self.status = W.HTML()
        self.front = W.HTML()
        # continuous_update=False: the value reaches the kernel on Enter (or on leaving the field),
        # not on every key, so Enter submits the typed number (ipywidgets 8's replacement for on_submit)
        self.answer = W.Text(placeholder="your answer (a number), then Enter", continuous_update=False,
                             layout=W.Layout(width="240px"))
        self.check_button = W.Button(description="Check", button_style="primary")
        self.reveal_button = W.Button(description="Reveal")
        self.back = W.HTML()
        self.grade_buttons = {g: W.Button(description=g) for g in GRADES}
        self.next_button = W.Button(description="Next card")
        self.answer_row = W.HBox([self.answer, self.check_button])
        self.grade_row = W.HBox(list(self.grade_buttons.values()))
        self.widget = W.VBox([self.chapter, self.status, self.front, self.answer_row,
                              self.reveal_button, self.back, self.grade_row, self.next_button])
        self.check_button.on_click(lambda _: self._check())
        self.answer.observe(self._submitted, names="value")
        self.reveal_button.on_click(lambda _: self._reveal())
        self.next_button.on_click(lambda _: self._show_next())
        for g, b in self.grade_buttons.items():
            b.on_click(lambda _, g=g: self._grade(g))
        self.chapter.observe(lambda _: self._restart(), names="value")
        self._restart()

    def _ipython_display_(self):
        from IPython.display import display
        display(self.widget)

    def _restart(self):
        self.session = Session(self._items, self.progress, self.chapter.value or None, self.rng, self.now)
        self._show_next()

    def _show_next(self):
        card = self.session.next()
        self.back.value = ""
        self.answer.value = ""
        self.grade_row.layout.display = "none"
        self.next_button.layout.display = "none"
        if card is None:
            self.front.value = "<b>Nothing due here.</b> Come back tomorrow, or pick another chapter."
            self.answer_row.layout.display = "none"
            self.reveal_button.layout.display = "none"
            self.status.value = f"{self.session.reviewed} review(s) this session."
            return
        note = f"<i>{html.escape(self.progress.message)}</i><br>" if self.progress.message else ""
        self.status.value = (f"{note}chapter {card.chapter} · box {self.progress.box(card.id)} · "
                             f"{len(self.session.queue)} more due")
        unit = f" <small>(answer in {html.escape(card.unit)})</small>" if card.numeric and card.unit else ""
        self.front.value = f"<b>{as_html(card.front)}</b>{unit}"
        self.answer_row.layout.display = "flex" if card.numeric else "none"
        self.reveal_button.layout.display = "none" if card.numeric else "inline-flex"

    def _submitted(self, change):
        """Enter in the answer box: check a typed answer (the reset to "" between cards is not one)."""
        if str(change["new"]).strip():
            self._check()

    def _check(self):
        card = self.session.current
        if card is None or not card.numeric:
            return
        right = card.check(self.answer.value)
        verdict = "✓ right." if right else "✗ not quite."
        self.back.value = f"{verdict}<br>{as_html(card.back)}"
        self.session.grade("good" if right else "again")
        self.answer_row.layout.display = "none"
        self.next_button.layout.display = "inline-flex"

    def _reveal(self):
        card = self.session.current
        if card is None or card.numeric:
            return
        self.back.value = as_html(card.back)
        self.reveal_button.layout.display = "none"
        self.grade_row.layout.display = "flex"

    def _grade(self, grade: str):
        if self.session.current is None:
            return
        self.session.grade(grade)
        self._show_next()

