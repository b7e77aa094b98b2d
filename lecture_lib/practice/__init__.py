"""Practice: answer checking, the problem bank, exercises, the grader and flashcards.

    from lecture_lib.practice import check
    check("01.weight_fetch_ms", answer)     # prints ✓ or raises AnswerError with a hint

Modules: problems (Problem, registry, bank loading), bank_NN (one problem bank per notebook),
check (check(), slip detection, result records), assign (solutions/ -> exercises/), grade (the
grader), flashcards (deck, spaced repetition, widget, terminal drill, Anki export), deck (the cards).
"""
from .check import AnswerError, NotAnsweredError, WrongAnswerError, RESULTS, check
from .problems import Problem, Slip, get, load_banks, register, show_choices

__all__ = ["check", "AnswerError", "NotAnsweredError", "WrongAnswerError", "RESULTS",
           "Problem", "Slip", "get", "load_banks", "register", "show_choices"]
