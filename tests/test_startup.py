"""The window's first start (flightsim.app.startup): the flight model prepared in a child process
whose stages the window shows, which it can end at once when the window closes."""
import json
import sys
import time

from flightsim.app.startup import PrepareProcess


def child(lines, sleep_s=0.0, tail="", code=0):
    """A stand-in for ``python -m flightsim.prepare --progress``: these JSON lines, then ``tail``."""
    body = [f"print({json.dumps(json.dumps(x))}, flush=True); time.sleep({sleep_s})" for x in lines]
    return [sys.executable, "-c", "; ".join(["import sys, time", *body, *([tail] if tail else []),
                                              f"sys.exit({code})"])]


def stage(k, name, n=3):
    return {"stage": k, "stages": n, "name": name, "expected_s": [1.0, 2.0, 1.0]}


def wait_until(pred, timeout=10.0):
    t = time.monotonic()
    while not pred():
        assert time.monotonic() - t < timeout
        time.sleep(0.02)


def test_stages_move_the_bar_and_done_ends_it():
    p = PrepareProcess(child([stage(0, "a"), stage(1, "b"), stage(2, "c"), {"done": True, "seconds": 1.5}],
                             sleep_s=0.3))
    seen = []
    while not p.done:
        assert not p.failed
        pr = p.progress()
        seen.append((pr.fraction, pr.stage))
        time.sleep(0.03)
    assert p.seconds == 1.5 and p.fraction() == 1.0
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] <= 1.0            # never backwards
    stages = [s for _, s in seen if s != "starting"]
    assert stages[0].startswith("1 of 3: a") and any(s.startswith("3 of 3: c") for s in stages)


def test_the_running_stage_moves_but_not_past_its_share():
    clock = [0.0]
    p = PrepareProcess(child([stage(1, "b")], tail="time.sleep(5)"), clock=lambda: clock[0])
    wait_until(lambda: p.progress().stage.startswith("2 of 3"))
    assert p.fraction() == 1.0 / 4.0                     # stage 0 (1 s of 4) done, stage 1 just begun
    clock[0] += 1.0
    assert p.fraction() == 2.0 / 4.0
    clock[0] += 100.0
    assert p.fraction() == (1.0 + 0.95 * 2.0) / 4.0     # held short of the stage's end until it reports
    p.cancel()


def test_a_failure_is_told_with_the_last_error_line():
    p = PrepareProcess(child([stage(0, "a")], tail="print('ValueError: broken for the test', file=sys.stderr)",
                             code=1))
    wait_until(lambda: p.failed)
    assert not p.done and "broken for the test" in p.error
    pr = p.progress()
    assert pr.failed and "failed" in pr.title and "broken for the test" in pr.message


def test_ending_without_done_is_a_failure():
    p = PrepareProcess(child([stage(0, "a")]))
    wait_until(lambda: p.failed)
    assert not p.done


def test_cancel_ends_the_child_at_once():
    p = PrepareProcess(child([stage(0, "a")], tail="time.sleep(60)"))
    wait_until(lambda: p.progress().stage.startswith("1 of 3"))
    t = time.monotonic()
    p.cancel()
    assert time.monotonic() - t < 2.0 and p.proc.poll() is not None
