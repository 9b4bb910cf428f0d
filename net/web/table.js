// The kalooki table in a browser: one WebSocket to the host that served this page, the table
// protocol of docs/protocol.md, and the table drawn from what the host sends this seat.
// Everything a player or a variant wrote (names, chat, reasons) goes in with textContent only.
import { BY_TAPPING, bringEndIntoSight, bringIntoSight, keepFocus, keepingFocus, newCardOf, offered, ONE_COMMAND, showButtons, showCommands, showHand, showHint, showJokerLegend, showMelds, sayWhyOff, showPiles, showSeats, showStatus, whyNotNow } from "./board.js";
import { cardsInText, el, secondPerson } from "./cards.js";
import { showHandEnd, showReady } from "./handend.js";
import { Kept } from "./kept.js";
import { Picks } from "./picks.js";
import { dealLines, endLines, fitNames, lobbyGame, playerRows, presenceLine, scoreSheet, seatLabelOf } from "./sheets.js";

(() => {
  const PROTOCOL = 1;
  const LOG_LINES = 300;

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const me = {
    code: (params.get("code") || "").trim().toUpperCase(),
    token: null, seat: null, name: "", host: false,
  };
  let socket = null;
  let view = null;
  let coach = null;
  let lobby = null;
  let standIns = {};
  let readiness = null;       // between hands, from a host that says it: {ready, waiting_for}, seats
  let saidReady = false;      // this page pressed "Next hand" this hand (a host that does not say who is ready)
  const picks = new Picks();  // the cards and the meld tapped towards a move
  const drawnSeen = {};       // the card drawn this turn: how many the hand held after the draw
  let pending = null;         // the move sent and not yet answered: {started}
  let queue = [];             // further moves to send after the pending one (a laid preview)
  let retry = 0;
  let seatInUse = 0;
  let leaving = false;        // a refusal that a new connection cannot mend (wrong code)
  let closedBecause = null;   // the host's reason when it closed the table (kept while reconnecting)
  let connected = false;      // seated on an open connection: the move buttons work only then
  let heldOff = null;         // the host's refusal of this address's joins for a while (too many wrong tries)
  let shownTable = false;
  let back = false;           // joined with the seat's token: the next state tells what was missed
  let rulesHtml = null;
  let moveCommands = [];      // the moves the table's rules allow, from the welcome: [{usage, key}]
  window.kalookiTimings = [];  // milliseconds from a move sent to the table redrawn with its answer

  // ------------------------------------------------------------ the connection

  // The seat's token and log, kept in the browser for this table.
  const kept = new Kept(() => `kalooki:${location.host}:${me.code}`, LOG_LINES);
  function restoreLog(token) {
    for (const [kind, text] of kept.storedLines(token)) logLine(text, kind);
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  function connect(name) {
    leaving = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/`);
    const current = socket;
    socket.addEventListener("open", () => {
      const join = { type: "join", protocol: PROTOCOL, code: me.code, coach: true };
      if (me.token) join.token = me.token; else join.name = name;
      back = Boolean(me.token);
      current.send(JSON.stringify(join));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message && typeof message === "object") receive(message);
    });
    socket.addEventListener("close", () => {
      if (current !== socket) return;
      pending = null; queue = [];
      setConnected(false);
      if (leaving || !me.token) return;
      // A game that is over has nothing to come back to: the result stays, with why it stopped.
      if (gameOver()) { banner(overBanner()); return; }
      // Dropped: come back by ourselves, with the seat's token, sooner at first.
      retry = Math.min(retry + 1, 6);
      const delay = [0, 500, 1000, 2000, 3000, 5000, 5000][retry];
      const trying = retry > 2 ? ` (try ${retry})` : "";
      // A table the host closed says so until it is back (a host restarted with --resume), not "lost";
      // a seat in use keeps saying so while the page tries again.
      if (!seatInUse) banner(heldOff !== null ? `The table refused to seat you: ${heldOff}. Trying again${trying}…`
        : closedBecause === null ? `The connection to the table was lost: reconnecting${trying}…`
          : closedText(trying));
      setTimeout(() => connect(null), delay);
    });
  }

  // A closed table's game stays on the host (saved after every move) for it to reopen: this page comes
  // back to its seat by itself then, which the player is told rather than left to wonder.
  const closedText = (trying) => `The table is closed: ${closedBecause}. When the host reopens the game `
    + `(kalooki host --resume), this page takes your seat back by itself. Trying to reconnect${trying}…`;

  // Seated on an open connection, or not (the connection gone, the table closing): no move can be sent
  // then, so none is offered, and the tab's title stops saying it is this player's turn.
  function setConnected(now) {
    connected = now;
    // A line said then went nowhere, and stayed in the box with nothing to say why: the box is off, and says so.
    for (const id of ["say-input", "say-send"]) $(id).disabled = !now;
    $("say-input").placeholder = now ? "Talk to the table" : "Not connected to the table";
    if (view) { drawButtons(); drawTitle(); drawReady(); }
  }

  const gameOver = () => view !== null && view.phase === "game_over";
  const overBanner = () => `The game is over, and the table is closed${closedBecause === null ? "" : `: ${closedBecause}`}.`;

  function receive(message) {
    switch (message.type) {
      case "welcome":
        me.seat = message.seat; me.name = message.name; me.host = message.host; me.token = message.token;
        moveCommands = Array.isArray(message.commands) ? message.commands : [];
        if (message.variant && typeof message.variant.ace_in_runs === "string") picks.aceInRuns = message.variant.ace_in_runs;
        kept.keepToken(message.token, message.name);
        // Back after a reload: the log as it was. Back after a drop, the page has it still.
        if (!$("log").children.length) restoreLog(message.token);
        retry = 0;
        seatInUse = 0;
        closedBecause = null;
        heldOff = null;
        banner(null);
        // What was refused while away ("not connected to the table") is over: the seat is back.
        $("reason").textContent = "";
        setConnected(true);
        $("rules-button").disabled = false;
        $("lobby-you").textContent = `You sit at seat ${message.seat + 1} as ${message.name}.`;
        $("lobby-game").textContent = lobbyGame(message.variant);
        if (!view) show("lobby");
        break;
      case "lobby":
        lobby = message;
        // A player back at the table plays their own seat again: the last state's stand-in is over.
        for (const seat of lobby.seats) if (seat.connected) delete standIns[String(seat.seat)];
        drawLobby();
        if (view) drawPlayers();
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
        rulesHtml = message.html;
        // The host escaped every text of the rulebook before adding its few tags (kalooki_cli.web_coach).
        $("rules-body").innerHTML = rulesHtml;
        break;
      case "error":
        refused(message);
        break;
      case "closing":
        closedBecause = String(message.reason);
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
      seatInUse += 1;
      leaving = seatInUse > 4;
      banner("Your seat is in use in another window or tab: close it, then reload this page.");
      socket.close();
      return;
    }
    if (code === "dropped" || code === "removed") {
      // The host dropped this connection (a player who does nothing holds the table up): coming back by
      // ourselves would hold it up again. The seat waits for its token: a reload takes it back. Off at once.
      // Removed for good (remove NAME), the token takes the seat no more: it is forgotten.
      leaving = true; setConnected(false);
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
    if (code === "too_many_tries" && seated) { heldOff = String(message.message); return; }
    if (gone || (["bad_name", "name_taken", "table_full", "started", "too_many_tries"].includes(code) && !seated)) {
      leaving = true;
      socket.close();
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
    const from = pending && pending.from; pending = null; queue = [];
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
    me.seat = null; view = null; coach = null; lobby = null; standIns = {}; readiness = null; saidReady = false;
    picks.clear(); pending = null; queue = [];
    $("log").replaceChildren();
    kept.forgetLog();
    $("reason").textContent = "";
    $("title").textContent = "Kalooki";
    document.title = "Kalooki table";
    $("scores-button").disabled = true;
    $("rules-button").disabled = true;
    rulesHtml = null;  // the new table's variant may be another
    $("rules-body").textContent = "Loading…";
  }

  // ------------------------------------------------------------ the game

  function takeState(message) {
    const previous = view;
    view = message.view;
    coach = message.coach || null;
    standIns = message.stand_ins || {};
    readiness = Array.isArray(message.ready) && Array.isArray(message.waiting_for)
      ? { ready: message.ready, waiting_for: message.waiting_for } : null;
    if (view.phase !== "hand_over") saidReady = false;
    const answered = pending;
    pending = null;
    // Back at the table: the moves missed are told, and this seat's were a bot's (the table played it
    // past its wait), though the host's words tell them as yours ("You draw ...").
    const missed = back && Array.isArray(message.events) ? message.events : [];
    back = false;
    const playedForMe = missed.some((event) => event && event.player === me.name);
    if (playedForMe) logLine("While you were away a bot played for you: its moves are told below as yours.", "presence");
    // A new hand (the first: the game starts) before its first moves, as the terminal heads it.
    for (const line of dealLines(message.events, view.players[me.seat])) logLine(line, "turn");
    if (coach) for (const line of coach.log) logLine(line, "turn");
    // The hand's end, after its last turn: the log would otherwise stop at the last discard.
    for (const line of endLines(message.events, coach, view.players[me.seat])) logLine(line, "turn");
    // Where the bot's moves end: the log ran on into this player's own with nothing between.
    if (playedForMe) logLine("You are back: your own moves from here.", "presence");
    // An undo brings no events: without this line the log would tell the melds taken back as still laid.
    if (answered && answered.move === "undo") logLine("Taken back: your hand and the table are as they were after your draw.", "turn");
    // Another player's undo: their melds were told as laid, and no event takes them back.
    const taken = message.taken_back;
    if (Number.isInteger(taken) && taken !== me.seat && view.players[taken] !== undefined) {
      const name = view.players[taken]; // as written, as the log's lines begin with it: never re-capitalised
      logLine(`${name} takes back this turn's melds: the table is as it was after the draw.`, "turn");
    }
    if (!previous || previous.hand.join() !== view.hand.join() || previous.table.length !== view.table.length
        || previous.phase !== view.phase || previous.current !== view.current) {
      picks.refresh(view.phase === "play" && view.current === me.seat, view.hand);
    }
    if (answered) $("reason").textContent = "";
    if (answered && $("move-input").value.trim() === answered.move) $("move-input").value = "";
    $("hint").hidden = true;
    show("table");
    $("scores-button").disabled = false;
    drawTable();
    // The turn begins, or its draw is answered (the card drawn and the lines under the hand push the
    // buttons down, below a phone's fold): the hand and the moves are brought into sight.
    const drew = previous && mine(previous) && previous.phase === "draw" && view.phase === "play";
    if (myTurn() && (!(previous && mine(previous)) || drew)) bringIntoSight(document.querySelector(".mine"), $("actions"));
    if (ended(view) && !(previous && ended(previous))) bringEndIntoSight($("hand-end"), $("ready-button"));
    if (answered) {
      keepFocus(answered.from, $("actions"), $("hand"));
      window.kalookiTimings.push(performance.now() - answered.started);
      if (queue.length) play(queue.shift());
    }
    if (!shownTable) {
      shownTable = true;
      performance.mark("kalooki-table-shown");
      // The frame after the one that paints it: when the table is on the screen.
      requestAnimationFrame(() => setTimeout(() => performance.mark("kalooki-table-painted"), 0));
    }
  }

  const ended = (shown) => shown.phase === "hand_over" || shown.phase === "game_over";
  const mine = (shown) => (shown.phase === "draw" || shown.phase === "play") && shown.current === me.seat;
  const myTurn = () => view && mine(view);

  function drawTitle() {
    // Over, the tab says so, where "Not connected" once the host stopped read as a game to come back to.
    document.title = gameOver() ? "Game over · Kalooki" : !connected ? "Not connected · Kalooki" : myTurn() ? "Your turn · Kalooki" : "Kalooki table";
  }

  function drawTable() {
    $("title").textContent = coach ? coach.title : "Kalooki";
    drawTitle();
    $("table").dataset.phase = view.phase;
    $("table").dataset.turn = myTurn() ? "mine" : "theirs";
    $("scoring").textContent = coach ? coach.scoring : "";
    drawPlayers();
    drawMelds();
    showJokerLegend($("joker-legend"), coach, offered(moveCommands, "s"));
    showPiles($("discard"), $("stock"), view);
    drawHand();
    drawStatus();
    drawButtons();
    drawEnd();
  }

  const seatLabel = (seat) => seatLabelOf(seat, view, lobby, standIns, me.seat);
  const seatName = (seat) => (seat === me.seat ? "you" : view.players[seat]);

  function drawPlayers() {
    $("players").tBodies[0].replaceChildren(...playerRows(view, me.seat, seatLabel));
    fitNames($("players"));
  }
  // Names fitted at one width are fitted again at another (a phone turned, a window narrowed, a scroll bar come).
  let playersWidth = 0;
  new ResizeObserver(([seen]) => {
    if (seen.contentRect.width !== playersWidth) { playersWidth = seen.contentRect.width; fitNames($("players")); }
  }).observe($("players"));

  function drawMelds() {
    keepingFocus($("melds"), () => showMelds($("melds"), $("melds-title"), view, coach, picks.target, seatName, (number) => {
      picks.pick(number);
      drawMelds(); drawButtons();
    }));
  }

  function drawHand() {
    const newCard = newCardOf(view, myTurn(), drawnSeen);
    keepingFocus($("hand"), () => showHand($("hand"), $("hand-title"), view, coach, picks.selected, picks.grouped(view.hand), newCard, toggle));
  }

  function toggle(index) {
    picks.tap(index, view.hand);
    drawHand(); drawButtons();
  }

  function drawStatus() {
    const canLay = myTurn() && view.phase === "play";
    showStatus($("status"), $("preview"), $("staged"), coach, canLay, picks.groups, (moves) => {
      queue = moves.slice(1);
      play(moves[0]);
    });
  }

  function drawButtons() {
    showButtons($, view, picks, whyNotNow(view, me.seat, pending, connected), moveCommands);
  }

  function drawEnd() {
    const over = ended(view);
    $("hand-end").hidden = !over;
    $("actions").hidden = over;
    $("move-form").hidden = over;
    if (!over) { $("ready-wait").hidden = true; return; }
    drawReady();
    showHandEnd(endScreen, view, coach, seatLabel);
  }
  const endScreen = {
    title: $("hand-end-title"), lines: $("hand-end-lines"), table: $("hand-end-table"),
    gameEnd: $("game-end"), gameEndLines: $("game-end-lines"), gameEndTable: $("game-end-table"),
  };

  function drawReady() {
    showReady($("ready-button"), $("ready-wait"), view, me.seat, readiness, saidReady);
    $("ready-button").disabled = !connected;  // a dropped page's press went nowhere
  }

  // ------------------------------------------------------------ moves

  // A move or a command from this page: the last one's refusal, and the box's help, are read already.
  function fresh() {
    $("reason").textContent = "";
    $("box-help").hidden = true;
  }

  function play(move) {
    if (!move || pending) return;
    fresh();
    if (send({ type: "move", move })) {
      pending = { started: performance.now(), move, from: document.activeElement };
      drawButtons();
    } else {
      $("reason").textContent = "✗ not connected to the table: reconnecting…";
    }
  }

  function undo() {
    if (pending) return;
    fresh();
    if (send({ type: "undo" })) { pending = { started: performance.now(), move: "undo" }; drawButtons(); }
  }

  function wire() {
    $("draw-stock").addEventListener("click", () => play("ds"));
    $("draw-discard").addEventListener("click", () => play("dd"));
    $("meld-button").addEventListener("click", () => play(picks.meldMove(view.hand)));
    $("group-button").addEventListener("click", () => {
      picks.keepGroup(view.hand);
      drawHand(); drawStatus(); drawButtons();
    });
    $("build-button").addEventListener("click", () => play(picks.buildMove(view.hand, picks.eitherEnd(view.hand, view.table) ? "high" : null)));
    $("build-low-button").addEventListener("click", () => play(picks.buildMove(view.hand, "low")));
    $("swap-button").addEventListener("click", () => play(picks.swapMove(view.hand)));
    $("discard-button").addEventListener("click", () => play(picks.discardMove(view.hand)));
    $("end-button").addEventListener("click", () => play("end"));
    for (const kind of ["set", "run"]) $(`as-${kind}`).addEventListener("click", () => { picks.read(kind); drawButtons(); });
    $("clear-button").addEventListener("click", () => {
      picks.clear();
      drawTable();
    });
    $("undo-button").addEventListener("click", undo);
    sayWhyOff($("actions"), $("why-off"));
    $("hint-button").addEventListener("click", askHint);
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("move-input");
      const text = input.value.trim();
      if (!text) return;
      const typed = text.split(/\s+/)[0];
      const command = BOX_COMMANDS.find((known) => known.words.includes(typed.toLowerCase()));
      // A move stays in the box until the table takes it (takeState): a refused one is mended, not typed again.
      if (command) { command.run(text.slice(typed.length).trim()); input.value = ""; } else play(text);
    });
    $("say-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("say-input");
      if (sayLine(input.value.trim())) input.value = "";
    });
    $("ready-button").addEventListener("click", () => {
      if (!send({ type: "ready" })) return;
      saidReady = true;
      // Until the host's state says who is ready now: this seat is, and the others it waited for still are not.
      if (readiness && !readiness.ready.includes(me.seat)) {
        readiness = { ready: [...readiness.ready, me.seat], waiting_for: readiness.waiting_for.filter((seat) => seat !== me.seat) };
      }
      drawReady();
    });
    $("start-button").addEventListener("click", () => send({ type: "start" }));
    $("rules-button").addEventListener("click", openRules);
    $("scores-button").addEventListener("click", openScores);
    for (const button of document.querySelectorAll("dialog .close")) {
      button.addEventListener("click", () => button.closest("dialog").close());
    }
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      me.code = $("join-code").value.trim().toUpperCase();
      const name = $("join-name").value.trim();
      me.token = kept.token();
      // The seat kept here is its player's: another name typed sits anew, as kalooki join --name does
      // (a token kept without its name, by an older page, is used as before).
      const keptName = kept.name();
      if (me.token && keptName !== null && !sameName(keptName, name)) me.token = null;
      $("join-error").textContent = "";
      history.replaceState(null, "", `?code=${encodeURIComponent(me.code)}`);
      performance.mark("kalooki-join-sent");
      connect(name);
    });
  }

  // The move box's commands besides the moves, in the terminal's order and words (cli/render.py): one list
  // for what the box runs, its help, and its refusal of a text that is neither.
  const BOX_COMMANDS = [
    // Sent even when the button is off: the host says why, as at a terminal.
    { usage: "undo", words: ["undo", "u"], meaning: "take back this turn's melds, builds and swaps (before you discard)", run: undo },
    { usage: "hint", words: ["hint"], meaning: "what the greedy bot would play now, and what it scores", run: askHint },
    { usage: "look", words: ["look", "l", "table", "show"], meaning: "the table, drawn again and scrolled into view", run: look },
    { usage: "score", words: ["score", "scores", "totals"], meaning: "the totals and every hand's scores", run: openScores },
    { usage: "rules", words: ["rules", "rulebook"], meaning: "the whole rulebook of this variant", run: openRules },
    { usage: "say TEXT", words: ["say"], meaning: "talk to the table, during the others' turns too", run: sayTyped },
    { usage: "help", words: ["help", "h", "?"], meaning: "this list", run: showHelp },
  ];

  function askHint() {
    fresh();
    send({ type: "hint" });
  }

  // "say" alone in the move box says something all the same.
  function sayTyped(text) { return sayLine(text || "…"); }

  function sayLine(text) {
    if (!text || !send({ type: "say", text: text.slice(0, 300) })) return false;
    fresh();
    return true;
  }

  function look() {
    fresh();
    if (!view) return;
    drawTable();
    document.querySelector(".board").scrollIntoView({ block: "start" });
  }

  function showHelp() {
    fresh();
    showCommands($("box-help-list"), moveCommands, BOX_COMMANDS);
    $("box-help").hidden = false;
  }

  function drawHint(message) {
    showHint($("hint-moves"), $("hint-summary"), message, (move) => {
      $("move-input").value = move;
      $("move-input").focus();
    });
    $("hint").hidden = false;
  }

  function openRules() {
    fresh();
    if (rulesHtml === null) send({ type: "rules" });
    $("rules-dialog").showModal();
  }

  function openScores() {
    fresh();
    if (!view) return;
    $("scores-body").replaceChildren(scoreSheet(view, seatLabel, coach && coach.scoring));
    $("scores-dialog").showModal();
  }

  // ------------------------------------------------------------ the rest of the screen

  function logLine(text, kind) {
    const log = $("log");
    log.append(el("li", kind, text));
    while (log.children.length > LOG_LINES) log.firstChild.remove();
    kept.keepLine(kind, text, me.token);
    scrollLog();
  }
  const scrollLog = () => { $("log").scrollTop = $("log").scrollHeight; };

  function drawLobby() {
    showSeats($("seats"), lobby, me.seat);
    $("start-button").hidden = !me.host || lobby.started;
  }

  function banner(text) {
    $("banner").hidden = !text;
    $("banner").textContent = text || "";
  }

  function show(screen) {
    for (const id of ["join", "lobby", "table"]) $(id).hidden = id !== screen;
    // Seated, in the lobby or the game, a player reads the table's talk and has their say.
    $("talk").hidden = screen === "join";
    const main = document.querySelector("main");
    const shown = main.dataset.screen !== screen;
    main.dataset.screen = screen;
    // A log filled while hidden (restored after a reload) did not scroll, and a new screen lays it out
    // anew: it shows its newest line.
    if (shown) scrollLog();
    if (screen === "join") ($("join-code").value ? $("join-name") : $("join-code")).focus();
  }

  const sameName = (one, other) => one.normalize("NFKC").toLowerCase() === other.normalize("NFKC").toLowerCase();

  wire();
  $("join-code").value = me.code;
  me.token = me.code ? kept.token() : null;
  if (me.token) {
    banner("Taking your seat back…");
    connect(null);
  } else {
    show("join");
  }
})();
