"""A multiple-choice question as it crosses into the learner's process: the prompt and the options, never
the answer (the zygote sends :data:`PUBLIC_FIELDS`; the learner's stub face builds :class:`PublicQuestion`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PublicQuestion:
    """A question as the learner's process sees it: the prompt and the options, never the answer."""

    variable: str
    criterion: str | None
    points: float
    title: dict[str, str]
    prompt: dict[str, str]
    options: dict[str, dict[str, str]]
    answer: None = None
    explanation: dict[str, str] = field(default_factory=dict)


PUBLIC_FIELDS = ("variable", "criterion", "points", "title", "prompt", "options")
"""What of a question crosses into the learner's process: never its answer, explanation or hint."""
