"""Delegation to lesson3's reference answers: found in the source, whatever the learner does at run time."""

from __future__ import annotations

import pytest

from autograder.delegation import static_delegation


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from lesson3 import reconcile", {"reconcile": "lesson3.reconcile"}),
        (
            "from lesson3.reconciliation import reconcile_production as reconcile",
            {"reconcile": "lesson3.reconciliation.reconcile_production"},
        ),
        ("import lesson3\ndef reconcile(cp):\n    return lesson3.reconcile(cp)", {"reconcile": "lesson3.reconcile"}),
        (
            "import lesson3 as l3\ndef reconcile(cp):\n    return l3.STRATEGIES['reconcile'](cp)",
            {"reconcile": "lesson3.STRATEGIES"},
        ),
        (
            "from lesson3 import exercises\ndef resume_action(cp):\n    return exercises.EXPECTED_ACTION['cpA']",
            {"resume_action": "lesson3.exercises.EXPECTED_ACTION"},
        ),
        (
            "import lesson3.exercises\ndef resume_action(cp):\n    return lesson3.exercises.EXPECTED_ACTION['cpA']",
            {"resume_action": "lesson3.exercises.EXPECTED_ACTION"},
        ),
        (
            "from lesson3.exercises import EXPECTED_ACTION as E\nANSWERS = dict(E)\n"
            "def resume_action(cp):\n    return ANSWERS['cpB']",
            {"resume_action": "lesson3.exercises.EXPECTED_ACTION"},
        ),
        (
            "from lesson3 import *\ndef reconcile(cp):\n    return delete_dangling(cp)",
            {"reconcile": "lesson3.delete_dangling"},
        ),
        (
            "from lesson3 import reconcile as ref\ndef helper(cp):\n    return ref(cp)\n"
            "def reconcile(cp):\n    return helper(cp)",
            {"reconcile": "lesson3.reconcile"},
        ),
        ("try:\n    from lesson3 import reconcile\nexcept ImportError:\n    pass", {"reconcile": "lesson3.reconcile"}),
    ],
)
def test_delegation_is_found(source, expected):
    assert static_delegation([source]) == expected


@pytest.mark.parametrize(
    "source",
    [
        "from lesson3 import execute_tool, READ_ONLY_TOOLS, UNKNOWN_STATE_MESSAGE\ndef reconcile(cp):\n    return cp",
        "from lesson3.exercises import exercise_checkpoint\ndef resume_action(cp):\n    return 'continue'",
        # Importing the reference to compare with it is fine; the learner's own def wins.
        "from lesson3 import reconcile\ndef reconcile(cp):\n    return cp",
        "import lesson3\nREAD = lesson3.READ_ONLY_TOOLS\n"
        "def reconcile(cp):\n    return cp if cp['pendingToolUse']['name'] in READ else cp",
        "def reconcile(cp):\n    reconcile = 1\n    return cp",
        "this is not python",
    ],
)
def test_no_false_alarm(source):
    assert static_delegation([source]) == {}


def test_cells_are_read_in_order():
    cells = ["from lesson3 import reconcile", "x = 1", "def reconcile(cp):\n    return cp"]
    assert static_delegation(cells) == {}
    assert static_delegation(list(reversed(cells))) == {"reconcile": "lesson3.reconcile"}
