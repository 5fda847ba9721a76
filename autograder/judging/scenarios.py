"""The scenarios of every check, drawn at random from a seed.

Apart from the lesson's cpA/cpB/cpC, every id, tool name, input, path, file content,
recipient and subject a check uses is drawn here from ``random.Random`` seeded with
the run's seed and a stream's name (a criterion's id, or a set of cases several criteria
share): the same seed gives the same scenarios (``--seed`` reproduces a run), a new seed
gives new ones, so answers tuned to the exercise text fail. What a seed may change is the
instance, never the verdict: every kind of case is drawn under every seed
(tests/test_autograder_seed_independence.py).
"""

from __future__ import annotations

import json
import random
import secrets
import string
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.course.catalogue import Notice, notice, read_only_tools
from autograder.judging.learner_files import make_folder, place
from lesson3.checkpoint import Checkpoint, validate_checkpoint
from lesson3.tools import create_workspace, run_tool, use_workspace, web_corpus

READ_ONLY = read_only_tools()
"""The lesson's read-only tools, in the tools' order (a set has none, and every seed's draws depend on it)."""
UNSEEN_HIGH_IMPACT = ("write_file", "delete_file", "post_message", "charge_card", "run_shell")

_ALPHABET = string.ascii_letters + string.digits

# Spanish words spelt as Spanish (the learner reads them in notes and feedback). Where a word becomes
# an address or a file name it is folded to ASCII; an email subject takes only words without accents,
# since an accented subject is MIME-encoded in the header and the offline model's "did it go out?"
# grep looks for the subject as plain text.
_WORDS = (
    "acuerdos plan equipo cierre entrega lanzamiento presupuesto riesgos clientes soporte "
    "migración calendario revisión objetivos métricas pruebas despliegue contrato proveedor "
    "factura inventario encuesta informe roadmap sprint backlog incidente auditoría oferta"
).split()
_SUBJECT_WORDS = [w for w in _WORDS if w.isascii()]
_TOPICS = "reunión sync retro planning comité kickoff demo standup revisión".split()
_NAMES = "ana bruno carla diego elena fede gala hugo ines julia kevin lucia marta nico olga pablo".split()
_DOMAINS = ("example.com", "example.org", "ejemplo.net", "correo.test")
_VERBS = "sync publish archive transfer cancel refund deploy book approve notify rotate provision".split()
_NOUNS = "invoice ticket order calendar payment release contract report account invite backup quota".split()
_TASKS = (
    "Ayúdame a preparar el informe de {w} de esta semana",
    "Revisa las notas de {w} y resume los pendientes",
    "Organiza el seguimiento de {w} con el equipo",
    "Prepara la reunión de {w} del jueves",
)


LEVEL0_FILES, LEVEL0_FOLDERS, LEVEL2_ORDER = "nivel0.files", "nivel0.folders", "nivel2.order"
"""The streams no single criterion owns: Level 0's files and folders, the order of Level 2's calls.

Every other stream is named by the criterion that observes its scenarios
(:meth:`autograder.judging.observe.Run.draws`). These names are part of what every seed draws:
renaming one changes the scenarios of every past seed."""


def rng_for(seed: int, stream: str) -> random.Random:
    """One independent stream per criterion (or shared set): running one level alone sees the same scenarios."""
    return random.Random(f"{seed}:{stream}")


def tool_use_id(rng: random.Random) -> str:
    return "toolu_01" + "".join(rng.choice(_ALPHABET) for _ in range(22))


def ascii_fold(text: str) -> str:
    """``"migración"`` -> ``"migracion"``: for addresses and file names."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n))


def address(rng: random.Random) -> str:
    return f"{rng.choice(_NAMES)}.{ascii_fold(rng.choice(_WORDS))}{rng.randint(1, 99)}@{rng.choice(_DOMAINS)}"


def subject(rng: random.Random) -> str:
    chosen = [rng.choice(_SUBJECT_WORDS) for _ in range(3)]
    return f"{chosen[0].capitalize()} {chosen[1]} {chosen[2]} {rng.randint(2, 52)}"


def unknown_tool_names(rng: random.Random, count: int) -> list[str]:
    """High-impact names no exercise shows (``refund_invoice``, ``rotate_backup``...)."""
    taken = set(READ_ONLY) | set(UNSEEN_HIGH_IMPACT) | {"send_email"}
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(_VERBS)}_{rng.choice(_NOUNS)}"
        if name not in taken and name not in names:
            names.append(name)
    return names


def random_notes(rng: random.Random, count: int) -> dict[str, str]:
    notes: dict[str, str] = {}
    while len(notes) < count:
        name = f"{ascii_fold(rng.choice(_TOPICS))}-{rng.randint(10, 99)}.md"
        if name in notes:
            continue
        lines = [f"# {rng.choice(_TOPICS).capitalize()} de {words(rng, 2)}", ""]
        lines += [f"- {words(rng, rng.randint(3, 7))}." for _ in range(rng.randint(2, 4))]
        lines += [f"Acuerdo: {words(rng, rng.randint(3, 6))}." for _ in range(rng.randint(1, 2))]
        notes[name] = "\n".join(lines) + "\n"
    return notes


def read_only_input(rng: random.Random, name: str, notes: dict[str, str]) -> dict[str, Any]:
    note = rng.choice(sorted(notes))
    if name == "read_file":
        return {"path": rng.choice(("notes/", "./notes/")) + note}
    if name == "grep":
        word = rng.choice([w for w in notes[note].replace(".", " ").split() if w.isalpha() and len(w) > 3])
        return {"pattern": word, "path": "notes"}
    if name == "list_dir":
        return rng.choice(({"path": "notes"}, {"path": "."}, {}))
    if name == "web_search":
        page = rng.choice(web_corpus())
        terms = [w.strip("—():,") for w in page["title"].split() if len(w.strip("—():,")) > 3]
        return {"query": " ".join(rng.sample(terms, min(2, len(terms))))}
    raise ValueError(name)


def high_impact_input(rng: random.Random, name: str) -> dict[str, Any]:
    if name == "send_email":
        return {"to": address(rng), "subject": subject(rng), "body": words(rng, 8)}
    if name == "write_file":
        return {"path": f"informes/{ascii_fold(rng.choice(_WORDS))}-{rng.randint(1, 99)}.md", "content": words(rng, 10)}
    if name == "delete_file":
        return {"path": f"notes/{ascii_fold(rng.choice(_TOPICS))}-{rng.randint(10, 99)}.md"}
    if name == "post_message":
        return {"channel": f"#{rng.choice(_WORDS)}", "text": words(rng, 8)}
    if name == "charge_card":
        return {
            "customer": "cus_" + "".join(rng.choice(_ALPHABET) for _ in range(10)),
            "amount_cents": rng.randint(100, 99999),
            "currency": rng.choice(("EUR", "USD", "ARS", "MXN")),
        }
    if name == "run_shell":
        return {
            "command": rng.choice(("rm -rf build/", "make deploy", "git push --force", "psql -c 'DROP TABLE pagos'"))
        }
    return {"id": rng.randint(1000, 9999), "note": words(rng, 4)}


def task_text(rng: random.Random) -> str:
    return rng.choice(_TASKS).format(w=rng.choice(_WORDS))


def checkpoint(rng: random.Random, *, task: str, pending: dict[str, Any] | None, ending: str = "answer") -> Checkpoint:
    """A checkpoint read at resume time, with a real-looking conversation.

    With ``pending`` the last message is an assistant turn carrying that tool_use (the
    crash hit between save points A and B). Without it the conversation ends with a
    plain assistant answer (``ending="answer"``) or with a tool_result (crash right
    after save point B, ``ending="after_b"``).
    """
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    earlier = rng.randint(1 if ending == "after_b" and pending is None else 0, 2)
    for _ in range(earlier):
        use_id = tool_use_id(rng)
        note = f"notes/{ascii_fold(rng.choice(_TOPICS))}-{rng.randint(10, 99)}.md"
        use = {"type": "tool_use", "id": use_id, "name": "read_file", "input": {"path": note}}
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Leo {note}."}, use]})
        result = {"type": "tool_result", "tool_use_id": use_id, "content": f"# {words(rng, 3)}\n"}
        messages.append({"role": "user", "content": [result]})
    if pending is not None:
        block = {"type": "tool_use", "id": pending["id"], "name": pending["name"], "input": pending["input"]}
        messages.append({"role": "assistant", "content": [{"type": "text", "text": words(rng, 5)}, block]})
    elif ending == "answer":
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"Listo: {words(rng, 6)}."}]})
    turns = sum(1 for m in messages if m["role"] == "assistant")
    cp = {
        "version": 1,
        "task": task,
        "turns": turns,
        "tokensUsed": rng.randint(900, 60000),
        "messages": messages,
        "pendingToolUse": pending,
    }
    return validate_checkpoint(cp, source="escenario")


def pending_call(rng: random.Random, name: str, input: dict[str, Any]) -> dict[str, Any]:
    return {"id": tool_use_id(rng), "name": name, "input": input}


# -- the cases each criterion uses ---------------------------------------------------------------


@dataclass
class ActionCase:
    """A checkpoint for ``resume_action`` and the answer it must give."""

    label: str | Notice  # what the feedback names: "read_file", "charge_card", "sin llamada pendiente"...
    kind: str  # "none", "read_only" or "high_impact"
    checkpoint: Checkpoint
    expected: str = field(init=False)
    """The action it must get (from its kind): data of the case, read by the judge without asking back."""

    def __post_init__(self) -> None:
        self.expected = EXPECTED_FOR_KIND[self.kind]


EXPECTED_FOR_KIND = {"none": "continue", "read_only": "rerun", "high_impact": "is_error"}
"""What ``resume_action`` answers for each kind of checkpoint: the lesson's three actions."""


def hidden_action_cases(rng: random.Random) -> list[ActionCase]:
    cases = [
        ActionCase(notice("label.no_pending"), "none", checkpoint(rng, task=task_text(rng), pending=None)),
        ActionCase(
            notice("label.no_pending_after_b"),
            "none",
            checkpoint(rng, task=task_text(rng), pending=None, ending="after_b"),
        ),
    ]
    notes = random_notes(rng, 3)
    for name in READ_ONLY:
        pending = pending_call(rng, name, read_only_input(rng, name, notes))
        cases.append(ActionCase(name, "read_only", checkpoint(rng, task=task_text(rng), pending=pending)))
    for name in ("send_email", *UNSEEN_HIGH_IMPACT, *unknown_tool_names(rng, 2)):
        pending = pending_call(rng, name, high_impact_input(rng, name))
        cases.append(ActionCase(name, "high_impact", checkpoint(rng, task=task_text(rng), pending=pending)))
    rng.shuffle(cases)
    return cases


@dataclass
class ReconcileCase:
    """A dangling call over a workspace of its own, for one ``reconcile`` call."""

    label: str
    kind: str  # "read_only" or "high_impact"
    checkpoint: Checkpoint
    workspace: Path
    expected_output: str | None = None  # the tool's real output (read-only cases)

    @property
    def pending(self) -> dict[str, Any]:
        pending = self.checkpoint["pendingToolUse"]
        assert pending is not None
        return pending


def read_only_cases(rng: random.Random, base: Path) -> list[ReconcileCase]:
    cases = []
    for i, name in enumerate(READ_ONLY):
        notes = random_notes(rng, rng.randint(2, 4))
        workspace = create_workspace(base / f"solo-lectura-{i}", notes=notes)
        pending = pending_call(rng, name, read_only_input(rng, name, notes))
        with use_workspace(workspace):
            expected = run_tool(name, pending["input"])
        assert not expected.is_error, expected
        cp = checkpoint(rng, task=task_text(rng), pending=pending)
        cases.append(ReconcileCase(name, "read_only", cp, workspace, expected.content))
    return cases


def high_impact_cases(rng: random.Random, base: Path) -> list[ReconcileCase]:
    cases = []
    for i, name in enumerate(("send_email", *UNSEEN_HIGH_IMPACT, *unknown_tool_names(rng, 1))):
        workspace = create_workspace(base / f"alto-impacto-{i}", notes=random_notes(rng, 2))
        pending = pending_call(rng, name, high_impact_input(rng, name))
        cp = checkpoint(rng, task=task_text(rng), pending=pending)
        cases.append(ReconcileCase(name, "high_impact", cp, workspace))
    return cases


@dataclass
class IncidentCase:
    """The lesson's incident with a random recipient, subject and notes."""

    task: str
    recipient: str
    subject: str
    workspace: Path
    checkpoint_path: Path
    model_seed: int


def incident_case(rng: random.Random, base: Path) -> IncidentCase:
    recipient, subj = address(rng), subject(rng)
    task = f"Enviarle un correo a {recipient} con el asunto «{subj}» para avisarle al equipo de las conclusiones"
    # One note: the run reaches send_email in three turns, and the kill comes right after.
    workspace = create_workspace(base / "incident", notes=random_notes(rng, 1))
    return IncidentCase(task, recipient, subj, workspace, base / "incident-checkpoint.json", rng.randint(0, 2**31))


# -- Nivel 0: the resume path, over files in the learner's own folder ----------------------------
#
# The learner's code sees these files from inside: their paths, names, folders, sizes, the
# folder's listing, the order of the calls. None of that may tell which case (or criterion) a
# call belongs to, or code could behave well only there: every case's path is drawn by the
# same function from the same folders, every file is placed before the first call, the calls
# come in one shuffled order, and a broken file is about as big as a whole one.


@dataclass
class ResumeFile:
    """A checkpoint file (or the lack of one) in the learner's folder, and what a call must make of it."""

    label: str | Notice  # what the feedback names: "v3", "turns 12", "JSON truncado", "sin archivo"...
    kind: str  # "newer", "missing", "malformed", "saved" or "dangling"
    relpath: str  # the path the learner's function receives (relative to its working directory)
    box: Path  # the learner's folder (its working directory)
    content: bytes | None  # None: there is no file
    task: str  # the task handed to start_state (the file's own task wins when there is a file)
    nonce: str  # the stand-in reconcile's mark for this case
    version: Any = None  # the file's version, for "newer" (any value other than 1: see other_versions)

    @property
    def path(self) -> Path:
        return self.box / self.relpath

    @property
    def checkpoint(self) -> Checkpoint | None:
        """The file's content as JSON, when it is a valid checkpoint."""
        if self.kind not in ("saved", "dangling") or self.content is None:
            return None
        return json.loads(self.content)


RESUME_KINDS = ("newer", "missing", "malformed", "saved", "dangling")


@dataclass
class _Content:
    """One case before it gets its path: what the file holds (None: no file)."""

    label: str | Notice
    kind: str
    content: bytes | None
    version: Any = None


def _nonce(rng: random.Random) -> str:
    return "marca-" + "".join(rng.choice(_ALPHABET) for _ in range(16))


def resume_folders(rng: random.Random) -> list[str]:
    """The folders of one grading's checkpoint files: every case (and the killed task's file) uses them alike."""
    folders: list[str] = []
    while len(folders) < 3:
        folder = f"{ascii_fold(rng.choice(_WORDS))}-{rng.randint(100, 999)}"
        if folder not in folders:
            folders.append(folder)
    return folders


def resume_path(rng: random.Random, folders: list[str], taken: set[str]) -> str:
    """A path for one case, drawn the same way whatever the case: a folder of the grading, a file name."""
    while True:
        name = rng.choice(("checkpoint.json", "estado.json", f"{rng.choice(_WORDS)}-{rng.randint(1, 99)}.json"))
        relpath = f"{rng.choice(folders)}/{name}"
        if relpath not in taken:
            taken.add(relpath)
            return relpath


def encode_json(value: Any, rng: random.Random) -> bytes:
    r"""Valid JSON that no serializer writes byte for byte, so a loader that rewrites the file always shows.

    The first string holding an ASCII letter has that letter written as a ``\uXXXX`` escape,
    which neither ``json.dumps`` (any indent, ``ensure_ascii`` either way, sorted or not) nor
    JavaScript's ``JSON.stringify`` ever writes; non-ASCII text is written as is (UTF-8). The
    layout varies too (indent, spaces around ``:``, line ends, final newline).
    """
    indent = rng.choice(("  ", "   ", "\t", " "))
    colon = rng.choice((": ", " : ", ":"))
    newline = rng.choice(("\n", "\r\n"))
    # json.dumps lays it out (a newline is only ever layout: inside strings it is escaped); the marked
    # string goes in as a placeholder no text holds, then is swapped for its escaped writing.
    marked = _first_lettered(value)
    placeholder = f"\0{secrets.token_hex(8)}\0"
    text = json.dumps(
        _replaced(value, marked, placeholder) if marked else value,
        ensure_ascii=False,
        indent=indent,
        separators=(",", colon),
    )
    if marked:
        s, i = _lookup(value, marked), marked[-1]
        head, tail = json.dumps(s[:i], ensure_ascii=False), json.dumps(s[i + 1 :], ensure_ascii=False)
        text = text.replace(json.dumps(placeholder), f"{head[:-1]}\\u{ord(s[i]):04X}{tail[1:]}", 1)
    return (text.replace("\n", newline) + rng.choice(("", newline))).encode("utf-8")


def _first_lettered(value: Any, at: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """Where the first string value (keys aside) holding an ASCII letter is, and that letter's index in it."""
    if isinstance(value, str):
        i = next((i for i, c in enumerate(value) if c.isascii() and c.isalpha()), None)
        return None if i is None else (*at, i)
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        if found := _first_lettered(inner, (*at, key)):
            return found
    return None


def _lookup(value: Any, where: tuple[Any, ...]) -> Any:
    for key in where[:-1]:
        value = value[key]
    return value


def _replaced(value: Any, where: tuple[Any, ...], new: str) -> Any:
    """``value`` with the string at ``where`` (its last item: the letter's index) replaced; the rest shared."""
    if len(where) == 1:
        return new
    copied = dict(value) if isinstance(value, dict) else list(value)
    copied[where[0]] = _replaced(value[where[0]], where[1:], new)
    return copied


def other_versions(rng: random.Random) -> list[Any]:
    """A version of every kind that the lesson's ``raw.version !== CHECKPOINT_VERSION`` refuses, every seed.

    Above 1 and below it (0, negative), a fraction between 1 and 1.5 (what ``int()`` or
    ``round()`` would turn into 1) and the text ``"1"`` (a string is never the number 1,
    in JavaScript as in Python). Not drawn: ``1.0``, the same number as 1 to both the lesson
    and Python (so it is version 1, not another one), and ``true`` or ``null``, which the
    lesson's ``!==`` refuses but Python's ``!=`` (``True == 1``) and f-strings (``vNone``)
    do not write the same way; the notebooks teach the Python spelling.
    """
    return [rng.randint(2, 99), 0, -rng.randint(1, 99), 1 + rng.randint(1, 4) / 10, "1"]


def newer_version_files(rng: random.Random) -> list[_Content]:
    files = []
    for version in other_versions(rng):
        cp = dict(checkpoint(rng, task=task_text(rng), pending=None))
        cp["version"] = version
        files.append(_Content(f"v{json.dumps(version)}", "newer", encode_json(cp, rng), version))
    return files


def missing_files(rng: random.Random) -> list[_Content]:
    return [_Content(notice("label.no_file"), "missing", None) for _ in range(2)]


def malformed_files(rng: random.Random) -> list[_Content]:
    # Each as big as a whole checkpoint (the empty one aside): its size tells nothing.
    cp = checkpoint(rng, task=task_text(rng), pending=None)
    whole = encode_json(cp, rng)
    return [
        _Content(notice("label.truncated"), "malformed", whole[: rng.randint(len(whole) // 4, len(whole) * 3 // 4)]),
        _Content(notice("label.empty_file"), "malformed", b""),
        # What print(state) or str(state) writes: Python, not JSON.
        _Content(notice("label.not_json"), "malformed", repr(cp).encode("utf-8")),
        _Content(notice("label.not_object"), "malformed", encode_json(cp["messages"], rng)),
    ]


def saved_files(rng: random.Random) -> list[_Content]:
    files = []
    for ending in ("answer", "after_b"):
        cp = checkpoint(rng, task=task_text(rng), pending=None, ending=ending)
        cp["turns"] = rng.randint(cp["turns"], 35)  # turns counts every turn so far, not the messages kept
        files.append(_Content(f"turns {cp['turns']}", "saved", encode_json(cp, rng)))
    return files


def dangling_files(rng: random.Random) -> list[_Content]:
    notes = random_notes(rng, 2)
    files = []
    for name in (rng.choice(READ_ONLY), rng.choice(("send_email", *UNSEEN_HIGH_IMPACT))):
        pending = pending_call(
            rng, name, read_only_input(rng, name, notes) if name in READ_ONLY else high_impact_input(rng, name)
        )
        cp = checkpoint(rng, task=task_text(rng), pending=pending)
        files.append(_Content(name, "dangling", encode_json(cp, rng)))
    return files


def resume_files(rng: random.Random, box: Path, folders: list[str]) -> list[ResumeFile]:
    """Every Nivel 0 file of one grading, in the order the learner's functions get them.

    Every kind is drawn under every seed; the paths are drawn after the shuffle, so which
    path (and which place in the order) a case gets says nothing about it; every folder and
    file is in place before the first call, so the listing is the same at every call.
    """
    contents = [
        *newer_version_files(rng),
        *missing_files(rng),
        *malformed_files(rng),
        *saved_files(rng),
        *dangling_files(rng),
    ]
    rng.shuffle(contents)
    taken: set[str] = set()
    files = []
    for c in contents:
        relpath = resume_path(rng, folders, taken)
        files.append(ResumeFile(c.label, c.kind, relpath, box, c.content, task_text(rng), _nonce(rng), c.version))
    for folder in folders:
        make_folder(box, folder)
    for f in files:
        if f.content is not None:
            place(box, f.relpath, f.content)
    return files


@dataclass
class LivesCase:
    """A task longer than MAX_TURNS, killed with SIGKILL and resumed through the learner's start_state."""

    task: str
    max_turns: int
    kill_turns: list[int]  # the turns at whose model call (before_call) each life is killed
    relpath: str  # where the learner's start_state reads each life's checkpoint (a copy of the judge's)
    box: Path
    path: Path  # the judge's own checkpoint, which lesson3's loop writes: never in the learner's folder
    workspace: Path
    model_seed: int
    nonce: str
    layout_seed: int  # how the learner's copy of each life's checkpoint is written (see encode_json)


def lives_case(rng: random.Random, box: Path, base: Path, folders: list[str]) -> LivesCase:
    max_turns = rng.randint(4, 6)
    # The offline model reads every note and then answers: notes + 2 turns, more than max_turns.
    notes = random_notes(rng, rng.randint(max_turns, max_turns + 2))
    workspace = create_workspace(base / "lives", notes=notes)
    first = rng.randint(2, max_turns - 2)
    relpath = resume_path(rng, folders, set())
    task = f"Revisa las notas de {rng.choice(_WORDS)} y resume los pendientes"
    return LivesCase(
        task,
        max_turns,
        [first, rng.randint(first + 1, max_turns)],
        relpath,
        box,
        base / "lives-checkpoint.json",
        workspace,
        rng.randint(0, 2**31),
        _nonce(rng),
        rng.randint(0, 2**31),
    )
