"""The Lesson 3 autograder: grades what a learner wrote against the exercise's criteria.

The exercise contract (what the notebooks teach and a submission defines, in a
``.py`` file or an ``.ipynb`` notebook)::

    def my_load_checkpoint(path) -> dict | None:      # Nivel 0
        # None if the file does not exist; the parsed checkpoint otherwise.
        # Another version raises with the lesson's message: "Versión de punto de
        # control incompatible: el archivo es vN, el código es v1". A broken file
        # (truncated, empty, not JSON) raises an exception, never returns None.
        # The file is only read.

    def start_state(task, path, reconcile) -> dict:   # Nivel 0
        # the checkpoint as saved (turns, tokensUsed, messages, its task), through
        # reconcile(cp) once when pendingToolUse is set; without a file the initial
        # state: turns 0 and one user message with the task

    READ_ONLY_TOOLS = {"read_file", "grep", "list_dir", "web_search"}

    def resume_action(cp) -> str:          # Nivel 1
        # "continue" (no pendingToolUse), "rerun" (read-only tool) or "is_error" (high impact)

    def reconcile(cp) -> dict:             # Nivel 2 (plain def or async def)
        # may call execute_tool(name, input): the grader provides it as a global
        # returns cp with one {"role": "user", "content": [tool_result]} appended
        # and cp["pendingToolUse"] = None

    razon_cpA = razon_cpB = razon_cpC = "?"  # Level 1: why that action, for each checkpoint (one letter each)
    respuesta_caida_o_falla = "?"          # Level 1: an ordinary failure or a dangling call (one letter)
    respuesta_id_inventado = "?"           # Level 1: «¿Está en lo cierto?», a made-up tool_use_id
    respuesta_causa_raiz = "?"             # Level 2: the incident's root cause (one letter)

Every criterion (id, points, title, hint, what it observes) is declared once in
:mod:`autograder.course.criteria`, its verdict function registered for its id in :mod:`autograder.judging`;
the multiple-choice prompts, options and correct letters live in :mod:`autograder.course.questions`.
Every submission is graded on every criterion, so the maximum is the same for all: an answer
left undefined scores 0.

In a notebook: ``from autograder import check`` then ``check()`` (or ``check(0)`` /
``check(1)`` / ``check(2)``) grades the notebook's definitions on every criterion, with a fixed public seed, in a
sandboxed process, never in the kernel, and shows a table; ``pista("nivel1.hidden")``
prints the next, more concrete hint (``nivel=N`` for one level). Notebook cells tagged
``autograder-skip`` are not run when grading a submitted ``.ipynb`` (for demos that spawn
processes); the other cells run in an IPython shell as in Jupyter, except ``!`` shell escapes,
``%pip`` and ``%%bash``-like magics, which only say they do not run. Learner code may start a
few threads, never a process.

For instructors: :func:`autograder.grading.pipeline.grade_many` (and the ``autograder`` CLI).
"""

from __future__ import annotations

from typing import Any


def check(level: int | None = None, **kwargs: Any) -> Any:
    """Corrige las definiciones de este cuaderno (``level`` 0, 1 o 2 para un solo nivel)."""
    from autograder.notebook import check as _check

    return _check(level, _depth=2, **kwargs)


def pista(criterion: str | int | None = None, lang: str | None = None, *, nivel: int | None = None) -> None:
    """Muestra la pista siguiente de un criterio (por id, o su número en la tabla de check()).

    Cada llamada con el mismo criterio da una pista más concreta; ``nivel=N`` pide la número N.
    """
    from autograder.notebook import pista as _pista

    _pista(criterion, nivel=nivel, lang=lang)
    return None


def warm_up() -> None:
    """Start ``check()``'s grader in the background; return at once.

    The grader's servers (two fresh interpreters that import the SDK, lesson3 and the judges) take a second or two
    to start, once per Jupyter server: inside a kernel they outlive its restarts (:mod:`autograder.grading.resident`).
    Started from a notebook's first cell, that happens while the learner reads and writes, not inside their first
    ``check()``. Calling it again, or check() before it is done, is free: check()
    waits for the same start. A start that fails here is left to check(), which says why in its table.
    """
    import threading

    # What check() imports is imported here, in the caller's thread: the thread below only starts processes and
    # waits for them. Two threads importing the same package at once can each meet the other's half-imported
    # module (a check() run at once beside it once failed that way).
    from autograder.grading.resident import notebook_server
    from autograder.notebook import warm_up_course

    course = warm_up_course()
    server = notebook_server()

    def start() -> None:
        try:
            server.start()
            if course is not None:
                # The crashes every check() of this course shares, done now, while the learner reads.
                server.prepare(course)
        except Exception:  # noqa: BLE001 - any failure (a server's, or the OS's) is check()'s to report, not a thread's
            pass  # check() starts it again and reports what went wrong

    threading.Thread(target=start, name="autograder-warm-up", daemon=True).start()


__all__ = ["check", "pista", "warm_up"]
