"""What a learner's call that gave no value to judge says in the feedback (``Outcome.describe``)."""

from __future__ import annotations

import os

import pytest

from autograder.intake.submission import from_python
from autograder.sandbox.learner_process import learner_uid, prepare_box, running_as_root
from autograder.sandbox.session import Outcome, Session
from autograder.wire.limits import Limits


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(
    ("status", "info", "shown"),
    [
        ("missing", {}, ["`reconcile`"]),
        ("not_implemented", {}, ["`reconcile`", "NotImplementedError"]),
        ("not_callable", {"type": "int"}, ["`reconcile`", "int"]),
        ("not_callable", {}, ["`reconcile`", "?"]),
        ("bad_value", {"type": "set", "detail": "Object of type set is not JSON serializable"}, ["set", "JSON serial"]),
    ],
)
def test_a_call_without_a_value_names_the_function_and_what_it_was(status, info, shown, lang):
    said = Outcome(status, info=info, fn="reconcile").describe(lang)
    assert all(part in said for part in shown), said


def test_the_languages_differ_and_an_ok_call_says_nothing():
    assert Outcome("missing", fn="f").describe("es") != Outcome("missing", fn="f").describe("en")
    assert Outcome("ok", value=1, fn="f").describe("es") == ""


# Loading prints 3000 bytes; resume_action prints 500 more and ends its process, so the next call starts
# (and loads, and prints) a new one.
PRINTS_AND_DIES = """
import os
print("a" * 2999)
def resume_action(cp):
    os.write(1, b"b" * 500)
    os._exit(3)
def start_state(cp):
    return "ok"
"""
LOADED = b"a" * 2999 + b"\n"


@pytest.mark.parametrize(
    ("output_kb", "kept", "cut"),
    [
        (4, LOADED + b"b" * 500 + LOADED[:596], True),  # the cap holds over both processes
        (8, LOADED + b"b" * 500 + LOADED, False),
        (2, LOADED[:2048], True),  # reached while the first process loads
    ],
)
def test_what_was_printed_is_kept_over_every_process_of_the_session(box, output_kb, kept, cut):
    uid = learner_uid(os.getpid()) if running_as_root() else None
    prepare_box(box, uid)
    limits = Limits(output_kb=output_kb)
    session = Session(from_python(PRINTS_AND_DIES, "entrega.py"), limits=limits, box=box, uid=uid, lang="es")
    try:
        assert session.start().fatal is None
        died = session.call("resume_action", {})
        assert died.status == "failure" and died.failure is not None and died.failure.kind == "exited"
        assert session.call("start_state", {}).value == "ok"
        assert session.printed_text() == kept.decode()
        assert (session.output_note() is not None) is cut
    finally:
        session.close()


# -- a batch of calls: one request, each call still timed, answered and blamed on its own ------------------

# Each call notes its number in the learner's folder before it acts, so the test sees which calls ran.
BATCHED = """
import os, time
def resume_action(cp):
    with open("ran.txt", "a") as f:
        f.write(f"{cp['n']} ")
    if cp.get("do") == "loop":
        while True:
            pass
    if cp.get("do") == "exit":
        os._exit(4)
    if cp.get("do") == "sleep":
        time.sleep(cp["s"])
    return f"r{cp['n']}"
def reconcile(cp):
    return resume_action(cp)
"""


def _session(box, limits: Limits) -> Session:
    uid = learner_uid(os.getpid()) if running_as_root() else None
    prepare_box(box, uid)
    session = Session(from_python(BATCHED, "entrega.py"), limits=limits, box=box, uid=uid, lang="es")
    assert session.start().fatal is None
    return session


def _ran(box) -> list[int]:
    path = box / "ran.txt"
    return [int(n) for n in path.read_text().split()] if path.exists() else []


@pytest.mark.parametrize(
    ("bad", "do", "kind"),
    [
        (2, "loop", "call_timeout"),
        (1, "loop", "call_timeout"),
        (4, "loop", "call_timeout"),
        (2, "exit", "exited"),
        (3, "exit", "exited"),
    ],
)
def test_a_call_that_fails_inside_a_batch_is_the_one_blamed_and_the_rest_of_its_function_is_not_run(box, bad, do, kind):
    limits = Limits(call_seconds=0.4)
    args = [{"n": n, "do": do if n == bad else ""} for n in range(1, 5)]
    session = _session(box, limits)
    try:
        outcomes = session.calls([("resume_action", a) for a in args])
    finally:
        session.close()
    assert [o.value for o in outcomes[: bad - 1]] == [f"r{n}" for n in range(1, bad)]
    failed = outcomes[bad - 1]
    assert failed.status == "failure" and failed.failure is not None and failed.failure.kind == kind
    assert all(o.failure is not None and o.failure.kind == "poisoned" for o in outcomes[bad:])
    assert _ran(box) == list(range(1, bad + 1))  # the calls after it never ran
    # The feedback is what the same calls made one by one, inside one budget, say.
    other = box.parent / "uno-a-uno"
    other.mkdir()
    session = _session(other, limits)
    try:
        with session.budget():
            single = [session.call("resume_action", a) for a in args]
    finally:
        session.close()
    assert [o.describe("es") for o in outcomes] == [o.describe("es") for o in single]
    assert [o.status for o in outcomes] == [o.status for o in single]


def test_after_a_failure_the_other_functions_calls_go_on_in_a_fresh_process(box):
    batch = [
        ("resume_action", {"n": 1, "do": "loop"}),
        ("reconcile", {"n": 2}),
        ("resume_action", {"n": 3}),
        ("reconcile", {"n": 4}),
    ]
    session = _session(box, Limits(call_seconds=0.4))
    try:
        outcomes = session.calls(batch)
    finally:
        session.close()
    assert outcomes[0].failure is not None and outcomes[0].failure.kind == "call_timeout"
    assert outcomes[0].failure.limit == 0.4
    assert [outcomes[1].value, outcomes[3].value] == ["r2", "r4"]
    assert outcomes[2].failure is not None and outcomes[2].failure.kind == "poisoned"
    assert _ran(box) == [1, 2, 4]


@pytest.mark.parametrize(
    ("groups", "statuses"),
    [
        ([0, 0, 0], ["ok", "ok", "failure"]),  # three calls of 0.3 s share 0.75 s: the third meets the budget
        ([0, 1, 2], ["ok", "ok", "ok"]),  # each with a budget of its own: all in time
        ([0, 0, 1], ["ok", "ok", "ok"]),
    ],
)
def test_calls_of_one_group_share_a_budget_and_each_keeps_its_own_limit(box, groups, statuses):
    session = _session(box, Limits(call_seconds=0.5, check_seconds=0.75))
    batch = [("resume_action", {"n": n, "do": "sleep", "s": 0.3}) for n in (1, 2, 3)]
    try:
        outcomes = session.calls(batch, groups=groups)
    finally:
        session.close()
    assert [o.status for o in outcomes] == statuses
    if "failure" in statuses:
        failure = outcomes[2].failure
        assert failure is not None and failure.kind == "budget" and failure.limit == 0.75


SLOW_IMPORT = """
import time
from pathlib import Path
Path("modulo_lento.py").write_text("import time\\ntime.sleep(30)\\n")
def resume_action(cp):
    if cp == "sleep":
        time.sleep(0.6)
    else:
        import modulo_lento
    return "continue"
"""


@pytest.mark.parametrize(("groups", "kind", "limit"), [([0, 0], "budget", 1.2), ([0, 1], "call_timeout", 1.0)])
def test_a_batched_call_stopped_while_importing_says_so_whichever_limit_bound(box, groups, kind, limit):
    # The child hears its group's budget too: when that ends first, it says in time what it was importing.
    uid = learner_uid(os.getpid()) if running_as_root() else None
    prepare_box(box, uid)
    limits = Limits(call_seconds=1.0, check_seconds=1.2)
    session = Session(from_python(SLOW_IMPORT, "entrega.py"), limits=limits, box=box, uid=uid, lang="es")
    try:
        assert session.start().fatal is None
        first, second = session.calls([("resume_action", "sleep"), ("resume_action", "import")], groups=groups)
    finally:
        session.close()
    assert first.value == "continue"
    failure = second.failure
    assert failure is not None and (failure.kind, failure.limit, failure.importing) == (kind, limit, "modulo_lento")
    assert "modulo_lento" in second.describe("es")
