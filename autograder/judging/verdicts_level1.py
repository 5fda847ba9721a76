"""Level 1's verdicts: ``resume_action`` on the lesson's checkpoints and on fresh ones, and the level's questions.

Each is a pure function ``judge(observation, lang) -> Verdict`` registered for its criteria's ids
(:func:`~autograder.judging.registry.verdict`); it runs nothing and reads only the observation from
:mod:`autograder.judging.observe`. The criteria and their feedback texts are declared in
:mod:`autograder.course.level1`.
"""

from __future__ import annotations

from autograder.course.catalogue import text, written
from autograder.course.criteria import Verdict
from autograder.course.criterion import checkpoint_criterion
from autograder.judging.observe import (
    ActionObservation,
    LessonObservation,
)
from autograder.judging.registry import verdict
from autograder.judging.scenarios import EXPECTED_FOR_KIND
from autograder.judging.verdict_help import failed, listing, question_ids, question_verdict, said_once, show
from lesson3.answers import EXPECTED_ACTION
from lesson3.exercise_names import EXERCISE_NAMES

ACTIONS = tuple(EXPECTED_FOR_KIND.values())


@verdict(*map(checkpoint_criterion, EXERCISE_NAMES))
def lesson_checkpoint_verdict(obs: LessonObservation, lang: str) -> Verdict:
    """nivel1.cpA/B/C: the lesson's three checkpoints, exactly as printed."""
    name, outcome = obs.name, obs.outcome
    expected = EXPECTED_ACTION[name]
    if not outcome.ok:
        return Verdict(False, outcome.describe(lang))
    got = outcome.value
    if got == expected:
        return Verdict(True, text("level1.ok", lang, name=name, expected=expected))
    if got not in ACTIONS:
        return Verdict(False, text("level1.invalid", lang, name=name, got=show(got)))
    return Verdict(False, text("level1.wrong", lang, name=name, got=show(got), expected=expected))


@verdict("nivel1.hidden")
def hidden_verdict(observations: list[ActionObservation], lang: str) -> Verdict:
    """nivel1.hidden: fresh checkpoints the learner has never seen."""
    if verdict := said_once((o.outcome for o in observations), lang):
        return verdict
    bad: list[str] = []
    kinds: set[str] = set()
    for case, outcome in ((o.case, o.outcome) for o in observations):
        if outcome.ok and outcome.value == case.expected:
            continue
        kinds.add(case.kind)
        label = written(case.label, lang)
        if not outcome.ok:
            bad.append(failed(label, outcome, lang))
        else:
            bad.append(text("hidden.item", lang, label=label, got=show(outcome.value), expected=case.expected))
    n = len(observations)
    if not bad:
        high = sum(1 for o in observations if o.case.kind == "high_impact")
        return Verdict(True, text("hidden.ok", lang, n=n, k=high))
    feedback = text("hidden.wrong", lang, bad=len(bad), n=n, items=listing(bad, lang))
    whys = {"high_impact": "hidden.why_high", "read_only": "hidden.why_read", "none": "hidden.why_none"}
    return Verdict(False, feedback + "".join(text(key, lang) for kind, key in whys.items() if kind in kinds))


verdict(*question_ids(1))(question_verdict)
