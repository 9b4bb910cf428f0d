"""Names that read alike on a screen are one name: at a hosted table, at hot-seat play, in a script."""

from __future__ import annotations

import json

import pytest
from kalooki_cli.app import app
from kalooki_net.protocol import PROTOCOL_VERSION
from kalooki_net.table import Table, TableError
from net_helpers import Player, hosted, new_table
from typer.testing import CliRunner

from kalooki.bots.base import names_for_bots
from kalooki.script import ScriptError, load_script_text
from kalooki.text import name_key, name_lookalike
from kalooki.variant import Variant

CYRILLIC_ANN = "\u0430nn"  # its first letter is U+0430, drawn as the Latin a


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        (CYRILLIC_ANN, "name_taken", ": this name's U+0430 CYRILLIC SMALL LETTER A reads as a"),
        ("\u0391\u039d\u039d", "name_taken", ": this name's U+0391 GREEK CAPITAL LETTER ALPHA reads as a"),
        ("\u0410nn", "name_taken", ": this name's U+0410 CYRILLIC CAPITAL LETTER A reads as a"),
        (
            "ann\u0301",
            "name_taken",
            ": this name's U+0301 COMBINING ACUTE ACCENT is a mark that tells no names apart",
        ),
        ("\u1ea1nn", "name_taken", ": this name's U+1EA1 LATIN SMALL LETTER A WITH DOT BELOW reads as a"),
        (
            "a\u0323nn",
            "name_taken",
            ": this name's U+0323 COMBINING DOT BELOW is a mark that tells no names apart",
        ),
        (
            "\u0301ann",
            "name_taken",
            ": this name's U+0301 COMBINING ACUTE ACCENT is a mark that tells no names apart",
        ),
        ("ann\U00016fe4", "bad_name", "a name is written in characters that show: no blank fillers"),
        ("ann\U0001d159", "bad_name", "a name is written in characters that show: no blank fillers"),
        ("\u0443\u043eu", "bad_name", "'you' is what the screens call each player: choose another name"),
    ],
)
def test_a_name_that_reads_as_a_seated_one_is_refused_naming_the_letter(
    name: str, code: str, message: str
) -> None:
    # Cyrillic аnn sat beside ann: the lobby showed two anns, and either could say things as the other.
    table = new_table(seats=3, seed=9)
    with hosted(table) as host:
        ann = Player(host.uri)
        ann.join(table.code, name="ann")
        before = host.call(table.lobby)
        impostor = Player(host.uri)
        join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": name}
        impostor.websocket.send(json.dumps(join))
        reply = impostor.until("error")
        taken = "someone at the table is already called ann" if code == "name_taken" else ""
        assert (reply["code"], reply["message"]) == (code, taken + message)
        assert host.call(table.lobby) == before
        impostor.close()
        ann.close()


@pytest.mark.parametrize(
    ("name", "letter"),
    [
        ("\u13aaNN", "U+13AA CHEROKEE LETTER GO reads as a"),
        ("\uab7ann", "U+AB7A CHEROKEE SMALL LETTER GO reads as a"),
        ("\u1d00nn", "U+1D00 LATIN LETTER SMALL CAPITAL A reads as a"),
        ("\u2c65nn", "U+2C65 LATIN SMALL LETTER A WITH STROKE reads as a"),
        ("a\u0274\u0274", "U+0274 LATIN LETTER SMALL CAPITAL N reads as n"),
        ("\u00d0ann", "U+00D0 LATIN CAPITAL LETTER ETH reads as d"),
        ("\u0189ann", "U+0189 LATIN CAPITAL LETTER AFRICAN D reads as d"),
    ],
)
def test_cherokee_letters_small_capitals_and_stroked_letters_read_as_latin_ones(
    name: str, letter: str
) -> None:
    # Each of these sat beside ann (or Đann beside dann) as a second one.
    assert name_key(name) in ("ann", "dann")
    assert name_lookalike(name) == f": this name's {letter}"


def test_the_look_alike_seated_first_is_named_to_the_plain_name() -> None:
    table = new_table(seats=3, seed=9)
    with hosted(table) as host:
        first = Player(host.uri)
        first.join(table.code, name=CYRILLIC_ANN)
        ann = Player(host.uri)
        join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": "Ann"}
        ann.websocket.send(json.dumps(join))
        reply = ann.until("error")
        said = f"someone at the table is already called {CYRILLIC_ANN}: that name's U+0430 CYRILLIC SMALL "
        assert (reply["code"], reply["message"]) == ("name_taken", said + "LETTER A reads as a")
        # Names that only look different on paper stay two names: Greek ε is not drawn as e.
        eve = Player(host.uri)
        assert eve.join(table.code, name="\u03b5ve")["seat"] == 1
        eve.close()
        ann.close()
        first.close()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        # It named "U+0308 COMBINING DIAERESIS" as a mark that tells no names apart: the player typed ä.
        ("a\u0308", ": the same name, written with other code points"),
        ("A\u0308", ""),  # ä beside ä, its case aside: "U+00C4 ... reads as a" named a letter not read so
        ("\u00c4", ""),
        ("a", ": that name's U+00E4 LATIN SMALL LETTER A WITH DIAERESIS reads as a"),
    ],
)
def test_the_same_name_written_another_way_is_told_so_not_as_a_look_alike(name: str, why: str) -> None:
    table = Table(Variant(), seats=3, bots=["greedy"], seed=1)
    table.join("\u00e4")
    with pytest.raises(TableError) as refused:
        table.join(name)
    assert (refused.value.code, str(refused.value)) == (
        "name_taken",
        f"someone at the table is already called ä{why}",
    )


def test_hot_seat_people_whose_names_read_alike_are_refused() -> None:
    result = CliRunner().invoke(
        app, ["play", "--humans", f"ann,{CYRILLIC_ANN}", "--seed", "1", "--fast"], input="quit\ny\n"
    )
    assert result.exit_code == 2
    # It said only "give each person a different name", not which letter reads as another.
    assert (
        f"'{CYRILLIC_ANN}' reads as 'ann' on the screens: its U+0430 CYRILLIC SMALL LETTER A reads as a; "
        "give each person a different name" in " ".join(result.output.replace("│", " ").split())
    )
    assert "Hand 1" not in result.output


def test_a_scripts_players_whose_names_read_alike_are_refused() -> None:
    with pytest.raises(ScriptError) as refused:
        load_script_text(f"players: [ann, {{name: '{CYRILLIC_ANN}', bot: greedy}}]\n", "<script>")
    assert (
        f"'{CYRILLIC_ANN}' reads as seat 1's 'ann' on the screens: its U+0430 CYRILLIC SMALL LETTER A "
        "reads as a; give each player a different name" in str(refused.value)
    )


def test_no_bot_is_named_as_a_player_reads() -> None:
    # A player called bоb (Cyrillic о) beside a bot called bob: two bobs on every screen.
    assert names_for_bots(["ann", "b\u043eb"], 2) == ["cid", "dee"]
