"""Who judges each criterion and who makes each observation: the judging side's two registries.

A criterion (:mod:`autograder.course.criteria`) is plain data, which the grader's own process reads
without loading any verdict function or the SDK; it names the observation it reads in ``observes``. The
judging process fills both registries as it imports its modules, one way only, by decorator:
``@verdict("nivel2.is_error_fallback")`` on a verdict function in its level's module
(:mod:`autograder.judging.verdicts_level0` and its siblings), ``@observer("reconcile.high_impact")`` on an observer in
:mod:`autograder.judging.observe` (a decorator called on a made function registers one built in
a loop). ``tests/test_autograder_criteria.py`` checks both against the criteria, both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from autograder.course.criteria import CRITERIA, Verdict

VerdictFunction = Callable[[Any, str], Verdict]
"""A verdict function, ``(observation, lang) -> Verdict``: pure, it reads only the observation."""
Observer = Callable[[Any], Any]
"""``observer(run) -> observation``, given the :class:`~autograder.judging.observe.Run` of one submission."""

VERDICTS: dict[str, VerdictFunction] = {}
"""Criterion id -> its verdict function."""
OBSERVERS: dict[str, Observer] = {}
"""Observation name (a criterion's ``observes``, or one several observers share) -> its observer."""

VerdictT = TypeVar("VerdictT", bound=VerdictFunction)
ObserverT = TypeVar("ObserverT", bound=Observer)


def verdict(*criterion_ids: str) -> Callable[[VerdictT], VerdictT]:
    """Register the decorated function as the verdict function of ``criterion_ids`` (one per criterion)."""

    def register(function: VerdictT) -> VerdictT:
        for criterion_id in criterion_ids:
            if criterion_id in VERDICTS:
                raise ValueError(
                    f"criterion {criterion_id!r} already has a verdict function: {VERDICTS[criterion_id].__name__}"
                )
        VERDICTS.update(dict.fromkeys(criterion_ids, function))
        return function

    return register


def observer(name: str) -> Callable[[ObserverT], ObserverT]:
    """Register the decorated function as the one observer of the observation ``name``."""

    def register(fn: ObserverT) -> ObserverT:
        if name in OBSERVERS:
            raise ValueError(f"observation {name!r} already has an observer: {OBSERVERS[name].__name__}")
        OBSERVERS[name] = fn
        return fn

    return register


def drawn_for(observation: str) -> str:
    """The id of the criterion whose stream draws ``observation``'s scenarios.

    The first criterion, in the registry's order, that observes it: an observer never spells a
    criterion's id, and renaming a criterion renames its stream (and so redraws its scenarios).
    """
    for criterion in CRITERIA.values():
        if criterion.observes == observation:
            return criterion.id
    raise KeyError(f"no criterion observes {observation!r}, so nothing names its scenarios' stream")
