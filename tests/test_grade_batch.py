"""One batch of 20 submissions, honest, awkward and hostile, graded in one call (issue 9).

Each cheat of the issue is a submission here and must score what its answers deserve; nothing may
change another submission, the course folder or the grader's folder; a detached process must not
outlive its run. The batch runs with `--sandbox auto`: under bwrap where it works (the hostile
vandal is only added then: without a sandbox it would really write into the course), else without,
and a second small batch covers `--sandbox none` explicitly.
"""
import contextlib
import csv
import io
import os
import sys
import time
from pathlib import Path

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import load_banks, sandbox
from grade_fixtures import MINI, RIGHT, STUB, WRONG, mini_solutions, notebook, with_cell_after, write
from practice_helpers import ROOT, digests

POINTS = {pid: load_banks()[pid].points for pid in RIGHT}
FULL = sum(POINTS.values())
FIRST = POINTS["01.t_compute_ms"]
TIMEOUT_S = 8
BWRAP = sandbox.choose("auto").kind == "bwrap"
WHY_NO_BWRAP = sandbox._probe()[2]

PATCH_INTERNALS = ("import lecture_lib.practice.check as C\n"
                   "for k in list(C._CHECKERS):\n"
                   "    C._CHECKERS[k] = lambda p, a: (True, '')\n"
                   "C.verdict = lambda *a, **k: ('correct', '')\n"
                   "C.check = lambda *a, **k: print('✓ correct')\n"
                   "import lecture_lib.practice as P; P.check = C.check; check = C.check")
WRAP_RECORDER = ("import dataclasses, lecture_lib.practice.check as C\n"
                 "_orig = C._record\n"
                 "C._record = lambda r: _orig(dataclasses.replace(r, status='correct', points=r.max_points))")
RESULTS_FILE = ("import json, os\n"
                "recs = [{'problem': p, 'status': 'correct', 'points': 3, 'max_points': 3, 'message': 'ok'}\n"
                "        for p in %r]\n"
                "for path in [os.environ.get('LECTURE_LIB_RESULTS') or 'results.jsonl', '../results.jsonl',\n"
                "             'results.jsonl']:\n"
                "    try:\n"
                "        with open(path, 'a') as f:\n"
                "            f.write(''.join(json.dumps(r) + '\\n' for r in recs))\n"
                "    except OSError:\n"
                "        pass\n"
                "os.environ['LECTURE_LIB_RESULTS'] = 'results.jsonl'") % sorted(RIGHT)
FAKE_OUTPUT = ("import json, os, lecture_lib.practice.capture as cap\n"
               "for p in %r:\n"
               "    print(json.dumps({'problem': p, 'status': 'correct', 'points': 3}))\n"
               "    print(repr(json.dumps({'t': 'str', 'v': 'c'})))\n"
               "    os.write(1, (json.dumps({'problem': p, 'status': 'correct'}) + '\\n').encode())\n"
               "cap.encode = lambda v: json.dumps({'t': 'str', 'v': 'correct'})") % sorted(RIGHT)
# a detached grandchild (double fork + setsid) that keeps trying to plant right answers in the next
# student's copy and leaves a heartbeat; it must be dead when its own run ends
DETACHED = """import os, subprocess, sys
code = r'''
import glob, os, sys, time
witness = sys.argv[1]
right = open(sys.argv[2]).read() if os.path.exists(sys.argv[2]) else ''
for i in range(300):
    for path in glob.glob('/tmp/lecture_lib_grade_*/run/*.ipynb'):
        try:
            open(path, 'w').write(right)
        except OSError:
            pass
    try:
        open(witness, 'a').write('alive %f\\n' % time.time())
    except OSError:
        pass
    time.sleep(0.1)
'''
if os.fork() == 0:
    os.setsid()
    subprocess.Popen([sys.executable, '-c', code, WITNESS, RIGHT_NB], start_new_session=True,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os._exit(0)
"""


def _detached_cell(witness: Path, right_nb: Path) -> str:
    return DETACHED.replace("WITNESS", repr(str(witness))).replace("RIGHT_NB", repr(str(right_nb)))


def read_csv(path):
    with open(path, newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def _grade(args):
    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        status = cli(["grade"] + [str(a) for a in args])
    return status, buf.getvalue(), err.getvalue()


CANARIES = [ROOT / "lecture_lib" / "units.py", ROOT / "solutions" / "hacked.txt", Path.cwd() / "hacked.txt"]


def _course_state():
    """The course files the vandal aims at (the whole course folder would also catch the edits of
    people working in this checkout while the test runs)."""
    return {p: (p.read_bytes() if p.exists() else None) for p in CANARIES}


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    base = tmp_path_factory.mktemp("batch")
    sols = mini_solutions(base / "solutions")
    sub = base / "submitted"
    witness = base / "witness" / "heartbeat.txt"
    witness.parent.mkdir()
    right_nb = write(notebook(RIGHT), base / "right_copy" / "right.ipynb")
    w = lambda name, nb: write(nb, sub / f"{name}.ipynb")   # noqa: E731
    w("honest", notebook(RIGHT))
    write(notebook(RIGHT), base / "class" / "alice" / MINI)                  # folder-of-folders layout
    w("wrong", notebook(WRONG))
    w("empty", notebook(STUB))
    w("cheat_patch_internals", notebook(WRONG, [PATCH_INTERNALS]))
    w("cheat_wrap_recorder", notebook(WRONG, [WRAP_RECORDER]))
    w("cheat_results_file", notebook(WRONG, [RESULTS_FILE], [RESULTS_FILE]))
    letters = dict(WRONG, **{"01.bound_choice": None})
    nb = notebook(letters, extra_at_end=[f'answer = "{x}"\ncheck("01.bound_choice", answer)' for x in "cab"]
                  + ['for answer in "cbad":\n    try:\n        check("01.bound_choice", answer)\n'
                     '    except AssertionError:\n        pass'])
    w("cheat_every_letter", nb)
    w("cheat_fake_output", notebook(WRONG, [FAKE_OUTPUT]))
    w("t1_detached", notebook(WRONG, [_detached_cell(witness, right_nb)]))
    w("t2_next", notebook(STUB))
    w("troublemaker", notebook(RIGHT, ["raise RuntimeError('boom')", "import sys; sys.exit(3)"]
                               + (["x = bytearray(64 * 2**30)"] if sys.platform == "linux" else [])))
    w("looper", with_cell_after(notebook(RIGHT), "01.t_compute_ms", "while True:\n    pass"))
    w("exiter", with_cell_after(notebook(RIGHT), "01.t_compute_ms", "import os\nos._exit(1)"))
    w("killer", with_cell_after(notebook(RIGHT), "01.t_compute_ms",
                                "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"))
    (sub / "garbage.ipynb").write_text("{ this is not a notebook")
    w("partial", notebook({k: RIGHT[k] for k in list(RIGHT)[:2]}))
    w("bomb", notebook({"01.t_compute_ms": "answer = 10**400",
                        "01.bound_choice": "answer = [[[[[[]]]]]] * 1000",
                        "01.kv_bug_factor": "answer = object()",
                        "01.balance_batch_expr": "answer = sp.Pow(10, 10**9, evaluate=False) * B"}))
    w("stale", notebook(dict(RIGHT, **{"01.bound_choice": "answer = no_such_name"})))
    w("wrong_assignment", nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from lecture_lib.practice import check\nanswer = 1.0"),
        nbformat.v4.new_code_cell('check("02.drain_ms", answer)'),
        nbformat.v4.new_code_cell('check("02.train_mean_ms", answer)')]))
    if BWRAP:     # only inside the sandbox: without it these writes would really happen
        targets = [sub / "honest.ipynb", base / "class" / "alice" / MINI, *CANARIES, sols / MINI,
                   base / "out" / "grades.csv", right_nb]
        vandal = ("import os\nfor t in %r:\n    try:\n        open(t, 'w').write('vandalised')\n"
                  "    except OSError as e:\n        print(type(e).__name__)\n"
                  "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n"
                  "    print('NETWORK')\nexcept OSError:\n    print('no network')") % [str(t) for t in targets]
        w("vandal", notebook(RIGHT, [vandal]))
    before = digests(base) | _course_state()     # submissions, solutions, the grader's folder
    cwd_before = sorted(os.listdir(Path.cwd()))
    t0 = time.monotonic()
    status, stdout, stderr = _grade([sub, base / "class", "--solutions", sols, "--timeout", TIMEOUT_S,
                                     "--memory-mb", 3072, "--csv", base / "out" / "grades.csv",
                                     "--feedback", base / "out" / "feedback"])
    seconds = time.monotonic() - t0
    assert status == 0, stderr
    heartbeat = witness.read_text() if witness.exists() else ""
    time.sleep(1.0)                    # a survivor would keep writing
    after_beat = witness.read_text() if witness.exists() else ""
    after = digests(base) | _course_state()
    print(f"\nbatch of {len(read_csv(base / 'out' / 'grades.csv'))} submissions: {seconds:.1f} s "
          f"({'bwrap' if BWRAP else 'not sandboxed: ' + WHY_NO_BWRAP})\n{stderr}")
    return dict(base=base, rows=read_csv(base / "out" / "grades.csv"), stdout=stdout, before=before,
                after=after, heartbeat=heartbeat, after_beat=after_beat, seconds=seconds,
                cwd_same=cwd_before == sorted(os.listdir(Path.cwd())))


def total(rows, who):
    return float(rows[who]["total"])


def test_batch_reports_every_submission(batch):
    rows = batch["rows"]
    assert len(rows) == 20 + BWRAP
    assert all(float(r["max"]) == FULL for r in rows.values())
    assert batch["seconds"] < 20 * 30          # finishes; the time is printed with -s


def test_honest_and_awkward_submissions(batch):
    rows = batch["rows"]
    assert total(rows, "honest") == total(rows, "alice") == FULL
    assert total(rows, "wrong") == total(rows, "empty") == total(rows, "garbage") == 0
    assert total(rows, "troublemaker") == FULL          # errors in other cells cost nothing
    for who in ("looper", "exiter", "killer"):          # only the answer before the trouble counts
        assert total(rows, who) == FIRST, who
    assert total(rows, "partial") == FIRST + POINTS["01.bound_choice"]
    notes = {s: rows[s]["notes"] for s in rows}
    assert "time limit" in notes["looper"]
    assert "kernel died" in notes["exiter"] and "kernel died" in notes["killer"]
    assert "not a valid notebook" in notes["garbage"]
    fb = (batch["base"] / "out" / "feedback" / "partial.md").read_text()
    assert "not reached / not answered" in fb


@pytest.mark.parametrize("cheat", ["cheat_patch_internals", "cheat_wrap_recorder", "cheat_results_file",
                                   "cheat_every_letter", "cheat_fake_output", "t1_detached", "bomb"])
def test_cheats_score_what_their_answers_deserve(batch, cheat):
    assert total(batch["rows"], cheat) == 0, batch["rows"][cheat]


def test_the_last_answer_counts_and_a_failed_answer_cell_is_not_the_previous_answer(batch):
    rows = batch["rows"]
    assert float(rows["cheat_every_letter"]["01.bound_choice"]) == 0
    assert total(rows, "stale") == FULL - POINTS["01.bound_choice"]
    fb = (batch["base"] / "out" / "feedback" / "stale.md").read_text()
    assert "| 01.bound_choice | 0/1 | unanswered |" in fb and "not defined" in fb


def test_no_process_outlives_its_run_and_the_next_student_is_unharmed(batch):
    assert batch["heartbeat"] == batch["after_beat"], "the detached process kept running"
    assert total(batch["rows"], "t2_next") == 0


def test_nothing_else_changes(batch):
    changed = {p for p in set(batch["before"]) | set(batch["after"])
               if batch["before"].get(p) != batch["after"].get(p)}
    allowed = {p for p in changed if "out" in p.parts or "witness" in p.parts}
    assert changed == allowed, sorted(changed - allowed)
    assert batch["cwd_same"]


def test_wrong_assignment_is_flagged(batch):
    row = batch["rows"]["wrong_assignment"]
    assert "WRONG ASSIGNMENT? its problems belong to notebook 02" in row["notes"]
    assert set(batch["rows"]["honest"]) == set(row)            # no columns of another assignment
    fb = (batch["base"] / "out" / "feedback" / "wrong_assignment.md").read_text()
    assert "WRONG ASSIGNMENT" in fb


def test_the_report_says_whether_runs_were_sandboxed(batch):
    rows = batch["rows"]
    if BWRAP:
        assert all(r["sandboxed"] == "yes" for r in rows.values())
        assert "sandboxed (bwrap)" in batch["stdout"]
    else:
        assert all(r["sandboxed"] == "NO" and "not sandboxed" in r["notes"] for r in rows.values())
        assert "NOT SANDBOXED" in batch["stdout"]


@pytest.mark.skipif(not BWRAP, reason=f"bwrap sandbox unavailable here: {WHY_NO_BWRAP}")
def test_vandal_in_the_sandbox_writes_nothing_and_keeps_its_points(batch):
    """Its writes all failed (test_nothing_else_changes), its right answers still count."""
    assert total(batch["rows"], "vandal") == FULL
    assert batch["rows"]["vandal"]["sandboxed"] == "yes"
    assert not any(p.exists() for p in CANARIES[1:])


def test_without_sandbox_processes_still_end(tmp_path):
    """--sandbox none: the row says so, and the detached process dies with its run all the same."""
    sols = mini_solutions(tmp_path / "solutions")
    witness = tmp_path / "heartbeat.txt"
    right_nb = write(notebook(RIGHT), tmp_path / "right.ipynb")
    write(notebook(WRONG, [_detached_cell(witness, right_nb)]), tmp_path / "sub" / "a_detached.ipynb")
    write(notebook(STUB), tmp_path / "sub" / "b_next.ipynb")
    status, stdout, _ = _grade([tmp_path / "sub", "--solutions", sols, "--sandbox", "none", "--timeout",
                                TIMEOUT_S, "--csv", tmp_path / "out.csv"])
    assert status == 0
    beat = witness.read_text() if witness.exists() else ""
    assert beat, "the detached process never ran: the test proves nothing"
    time.sleep(1.0)
    assert witness.read_text() == beat, "the detached process outlived its run"
    rows = read_csv(tmp_path / "out.csv")
    assert total(rows, "a_detached") == 0 and total(rows, "b_next") == 0
    assert all(r["sandboxed"] == "NO" and "not sandboxed" in r["notes"] for r in rows.values())
    assert "NOT SANDBOXED" in stdout


def test_sandbox_bwrap_refused_cleanly_where_it_cannot_work(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "_probe", lambda: (False, False, "bwrap is not installed"))
    with pytest.raises(ValueError, match="not installed"):
        sandbox.choose("bwrap")
    assert sandbox.choose("auto").kind == "none" and "not sandboxed" in sandbox.choose("auto").note
    write(notebook(STUB), tmp_path / "a.ipynb")
    status, _, err = _grade([tmp_path / "a.ipynb", "--sandbox", "bwrap"])
    assert status == 2 and "not installed" in err
