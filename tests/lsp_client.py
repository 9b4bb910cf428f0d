"""A small Language Server Protocol client, to drive the real yaml-language-server as an editor does.

It speaks JSON-RPC over the server's stdin and stdout (``Content-Length`` framing), answers
the requests the server makes of an editor (its settings, capability registrations), and
keeps the diagnostics the server publishes. Every wait is bounded, so a server that hangs
fails the test instead of stopping the suite.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

WAIT_SECONDS = 60.0
"""Longest wait for one answer or one publication (a loaded machine can be slow to start Node)."""


class LspError(Exception):
    """The server answered with an error, stopped, or did not answer in time."""


class LspClient:
    """One running server process; use as a context manager so the process always ends."""

    def __init__(self, command: Sequence[str], root: Path, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self.published: queue.Queue[dict[str, Any]] = queue.Queue()
        self.lock = threading.Lock()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {
                    "workspace": {"configuration": True},
                    "textDocument": {
                        "publishDiagnostics": {},
                        "completion": {"completionItem": {"snippetSupport": False}},
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                    },
                },
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": settings})

    def __enter__(self) -> LspClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.request("shutdown", None)
                self.notify("exit", None)
                self.process.wait(timeout=10)
            except (LspError, OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()

    # ----------------------------------------------------------------------------- the wire

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        with self.lock:
            stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            stdin.flush()

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:
                self._answer_server(message)
            elif "id" in message:
                self.answers.setdefault(message["id"], queue.Queue()).put(message)
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.published.put(message["params"])

    def _answer_server(self, message: dict[str, Any]) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [self.settings.get(item.get("section", ""), {}) for item in message["params"]["items"]]
        self._send({"id": message["id"], "result": result})

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        number = self.next_id
        answers = self.answers.setdefault(number, queue.Queue())
        self._send({"id": number, "method": method, "params": params})
        try:
            answer = answers.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            raise LspError(f"no answer to {method} in {WAIT_SECONDS:.0f} s") from None
        if "error" in answer:
            raise LspError(f"{method}: {answer['error']}")
        return answer.get("result")

    # ----------------------------------------------------------------------------- an editor's view

    def open(self, uri: str, text: str) -> list[dict[str, Any]]:
        """Open ``text`` as ``uri``; once the server has checked it (against its schema, now loaded),
        return the diagnostics it published. Completion and hover are asked for after this."""
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        while True:
            try:
                published = self.published.get(timeout=WAIT_SECONDS)
            except queue.Empty:
                raise LspError(f"no diagnostics for {uri} in {WAIT_SECONDS:.0f} s") from None
            if published["uri"] == uri:
                return list(published["diagnostics"])

    def diagnostics(self, uri: str, text: str) -> list[dict[str, Any]]:
        """What the server flags in ``text`` opened as ``uri`` (closed again afterwards)."""
        published = self.open(uri, text)
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        return published

    def completion_labels(self, uri: str, line: int, character: int) -> list[str]:
        result = self.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        items = result.get("items", []) if isinstance(result, dict) else (result or [])
        return [item["label"] for item in items]

    def hover_text(self, uri: str, line: int, character: int) -> str:
        result = self.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if not result:
            return ""
        # MarkupContent, as the server sends it; its markdown escapes the underscores of key names.
        return str(result["contents"]["value"]).replace("\\_", "_")
