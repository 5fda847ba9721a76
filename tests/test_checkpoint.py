"""checkpoint.json: crash-safe save, validated load, and the bad files it refuses without touching them."""

from __future__ import annotations

import copy
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import lesson3.checkpoint as checkpoint_module
from lesson3.checkpoint import (
    CHECKPOINT_FILENAME,
    CHECKPOINT_VERSION,
    CheckpointError,
    CheckpointVersionError,
    dangling_tool_uses,
    load_checkpoint,
    new_state,
    save_checkpoint,
    validate_checkpoint,
)

LESSON_VERSION_MESSAGE = "Versión de punto de control incompatible: el archivo es v2, el código es v1"


def valid_checkpoint() -> dict[str, Any]:
    """A small cpB-shaped checkpoint: one dangling read_file call, recorded as pendingToolUse."""
    return {
        "version": 1,
        "task": "Ayúdame a juntar las notas de reunión de esta semana",
        "turns": 2,
        "tokensUsed": 310,
        "messages": [
            {"role": "user", "content": "Ayúdame a juntar las notas de reunión de esta semana"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Primero miro qué notas hay."},
                    {"type": "tool_use", "id": "toolu_01L", "name": "list_dir", "input": {"path": "notes"}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01L", "content": "meeting-08-25.md"}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Leo notes/meeting-08-25.md."},
                    {"type": "tool_use", "id": "toolu_01A", "name": "read_file", "input": {"path": "notes/a.md"}},
                ],
            },
        ],
        "pendingToolUse": {"id": "toolu_01A", "name": "read_file", "input": {"path": "notes/a.md"}},
    }


def dumped(cp: object) -> bytes:
    return json.dumps(cp, ensure_ascii=False, indent=2).encode("utf-8")


def mutated(change: Callable[[dict[str, Any]], object]) -> bytes:
    cp = valid_checkpoint()
    change(cp)
    return dumped(cp)


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A change that sets cp[...][...] = value, the path given as 'a.b.0.c'."""

    def change(cp: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = cp
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def change(cp: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = cp
        for key in parents:
            target = target[key]
        del target[last]

    return change


def _answered_but_still_pending(cp: dict[str, Any]) -> None:
    cp["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "..."}]}
    )


# (id, file bytes, words the Spanish message must contain)
MALFORMED: list[tuple[str, bytes, list[str]]] = [
    ("not-json", b"hola, esto no es JSON", ["no es JSON válido", "línea 1"]),
    ("truncated", dumped(valid_checkpoint())[:200], ["truncado", "¿se cortó una escritura?"]),
    ("empty", b"", ["vacío"]),
    ("only-whitespace", b"  \n\t\n", ["vacío"]),
    ("not-utf8", b'{"task": "\xff\xfe"}', ["no es texto UTF-8"]),
    ("trailing-garbage", dumped(valid_checkpoint()) + b"\n}", ["no es JSON válido", "sobran datos"]),
    ("array-not-object", b"[1, 2, 3]", ["se esperaba un objeto JSON", "una lista"]),
    ("string-not-object", b'"checkpoint"', ["se esperaba un objeto JSON", "un texto"]),
    ("null-not-object", b"null", ["se esperaba un objeto JSON", "null"]),
    ("missing-version", mutated(_delete("version")), ["falta el campo «version»"]),
    ("version-as-text", mutated(_set("version", "1")), ["«version»", "un número entero", "un texto"]),
    ("version-as-bool", mutated(_set("version", True)), ["«version»", "booleano"]),
    ("missing-task", mutated(_delete("task")), ["falta el campo «task»"]),
    ("task-as-number", mutated(_set("task", 42)), ["«task»", "un texto", "un número entero (42)"]),
    ("missing-turns", mutated(_delete("turns")), ["falta el campo «turns»"]),
    ("turns-as-text", mutated(_set("turns", "7")), ["«turns»", "debe ser un número entero", "un texto"]),
    ("turns-as-float", mutated(_set("turns", 7.5)), ["«turns»", "con decimales (7.5)"]),
    ("turns-negative", mutated(_set("turns", -1)), ["«turns»", "negativo"]),
    ("tokensUsed-as-bool", mutated(_set("tokensUsed", True)), ["«tokensUsed»", "booleano (true)"]),
    ("missing-messages", mutated(_delete("messages")), ["falta el campo «messages»"]),
    ("messages-as-object", mutated(_set("messages", {})), ["«messages»", "debe ser una lista", "un objeto"]),
    ("messages-empty", mutated(_set("messages", [])), ["«messages» está vacía"]),
    ("message-not-object", mutated(_set("messages.1", "hola")), ["messages[1]", "debe ser un objeto"]),
    ("role-system", mutated(_set("messages.2.role", "system")), ["messages[2].role", "pero es system"]),
    ("message-without-content", mutated(_delete("messages.2.content")), ["messages[2]", "falta «content»"]),
    ("content-as-number", mutated(_set("messages.0.content", 3)), ["messages[0].content", "un número entero"]),
    ("block-without-type", mutated(_set("messages.1.content.0", {"text": "x"})), ["messages[1].content[0]", "«type»"]),
    ("null-inside-block", mutated(_set("messages.1.content.0.text", None)), ["messages[1].content[0].text", "null"]),
    ("tool_use-without-id", mutated(_delete("messages.3.content.1.id")), ["messages[3].content[1]", "tool_use"]),
    ("tool_result-without-id", mutated(_delete("messages.2.content.0.tool_use_id")), ["tool_result", "tool_use_id"]),
    ("first-message-assistant", mutated(_set("messages.0.role", "assistant")), ["messages[0]", "usuario"]),
    ("missing-pendingToolUse", mutated(_delete("pendingToolUse")), ["falta el campo «pendingToolUse»"]),
    ("pending-as-text", mutated(_set("pendingToolUse", "read_file")), ["«pendingToolUse»", "un objeto o null"]),
    ("pending-without-input", mutated(_delete("pendingToolUse.input")), ["«pendingToolUse.input»", "un objeto"]),
    ("pending-other-id", mutated(_set("pendingToolUse.id", "toolu_99")), ["toolu_99", "no coincide"]),
    ("pending-other-input", mutated(_set("pendingToolUse.input", {"path": "x"})), ["no coincide", "name/input"]),
    ("pending-other-name", mutated(_set("pendingToolUse.name", "grep")), ["no coincide", "name/input"]),
    ("pending-null-but-dangling", mutated(_set("pendingToolUse", None)), ["«pendingToolUse» es null", "toolu_01A"]),
    ("pending-but-answered", mutated(_answered_but_still_pending), ["toolu_01A", "no es del", "assistant"]),
]


def test_the_malformed_files_are_many_and_distinct() -> None:
    assert len(MALFORMED) >= 15
    assert len({content for _, content, _ in MALFORMED}) == len(MALFORMED)


@pytest.mark.parametrize(("content", "words"), [(c, w) for _, c, w in MALFORMED], ids=[i for i, _, _ in MALFORMED])
def test_a_bad_file_gets_a_spanish_error_naming_the_problem_and_stays_byte_identical(
    tmp_path: Path, content: bytes, words: list[str]
) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    path.write_bytes(content)
    before = os.stat(path)

    with pytest.raises(CheckpointError) as info:
        load_checkpoint(path)

    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message
    assert "Traceback" not in message
    assert path.read_bytes() == content
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHECKPOINT_FILENAME]


def test_a_v2_file_gets_the_lessons_exact_message_and_stays(tmp_path: Path) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    content = mutated(_set("version", 2))
    path.write_bytes(content)

    with pytest.raises(CheckpointVersionError) as info:
        load_checkpoint(path)

    assert str(info.value) == LESSON_VERSION_MESSAGE
    assert isinstance(info.value, CheckpointError)
    assert path.read_bytes() == content


def test_a_folder_where_the_checkpoint_should_be_is_an_error(tmp_path: Path) -> None:
    (tmp_path / CHECKPOINT_FILENAME).mkdir()
    with pytest.raises(CheckpointError, match="es una carpeta"):
        load_checkpoint(tmp_path / CHECKPOINT_FILENAME)


def test_no_file_means_no_checkpoint(tmp_path: Path) -> None:
    assert load_checkpoint(tmp_path / "nada.json") is None


def test_new_state_is_the_lessons_fresh_start() -> None:
    state = new_state("una tarea")
    assert state == {
        "version": CHECKPOINT_VERSION,
        "task": "una tarea",
        "turns": 0,
        "tokensUsed": 0,
        "messages": [{"role": "user", "content": "una tarea"}],
        "pendingToolUse": None,
    }
    assert list(state) == ["version", "task", "turns", "tokensUsed", "messages", "pendingToolUse"]
    assert validate_checkpoint(state) is state


def test_save_writes_the_lessons_keys_as_indented_json_and_load_reads_it_back(tmp_path: Path) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    cp = valid_checkpoint()
    save_checkpoint(cp, path)

    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(cp, ensure_ascii=False, indent=2)  # what JSON.stringify(state, null, 2) writes
    assert '"tokensUsed": 310' in text and '"pendingToolUse": {' in text
    assert "reunión" in text  # readable, not \u-escaped
    assert load_checkpoint(path) == cp
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHECKPOINT_FILENAME]


def test_save_replaces_the_previous_checkpoint_whole(tmp_path: Path) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    save_checkpoint(valid_checkpoint(), path)
    inode = os.stat(path).st_ino
    small = new_state("otra")
    save_checkpoint(small, path)
    assert load_checkpoint(path) == small
    assert os.stat(path).st_ino != inode  # a rename of a new file, not a rewrite in place


def test_save_in_the_current_directory_with_the_default_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    save_checkpoint(new_state("x"))
    assert load_checkpoint() == new_state("x")
    assert (tmp_path / CHECKPOINT_FILENAME).is_file()


def test_save_fsyncs_the_file_before_the_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync-dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync-file")
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(checkpoint_module.os, "fsync", fsync)
    monkeypatch.setattr(checkpoint_module.os, "replace", replace)
    save_checkpoint(new_state("x"), path)
    assert events == ["fsync-file", "replace", "fsync-dir"]


def test_a_failed_save_leaves_the_previous_checkpoint_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    save_checkpoint(valid_checkpoint(), path)
    before = path.read_bytes()

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(checkpoint_module.os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_checkpoint(new_state("otra"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHECKPOINT_FILENAME]


def test_an_unserialisable_state_fails_before_touching_the_file(tmp_path: Path) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    save_checkpoint(valid_checkpoint(), path)
    before = path.read_bytes()
    bad = new_state("x")
    bad["messages"].append({"role": "assistant", "content": object()})
    with pytest.raises(TypeError):
        save_checkpoint(bad, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHECKPOINT_FILENAME]


# -- validate_checkpoint and dangling_tool_uses ---------------------------------------------------


def test_validate_returns_the_same_object_and_names_its_source() -> None:
    cp = valid_checkpoint()
    assert validate_checkpoint(cp) is cp
    cp["turns"] = "dos"
    with pytest.raises(CheckpointError, match=r"^lo que devolvió reconcile\(cp\): el campo «turns»"):
        validate_checkpoint(cp, source="lo que devolvió reconcile(cp)")


def test_validate_without_pending_check_leaves_tool_pairing_alone() -> None:
    cp = valid_checkpoint()
    cp["pendingToolUse"] = None  # dangling tool_use with a null pendingToolUse: only the pairing is off
    with pytest.raises(CheckpointError):
        validate_checkpoint(copy.deepcopy(cp))
    assert validate_checkpoint(cp, check_pending=False) is cp
    cp["messages"] = []
    with pytest.raises(CheckpointError, match="vacía"):
        validate_checkpoint(cp, check_pending=False)


def test_validate_accepts_a_finished_conversation_and_one_with_string_content() -> None:
    cp = new_state("hola")
    cp["messages"].append({"role": "assistant", "content": [{"type": "text", "text": "listo"}]})
    cp["turns"] = 1
    assert validate_checkpoint(cp) is cp


def test_dangling_tool_uses_are_the_unanswered_calls_of_the_last_assistant_message() -> None:
    cp = valid_checkpoint()
    assert [b["id"] for b in dangling_tool_uses(cp["messages"])] == ["toolu_01A"]
    assert dangling_tool_uses(cp["messages"][:3]) == []  # the list_dir call was answered
    assert [b["id"] for b in dangling_tool_uses(cp["messages"][:2])] == ["toolu_01L"]
    assert dangling_tool_uses(cp["messages"][:1]) == []  # no assistant message yet
    answered = [
        *cp["messages"],
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "ok"}]},
    ]
    assert dangling_tool_uses(answered) == []


# -- property: save/load round trips -------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
tool_inputs = st.dictionaries(st.text(max_size=10), json_values, max_size=4)
texts = st.text(min_size=1)


@st.composite
def checkpoints(draw: st.DrawFn) -> dict[str, Any]:
    """Conversations the loop can produce: user/assistant turns, every tool_use answered but maybe the last."""
    task = draw(texts)
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    pending = None
    for n in range(draw(st.integers(min_value=0, max_value=5))):
        blocks: list[dict[str, Any]] = [{"type": "text", "text": t} for t in draw(st.lists(texts, max_size=2))]
        if draw(st.booleans()):
            call = {"type": "tool_use", "id": f"toolu_{n}_{draw(st.text('abcXYZ019', max_size=6))}"}
            call.update(
                name=draw(st.sampled_from(["read_file", "send_email", "grep", "x" * 3])), input=draw(tool_inputs)
            )
            blocks.append(call)
        if not blocks:
            blocks.append({"type": "text", "text": draw(texts)})
        messages.append({"role": "assistant", "content": blocks})
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            continue
        if draw(st.booleans()):
            pending = {"id": uses[0]["id"], "name": uses[0]["name"], "input": uses[0]["input"]}
            break
        result: dict[str, Any] = {"type": "tool_result", "tool_use_id": uses[0]["id"], "content": draw(st.text())}
        if draw(st.booleans()):
            result["is_error"] = True
        messages.append({"role": "user", "content": [result]})
    return {
        "version": 1,
        "task": task,
        "turns": draw(st.integers(min_value=0, max_value=10**6)),
        "tokensUsed": draw(st.integers(min_value=0, max_value=10**9)),
        "messages": messages,
        "pendingToolUse": pending,
    }


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@pytest.mark.slow
@given(cp=checkpoints())
def test_property_save_then_load_gives_back_the_same_checkpoint(tmp_path: Path, cp: dict[str, Any]) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    original = copy.deepcopy(cp)
    save_checkpoint(cp, path)
    assert cp == original  # save does not touch the state
    loaded = load_checkpoint(path)
    assert loaded == original
    assert json.loads(path.read_bytes()) == original  # plain JSON, readable by any JSON parser
    save_checkpoint(loaded, path)
    assert load_checkpoint(path) == original
    assert sorted(p.name for p in tmp_path.iterdir()) == [CHECKPOINT_FILENAME]


# Derandomized so the suite is deterministic; the examples pin cuts inside a \uXXXX escape.
@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cp=checkpoints(), cut=st.floats(min_value=0.0, max_value=0.999))
@example(cp={**new_state("\x1f"), "messages": [{"role": "user", "content": "\x1f"}]}, cut=0.1875)
@example(cp=new_state("\x1f"), cut=0.18)
def test_property_a_checkpoint_cut_anywhere_is_refused_never_half_loaded(
    tmp_path: Path, cp: dict[str, Any], cut: float
) -> None:
    data = dumped(cp)
    path = tmp_path / CHECKPOINT_FILENAME
    prefix = data[: int(len(data) * cut)]
    path.write_bytes(prefix)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(path)
    assert ("el archivo está vacío" if not prefix.strip() else "el JSON está truncado") in str(info.value)


# -- crash consistency: SIGKILL at random instants while saving ------------------------------------

# A forker so each victim costs a fork, not an interpreter start: it loads checkpoint.py by
# path (not through the lesson3 package, which imports the SDK) and forks a worker on request.
# The worker continues from the checkpoint on disk and saves growing states in a tight loop;
# every state it saves is internally consistent (turns and tokensUsed derived from messages).
# The forker answers with the worker's pid only once the worker finished its first save, so
# every kill lands while the worker is saving again, however loaded the machine is.
FORKER = textwrap.dedent(
    """
    import importlib.util, os, sys

    spec = importlib.util.spec_from_file_location("checkpoint", sys.argv[1])
    cp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cp)
    path = sys.argv[2]
    first_save_r, first_save_w = os.pipe()

    def worker():
        state = cp.load_checkpoint(path)
        announced = False
        while True:
            if len(state["messages"]) >= 120:
                saves = state["saves"]
                state = cp.new_state("reinicio")
                state["saves"] = saves
            i = len(state["messages"])
            text = f"mensaje {i} " + "ñandú-" * ((37 * i) % 400)
            state["messages"].append({"role": "assistant" if i % 2 else "user", "content": text})
            state["turns"] = len(state["messages"]) - 1
            state["tokensUsed"] = sum(len(m["content"]) for m in state["messages"])
            state["saves"] += 1
            cp.save_checkpoint(state, path)
            if not announced:
                os.write(first_save_w, b"s")
                announced = True

    for line in sys.stdin:
        command, *rest = line.split()
        if command == "fork":
            pid = os.fork()
            if pid == 0:
                try:
                    worker()
                finally:
                    os._exit(70)
            os.read(first_save_r, 1)
            print(pid, flush=True)
        elif command == "reap":
            print(os.waitpid(int(rest[0]), 0)[1], flush=True)
    """
)

KILLS = 300


@pytest.mark.slow
def test_sigkill_at_random_instants_while_saving_never_leaves_a_broken_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / CHECKPOINT_FILENAME
    first = new_state("inicio")
    first["saves"] = 0
    first["tokensUsed"] = len("inicio")
    save_checkpoint(first, path)
    script = tmp_path / "forker.py"
    script.write_text(FORKER, encoding="utf-8")
    forker = subprocess.Popen(
        [sys.executable, "-I", "-S", str(script), checkpoint_module.__file__, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert forker.stdin is not None and forker.stdout is not None
    rng = random.Random(20260825)
    cut_mid_save = 0
    try:
        for _ in range(KILLS):
            forker.stdin.write("fork\n")
            forker.stdin.flush()
            pid = int(forker.stdout.readline())
            # Not a synchronisation sleep: it picks the random instant of the kill.
            time.sleep(rng.uniform(0, 0.004))
            os.kill(pid, signal.SIGKILL)
            forker.stdin.write(f"reap {pid}\n")
            forker.stdin.flush()
            status = int(forker.stdout.readline())
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                f"the worker died by itself: {status}"
            )

            state = load_checkpoint(path)
            assert state is not None
            assert state["turns"] == len(state["messages"]) - 1
            assert state["tokensUsed"] == sum(len(m["content"]) for m in state["messages"])
            leftovers = {p.name for p in tmp_path.iterdir()} - {CHECKPOINT_FILENAME, "forker.py"}
            assert len(leftovers) <= 1, leftovers  # at most the one write that was in flight
            # Each worker's first save renamed any older .tmp away: one here is this kill's.
            cut_mid_save += bool(leftovers)
    finally:
        forker.stdin.close()
        forker.wait(timeout=10)
    final = load_checkpoint(path)
    assert final is not None
    assert final["saves"] >= KILLS  # each worker saved at least once before its kill
    assert cut_mid_save >= 10, cut_mid_save  # many kills landed between writing the .tmp and the rename


# -- one atomic write, durable or not ----------------------------------------------------------------


@pytest.mark.parametrize(("durable", "fsyncs"), [(True, 2), (False, 0)])
def test_durable_decides_the_fsyncs_not_the_atomicity(tmp_path: Path, monkeypatch, durable, fsyncs) -> None:
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    path = tmp_path / CHECKPOINT_FILENAME
    save_checkpoint(new_state("tarea"), path, durable=durable)
    assert len(calls) == fsyncs  # the file and its directory
    assert load_checkpoint(path)["task"] == "tarea" and sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_failed_atomic_write_keeps_the_old_file_and_no_temp(tmp_path: Path, monkeypatch) -> None:
    from lesson3.checkpoint import write_atomic

    path = tmp_path / "informe.html"
    write_atomic(path, b"viejo", durable=False)
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)  # a private temp name, renamed as is

    def refuse(src: Any, dst: Any) -> None:
        raise OSError("disco lleno")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disco lleno"):
        write_atomic(path, b"nuevo")
    assert path.read_bytes() == b"viejo" and [p.name for p in tmp_path.iterdir()] == ["informe.html"]
