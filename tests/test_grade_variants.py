"""Per-student variants: own numbers from (student id, course secret); the grader checks each student
against their own numbers, never against numbers read from the submission."""
import csv
import hashlib
import hmac

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import load_banks, variants
from lecture_lib.practice.problems import get
from grade_fixtures import notebook, write
from practice_helpers import ROOT

SECRET = "course-secret-for-tests"


def _values(student):
    with variants.applied("01", variants.draw(SECRET, student, "01")):
        return {pid: float(get(pid).expected()) for pid in VARYING}


def two_students():
    """alice, and the first classmate whose variant differs from hers on every problem of the test
    (two draws can land within the tolerance of each other on one problem: kv_fetch depends on
    batch x context only)."""
    load_banks()
    a = _values("alice")
    return "alice", next(s for s in (f"student{i:02d}" for i in range(100))
                         if all(abs(_values(s)[p] / a[p] - 1) > 0.05 for p in VARYING))
# problems whose numbers vary (batch, context, rent, bug model)
VARYING = {
    "01.t_compute_ms": "answer = 2 * GIVEN.batch * m.active_params / hw.flops(GIVEN.weight_dtype) / MS",
    "01.kv_fetch_ms": "answer = GIVEN.batch * GIVEN.context * m.kv_bytes_per_token(GIVEN.kv_dtype) "
                      "/ hw.hbm_bandwidth / MS",
    "01.kv_fixed_kB": "answer = models.get(GIVEN.bug_model).kv_bytes_per_token(GIVEN.bug_dtype) / 1e3",
}


def test_draw_is_hmac_of_id_and_secret_and_in_range():
    load_banks()
    a = variants.draw(SECRET, "alice", "01")
    assert a == variants.draw(SECRET, "alice", "01")                 # deterministic
    assert a != variants.draw(SECRET, "bob", "01")
    assert a != variants.draw("another secret", "alice", "01")
    for v in variants.declared("01"):
        assert a[v.name] in v.values
    v = variants.declared("01")[0]                                   # the draw, by hand
    digest = hmac.new(SECRET.encode(), f"alice|01|{v.name}".encode(), hashlib.sha256).digest()
    assert a[v.name] == v.values[int.from_bytes(digest, "big") % len(v.values)]
    with pytest.raises(ValueError, match="secret"):
        variants.draw("", "alice", "01")


def test_applied_restores_the_defaults_and_rejects_values_out_of_range():
    load_banks()
    from lecture_lib.practice.bank_01 import GIVEN
    default, batch = get("01.t_compute_ms").expected(), GIVEN.batch
    with variants.applied("01", {"batch": 1536}):
        assert get("01.t_compute_ms").expected() == pytest.approx(default * 1536 / batch)
    assert GIVEN.batch == batch
    assert get("01.t_compute_ms").expected() == default
    with pytest.raises(ValueError, match="allowed"):
        with variants.applied("01", {"batch": 7}):
            pass
    with pytest.raises(ValueError, match="varies"):
        with variants.applied("01", {"hw": "HGX-H100"}):
            pass


def test_assign_roster_writes_worksheets_with_own_numbers(tmp_path):
    (tmp_path / "roster.csv").write_text("student,name\nalice,Alice A\nbob,Bob B\n")
    (tmp_path / "key").write_text(SECRET + "\n")
    assert cli(["assign", "--roster", str(tmp_path / "roster.csv"), "--secret-file", str(tmp_path / "key"),
                "--out", str(tmp_path / "ws")]) == 0
    names = sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb"))
    for who in ("alice", "bob"):
        assert sorted(p.name for p in (tmp_path / "ws" / who).glob("*.ipynb")) == names
        nb = nbformat.read(tmp_path / "ws" / who / "01_roofline_and_batching.ipynb", as_version=4)
        cell = next(c for c in nb.cells if c.cell_type == "code")
        assert "use_givens('01'" in cell.source and repr(variants.draw(SECRET, who, "01")) in cell.source
        assert "BEGIN SOLUTION" not in nbformat.writes(nb)
    assert cli(["assign", "--roster", str(tmp_path / "roster.csv"), "--out", str(tmp_path / "x")]) == 2


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("variants")
    load_banks()
    sols = write(notebook(VARYING), base / "solutions" / "01_var.ipynb").parent
    alice, bob = two_students()
    draws = {"alice": variants.draw(SECRET, alice, "01"), "bob": variants.draw(SECRET, bob, "01")}
    values = {"alice": _values(alice), "bob": _values(bob)}
    use = "from lecture_lib.practice.variants import use_givens\nuse_givens('01', {!r})"
    for who, other in (("alice", "bob"), ("bob", "alice")):
        own = notebook(VARYING)       # computes from GIVEN, set to the student's numbers first
        own.cells.insert(0, nbformat.v4.new_code_cell(use.format(draws[who])))
        write(own, base / "own" / who / "01_var.ipynb")
        # the neighbour's right numbers, and a worksheet claiming the neighbour's givens
        copied = notebook({pid: f"answer = {values[other][pid]!r}" for pid in VARYING})
        copied.cells.insert(0, nbformat.v4.new_code_cell(use.format(draws[other])))
        write(copied, base / "copied" / who / "01_var.ipynb")
    for kind in ("own", "copied"):                   # the classmate's folder carries their id
        (base / kind / "bob").rename(base / kind / bob)
    (base / "roster.csv").write_text(f"student\nalice\n{bob}\n")
    (base / "key").write_text(SECRET)
    out = {}
    for kind in ("own", "copied"):
        assert cli(["grade", str(base / kind), "--solutions", str(sols), "--roster", str(base / "roster.csv"),
                    "--secret-file", str(base / "key"), "--timeout", "30", "--sandbox", "none",
                    "--csv", str(base / f"{kind}.csv")]) == 0
        with open(base / f"{kind}.csv", newline="") as f:
            out[kind] = {r["student"]: r for r in csv.DictReader(f)}
    out = {kind: {("bob" if s == bob else s): r for s, r in rows.items()} for kind, rows in out.items()}
    return draws, values, out


def test_variants_differ_on_every_problem_of_the_test(graded):
    draws, values, _ = graded
    assert draws["alice"] != draws["bob"]
    for pid in VARYING:
        assert values["alice"][pid] != pytest.approx(values["bob"][pid], rel=0.02), pid


def test_each_student_full_marks_with_own_answers_zero_with_the_neighbours(graded):
    _, _, out = graded
    full = sum(get(pid).points for pid in VARYING)
    for who in ("alice", "bob"):
        assert float(out["own"][who]["total"]) == full, out["own"][who]
        assert float(out["copied"][who]["total"]) == 0, out["copied"][who]
