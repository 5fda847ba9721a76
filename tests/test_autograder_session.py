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
