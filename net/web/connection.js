// The WebSocket to the host (docs/protocol.md): the join, each message the host sends, its refusals, and
// coming back after a drop.
import { BY_TAPPING, keepFocus, ONE_COMMAND, showSeats } from "./board.js";
import { cardsInText, secondPerson } from "./cards.js";
import { drawButtons, drawPlayers, drawReady, drawTitle, takeState } from "./game.js";
import { BOX_COMMANDS, drawHint } from "./moves.js";
import { $, PROTOCOL, banner, gameOver, kept, logLine, me, page, picks, show } from "./page.js";
import { lobbyGame, presenceLine } from "./sheets.js";

function restoreLog(token) {
  for (const [kind, text] of kept.storedLines(token)) logLine(text, kind);
}

export function connect(name) {
  page.leaving = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  page.socket = new WebSocket(`${scheme}://${location.host}/`);
  const current = page.socket;
  page.socket.addEventListener("open", () => {
    const join = { type: "join", protocol: PROTOCOL, code: me.code, coach: true };
    if (me.token) join.token = me.token; else join.name = name;
    page.back = Boolean(me.token);
    current.send(JSON.stringify(join));
  });
  page.socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    if (message && typeof message === "object") receive(message);
  });
  page.socket.addEventListener("close", () => {
    if (current !== page.socket) return;
    page.pending = null; page.queue = [];
    setConnected(false);
    if (page.leaving || !me.token) return;
    // A game that is over has nothing to come back to: the result stays, with why it stopped.
    if (gameOver()) { banner(overBanner()); return; }
    // Dropped: come back by ourselves, with the seat's token, sooner at first.
    page.retry = Math.min(page.retry + 1, 6);
    const delay = [0, 500, 1000, 2000, 3000, 5000, 5000][page.retry];
    const trying = page.retry > 2 ? ` (try ${page.retry})` : "";
    // A table the host closed says so until it is back (a host restarted with --resume), not "lost";
    // a seat in use keeps saying so while the page tries again.
    if (!page.seatInUse) banner(page.heldOff !== null ? `The table refused to seat you: ${page.heldOff}. Trying again${trying}…`
      : page.closedBecause === null ? `The connection to the table was lost: reconnecting${trying}…`
        : closedText(trying));
    setTimeout(() => connect(null), delay);
  });
}

// A closed table's game stays on the host (saved after every move) for it to reopen: this page comes
// back to its seat by itself then, which the player is told rather than left to wonder.
const closedText = (trying) => `The table is closed: ${page.closedBecause}. When the host reopens the game `
  + `(kalooki host --resume), this page takes your seat back by itself. Trying to reconnect${trying}…`;

// Seated on an open connection, or not (the connection gone, the table closing): no move can be sent
// then, so none is offered, and the tab's title stops saying it is this player's turn.
function setConnected(now) {
  page.connected = now;
  // A line said then went nowhere, and stayed in the box with nothing to say why: the box is off, and says so.
  for (const id of ["say-input", "say-send"]) $(id).disabled = !now;
  $("say-input").placeholder = now ? "Talk to the table" : "Not connected to the table";
  if (page.view) { drawButtons(); drawTitle(); drawReady(); }
}

const overBanner = () => `The game is over, and the table is closed${page.closedBecause === null ? "" : `: ${page.closedBecause}`}.`;

function receive(message) {
  switch (message.type) {
    case "welcome":
      me.seat = message.seat; me.name = message.name; me.host = message.host; me.token = message.token;
      page.moveCommands = Array.isArray(message.commands) ? message.commands : [];
      if (message.variant && typeof message.variant.ace_in_runs === "string") picks.aceInRuns = message.variant.ace_in_runs;
      kept.keepToken(message.token, message.name);
      // Back after a reload: the log as it was. Back after a drop, the page has it still.
      if (!$("log").children.length) restoreLog(message.token);
      page.retry = 0;
      page.seatInUse = 0;
      page.closedBecause = null;
      page.heldOff = null;
      banner(null);
      // What was refused while away ("not connected to the table") is over: the seat is back.
      $("reason").textContent = "";
      setConnected(true);
      $("rules-button").disabled = false;
      $("lobby-you").textContent = `You sit at seat ${message.seat + 1} as ${message.name}.`;
      $("lobby-game").textContent = lobbyGame(message.variant);
      if (!page.view) show("lobby");
      break;
    case "lobby":
      page.lobby = message;
      // A player back at the table plays their own seat again: the last state's stand-in is over.
      for (const seat of page.lobby.seats) if (seat.connected) delete page.standIns[String(seat.seat)];
      drawLobby();
      if (page.view) drawPlayers();
      break;
    case "state":
      takeState(message);
      break;
    case "said":
      logLine(`${message.seat === me.seat ? "you" : message.name}: ${message.text}`, "said");
      break;
    case "presence":
      if (message.seat !== me.seat) logLine(presenceLine(message), "presence");
      break;
    case "suggestion":
      drawHint(message);
      break;
    case "rulebook":
      page.rulesHtml = message.html;
      // The host escaped every text of the rulebook before adding its few tags (kalooki_cli.web_coach).
      $("rules-body").innerHTML = page.rulesHtml;
      break;
    case "error":
      refused(message);
      break;
    case "closing":
      page.closedBecause = String(message.reason);
      setConnected(false);
      banner(gameOver() ? overBanner() : closedText(""));
      break;
    default:
      break;
  }
}

function refused(message) {
  const code = message.code;
  if (code === "seat_in_use") {
    // Most likely another window holds it, which the player is told at once; but it may be our old
    // connection (a reload) not yet noticed as closed: closing this one asks again shortly, as after
    // any drop, and a seat taken back clears the banner. Still in use after a few tries: no more.
    page.seatInUse += 1;
    page.leaving = page.seatInUse > 4;
    banner("Your seat is in use in another window or tab: close it, then reload this page.");
    page.socket.close();
    return;
  }
  if (code === "dropped" || code === "removed") {
    // The host dropped this connection (a player who does nothing holds the table up): coming back by
    // ourselves would hold it up again. The seat waits for its token: a reload takes it back. Off at once.
    // Removed for good (remove NAME), the token takes the seat no more: it is forgotten.
    page.leaving = true; setConnected(false);
    if (code === "removed") { kept.forget(); me.token = null; }
    const said = String(message.message);
    const then = code === "dropped" ? " Reload the page to take your seat back." : "";
    banner(`${said.charAt(0).toUpperCase()}${said.slice(1)}.${then}`);
    return;
  }
  // A rejoin refused for its code or token: the table at this address is another one now (the host
  // opened a new table on the same port). Trying again would be refused forever: sit down anew.
  const gone = code === "bad_code" || code === "bad_token";
  const seated = me.seat !== null;
  const rejoining = seated || Boolean(me.token);  // a seat taken back, from a reload too
  // Seated, the page comes back to its seat once the host lets this address join again (it closes this one).
  if (code === "too_many_tries" && seated) { page.heldOff = String(message.message); return; }
  if (gone || (["bad_name", "name_taken", "table_full", "started", "too_many_tries"].includes(code) && !seated)) {
    page.leaving = true;
    page.socket.close();
    // A token the table does not know is gone for good; one refused for its code is kept, since the
    // table it belongs to may be reopened here later (kalooki host --resume), and its link then takes
    // the seat back. (Kept by address and code: a new table's code keeps its own.)
    if (code === "bad_token") kept.forget();
    me.token = null;
    if (seated) leaveTable();
    banner(null);
    show("join");
    $("join-error").textContent = code === "bad_token"
      ? "Your seat here is no longer known (a new table with the same code?): sit down again."
      : code === "bad_code" && rejoining ? "The table you sat at is closed, and another one is open here: ask its host for the join code. "
        + "Your seat at the closed table is kept in this browser: when its host reopens it, open its link again."
        : message.message;
    return;
  }
  const from = page.pending && page.pending.from; page.pending = null; page.queue = [];
  // The game's refusal names cards in the move language's codes: here as the page draws them, as at a terminal.
  const said = secondPerson(String(message.message), me.name);
  let reason = code === "illegal_move" ? cardsInText(said) : said;
  // A text that is no move, told the moves: the box's own commands are what else it could have been.
  if (Array.isArray(message.commands)) reason += " | " + BOX_COMMANDS.map((command) => command.usage).join(" | ");
  // One sentence, ended: how the buttons lay melds together only where the status does not say it already.
  if (reason.includes(ONE_COMMAND)) reason += $("status").textContent.includes(BY_TAPPING) ? "." : `. ${BY_TAPPING}`;
  $("reason").textContent = "✗ " + reason;
  drawButtons();
  keepFocus(from, $("actions"), $("hand"));
}

// The table this page sat at is gone: nothing of it stays on the screen or decides what the next join shows.
function leaveTable() {
  me.seat = null; page.view = null; page.coach = null; page.lobby = null; page.standIns = {}; page.readiness = null; page.saidReady = false;
  picks.clear(); page.pending = null; page.queue = [];
  $("log").replaceChildren();
  kept.forgetLog();
  $("reason").textContent = "";
  $("title").textContent = "Kalooki";
  document.title = "Kalooki table";
  $("scores-button").disabled = true;
  $("rules-button").disabled = true;
  page.rulesHtml = null;  // the new table's variant may be another
  $("rules-body").textContent = "Loading…";
}

function drawLobby() {
  showSeats($("seats"), page.lobby, me.seat);
  $("start-button").hidden = !me.host || page.lobby.started;
}
