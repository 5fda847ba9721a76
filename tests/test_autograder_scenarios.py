"""The random scenarios: reproducible per seed, valid checkpoints, unseen tool names, no tells."""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections import Counter

import pytest

from autograder.course.catalogue import text
from autograder.judging import scenarios
from autograder.judging.tool_layer import ToolLayer, changes, snapshot
from autograder.wire.calls import make_stand_in, stand_in_message
from lesson3.checkpoint import validate_checkpoint
from lesson3.model import _recipient, _subject
from lesson3.tools import outbox_count


def test_the_read_only_tools_drawn_are_the_lessons():
    from lesson3.reconciliation import READ_ONLY_TOOLS
    from lesson3.tools import TOOL_NAMES

    # Every read-only tool of the lesson is one the agent has (else the draws would silently skip it).
    assert set(scenarios.READ_ONLY) == READ_ONLY_TOOLS and READ_ONLY_TOOLS < set(TOOL_NAMES)


def test_hidden_cases_cover_every_kind_with_names_the_exercise_never_shows():
    cases = scenarios.hidden_action_cases(scenarios.rng_for(1, "nivel1.hidden"))
    by_kind = {}
    for case in cases:
        validate_checkpoint(case.checkpoint)
        by_kind.setdefault(case.kind, []).append(case)
        assert case.expected == scenarios.EXPECTED_FOR_KIND[case.kind]
    assert {c.label for c in by_kind["read_only"]} == set(scenarios.READ_ONLY)
    high = {c.label for c in by_kind["high_impact"]}
    assert {"send_email", *scenarios.UNSEEN_HIGH_IMPACT} <= high
    unknown = high - {"send_email", *scenarios.UNSEEN_HIGH_IMPACT}
    assert len(unknown) == 2 and not unknown & set(scenarios.READ_ONLY)
    assert len(by_kind["none"]) == 2
    ids = [c.checkpoint["pendingToolUse"]["id"] for c in cases if c.checkpoint["pendingToolUse"]]
    assert len(set(ids)) == len(ids) and not {"toolu_01A", "toolu_01B"} & set(ids)


def test_the_same_seed_gives_the_same_scenarios_and_another_seed_does_not(tmp_path):
    def fingerprint(seed, where):
        rng = scenarios.rng_for(seed, "nivel2.read_only_rerun")
        return [(c.checkpoint, c.expected_output) for c in scenarios.read_only_cases(rng, tmp_path / where)]

    assert fingerprint(5, "a") == fingerprint(5, "b")
    assert fingerprint(5, "c") != fingerprint(6, "d")


def test_read_only_cases_carry_the_real_output_of_their_random_inputs(tmp_path):
    for case in scenarios.read_only_cases(scenarios.rng_for(9, "x"), tmp_path):
        layer = ToolLayer(case.workspace)
        reply = layer(case.pending["name"], case.pending["input"])
        assert reply == {"content": case.expected_output, "is_error": False}
        assert case.expected_output and not case.expected_output.startswith("Error")


def test_the_incident_task_carries_a_recipient_and_subject_the_model_parses(tmp_path):
    for seed in range(20):
        case = scenarios.incident_case(scenarios.rng_for(seed, "nivel2.no_double_email"), tmp_path / str(seed))
        assert _recipient(case.task) == case.recipient
        assert _subject(case.task) == case.subject
        assert case.subject.isascii()  # a MIME-encoded subject would hide from the model's grep


def test_the_tool_layer_logs_everything_and_stand_ins_leave_a_trace(tmp_path):
    workspace = scenarios.create_workspace(tmp_path / "ws", notes={"a.md": "hola\n"})
    layer = ToolLayer(workspace)
    before = snapshot(workspace)
    assert layer("read_file", {"path": "notes/a.md"}) == {"content": "hola\n", "is_error": False}
    assert snapshot(workspace) == before
    layer("send_email", {"to": "x@example.com", "subject": "s"})
    layer("charge_card", {"amount_cents": 5})
    layer("read_file", "no es un objeto")
    assert [c.name for c in layer.log] == ["read_file", "send_email", "charge_card", "read_file"]
    assert layer.log[-1].is_error
    assert outbox_count(workspace) == 1
    changed = changes(before, snapshot(workspace))
    assert "efectos/charge_card.jsonl" in changed and any(p.startswith("outbox/new/") for p in changed)


def test_the_tool_layer_tells_its_own_changes_from_any_other_route(tmp_path):
    workspace = scenarios.create_workspace(tmp_path / "ws", notes={"a.md": "hola\n", "b.md": "chau\n"})
    layer = ToolLayer(workspace)
    layer("send_email", {"to": "x@example.com", "subject": "s"})
    layer("charge_card", {"amount_cents": 5})
    layer("read_file", {"path": "notes/a.md"})
    assert outbox_count(workspace) == 1 and layer.changed_elsewhere() == []
    # Another route, also inside the folders the layer's own calls wrote to, and in files they wrote.
    (workspace / "outbox" / "new" / "a-mano").write_text("From: yo\n", encoding="utf-8")
    with (workspace / "efectos" / "charge_card.jsonl").open("a", encoding="utf-8") as trace:
        trace.write("{}\n")
    (workspace / "notes" / "b.md").unlink()
    assert layer.changed_elsewhere() == ["efectos/charge_card.jsonl", "notes/b.md", "outbox/new/a-mano"]
    # What was there before the layer was made is not its doing, nor anyone's since.
    assert ToolLayer(workspace).changed_elsewhere() == []


def test_the_tool_layer_sees_a_change_another_route_hid_behind_one_of_its_calls(tmp_path):
    workspace = scenarios.create_workspace(tmp_path / "ws", notes={"a.md": "hola\n", "b.md": "chau\n"})
    layer = ToolLayer(workspace)
    layer("send_email", {"to": "x@example.com", "subject": "s"})
    (email,) = (workspace / "outbox" / "new").iterdir()
    email.unlink()  # a delivered email removed by hand: one fewer to count
    layer("charge_card", {"amount_cents": 5})
    with (workspace / "efectos" / "charge_card.jsonl").open("a", encoding="utf-8") as trace:
        trace.write("{}\n")  # a forged line, then the same stand-in called again
    layer("charge_card", {"amount_cents": 6})
    (workspace / "notes" / "a.md").write_text("otra cosa\n", encoding="utf-8")
    layer("read_file", {"path": "notes/b.md"})
    (workspace / "notes" / "a.md").write_text("hola\n", encoding="utf-8")  # put back as it was
    assert layer.changed_elsewhere() == ["efectos/charge_card.jsonl", "notes/a.md", f"outbox/new/{email.name}"]


@pytest.mark.parametrize(
    ("name", "logged"), [(["\u200b" * 1000], "<list>"), ("", ""), ("x" * 100_000, "x" * 64), (None, "<NoneType>")]
)
def test_a_tool_name_that_is_not_a_short_text_is_refused_without_an_echo(tmp_path, monkeypatch, name, logged):
    from autograder.judging import tool_layer

    workspace = scenarios.create_workspace(tmp_path / "ws", notes={"a.md": "hola\n"})
    layer = ToolLayer(workspace)
    monkeypatch.setattr(tool_layer, "run_tool", lambda *a: pytest.fail("a refused call ran a tool"))
    reply = layer(name, {})
    assert reply == {"content": text("tool.bad_name", limit=tool_layer.MAX_NAME_CHARS), "is_error": True}
    assert layer.log[-1].name == logged and not (workspace / tool_layer.TRACE_DIR).exists()


def test_a_refused_tool_call_is_logged_and_runs_nothing(tmp_path, monkeypatch):
    from autograder.judging import tool_layer

    workspace = scenarios.create_workspace(tmp_path / "ws", notes={"a.md": "hola\n"})
    layer = ToolLayer(workspace)
    monkeypatch.setattr(tool_layer, "run_tool", lambda *a: pytest.fail("a refused call ran a tool"))
    reply = layer("send_email", "no es un objeto")
    assert reply["is_error"] and layer.log[-1].is_error and layer.changed_elsewhere() == []


@pytest.mark.parametrize("seed", [1, 2, 3, 20250825])
def test_spanish_words_keep_their_accents_where_text_is_read_and_fold_where_a_name_is_needed(seed):
    """Notes and feedback read «migración», not «migracion»; addresses, subjects and file names stay ASCII."""
    rng = scenarios.rng_for(seed, "accents")
    text = " ".join(scenarios.words(rng, 400) for _ in range(3))
    assert {"migración", "revisión", "métricas", "auditoría"} <= set(text.split())
    assert not {"migracion", "revision", "metricas", "auditoria"} & set(text.split())
    for _ in range(200):
        assert scenarios.address(rng).isascii() and scenarios.subject(rng).isascii()
    notes = scenarios.random_notes(rng, 30)
    assert all(name.isascii() for name in notes)
    assert any("ó" in body or "é" in body or "í" in body for body in notes.values())
    assert scenarios.ascii_fold("Revisión de métricas") == "Revision de metricas"


# -- Nivel 0: what the learner's process can see tells nothing about the case ------------------------


SEEDS = range(60)
# Words the kinds, labels or the old folder names are made of: none may show in a path.
CASE_TOKENS = (
    "version", "newer", "nuevo", "missing", "roto", "malformed", "broken", "guardado", "saved", "colgante",
    "dangling", "vidas", "lives", "truncad", "vacio", "empty", "pending", "marca",
)  # fmt: skip


def level0_files(seed, box):
    box.mkdir(parents=True, exist_ok=True)
    folders = scenarios.resume_folders(scenarios.rng_for(seed, "nivel0.folders"))
    return folders, scenarios.resume_files(scenarios.rng_for(seed, "nivel0.files"), box, folders)


def shape(name: str) -> str:
    """A name with its words and numbers blanked: checkpoint.json, estado.json and x-12.json stay apart."""
    return re.sub(r"\d+", "9", re.sub(r"(?<![a-z])[a-z]{3,}(?=-)", "w", name))


def test_no_path_names_its_case_and_every_case_draws_paths_alike(tmp_path):
    shapes: dict[str, Counter] = {kind: Counter() for kind in scenarios.RESUME_KINDS}
    positions: dict[int, set[str]] = {}
    for seed in SEEDS:
        folders, files = level0_files(seed, tmp_path / str(seed))
        rng = scenarios.rng_for(seed, "nivel0.max_turns_across_lives")
        lives = scenarios.lives_case(rng, tmp_path / str(seed), tmp_path / f"w{seed}", folders)
        assert {f.kind for f in files} == set(scenarios.RESUME_KINDS)  # every kind, every seed
        for i, (relpath, kind) in enumerate([(f.relpath, f.kind) for f in files] + [(lives.relpath, "lives")]):
            assert not [t for t in CASE_TOKENS if t in relpath.lower()], (seed, kind, relpath)
            folder, name = relpath.split("/")  # the same depth for every case
            assert folder in folders and name.endswith(".json")
            if kind != "lives":
                shapes[kind][shape(name)] += 1
                positions.setdefault(i, set()).add(kind)
    # One name pattern for every case: the same shapes, in shares that differ by chance only.
    assert len({frozenset(c) for c in shapes.values()}) == 1, shapes
    for kind, counter in shapes.items():
        total = sum(counter.values())
        for name_shape, n in counter.items():
            share = sum(c[name_shape] for c in shapes.values()) / sum(sum(c.values()) for c in shapes.values())
            assert abs(n / total - share) < 0.25, (kind, name_shape, n, total, share)
    # No place in the order belongs to one kind.
    assert all(len(kinds) >= 3 for kinds in positions.values()), positions


def test_every_file_is_in_place_before_the_first_call_and_broken_ones_are_not_small(tmp_path):
    for seed in range(20):
        box = tmp_path / str(seed)
        folders, files = level0_files(seed, box)
        listing = sorted(str(p.relative_to(box)) for p in box.rglob("*"))
        assert listing == sorted([*folders, *(f.relpath for f in files if f.content is not None)])
        for f in files:
            assert (box / f.relpath).is_file() == (f.content is not None)
            assert (box / f.relpath).parent.is_dir()  # a missing file's folder is there too
        whole = [len(f.content) for f in files if f.kind in ("newer", "saved", "dangling")]
        broken = [len(f.content) for f in files if f.kind == "malformed" and f.content]
        assert min(broken) >= min(whole) // 5, (broken, whole)


def lesson_refuses(version) -> bool:
    """``raw.version !== CHECKPOINT_VERSION`` as JavaScript evaluates it on a parsed JSON value."""
    is_number = isinstance(version, int | float) and not isinstance(version, bool)
    return not (is_number and version == 1)


def test_every_seed_draws_versions_on_both_sides_of_1_a_fraction_and_a_text():
    for seed in SEEDS:
        versions = scenarios.other_versions(scenarios.rng_for(seed, "nivel0.files"))
        assert all(lesson_refuses(v) for v in versions), versions
        numbers = [v for v in versions if not isinstance(v, str)]
        assert any(isinstance(v, int) and v > 1 for v in numbers)
        assert 0 in numbers and any(v < 0 for v in numbers)
        assert any(isinstance(v, float) and 1 < v < 1.5 for v in numbers)  # int() and round() make it 1
        assert "1" in versions
        # Python's `!=` (the notebooks' spelling) and the lesson agree on every one of them.
        assert all((v != 1) == lesson_refuses(v) for v in versions)
    assert not lesson_refuses(1.0) and lesson_refuses(True) and (True != 1) is False  # why neither is drawn


REWRITES = [
    {"indent": indent, "ensure_ascii": ascii_, "sort_keys": sort, "separators": sep}
    for indent, ascii_, sort, sep in itertools.product(
        (None, 1, 2, 3, 4, "\t"), (True, False), (False, True), (None, (",", ":"), (", ", ": "), (",", ": "))
    )
]


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_no_ordinary_rewrite_gives_back_a_files_bytes(tmp_path, seed):
    _, files = level0_files(seed, tmp_path)
    parsed = 0
    for f in files:
        try:
            value = json.loads(f.content) if f.content else None
        except ValueError:
            continue
        if value is None:
            continue
        parsed += 1
        assert f.kind != "saved" or value == f.checkpoint
        for options in REWRITES:
            text = json.dumps(value, **options)
            for ending in ("", "\n", "\r\n"):
                for newline in ("\n", "\r\n"):
                    assert (text.replace("\n", newline) + ending).encode("utf-8") != f.content, (options, ending)
    assert parsed >= 10  # versions, saved, dangling and the JSON that is not an object


def test_encode_json_round_trips_and_lesson3_loads_it(tmp_path):
    from lesson3.checkpoint import load_checkpoint

    for seed in range(40):
        rng = scenarios.rng_for(seed, "x")
        notes = scenarios.random_notes(rng, 2)
        pending = scenarios.pending_call(rng, "grep", scenarios.read_only_input(rng, "grep", notes))
        cp = scenarios.checkpoint(rng, task='Revisá «ñandú» \\ "x"\n\t/ é', pending=pending)
        data = scenarios.encode_json(cp, rng)
        assert json.loads(data) == cp
        (tmp_path / "c.json").write_bytes(data)
        assert load_checkpoint(tmp_path / "c.json") == cp
        assert "ñandú".encode() in data  # text as it is, UTF-8


def test_the_stand_in_reconcile_returns_a_new_state_and_leaves_its_argument_alone():
    rng = scenarios.rng_for(1, "x")
    pending = scenarios.pending_call(rng, "send_email", scenarios.high_impact_input(rng, "send_email"))
    cp = scenarios.checkpoint(rng, task=scenarios.task_text(rng), pending=pending)
    before = copy.deepcopy(cp)
    messages = cp["messages"]
    got = make_stand_in("marca-x")(cp)
    assert cp == before and cp["messages"] is messages and len(messages) == len(before["messages"])
    assert got is not cp and got["messages"] is not messages
    assert got["pendingToolUse"] is None and got["messages"][-1] == stand_in_message(pending["id"], "marca-x")
    assert got["messages"][:-1] == before["messages"] and got["turns"] == before["turns"]
    # What is not a checkpoint comes back as it was: the learner's start_state then fails the criterion.
    assert make_stand_in("m")([1, 2]) == [1, 2]
