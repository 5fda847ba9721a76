"""The notebook face as the learner's process sees it: ``check()``, ``pista()`` and ``warm_up()`` do nothing, and
the questions come without their answers.

A graded notebook calls ``from autograder import check`` and ``from autograder.questions import
QUESTIONS`` as in Jupyter. In the learner's process those names resolve to this stub, installed in
``sys.modules`` by the zygote: the real face (which would grade the notebook again) and the real
questions (which hold the answers) are never reached, and nothing of the learner's side writes into
the package itself.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from autograder.wire.public_questions import PublicQuestion


def _nothing(*args: Any, **kwargs: Any) -> None:
    """While grading, the notebook's own check(), pista() and warm_up() do nothing: the grader is checking it."""
    return None


def install(questions: dict[str, dict[str, Any]]) -> None:
    """Put the stub face and the answer-free questions where ``import autograder`` finds them."""
    real = sys.modules["autograder"]
    face = types.ModuleType("autograder", real.__doc__)
    # The learner side's own modules stay importable under it; Landlock hides every file anyway.
    face.__path__ = list(real.__path__)
    face.__spec__ = real.__spec__
    public = types.ModuleType("autograder.questions", "The questions, without their answers (graded outside).")
    public.__dict__.update(Question=PublicQuestion, QUESTIONS={v: PublicQuestion(**q) for v, q in questions.items()})
    # Every function of the notebook face (check, pista, warm_up): none starts a grader inside the grading.
    face.__dict__.update({name: _nothing for name in real.__all__}, questions=public, __all__=list(real.__all__))
    for name, module in list(sys.modules.items()):
        if name.startswith("autograder.") and name.count(".") == 1:
            setattr(face, name.split(".")[1], module)  # `autograder.learner` as Python's import binds it
    face.questions = public
    sys.modules["autograder"] = face
    sys.modules["autograder.questions"] = public
