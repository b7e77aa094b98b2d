"""Practice: answer checking, the problem bank, exercises, the grader and flashcards.

    from lecture_lib.practice import check
    check("01.weight_fetch_ms", answer)     # prints ✓ or raises AnswerError with a hint

Modules, one job each:
- problems: the Problem type, the registry, loading the banks listed in problems.BANKS
- bank_NN: the problem bank of notebook NN
- check: check(), slip detection, result records
- assign: solutions/ -> exercises/;  grade: the grader
- cards: the Card and Drill types, the deck assembled from the card modules listed in cards.DECKS
- cards_lecture, cards_numeric, cards_NN: card data (the lecture's 27; library-computed numeric
  cards and drills; notebook NN's cards)
- scheduler: Leitner boxes, the progress file (atomic writes, corrupt file set aside), sessions
- drill_widget (ipywidgets), drill_terminal (`python -m lecture_lib flashcards`), anki (export)
"""
from .check import AnswerError, NotAnsweredError, WrongAnswerError, RESULTS, check
from .problems import Problem, Slip, get, load_banks, register, show_choices

__all__ = ["check", "AnswerError", "NotAnsweredError", "WrongAnswerError", "RESULTS",
           "Problem", "Slip", "get", "load_banks", "register", "show_choices"]
