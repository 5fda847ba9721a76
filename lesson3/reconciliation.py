"""Conciliar una llamada colgante: los datos de la regla y las dos jugadas equivocadas.

The lesson's rule itself, ``reconcile``, is an answer and lives in :mod:`lesson3.answers`;
this module keeps what the rule reads (``READ_ONLY_TOOLS``, the ``is_error`` text) and
re-exports the two wrong moves of :mod:`lesson3.production`. It offers no second way to the
answers: ``from lesson3 import reconcile`` or :mod:`lesson3.answers` itself.
"""

from __future__ import annotations

from .production import delete_dangling, reconcile_production

__all__ = ["READ_ONLY_TOOLS", "UNKNOWN_STATE_MESSAGE", "delete_dangling", "reconcile_production"]

READ_ONLY_TOOLS = frozenset({"read_file", "grep", "list_dir", "web_search"})

UNKNOWN_STATE_MESSAGE = (
    "Estado de ejecución desconocido: el proceso se cayó antes de que esta llamada terminara, "
    "así que no hay manera de confirmar si tuvo efecto. Por favor, reevalúa la situación actual."
)
