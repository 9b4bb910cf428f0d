"""The browser page's server side: the files, their headers, the origin check, and the coach messages.

The page itself runs in Chromium in ``test_browser_table.py`` and ``test_browser_presence.py``;
here a real table on 127.0.0.1 is asked over plain HTTP and over the protocol, as the page asks it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_cli.web_coach import WebCoach, markdown_html
from kalooki_net.protocol import Rulebook, State, Suggestion
from kalooki_net.view import seat_view
from kalooki_net.web import CONTENT_SECURITY_POLICY, PAGES, page_file, page_weight
from net_helpers import TIMEOUT, Player, hosted, new_table
from websockets.sync.client import connect

from kalooki.bots import GreedyBot
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.loader import load_variant

PAGE_BUDGET = 100 * 1024
SCRIPTS = (
    "/table.js",
    "/page.js",
    "/connection.js",
    "/game.js",
    "/moves.js",
    "/cards.js",
    "/sheets.js",
    "/kept.js",
    "/board.js",
    "/picks.js",
    "/handend.js",
)
"""The page's JavaScript modules, each served."""


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=TIMEOUT) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def coached(uri: str, code: str, name: str) -> Player:
    player = Player(uri)
    player.join(code, name=name, coach=True)
    return player


def test_the_page_is_served_with_strict_headers_and_stays_small() -> None:
    with hosted(new_table(seats=2)) as host:
        own = f"127.0.0.1:{host.server.port}"
        pages = (*SCRIPTS, "/table.css")
        for path in ("/", "/?code=ABCDEF", *pages):
            status, headers, body = get(host.server.port, path)
            assert status == 200, path
            assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY.replace(
                "connect-src 'self'", f"connect-src 'self' ws://{own} wss://{own}"
            )
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Referrer-Policy"] == "no-referrer"  # the link holds the join code
            assert int(headers["Content-Length"]) == len(body)
        assert get(host.server.port, "/")[1]["Content-Type"] == "text/html; charset=utf-8"
        assert get(host.server.port, "/table.js")[1]["Content-Type"].startswith("text/javascript")
        for path in ("/../pyproject.toml", "/web/table.js", "/favicon.ico", "/net/web.py"):
            assert get(host.server.port, path)[0] == 404, path
        posted = urllib.request.Request(f"http://127.0.0.1:{host.server.port}/", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(posted, timeout=TIMEOUT)
        assert refused.value.code == 405
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert page_weight() < PAGE_BUDGET
    html = (page_file("index.html")).decode()
    # Nothing from elsewhere: no CDN, no inline script or style for the policy to have to allow.
    assert "http" not in html.replace("http-equiv", "")
    assert "<script>" not in html
    assert "style=" not in html
    assert set(PAGES) == {"/", "/index.html", *SCRIPTS, "/table.css"}
    # A module the host does not serve would fail the page's import of it: every file of the folder is served.
    folder = Path(__file__).resolve().parent.parent / "net" / "web"
    assert {name for name, _ in PAGES.values()} == {path.name for path in folder.iterdir()}


def test_the_page_never_builds_markup_from_what_players_send() -> None:
    scripts = {name: page_file(name).decode() for name, kind in PAGES.values() if "javascript" in kind}
    assert {f"/{name}" for name in scripts} == set(SCRIPTS)
    # Text goes in with textContent; the one innerHTML is the host's escaped rulebook.
    assert sum(script.count("innerHTML") for script in scripts.values()) == 1
    assert '$("rules-body").innerHTML = page.rulesHtml' in scripts["connection.js"]
    for script in scripts.values():
        assert "insertAdjacentHTML" not in script
        assert "outerHTML" not in script
        assert "eval(" not in script


def test_websocket_upgrades_from_another_site_are_refused() -> None:
    with hosted(new_table(seats=2)) as host:
        port = host.server.port
        for origin in (
            "http://evil.example",
            f"http://127.0.0.1:{port + 1}",
            f"http://localhost.evil:{port}",
        ):
            with (
                pytest.raises(Exception, match="403"),
                connect(host.uri, origin=origin, open_timeout=TIMEOUT),
            ):
                pass
        for origin in (f"http://127.0.0.1:{port}", None):  # the page itself; a terminal client
            with connect(host.uri, origin=origin, open_timeout=TIMEOUT) as client:  # type: ignore[arg-type]
                client.send(json.dumps({"type": "rules"}))
                assert json.loads(client.recv(timeout=TIMEOUT))["code"] == "not_joined"


def status_of(port: int, head: str) -> str:
    """The status line the table answers a request of these request line and headers with."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(f"{head}\r\n\r\n".encode())
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n")[0].decode()


def test_repeated_headers_and_unreadable_origins_are_refused_not_a_server_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with hosted(new_table(seats=2)) as host:
        port = host.server.port
        own = f"Host: 127.0.0.1:{port}"
        upgrade = (
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
        )
        answers = {
            "two hosts": status_of(port, f"GET / HTTP/1.1\r\n{own}\r\n{own}"),
            "two upgrades": status_of(port, f"GET / HTTP/1.1\r\n{own}\r\n{upgrade}\r\nUpgrade: websocket"),
            "two origins": status_of(
                port, f"GET / HTTP/1.1\r\n{own}\r\n{upgrade}\r\nOrigin: http://127.0.0.1:{port}\r\nOrigin: x"
            ),
            "unclosed IPv6 origin": status_of(
                port, f"GET / HTTP/1.1\r\n{own}\r\n{upgrade}\r\nOrigin: http://[::1"
            ),
            "null origin, no host": status_of(port, f"GET / HTTP/1.1\r\n{upgrade}\r\nOrigin: null"),
        }
        assert answers == {
            "two hosts": "HTTP/1.1 400 Bad Request",
            "two upgrades": "HTTP/1.1 400 Bad Request",
            "two origins": "HTTP/1.1 400 Bad Request",
            "unclosed IPv6 origin": "HTTP/1.1 403 Forbidden",
            "null origin, no host": "HTTP/1.1 403 Forbidden",
        }
        assert status_of(port, f"GET / HTTP/1.1\r\n{own}\r\n{upgrade}").endswith("101 Switching Protocols")
    # A request the table refuses is no failure of the host: nothing is logged, no traceback shown.
    assert [record.getMessage() for record in caplog.records if record.levelname == "ERROR"] == []


def test_coached_seats_get_the_tables_words_and_others_get_the_same_state_as_before() -> None:
    table = new_table(seats=2, seed=11)
    with hosted(table, advisor=WebCoach()) as host:
        page = coached(host.uri, table.code, "ann")
        terminal = Player(host.uri)
        terminal.join(table.code, name="bob")
        first = page.until("state")
        plain = terminal.until("state")
        assert "coach" not in plain
        State.model_validate(first, strict=False)
        words: dict[str, Any] = first["coach"]
        assert words["title"].startswith("Kalooki · classic · hand 1, dealt by ")
        assert words["scoring"].startswith("Scoring: losers add their cards' value")
        own = ("seat", "hand", "can_undo", "turn")
        assert first["view"] == {**plain["view"], **{key: first["view"][key] for key in own}}
        mover = page if first["view"]["current"] == page.seat else terminal
        waiting = terminal if mover is page else page
        if mover is page:
            assert words["status"][0].startswith("Your turn: draw a card: ds (draw stock)")
        else:
            assert words["status"] == ["bob is playing."]
        # A hint is for the player whose turn it is; it answers with moves that can be sent back.
        waiting.send({"type": "hint"})
        assert waiting.until("error")["code"] == "not_your_turn"
        mover.send({"type": "hint"})
        suggestion = mover.until("suggestion")
        Suggestion.model_validate(suggestion, strict=False)
        assert suggestion["moves"]
        assert suggestion["moves"][0] in ("draw stock", "draw discard")
        mover.send({"type": "move", "move": suggestion["moves"][0]})
        after = page.until("state")
        assert len(after["coach"]["log"]) == 1
        assert " from the " in after["coach"]["log"][0]
        page.send({"type": "rules"})
        rulebook = page.until("rulebook")
        Rulebook.model_validate(rulebook, strict=False)
        assert rulebook["html"].startswith("<h2>classic</h2>\n")
        assert "<ul>\n<li>" in rulebook["html"]
        page.close()
        terminal.close()


def test_names_that_look_like_markup_are_shown_as_they_are_and_the_table_plays_on() -> None:
    # Names are the players' own: "[/]" or "[red]eve" is a name, not markup for the screens' words.
    table = new_table(seats=2, seed=3, hand_size=7, opening_threshold=0)
    table.wait_seconds = 0.0  # the seat left below is played by a bot at once
    with hosted(table, advisor=WebCoach()) as host:
        page = coached(host.uri, table.code, "[/]")
        leaver = Player(host.uri)
        leaver.join(table.code, name="[red]eve")
        leaver.until("state")
        leaver.close()
        state = page.until("state")
        for _ in range(500):
            if state["view"]["phase"] == "hand_over":
                break
            if page.my_turn():
                page.send({"type": "move", "move": page.next_move()})
            state = page.until("state")
        assert state["view"]["phase"] == "hand_over"
        words = state["coach"]["hand_end"]["text"]
        assert "[/] (you)" in words
        assert "[red]eve" in words
        page.close()


class FailingWords(WebCoach):
    def coach(self, *arguments: Any) -> dict[str, Any]:
        raise RuntimeError("no words today")


def test_a_failing_advisor_leaves_the_words_out_and_the_game_goes_on() -> None:
    table = new_table(seats=2, seed=11)
    lines: list[str] = []
    with hosted(table, advisor=FailingWords(), on_change=lines.append) as host:
        page = coached(host.uri, table.code, "ann")
        terminal = Player(host.uri)
        terminal.join(table.code, name="bob")
        assert "coach" not in page.until("state")
        terminal.until("state")
        for _ in range(6):  # moves by both; each state reaches both seats, the page's without words
            mover = page if page.my_turn() else terminal
            mover.send({"type": "move", "move": mover.next_move()})
            assert "coach" not in page.until("state")
            terminal.until("state")
        page.close()
        terminal.close()
    assert (
        lines.count("The table's words failed (states go out without them): RuntimeError('no words today')")
        == 1
    )


@contextlib.contextmanager
def to_play(advisor: WebCoach, **options: Any) -> Iterator[tuple[Any, Player]]:
    """A table of ann's page and bob at a terminal, dealt: the host, and whichever of them is to play."""
    table = new_table(seats=2, seed=11)
    with hosted(table, advisor=advisor, **options) as host:
        page = coached(host.uri, table.code, "ann")
        other = Player(host.uri)
        other.join(table.code, name="bob")
        page.until("state")
        other.until("state")
        try:
            yield host, page if page.my_turn() else other
        finally:
            page.close()
            other.close()


class FailingHints(WebCoach):
    def suggestion(self, view: Any, variant: Any) -> dict[str, Any]:
        raise RuntimeError("no hint today")


def test_a_failing_hint_is_refused_and_the_game_goes_on() -> None:
    # The failure went up to the connection: a traceback on the host's terminal, the player's connection gone.
    lines: list[str] = []
    with to_play(FailingHints(), on_change=lines.append) as (_, mover):
        for _ in range(2):
            mover.send({"type": "hint"})
            refused = mover.until("error")
            assert (refused["code"], refused["message"]) == (
                "not_offered",
                "no hint could be worked out here; play on without one",
            )
        mover.send({"type": "move", "move": mover.next_move()})
        mover.until("state")
    assert (
        lines.count("A hint failed (hints are refused where they fail): RuntimeError('no hint today')") == 1
    )


class CountedHints(WebCoach):
    def __init__(self) -> None:
        self.searches = 0

    def suggestion(self, view: Any, variant: Any) -> dict[str, Any]:
        self.searches += 1
        return super().suggestion(view, variant)


def test_a_hint_asked_again_in_the_same_position_is_not_searched_again() -> None:
    advisor = CountedHints()
    with to_play(advisor) as (host, mover):
        answers = []
        for _ in range(20):
            mover.send({"type": "hint"})
            answers.append(mover.until("suggestion"))
        assert host.call(lambda: advisor.searches) == 1
        assert all(answer == answers[0] for answer in answers)
        mover.send({"type": "move", "move": answers[0]["moves"][0]})
        mover.until("state")
        mover.send({"type": "hint"})
        assert mover.until("suggestion") != answers[0]  # a new position, a new search
        assert host.call(lambda: advisor.searches) == 2


def test_a_table_without_an_advisor_says_so() -> None:
    table = new_table(seats=2, seed=11)
    with hosted(table) as host:
        player = Player(host.uri)
        player.join(table.code, name="ann")
        player.send({"type": "rules"})
        assert player.until("error")["code"] == "not_offered"
        player.close()


def test_the_rulebook_html_escapes_every_text() -> None:
    text = (
        "# Friday <b>night</b>\n\nAt ours & <script>alert(1)</script> *really*\n\n"
        "## A turn\n\n- **Draw** `ds` or\n  `dd`\n- Discard\n"
    )
    assert markdown_html(text) == (
        "<h2>Friday &lt;b&gt;night&lt;/b&gt;</h2>\n"
        "<p>At ours &amp; &lt;script&gt;alert(1)&lt;/script&gt; <em>really</em></p>\n"
        "<h3>A turn</h3>\n<ul>\n<li><strong>Draw</strong> <code>ds</code> or <code>dd</code></li>\n"
        "<li>Discard</li>\n</ul>\n"
    )


def test_a_page_rejoining_between_hands_sees_the_same_hand_end_as_the_others() -> None:

    variant = load_variant("classic", ["hand_size=7", "opening_threshold=0"])
    game = Game(variant, ["ann", "bob"], seed=3)
    bot = GreedyBot(random.Random(0))
    events: list[Any] = []
    while game.phase in ("draw", "play"):
        events = play_turn(game, bot)
    # The page that stayed was told the going-out turn's events: ann melded in it, after melding before.
    told = WebCoach().coach(seat_view(game, 0), events, variant, {}, {})
    rejoined = WebCoach().coach(seat_view(game, 0), [], variant, {}, {})
    assert told["hand_end"] is not None
    assert told["hand_end"]["text"].lstrip("─ ").startswith("Hand 1 is over")
    assert told["hand_end"]["lines"] == [
        "You went out.",
        "Not Kalooki: you had melded in an earlier turn; Kalooki is the whole hand laid in one turn, "
        "nothing laid before.",
    ]
    assert rejoined["hand_end"] == told["hand_end"]
    assert rejoined["log"] == []
    assert rejoined["preview"] is None
    assert rejoined["status"] == []


def test_kalooki_host_prints_the_browser_link_and_serves_the_page_and_its_words(tmp_path: Path) -> None:

    kalooki = Path(sys.executable).with_name("kalooki")
    process = subprocess.Popen(
        [
            str(kalooki),
            "host",
            "--watch",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--seats",
            "2",
            "--seed",
            "5",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "100"},
    )
    assert process.stdout is not None
    assert process.stdin is not None
    try:
        seen = []
        for line in process.stdout:
            seen.append(line)
            link = re.search(r"http://127\.0\.0\.1:(\d+)/\?code=(\w+)", line)
            if link:
                break
        assert link, "".join(seen)
        assert "Or in a browser, on a phone or a laptop:" in "".join(seen)
        threading.Thread(target=process.stdout.read, daemon=True).start()
        port, code = int(link.group(1)), link.group(2)
        status, _headers, body = get(port, f"/?code={code}")
        assert status == 200
        assert b'<script type="module" src="table.js"></script>' in body
        page = coached(f"ws://127.0.0.1:{port}/", code, "ann")
        other = Player(f"ws://127.0.0.1:{port}/")
        other.join(code, name="bob")
        assert page.until("state")["coach"]["title"].startswith("Kalooki · classic · hand 1")
        page.send({"type": "rules"})
        assert "<h3>Scoring</h3>" in page.until("rulebook")["html"]
        page.close()
        other.close()
    finally:
        process.stdin.close()
        assert process.wait(TIMEOUT) == 0


def test_the_words_say_a_bot_plays_for_a_player_away_not_that_they_play() -> None:
    # bob was away and a bot played his turns: the page's status line read "bob is playing."
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)  # ann plays first
    table.wait_seconds = 0.0  # a player who drops is played by the bot at once
    with hosted(table, advisor=WebCoach()) as host:
        page = coached(host.uri, table.code, "ann")
        bob = Player(host.uri)
        bob.join(table.code, name="bob")
        state = page.until("state")
        assert state["coach"]["status"][0].startswith("Your turn")
        bob.close()
        while page.until("presence")["status"] != "left":
            pass
        while page.my_turn():
            page.send({"type": "move", "move": page.next_move()})
            state = page.until("state")  # at last, bob's turn, which the bot plays for him
        assert state["view"]["current"] == 1
        assert state["stand_ins"] == {"1": "greedy"}
        assert state["coach"]["status"] == ["bob is away: a bot plays for them until they are back."]
        page.close()
