"""The API's 400 wording is English (the real API's, which the offline API reproduces): wherever a learner meets it,
it comes quoted as the API's words, after what it means in Spanish — never the English alone inside Spanish text."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import anthropic
import pytest

from lesson3.conversation import describe_run_error
from lesson3.exercises import exercise_checkpoint
from lesson3.model import API_WORDINGS, DEFAULT_MODEL, api_error_for, api_error_meaning, api_error_said, offline_client

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
FIELDS = {"message": 7, "ids": "toolu_01X", "expected": 1, "block": 0, "where": "messages.2.content.0", "got": "foo",
          "tags": "'text'"}  # fmt: skip


def english_patterns() -> list[re.Pattern[str]]:
    """Each wording's fixed English (the longest piece between placeholders), to find it anywhere in an output."""
    return [re.compile(re.escape(max(re.split(r"\{\w+\}", english), key=len))) for english, _ in API_WORDINGS.values()]


def request(messages: list) -> dict:
    return {"model": DEFAULT_MODEL, "max_tokens": 64, "messages": messages}


def broken_conversations() -> dict[str, list]:
    """Conversations the offline API refuses, one per way a learner's reconcile can break the pairing or the shape."""
    dangling = exercise_checkpoint("cpC")["messages"]
    pending = next(b for b in dangling[-1]["content"] if b["type"] == "tool_use")

    def answered(*blocks: dict) -> list:
        return [*copy.deepcopy(dangling), {"role": "user", "content": list(blocks)}]

    result = {"type": "tool_result", "tool_use_id": pending["id"], "content": "hecho"}
    return {
        "dangling": copy.deepcopy(dangling),
        "made-up id": answered({**result, "tool_use_id": "toolu_inventado"}),
        "twice": answered(result, dict(result)),
        "text first": answered({"type": "text", "text": "hola"}, result),
        "unknown field": answered({**result, "status": "unknown"}),
        "no type": answered({"tool_use_id": pending["id"], "content": "hecho"}),
        "empty message": answered(),
        "assistant first": [{"role": "assistant", "content": "hola"}],
        "blank text": [{"role": "user", "content": [{"type": "text", "text": "  "}]}],
    }


@pytest.mark.parametrize("key", sorted(API_WORDINGS))
def test_every_wording_reads_back_as_its_spanish_meaning(key):
    english, _ = API_WORDINGS[key]
    message = english.format(**FIELDS)
    meaning = api_error_meaning(message)
    assert meaning and not any(p.search(meaning) for p in english_patterns()), meaning
    assert api_error_said(message) == f"{meaning} (la API, en inglés: «{message}»)"


@pytest.mark.parametrize(("name", "messages"), sorted(broken_conversations().items()))
def test_what_the_offline_api_refuses_has_a_meaning_in_spanish(name, messages):
    error = api_error_for(request(messages))
    assert error is not None, name
    assert api_error_meaning(error) is not None, error


@pytest.mark.parametrize(("name", "messages"), sorted(broken_conversations().items()))
def test_a_run_that_meets_the_400_says_it_in_spanish_with_the_apis_words_quoted(name, messages):
    with pytest.raises(anthropic.BadRequestError) as raised:
        offline_client().messages.create(**request(messages))
    line = describe_run_error(raised.value)
    english = raised.value.body["error"]["message"]
    assert line.startswith("HTTP 400 BadRequestError: ") and api_error_meaning(english) in line
    assert line.count(english) == 1 and f"«{english}»" in line


def test_the_dangling_call_is_named_as_such():
    error = api_error_for(request(broken_conversations()["dangling"]))
    assert "llamada colgante" in api_error_meaning(error)


def notebook_output_texts() -> list[tuple[str, str]]:
    found = []
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                text = "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))
                found += [(path.name, line) for line in text.splitlines()]
    return found


def test_every_api_wording_in_the_committed_notebooks_outputs_is_quoted_with_its_meaning():
    """Notebook 2's demo printed the 400's English bare, and every «Error al reanudar» line carried it unquoted."""
    seen = 0
    for name, line in notebook_output_texts():
        for pattern in english_patterns():
            for hit in pattern.finditer(line):
                seen += 1
                assert "«" in line[: hit.start()] and "»" in line[hit.end() :], f"{name}: {line}"
    assert seen, "the notebooks show the API's 400 (notebook 2's dangling call): this test would test nothing"
    assert any(line.startswith("Quiere decir: ") and "llamada colgante" in line for _, line in notebook_output_texts())


@pytest.mark.parametrize("key", sorted(API_WORDINGS))
def test_each_wording_reads_back_as_its_own_meaning(key):
    # Two entries with the same English would leave the second's Spanish unreachable (the first pattern wins).
    english, spanish = API_WORDINGS[key]
    assert api_error_meaning(english.format(**FIELDS)) == spanish.format(**FIELDS)
