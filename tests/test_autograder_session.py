"""What a learner's call that gave no value to judge says in the feedback (``Outcome.describe``)."""

from __future__ import annotations

import pytest

from autograder.session import Outcome


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
