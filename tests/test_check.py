"""check(): tolerance, slips, friendly messages, never revealing the answer, result records."""
import inspect
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from lecture_lib.practice import (AnswerError, NotAnsweredError, Problem, Slip, WrongAnswerError,
                                  check, get, load_banks, register)
import importlib
check_module = importlib.import_module("lecture_lib.practice.check")
from lecture_lib.practice import problems
from lecture_lib.practice.check import RESULTS
from lecture_lib._registry import UnknownNameError

# --- small self-made problems (ids 99.*), independent of the registries ---------------------------
STATE = {"value": 0.0238806}   # the "library" value; changed at runtime to prove call-time evaluation
x_sym, y_sym = sp.symbols("x y", positive=True)

register(Problem(id="99.drain_ms", expected=lambda: STATE["value"] * 1e3, unit="ms", rtol=0.01,
                 points=2, hints=["first hint", "second hint"],
                 slips=[Slip(lambda: STATE["value"] * 1e3 * 18.1, "total vs active parameters")]),
         replace=True)
register(Problem(id="99.seconds", expected=lambda: 0.0421, unit="s", rtol=0.01), replace=True)
register(Problem(id="99.bytes", expected=lambda: 327.68, unit="kB", rtol=0.005), replace=True)
register(Problem(id="99.count", expected=lambda: 5667.2, unit="sequences", rtol=0.01), replace=True)
register(Problem(id="99.expr", kind="symbolic", expected=lambda: x_sym / (2 * y_sym), points=3,
                 symbols={"x": x_sym, "y": y_sym},
                 slips=[Slip(lambda: x_sym / (2 * x_sym), "used x for y")]), replace=True)
register(Problem(id="99.pick", kind="choice", expected=lambda: "c",
                 choices={"a": "one", "b": "two", "c": "three", "d": "four"}), replace=True)


def wrong(pid, answer) -> str:
    with pytest.raises(WrongAnswerError) as info:
        check(pid, answer)
    return str(info.value)


def test_right_answer_prints_and_records(capsys):
    n = len(RESULTS)
    check("99.drain_ms", 23.88)
    assert "✓" in capsys.readouterr().out
    assert RESULTS[n].status == "correct" and RESULTS[n].points == 2 and RESULTS[n].max_points == 2


def test_tolerance_is_the_problems_rtol():
    check("99.drain_ms", 23.8806 * 1.009)                # inside 1 %
    msg = wrong("99.drain_ms", 23.8806 * 1.013)          # outside 1 %
    assert "±0.01" in msg


def test_expected_is_computed_at_call_time():
    STATE["value"] = 0.5
    try:
        check("99.drain_ms", 500)
        wrong("99.drain_ms", 23.88)
    finally:
        STATE["value"] = 0.0238806


def test_wrong_is_an_assertion_error_and_unanswered_is_distinct():
    with pytest.raises(NotAnsweredError) as info:
        check("99.drain_ms", ...)
    assert isinstance(info.value, AnswerError) and isinstance(info.value, AssertionError)
    assert "not answered yet" in str(info.value) and "ms" in str(info.value)
    assert RESULTS[-1].status == "unanswered" and RESULTS[-1].points == 0
    with pytest.raises(WrongAnswerError):
        check("99.drain_ms", 1.0)
    assert not issubclass(WrongAnswerError, NotAnsweredError)
    assert RESULTS[-1].status == "wrong"


@pytest.mark.parametrize("factor, words", [
    (1e3, "1,000× too large: did you give it in µs where the question asks for ms"),
    (1e-3, "1,000× too small: did you give it in s where the question asks for ms"),
    (1e6, "1,000,000× too large: did you give it in ns"),
    (1e-6, "too small: did you give it in ks"),
    (2, "FLOPs vs multiply-adds"), (0.5, "2× too small"),
    (8, "bits vs bytes"), (1 / 8, "bits vs bytes"),
    (1.024 ** 3, "GiB vs GB"), (1 / 1.024, "KiB vs kB"),
    (18.1, "total vs active parameters"),
])
def test_slips_are_recognised(factor, words):
    assert words in wrong("99.drain_ms", 23.8806 * factor)


def test_unit_prefix_message_for_seconds():
    msg = wrong("99.seconds", 42.1)
    assert "did you give it in ms where the question asks for s?" in msg


def test_hints_come_one_more_per_wrong_attempt():
    check_module._attempts.pop("99.drain_ms", None)
    assert "first hint" in wrong("99.drain_ms", 1.0)
    assert "second hint" in wrong("99.drain_ms", 1.0)
    assert "second hint" in wrong("99.drain_ms", 1.0)


@pytest.mark.parametrize("answer, words", [
    (None, "None"), ("23.9 ms", "string"), ("abc", "string"), (float("nan"), "NaN"),
    (math.inf, "infinite"), ([23.88], "list"), (np.array([1.0, 2.0]), "ndarray"),
    ((1, 2), "tuple"), (True, "boolean"), (1j, "complex"), (x_sym, "symbolic"), ({"a": 1}, "dict"),
])
def test_friendly_messages_for_odd_answers(answer, words):
    msg = wrong("99.drain_ms", answer)
    assert words in msg
    assert "Traceback" not in msg


def test_numpy_and_sympy_numbers_are_accepted():
    check("99.drain_ms", np.float32(23.88))
    check("99.drain_ms", np.array(23.88))
    check("99.drain_ms", sp.Float(23.88))
    check("99.count", 5667)


# whole numbers: not 1,000 of 1,000,000×, and not the digits of a name such as bf16, fp8 or H100
_NUMBER = re.compile(r"(?<![\d.,^A-Za-z])\d[\d,]*(?:\.\d+)?(?![\d×^A-Za-z]|,\d)")


def numbers_in(msg):
    """The numbers a message states (not factors like '8×' or powers like '10^9')."""
    return [float(t.replace(",", "")) for t in _NUMBER.findall(msg)]


def test_never_reveals_the_expected_value():
    bank = load_banks()
    pids = ["99.drain_ms", "99.seconds", "99.bytes", "99.count"] + \
        [p.id for p in bank.values() if p.kind == "numeric" and not p.id.startswith("99.")]
    for pid in pids:
        e = float(get(pid).expected())
        small_integer = abs(e - round(e)) < 1e-9 and e <= 10   # e.g. 8: "1 byte = 8 bits" is fine
        for factor in (1e3, 1e-3, 1e6, 2, 0.5, 8, 1 / 8, 1.024, 1.1, 0.7, 3.0, -1, None):
            with pytest.raises(AnswerError) as info:
                check(pid, ... if factor is None else e * factor)
            msg = str(info.value)
            assert repr(e) not in msg, (pid, factor, msg)
            if not small_integer:
                assert f"{e:.4g}" not in msg, (pid, factor, msg)
                assert not any(abs(x - e) <= 0.02 * abs(e) for x in numbers_in(msg)), (pid, factor, msg)


def test_symbolic_equivalence_and_strings():
    check("99.expr", x_sym / y_sym / 2)
    check("99.expr", "x/(2*y)")
    check("99.expr", sp.Symbol("x") / (2 * sp.Symbol("y")))     # learner's own symbols, by name
    assert "2× too large" in wrong("99.expr", x_sym / y_sym)
    assert "used x for y" in wrong("99.expr", sp.Rational(1, 2))
    assert "Could not read" in wrong("99.expr", "x/(2*")
    assert "solve(eq, B)[0]" in wrong("99.expr", [x_sym / (2 * y_sym)])
    assert "equation" in wrong("99.expr", sp.Eq(x_sym, y_sym))
    assert "z" in wrong("99.expr", x_sym / (2 * y_sym) + sp.Symbol("z"))


def test_choice_letters():
    check("99.pick", "c")
    check("99.pick", " C ")
    check("99.pick", "(c)")
    assert "Not the right option" in wrong("99.pick", "a")
    assert "not one of the options" in wrong("99.pick", "e")
    assert "letter" in wrong("99.pick", 3)


def test_unknown_problem_names_close_matches():
    with pytest.raises(KeyError, match="99.drain_ms"):
        check("99.drain_s", 1.0)
    assert RESULTS[-1].status == "error"


def test_problem_lookup_is_the_registry_lookup():
    with pytest.raises(UnknownNameError, match=r"Did you mean '01\.weight_fetch_ms'"):
        get("01.weight_fetch_s")
    with pytest.raises(TypeError):
        get(1)
    bank = load_banks()
    for pid, problem in bank.items():      # case and punctuation do not matter, and no two ids collide
        assert get(pid.upper().replace(".", "-").replace("_", " ")) is problem


def test_the_banks_are_the_modules_listed_in_BANKS(monkeypatch):
    here = Path(problems.__file__).parent
    assert set(problems.BANKS) == {p.stem for p in here.glob("bank_*.py")}   # every bank is listed
    load_banks()
    notebooks = {p.notebook for p in problems.PROBLEMS.values()}
    for name in problems.BANKS:                                              # and each one registers
        assert name.removeprefix("bank_") in notebooks, name
    imported = []
    monkeypatch.setattr(problems, "BANKS", ("bank_01",))
    monkeypatch.setattr(problems, "import_module", lambda name, package=None: imported.append(name))
    load_banks()
    assert imported == [".bank_01"]                                          # the list alone decides


def test_results_file_gets_one_json_line_per_call(tmp_path, monkeypatch):
    path = tmp_path / "results.jsonl"
    monkeypatch.setenv("LECTURE_LIB_RESULTS", str(path))
    check("99.drain_ms", 23.88)
    with pytest.raises(AnswerError):
        check("99.drain_ms", ...)
    with pytest.raises(AnswerError):
        check("99.drain_ms", 7.0)
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["status"] for r in recs] == ["correct", "unanswered", "wrong"]
    assert recs[0] == {"problem": "99.drain_ms", "status": "correct", "points": 2, "max_points": 2,
                       "message": recs[0]["message"]}


def test_bank_problems_are_well_formed():
    bank = load_banks()
    nb01 = [p for p in bank.values() if p.notebook == "01"]
    assert len(nb01) >= 8
    assert {p.kind for p in nb01} == {"numeric", "symbolic", "choice"}
    for p in nb01:
        value = p.expected()                       # computes from the library without error
        if p.kind == "numeric":
            assert math.isfinite(float(value)) and float(value) > 0 and p.unit, p.id
        if p.kind == "choice":
            assert value in p.choices, p.id
        for slip in p.slips:                        # a slip is never the right answer
            w = slip.wrong()
            if p.kind == "numeric":
                assert abs(float(w) - float(value)) > p.rtol * abs(float(value)), p.id


def test_no_slip_of_any_bank_would_be_graded_right():
    """A slip within the problem's tolerance is accepted as correct and its message never shows."""
    for p in load_banks().values():
        value = p.expected()
        for slip in p.slips:
            w = slip.wrong()
            if p.kind == "numeric":
                assert abs(float(w) - float(value)) > p.rtol * abs(float(value)), (p.id, slip.message)
            elif p.kind == "symbolic":
                assert sp.simplify(sp.sympify(w) - value) != 0, (p.id, slip.message)
            else:
                assert w != value, (p.id, slip.message)


# --- issue 9: the check() defects a class found ----------------------------------------------------
register(Problem(id="99.ratio", expected=lambda: 3.5, unit="×", rtol=0.01), replace=True)
register(Problem(id="99.pure", expected=lambda: 3.5, unit="", rtol=0.01), replace=True)


@pytest.mark.parametrize("huge", [10**400, -10**400, sp.Integer(10**400), np.array(10**400, dtype=object)])
def test_a_number_too_large_for_a_float_gets_a_clear_message(huge):
    msg = wrong("99.drain_ms", huge)
    assert "too large to be a float" in msg and "internal error" not in msg, msg


@pytest.mark.parametrize("answer, words", [(sp.nan, "NaN"), (sp.zoo, "infinite"), (sp.oo, "infinite"),
                                           (-sp.oo, "infinite")])
def test_sympy_nan_and_infinities_are_named_not_called_complex(answer, words):
    msg = wrong("99.drain_ms", answer)
    assert words in msg and "complex" not in msg, msg


@pytest.mark.parametrize("pid, answer, words", [
    ("99.pick", 3, "an int"), ("99.pick", None, "Your answer is None;"), ("99.pick", 2.5, "a float"),
    ("99.pick", ["c"], "a list"), ("99.drain_ms", {"a": 1}, "a dict with 1 entry;"),
    ("99.drain_ms", {"a": 1, "b": 2}, "a dict with 2 entries;"), ("99.drain_ms", [23.88], "a list with 1 value;"),
    ("99.drain_ms", (1, 2), "a tuple with 2 values;"), ("99.expr", [x_sym], "a list of 1 item;"),
    ("99.expr", object(), "an object"),
])
def test_type_names_read_as_english(pid, answer, words):
    msg = wrong(pid, answer)
    assert words in msg, msg
    assert "NoneType" not in msg and not re.search(r"\ba [aeiouAEIOU]", msg), msg
    assert not re.search(r"\b1 (values|items|entries)\b", msg), msg


@pytest.mark.parametrize("pid", ["99.ratio", "99.pure"])
@pytest.mark.parametrize("factor", [8, 1 / 8])
def test_bits_vs_bytes_is_not_suggested_for_a_unitless_ratio(pid, factor):
    msg = wrong(pid, 3.5 * factor)
    assert "bits" not in msg and "byte" not in msg, msg


def test_bits_vs_bytes_still_suggested_for_quantities_with_units():
    assert "bits vs bytes" in wrong("99.bytes", 327.68 * 8)
    assert "bits vs bytes" in wrong("99.expr", 8 * x_sym / (2 * y_sym))   # symbolic: unit unknown


def test_hint_messages_carry_every_hint_earned_so_far():
    check_module._attempts.pop("99.drain_ms", None)
    first = wrong("99.drain_ms", 1.0)
    assert "first hint" in first and "second hint" not in first
    second = wrong("99.drain_ms", 1.0)
    assert "(1) first hint" in second and "(2) second hint" in second


def test_in_a_workspace_a_new_process_shows_the_hints_the_tries_earned(tmp_path, monkeypatch):
    """A rerun (pytest --nbval-lax, a restarted kernel, the grader's fresh kernel in my_work) is a new
    process: its first wrong check shows what the learner's earlier tries earned, not hint 1 again."""
    work = tmp_path / "my_work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(check_module, "_attempts", {})
    assert "second hint" not in wrong("99.drain_ms", 1.0)                 # try 1, "first process"
    monkeypatch.setattr(check_module, "_attempts", {})                     # a new process
    assert "(2) second hint" in wrong("99.drain_ms", 1.0)                 # try 2
    assert json.loads((work / check_module.TRIES_FILE).read_text())["99.drain_ms"] == 2
    # outside a workspace (the test suite, the grader's own folders) nothing is written or read
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    monkeypatch.setattr(check_module, "_attempts", {})
    assert "second hint" not in wrong("99.drain_ms", 1.0)
    assert not list(other.iterdir())


def test_a_read_only_or_broken_tries_file_never_breaks_a_check(tmp_path, monkeypatch):
    work = tmp_path / "my_work"
    (work / check_module.TRIES_FILE).mkdir(parents=True)       # a directory where the file goes
    monkeypatch.chdir(work)
    assert "first hint" in wrong("99.drain_ms", 1.0)
    check("99.drain_ms", 23.88)


def _library_functions_called_by(problem, bank):
    """Names of lecture_lib functions `problem.expected` calls, through the bank's own helpers."""
    modules = [v for v in vars(bank).values() if inspect.ismodule(v) and v.__name__.startswith("lecture_lib.")]
    library = {name for mod in modules for name, v in vars(mod).items()
               if inspect.isfunction(v) and v.__module__ == mod.__name__ and name != "get"}
    expected = inspect.unwrap(problem.expected)            # an lru_cache'd library function, say
    if getattr(expected, "__module__", bank.__name__) != bank.__name__:
        return {expected.__name__}                         # the library function IS the answer
    names, seen, todo = set(), set(), [expected.__code__]
    while todo:
        code = todo.pop()
        if code in seen:
            continue
        seen.add(code)
        todo += [c for c in code.co_consts if inspect.iscode(c)]
        for name in code.co_names:
            helper = vars(bank).get(name)
            if inspect.isfunction(helper) and helper.__module__ == bank.__name__:
                todo.append(helper.__code__)
            elif name in library:
                names.add(name)
    return names


def test_no_hint_names_the_library_function_that_answers_the_problem():
    bank_problems = load_banks()
    checked = 0
    for name in problems.BANKS:
        bank = importlib.import_module(f"lecture_lib.practice.{name}")
        for p in (p for p in bank_problems.values() if p.notebook == name.removeprefix("bank_")):
            answering = _library_functions_called_by(bank_problems[p.id], bank)
            for hint in p.hints:
                for fn in answering:
                    assert not re.search(rf"\b{fn}\b", hint), (p.id, fn, hint)
            checked += bool(answering)
    assert checked >= 10            # the scan found the functions behind most problems
