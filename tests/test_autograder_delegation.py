"""Delegation to lesson3's reference answers: found in the source, whatever the learner does at run time."""

from __future__ import annotations

import pytest

from autograder.judging.delegation import static_delegation


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
        # A function's own names hide the module's only where Python says they do.
        (
            "from lesson3 import reconcile_production\ndef reconcile(cp):\n"
            "    [0 for reconcile_production in ()]\n    return reconcile_production(cp)",
            {"reconcile": "lesson3.reconcile_production"},
        ),
        (
            "from lesson3 import reconcile_production\ndef reconcile(cp, f=reconcile_production):\n    return f(cp)",
            {"reconcile": "lesson3.reconcile_production"},
        ),
        (
            "from lesson3 import reconcile_production\ndef reconcile(cp):\n"
            "    def inner(reconcile_production):\n        return 1\n    return reconcile_production(cp)",
            {"reconcile": "lesson3.reconcile_production"},
        ),
        (
            "from lesson3 import reconcile_production\ndef reconcile(cp):\n    global reconcile_production\n"
            "    reconcile_production = reconcile_production\n    return reconcile_production(cp)",
            {"reconcile": "lesson3.reconcile_production"},
        ),
        (
            "from lesson3 import load_checkpoint\ndef start_state(task, path, reconcile):\n"
            "    return (lambda load_checkpoint: 0)(1) or load_checkpoint(path)",
            {"start_state": "lesson3.load_checkpoint"},
        ),
        (
            "import lesson3\ndef reconcile(cp, lesson3=lesson3):\n    return lesson3.reconcile(cp)",
            {"reconcile": "lesson3.reconcile"},
        ),
        # Imported inside the function.
        (
            "def reconcile(cp):\n    from lesson3.reconciliation import reconcile as r\n    return r(cp)",
            {"reconcile": "lesson3.reconciliation.reconcile"},
        ),
        (
            "def my_load_checkpoint(path):\n    from lesson3.checkpoint import load_checkpoint\n"
            "    return load_checkpoint(path)",
            {"my_load_checkpoint": "lesson3.checkpoint.load_checkpoint"},
        ),
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
        # Local variables, loop variables, exception names and match captures hide the module's names too.
        "from lesson3 import load_checkpoint\ndef my_helper(p):\n    return p\n"
        "def start_state(task, path, reconcile):\n    load_checkpoint = my_helper\n    return load_checkpoint(path)",
        "from lesson3 import STRATEGIES\ndef resume_action(cp):\n    for STRATEGIES in [cp]:\n"
        "        pass\n    return STRATEGIES",
        "from lesson3 import *\ndef reconcile(cp):\n    try:\n        pass\n"
        "    except Exception as delete_dangling:\n        return delete_dangling\n    return cp",
        "from lesson3 import *\ndef reconcile(cp):\n    match cp:\n        case {'x': reconcile_production}:\n"
        "            return reconcile_production\n    return cp",
        "from lesson3 import load_checkpoint\nmy_load_checkpoint = lambda load_checkpoint: load_checkpoint",
    ],
)
def test_no_false_alarm(source):
    assert static_delegation([source]) == {}


def test_cells_are_read_in_order():
    cells = ["from lesson3 import reconcile", "x = 1", "def reconcile(cp):\n    return cp"]
    assert static_delegation(cells) == {}
    assert static_delegation(list(reversed(cells))) == {"reconcile": "lesson3.reconcile"}


@pytest.mark.parametrize(
    "imports",
    ["from lesson3 import reconcile", "from lesson3 import *", "import lesson3\nreconcile = lesson3.reconcile"],
)
@pytest.mark.parametrize(
    "start_state",
    [
        "def start_state(task, path, reconcile):\n    return reconcile(path)",
        "def start_state(task, path, *, reconcile=None):\n    return reconcile(path)",
        "def start_state(task, path, *reconcile):\n    return reconcile[0](path)",
        "start_state = lambda task, path, reconcile: reconcile(path)",
    ],
)
def test_start_state_calls_its_parameter_not_the_module_reconcile(imports, start_state):
    # Level 2 not done yet: the module's reconcile is lesson3's (that one is flagged), start_state's is its own.
    assert static_delegation([imports, start_state]) == {"reconcile": "lesson3.reconcile"}
