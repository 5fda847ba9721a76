"""Framed JSON between the grader's processes."""

from __future__ import annotations

import os
import socket
import struct

import pytest

from autograder.wire import protocol


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


def _pipe_reader(data: bytes):
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return lambda: protocol.read_frame(r)


def _socket_reader(data: bytes):
    ours, theirs = socket.socketpair()
    theirs.sendall(data)
    theirs.close()
    return lambda: protocol.recv_message(ours)


@pytest.mark.parametrize("reader", [_pipe_reader, _socket_reader], ids=["pipe", "socket"])
@pytest.mark.parametrize(
    "data, error",
    [
        (struct.pack(">I", protocol.MAX_FRAME + 1), protocol.ProtocolError),  # refused before reading the body
        (struct.pack(">I", 0xFFFFFFFF) + b"{}", protocol.ProtocolError),
        (struct.pack(">I", 3) + b"{x}", protocol.ProtocolError),
        (struct.pack(">I", 2) + b"\xff\xfe", protocol.ProtocolError),  # not UTF-8
        (struct.pack(">I", 10) + b"{}", EOFError),  # the body ends early
        (b"\x00\x00", EOFError),  # so does the header
    ],
    ids=["too-large", "huge", "garbage-json", "not-utf8", "short-body", "short-header"],
)
def test_the_blocking_readers_refuse_what_is_not_a_frame(reader, data, error):
    with pytest.raises(error):
        reader(data)()


def test_a_message_too_large_to_frame_is_refused_on_encode():
    with pytest.raises(protocol.ProtocolError, match="too large"):
        protocol.encode("x" * (protocol.MAX_FRAME + 1))
