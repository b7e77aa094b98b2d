"""Flashcards: the deck, Leitner scheduling, persistence, corrupt files, terminal drill, Anki, widget."""
import io
import json
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
    with pytest.raises(OSError):
        p.record("L1.02", "good", now=NOW)
    assert p.path.read_text() == good                 # the old file is intact
    assert not list(data_dir.glob(".flashcards-*"))


@pytest.mark.parametrize("content", ["{not json", '{"cards": [1, 2]}', '{"cards": {"x": {"box": "a"}}}',
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
    assert lines[:3] == ["#separator:tab", "#html:true", "#tags column:3"]
    rows = [line.split("\t") for line in lines[3:]]
    assert all(len(r) == 3 for r in rows)
    assert rows[0][0] == "tab    there &amp; &lt;b&gt;" and rows[0][1] == "line1<br>line2"
    assert rows[0][2].split() == ["lecture_lib", "chapter-1", "lecture", "x_y"]
    assert rows[1][1].startswith("1.5 s<br>because") and "drill" in rows[1][2]


def test_cli_export_whole_deck(tmp_path):
    from lecture_lib.__main__ import main as cli
    assert cli(["flashcards", "--export", str(tmp_path / "all.txt")]) == 0
    rows = (tmp_path / "all.txt").read_text(encoding="utf-8").splitlines()[3:]
    assert len(rows) == len(all_items()) and all(r.count("\t") == 2 for r in rows)


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
