"""Framed JSON between the grader's processes."""

from __future__ import annotations

import os
import struct

import pytest

from autograder import protocol


def test_frames_survive_arbitrary_chunking():
    data = protocol.encode({"op": "result", "value": "ñandú"}) + protocol.encode([1, 2])
    reader = protocol.FrameReader()
    got = []
    for i in range(len(data)):
        got += reader.feed(data[i : i + 1])
    assert got == [{"op": "result", "value": "ñandú"}, [1, 2]]


def test_an_oversized_header_is_refused_before_reading_the_body():
    with pytest.raises(protocol.ProtocolError, match="too large"):
        protocol.FrameReader(max_frame=100).feed(struct.pack(">I", 101))


def test_garbage_json_is_a_protocol_error():
    with pytest.raises(protocol.ProtocolError):
        protocol.FrameReader().feed(struct.pack(">I", 3) + b"{x}")


def test_values_json_cannot_carry_are_refused_on_encode():
    with pytest.raises(ValueError):
        protocol.encode(float("nan"))


def test_blocking_pipe_round_trip_and_eof():
    r, w = os.pipe()
    protocol.write_frame(w, {"a": 1})
    os.close(w)
    assert protocol.read_frame(r) == {"a": 1}
    with pytest.raises(EOFError):
        protocol.read_frame(r)
    os.close(r)
