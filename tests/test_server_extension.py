"""A Jupyter server starts check()'s grader itself (autograder.server_extension), and its kernels use that one."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from autograder.grading.resident import SOCKET_NAME, resident_folder
from autograder.wire.forking import parent_of
from tests.resident_processes import residents, wait_for

pytestmark = [
    pytest.mark.slow,  # a Jupyter server, a resident and a kernel: seconds
    pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the resident watches its owner with a pidfd"),
]

EXTENSION = "autograder.server_extension"


def test_the_installed_config_enables_the_extension() -> None:
    """The package installs it where every Jupyter server of the environment reads its config (pyproject.toml)."""
    installed = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "autograder.json"
    assert json.loads(installed.read_text())["ServerApp"]["jpserver_extensions"] == {EXTENSION: True}


def test_a_jupyter_server_starts_the_grader_its_kernels_use_and_takes_it_away_when_it_stops(tmp_path: Path) -> None:
    token = secrets.token_hex(16)
    runtime = tmp_path / "runtime"
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(runtime),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={tmp_path}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        info = wait_for(lambda: next(iter(runtime.glob(f"jpserver-{server.pid}.json")), None))
        assert info, log_path.read_text(errors="replace")[-3000:]
        base = f"http://127.0.0.1:{json.loads(info.read_text())['port']}/"
        # Where the server's resident lives (this test runs the server's interpreter and package): once its socket is
        # there it serves, and it is no child of the server's (the first process only forks it and leaves).
        folder = resident_folder(server.pid)
        assert wait_for(lambda: (folder / SOCKET_NAME).exists()), log_path.read_text(errors="replace")[-3000:]
        resident = [pid for pid in residents(owner=server.pid) if parent_of(pid) != server.pid]
        assert len(resident) == 1, f"no grader started with the server:\n{log_path.read_text(errors='replace')[-3000:]}"

        kernel = _api(base, token, "api/kernels", {"name": "python3"})
        said = asyncio.run(
            _execute(
                base,
                token,
                kernel["id"],
                "from autograder.grading.resident import notebook_server\n"
                "notebook_server().start()\n"
                "print(notebook_server().pid())",
            )
        )
        assert said.strip() == str(resident[0]), "the kernel did not find its server's grader"
        assert residents(owner=server.pid) == resident, "the kernel started a grader of its own"
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert wait_for(lambda: not residents(owner=server.pid), 30), "the grader outlived its Jupyter server"


def _api(base: str, token: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


async def _execute(base: str, token: str, kernel_id: str, code: str) -> str:
    """Run ``code`` in the kernel over the server's websocket (as JupyterLab does); what it printed."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    url = base.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
    connection = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"}))
    msg_id = uuid.uuid4().hex
    header = {"msg_id": msg_id, "username": "test", "session": uuid.uuid4().hex, "msg_type": "execute_request"}
    content = {"code": code, "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False}
    message = {"header": {**header, "version": "5.3"}, "parent_header": {}, "metadata": {}, "content": content}
    await connection.write_message(json.dumps({**message, "channel": "shell", "buffers": []}))
    out = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        raw = await asyncio.wait_for(connection.read_message(), timeout=120)
        if raw is None:
            break
        reply = json.loads(raw)
        if reply.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if reply["msg_type"] == "stream":
            out.append(reply["content"]["text"])
        elif reply["msg_type"] == "error":
            pytest.fail("\n".join(reply["content"]["traceback"]))
        elif reply["msg_type"] == "execute_reply":
            break
    connection.close()
    return "".join(out)
