"""Flashcards: the deck, Leitner scheduling, persistence, corrupt files, terminal drill, Anki, widget."""
import io
import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from lecture_lib import hardware, models, roofline
from lecture_lib.practice import scheduler
from lecture_lib.practice.anki import export_anki
from lecture_lib.practice.cards import Card, Drill, all_items, parse_number
from lecture_lib.practice.cards_lecture import LECTURE_CARDS
from lecture_lib.practice.drill_terminal import run_terminal
from lecture_lib.practice.drill_widget import FlashcardWidget
from lecture_lib.practice.scheduler import DAY_S, INTERVAL_DAYS, Progress, Session

NOW = 1_800_000_000.0


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("LECTURE_LIB_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_lecture_deck_has_27_cards_per_chapter_as_the_syllabus():
    assert len(LECTURE_CARDS) == 27
    counts = Counter(c.chapter for c in LECTURE_CARDS)
    assert [counts[k] for k in range(1, 8)] == [9, 1, 3, 1, 6, 5, 2]
    assert all(c.front.strip() and c.back.strip() and c.value is None for c in LECTURE_CARDS)


def test_the_whole_deck_covers_every_chapter_with_numeric_cards_and_drills():
    items = all_items()
    assert {i.chapter for i in items} == set(range(1, 8))
    assert len({i.id for i in items}) == len(items)
    numeric = [i for i in items if isinstance(i, Card) and i.numeric]
    assert len(numeric) >= 5 and len([i for i in items if isinstance(i, Drill)]) >= 4


def test_the_deck_is_the_card_modules_listed_in_DECKS(monkeypatch):
    from lecture_lib.practice import cards as deck
    here = Path(deck.__file__).parent
    assert set(deck.DECKS) == {p.stem for p in here.glob("cards_*.py")}      # every card module is listed
    monkeypatch.setattr(deck, "DECKS", ("cards_lecture",))
    assert all_items() == LECTURE_CARDS                                       # the list alone decides


def test_numeric_cards_are_computed_by_the_library():
    cards = {c.id: c for c in all_items() if isinstance(c, Card) and c.numeric}
    h100 = hardware.get("H100-SXM")
    assert cards["N1.h100_ratio"].value == pytest.approx(h100.flops("bf16") / h100.hbm_bandwidth)
    assert cards["N1.drain_H100-SXM"].value == pytest.approx(roofline.drain_time(h100) * 1e3)
    assert cards["N6.kv_dsv3"].value == pytest.approx(models.get("DeepSeek-V3").kv_bytes_per_token("bf16") / 1e3)
    assert cards["N5.6nd_llama70b"].check(f"{6 * models.get('Llama-3-70B').active_params * 15e12:.3e}")


def test_drills_draw_fresh_numbers_with_right_answers():
    drills = [i for i in all_items() if isinstance(i, Drill)]
    rng = random.Random(1)
    for d in drills:
        fronts = {d.draw(rng).front for _ in range(12)}
        assert len(fronts) > 1, d.id                       # fresh parameters
        assert d.draw(random.Random(7)).front == d.draw(random.Random(7)).front   # seeded
    drain = next(d for d in drills if d.id == "D1.drain")
    for seed in range(20):
        card = drain.draw(random.Random(seed))
        words = card.front.split()
        cap_gb, bw_tbs = float(words[3]), float(words[8])
        assert card.value == pytest.approx(cap_gb / bw_tbs)       # GB / (TB/s) = ms
        assert card.check(card.value * 1.01) and not card.check(card.value * 1.1)
        assert card.check(f"{card.value:.4g} ms")


def test_parse_number():
    assert parse_number("1,200") == 1200 and parse_number("2.4e3") == 2400
    assert parse_number("23.9 ms", "ms") == 23.9 and parse_number("6.4x10^24") == 6.4e24
    assert parse_number("abc") is None and parse_number("nan") is None


def test_leitner_boxes_and_progress_survives_a_restart(data_dir):
    p = Progress()
    assert p.path == data_dir / "flashcards.json"
    p.record("L1.01", "good", now=NOW)
    p.record("L1.01", "easy", now=NOW)           # box 2 -> 4
    p.record("L1.02", "again", now=NOW)
    p.record("L1.03", "hard", now=NOW)
    again = Progress()                           # a new object reads the file: a restart
    assert again.box("L1.01") == 4 and again.box("L1.02") == 1 and again.box("L1.03") == 1
    assert again.cards["L1.01"]["due"] == NOW + INTERVAL_DAYS[4] * DAY_S
    assert again.is_due("L1.02", NOW) and not again.is_due("L1.01", NOW + 86400)
    s = Session(LECTURE_CARDS[:3], again, now=NOW + 3600)
    assert [s.next().id for _ in range(2)] == ["L1.02", "L1.03"]     # L1.01 is not due yet
    assert s.next() is None
    assert not list(data_dir.glob(".flashcards-*"))                  # no temp files left behind


def test_writes_are_atomic(data_dir, monkeypatch):
    p = Progress()
    p.record("L1.01", "good", now=NOW)
    good = p.path.read_text()

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(scheduler.os, "replace", boom)
    log = io.StringIO()
    p.log = log
    p.record("L1.02", "good", now=NOW)                # does not raise: practice goes on
    assert p.path.read_text() == good                 # the old file is intact
    assert not list(data_dir.glob(".flashcards-*"))
    assert "disk full" in log.getvalue() and "without saving" in log.getvalue() and not p.saving


@pytest.mark.parametrize("content", ["{not json", '{"cards": [1, 2]}', '{"cards": {"x": 3}}',
                                     "\xff\xfe"])
def test_corrupt_progress_is_set_aside_not_fatal(data_dir, content):
    data_dir.mkdir(parents=True)
    (data_dir / "flashcards.json").write_text(content, encoding="latin-1")
    log = io.StringIO()
    p = Progress(log=log)
    assert p.cards == {} and "moved to" in log.getvalue() and p.message
    (aside,) = list(data_dir.glob("flashcards.json.corrupt-*"))
    assert aside.read_bytes() == content.encode("latin-1")
    p.record("L1.01", "good", now=NOW)
    assert json.loads((data_dir / "flashcards.json").read_text())["cards"]["L1.01"]["box"] == 2


def test_terminal_drill_grades_saves_and_exits_on_eof(data_dir):
    items = [LECTURE_CARDS[0], Card("N.x", 1, "2+2?", "4", value=4.0, unit="")]
    out = io.StringIO()
    status = run_terminal(Session(items, Progress(), rng=random.Random(0), now=NOW),
                          io.StringIO("\n3\n4\n"), out)
    assert status == 0
    text = out.getvalue()
    assert LECTURE_CARDS[0].back.splitlines()[0] in text and "✓ right" in text
    p = Progress()
    assert p.box(LECTURE_CARDS[0].id) == 2 and p.box("N.x") == 2
    # end of input at every prompt: a clean exit
    for stdin in ("", "\n", "\n9\n"):
        assert run_terminal(Session(LECTURE_CARDS[:2], Progress(), now=NOW + 1e7),
                            io.StringIO(stdin), io.StringIO()) == 0


def test_terminal_wrong_numeric_answer_goes_back_in_the_queue(data_dir):
    items = [Card("N.y", 1, "3*3?", "9", value=9.0)]
    out = io.StringIO()
    run_terminal(Session(items, Progress(), now=NOW), io.StringIO("8\n9\n"), out)
    assert "✗ not quite" in out.getvalue() and "✓ right" in out.getvalue()
    assert Progress().cards["N.y"]["lapses"] == 1


def test_cli_flashcards_reads_stdin_and_handles_eof(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n2\n"))
    from lecture_lib.__main__ import main as cli
    assert cli(["flashcards", "--chapter", "7", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "[chapter 7]" in out and "Stopped" in out


def test_anki_export(tmp_path):
    items = [Card("a", 1, "tab\tthere & <b>", "line1\nline2", tags=("x y",)),
             Drill("D.t", 2, lambda rng: ("q?", 1.5, "because"), unit="s")]
    path = tmp_path / "deck.txt"
    assert export_anki(path, items, random.Random(0)) == 2
    lines = path.read_text(encoding="utf-8").splitlines()
    head = [ln for ln in lines if ln.startswith("#")]
    assert lines[:len(head)] == head and len(head) == 6
    rows = [line.split("\t") for line in lines[len(head):]]
    assert all(len(r) == 4 for r in rows)
    assert rows[0][1] == "tab    there &amp; &lt;b&gt;" and rows[0][2] == "line1<br>line2"
    assert rows[0][3].split() == ["lecture_lib", "chapter-1", "lecture", "x_y"]
    assert rows[1][2].startswith("1.5 s<br>because") and "drill" in rows[1][3]


def test_cli_export_whole_deck(tmp_path):
    from lecture_lib.__main__ import main as cli
    assert cli(["flashcards", "--export", str(tmp_path / "all.txt")]) == 0
    rows = [r for r in (tmp_path / "all.txt").read_text(encoding="utf-8").splitlines() if not r.startswith("#")]
    assert len(rows) == len(all_items()) and all(r.count("\t") == 3 for r in rows)


def test_data_dir_rules(monkeypatch, tmp_path):
    monkeypatch.delenv("LECTURE_LIB_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(scheduler.sys, "platform", "linux")
    assert scheduler.data_dir() == tmp_path / "xdg" / "lecture_lib"
    monkeypatch.setattr(scheduler.sys, "platform", "darwin")
    assert scheduler.data_dir().parts[-3:] == ("Library", "Application Support", "lecture_lib")


def test_widget_headless(data_dir):
    items = [LECTURE_CARDS[0], LECTURE_CARDS[9], Card("N.z", 1, "5*5?", "25", value=25.0, unit="")]
    w = FlashcardWidget(items, Progress(), rng=random.Random(0), now=NOW)
    assert LECTURE_CARDS[0].front.split()[0] in w.front.value
    assert w.back.value == ""
    w.reveal_button.click()
    assert LECTURE_CARDS[0].back.split()[0] in w.back.value
    w.grade_buttons["good"].click()
    assert Progress().box(LECTURE_CARDS[0].id) == 2
    # next: the chapter-2 card; filter to chapter 1 instead -> the numeric card
    w.chapter.value = 1
    assert "5*5?" in w.front.value and w.answer_row.layout.display == "flex"
    w.answer.value = "24"
    w.check_button.click()
    assert "not quite" in w.back.value and Progress().cards["N.z"]["lapses"] == 1
    w.next_button.click()                      # "again" brought it back in this session
    w.answer.value = "25"
    w.check_button.click()
    assert "right" in w.back.value and Progress().box("N.z") == 2
    w.next_button.click()
    assert "Nothing due" in w.front.value
    w.chapter.value = 2
    w.reveal_button.click()
    w.grade_buttons["easy"].click()
    assert Progress().box(LECTURE_CARDS[9].id) == 3


# --- issue 9: what a class found -------------------------------------------------------------------
class _CtrlC(io.StringIO):
    def readline(self, *a):
        raise KeyboardInterrupt


def test_ctrl_c_in_the_terminal_drill_stops_cleanly(data_dir):
    out = io.StringIO()
    try:
        status = run_terminal(Session(LECTURE_CARDS[:2], Progress(), now=NOW), _CtrlC(), out)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped the drill as a KeyboardInterrupt")
    assert status == 0
    assert out.getvalue().rstrip().endswith("Stopped; 0 review(s) saved.")


def test_ctrl_c_in_the_real_command_prints_no_traceback(data_dir):
    import os
    import signal
    import subprocess
    import sys
    import time
    env = {**os.environ, "LECTURE_LIB_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "lecture_lib", "flashcards", "--chapter", "7"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, text=True)
    try:
        deadline = time.time() + 60
        first = proc.stdout.readline()              # "N card(s) due ..." once the drill is waiting
        assert "due" in first and time.time() < deadline
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "Stopped" in out


def _broken_data_dirs(tmp_path):
    """Folders where the progress file cannot be written (these work even when the tests run as root)."""
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    as_dir = tmp_path / "dir_named_like_the_file"
    (as_dir / "flashcards.json").mkdir(parents=True)
    return {"under a regular file": blocker / "data", "a directory named flashcards.json": as_dir}


@pytest.mark.parametrize("case", ["under a regular file", "a directory named flashcards.json"])
def test_an_unwritable_or_broken_data_folder_gives_one_line_and_practice_goes_on(tmp_path, monkeypatch, case):
    folder = _broken_data_dirs(tmp_path)[case]
    monkeypatch.setenv("LECTURE_LIB_DATA_DIR", str(folder))
    items = [LECTURE_CARDS[0], Card("N.x", 1, "2+2?", "4", value=4.0)]
    out = io.StringIO()
    assert run_terminal(Session(items, Progress(log=io.StringIO()), now=NOW), io.StringIO("\n3\n4\n"), out) == 0
    text = out.getvalue()
    notes = [ln for ln in text.splitlines() if "without saving" in ln]
    assert len(notes) == 1 and str(folder) in notes[0], text
    assert "✓ right" in text and "not saved" in text              # both cards were drilled


def test_a_read_only_data_folder(tmp_path, monkeypatch, data_dir):
    """The real thing where permissions bite (not root); a refused temporary file where they do not."""
    p = Progress(log=io.StringIO())
    p.record("L1.01", "good", now=NOW)
    before = p.path.read_bytes()
    data_dir.chmod(0o555)
    try:
        if os.access(data_dir, os.W_OK):          # root ignores permissions: refuse the write ourselves
            def refuse(*a, **k):
                raise PermissionError(13, "Permission denied")
            monkeypatch.setattr(scheduler.tempfile, "mkstemp", refuse)
        log = io.StringIO()
        again = Progress(log=log)
        again.record("L1.02", "good", now=NOW)    # no crash
        again.record("L1.03", "good", now=NOW)
        assert log.getvalue().count("\n") == 1 and "Permission denied" in log.getvalue()
        assert again.box("L1.02") == 2            # the session still remembers
    finally:
        data_dir.chmod(0o755)
    assert p.path.read_bytes() == before


def test_a_corrupt_file_in_a_read_only_folder_is_reported_and_kept(data_dir, monkeypatch):
    data_dir.mkdir(parents=True)
    (data_dir / "flashcards.json").write_text("{not json")

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(scheduler.os, "replace", refuse)
    log = io.StringIO()
    p = Progress(log=log)                          # start-up does not crash
    assert p.cards == {} and not p.saving and log.getvalue().count("\n") == 1
    p.record("L1.01", "good", now=NOW)             # nor does the first grade
    assert (data_dir / "flashcards.json").read_text() == "{not json"     # never overwritten


@pytest.mark.parametrize("due", ["NaN", "Infinity", '"soon"', "null"])
def test_a_damaged_due_date_makes_the_card_due_not_retired(data_dir, due):
    data_dir.mkdir(parents=True)
    (data_dir / "flashcards.json").write_text(
        f'{{"cards": {{"L1.01": {{"box": 3, "due": {due}, "reviews": 4, "lapses": 1}}, '
        f'"L1.02": {{"box": 2, "due": {NOW + 1e6!r}}}}}}}')
    log = io.StringIO()
    p = Progress(log=log)
    assert p.is_due("L1.01", NOW) and not p.is_due("L1.02", NOW)
    assert "1 flashcard(s)" in log.getvalue()
    s = Session(LECTURE_CARDS[:2], p, now=NOW)
    assert s.next().id == "L1.01" and s.next() is None
    p.record("L1.01", "good", now=NOW)
    saved = json.loads((data_dir / "flashcards.json").read_text())["cards"]["L1.01"]
    assert saved["box"] == 2 and saved["reviews"] == 5 and saved["due"] == NOW + DAY_S


def test_a_damaged_box_is_repaired_not_fatal(data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "flashcards.json").write_text('{"cards": {"L1.01": {"box": "a", "due": 1.0}}}')
    p = Progress(log=io.StringIO())
    assert p.box("L1.01") == 1 and p.is_due("L1.01", NOW) and p.saving


def test_a_nan_due_date_set_in_memory_is_still_due():
    p = Progress()
    p.cards["L1.01"] = {"box": 5, "due": float("nan")}
    assert p.is_due("L1.01", NOW)


def test_enter_submits_a_numeric_answer_in_the_widget(data_dir):
    w = FlashcardWidget([Card("N.z", 1, "5*5?", "25", value=25.0)], Progress(), rng=random.Random(0), now=NOW)
    assert w.answer.continuous_update is False     # the value arrives on Enter, not on each key
    w.answer.value = "25"                          # what Enter sends; no click on Check
    assert "right" in w.back.value and Progress().box("N.z") == 2
    w.next_button.click()
    assert "Nothing due" in w.front.value and Progress().cards["N.z"]["reviews"] == 1   # reset is no answer


def test_the_anki_export_is_stable_with_guids_and_anki_headers(tmp_path):
    from lecture_lib.__main__ import main as cli
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    assert cli(["flashcards", "--export", str(a)]) == 0
    assert cli(["flashcards", "--export", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()                       # same deck, same file
    assert cli(["flashcards", "--export", str(c), "--seed", "5"]) == 0
    lines = a.read_text(encoding="utf-8").splitlines()
    head = [ln for ln in lines if ln.startswith("#")]
    assert {"#separator:tab", "#html:true", "#notetype:Basic", "#guid column:1", "#tags column:4"} <= set(head)
    assert any(h.startswith("#deck:") and len(h) > 6 for h in head)
    rows = [ln.split("\t") for ln in lines[len(head):]]
    guids = [r[0] for r in rows]
    assert len(set(guids)) == len(guids) == len(all_items()) and all(g and " " not in g for g in guids)
    drill_ids = {i.id for i in all_items() if isinstance(i, Drill)}
    other = {r[0]: r for r in (ln.split("\t") for ln in c.read_text(encoding="utf-8").splitlines()
                               if not ln.startswith("#"))}
    for r in rows:                              # a new seed: new drill samples as new notes, cards kept
        is_drill = any(r[0] == f"lecture_lib:{d}:seed0" for d in drill_ids)
        assert (r[0] in other) != is_drill, r[0]


def test_a_drills_exported_sample_does_not_depend_on_the_other_items(tmp_path):
    drills = [i for i in all_items() if isinstance(i, Drill)]
    export_anki(tmp_path / "all.txt", drills)
    export_anki(tmp_path / "one.txt", drills[-1:])
    last = (tmp_path / "all.txt").read_text(encoding="utf-8").splitlines()[-1]
    assert (tmp_path / "one.txt").read_text(encoding="utf-8").splitlines()[-1] == last


def test_no_lone_carriage_return_reaches_the_anki_file(tmp_path):
    items = [Card("r", 1, "front\rmore", "back\r\nline\rend")]
    path = tmp_path / "deck.txt"
    export_anki(path, items)
    data = path.read_bytes()
    assert b"\r" not in data
    row = data.decode().splitlines()[-1].split("\t")
    assert row[1] == "front<br>more" and row[2] == "back<br>line<br>end"
