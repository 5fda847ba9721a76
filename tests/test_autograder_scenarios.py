"""The random scenarios: reproducible per seed, valid checkpoints, unseen tool names."""

from __future__ import annotations

import pytest

from autograder.judging import scenarios
from autograder.judging.tool_layer import ToolLayer, changes, snapshot
from lesson3.checkpoint import validate_checkpoint
from lesson3.model import _recipient, _subject
from lesson3.tools import outbox_count


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
