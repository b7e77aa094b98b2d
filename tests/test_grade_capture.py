"""The value channel out of a kernel: encode there, decode here, never eval; the pure re-check."""
import json

import pytest
import sympy as sp

from lecture_lib.practice import capture, load_banks
from lecture_lib.practice.check import verdict
from lecture_lib.practice.problems import get


@pytest.mark.parametrize("value", [..., None, True, 3, 10**400, 2.5, float("nan"), float("inf"), 1 + 2j,
                                   "c", sp.Symbol("B") * sp.Rational(1, 2) + sp.pi, sp.Float("1.5"),
                                   sp.Eq(sp.Symbol("x"), 2)])
def test_round_trip(value):
    back = capture.decode(capture.encode(value))
    if isinstance(value, float) and value != value:
        assert back != back
    elif isinstance(value, sp.Basic):
        assert sp.simplify(back - value) == 0 if not isinstance(value, sp.Eq) else back == value
    else:
        assert back == value and type(back) is type(value)


def test_containers_and_strange_objects_keep_what_check_needs():
    assert capture.decode(capture.encode([1, 2, 3])) == [0, 0, 0]
    assert len(capture.decode(capture.encode({"a": 1}))) == 1
    other = capture.decode(capture.encode(object()))
    assert type(other).__name__ == "object" and isinstance(other, capture.Other)
    import numpy as np
    assert capture.decode(capture.encode(np.float32(2.5))) == 2.5
    assert len(capture.decode(capture.encode(np.zeros((2, 3))))) == 6


@pytest.mark.parametrize("text", [
    '{"t": "sympy", "tree": ["__import__", ["Symbol", "os"]]}',            # not a whitelisted node
    '{"t": "sympy", "tree": ["Symbol", "os.system(\'x\')"]}',                # not an identifier
    '{"t": "sympy", "tree": ["Pow", ["Integer", "10"], ["Integer", "1000000000"]]}',   # 10**1e9
    '{"t": "sympy", "tree": ["Integer", "' + "9" * 5000 + '"]}',
    '{"t": "int", "v": "1e5"}', '{"t": "float", "v": "__import__"}', '[' * 100000, "not json",
    '{"t": "unknown"}', json.dumps({"t": "str", "v": "x" * 10}) + " " * capture.MAX_TEXT,
])
def test_hostile_encodings_are_refused(text):
    with pytest.raises(capture.Unreadable):
        capture.decode(text)


def test_verdict_is_pure_and_agrees_with_the_bank():
    load_banks()
    p = get("01.t_compute_ms")
    right = float(p.expected())
    assert verdict(p, right)[0] == "correct"
    assert verdict(p, right * 1000)[0] == "wrong"
    assert verdict(p, ...)[0] == "unanswered"
    assert verdict(p, "fast")[0] == "wrong"
    assert str(right)[:6] not in verdict(p, right * 3)[1]          # never the expected value
    c = get("01.bound_choice")
    assert [verdict(c, x)[0] for x in "abcd"].count("correct") == 1
