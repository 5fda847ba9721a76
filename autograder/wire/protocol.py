"""Framed JSON between the grader's processes: 4-byte big-endian length, then UTF-8 JSON.

Every message between the grader, the judge and the learner's child goes through
here, so nothing is ever parsed out of what learner code prints.
"""

from __future__ import annotations

import json
import os
import socket
import struct
from typing import Any

MAX_FRAME = 16 * 1024 * 1024
"""A bigger frame is a protocol violation (a learner trying to flood the judge)."""

_HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed frame."""


def encode(message: Any) -> bytes:
    data = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_FRAME:
        raise ProtocolError(f"frame too large ({len(data)} bytes)")
    return _HEADER.pack(len(data)) + data


class FrameReader:
    """Incremental decoder for bytes that arrive in arbitrary chunks (non-blocking reads)."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._buffer = bytearray()
        self._max = max_frame

    def feed(self, chunk: bytes) -> list[Any]:
        self._buffer += chunk
        messages = []
        while len(self._buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            if size > self._max:
                raise ProtocolError(f"frame too large ({size} bytes)")
            if len(self._buffer) < _HEADER.size + size:
                break
            body = bytes(self._buffer[_HEADER.size : _HEADER.size + size])
            del self._buffer[: _HEADER.size + size]
            messages.append(_decode(body))
        return messages


def write_all(fd: int, data: bytes) -> None:
    """Blocking write of all of ``data`` (one os.write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_frame(fd: int, message: Any) -> None:
    """Blocking write of one frame to a file descriptor (the learner's side)."""
    write_all(fd, encode(message))


def read_frame(fd: int) -> Any:
    """Blocking read of one frame from a file descriptor; EOFError when the other side closed."""
    return _read_message(lambda n: os.read(fd, n))


def send_message(sock: socket.socket, message: Any) -> None:
    sock.sendall(encode(message))


def recv_message(sock: socket.socket) -> Any:
    """One frame from a socket (honours the socket's timeout); EOFError when it closed."""
    return _read_message(sock.recv)


def _read_message(read: Any) -> Any:
    (size,) = _HEADER.unpack(_read_exact(read, _HEADER.size))
    if size > MAX_FRAME:
        raise ProtocolError(f"frame too large ({size} bytes)")
    return _decode(_read_exact(read, size))


def _read_exact(read: Any, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        if not (chunk := read(min(size - len(chunks), 1 << 20))):
            raise EOFError("the other side closed the channel")
        chunks += chunk
    return bytes(chunks)


def _decode(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ProtocolError(f"invalid frame: {e}") from None
