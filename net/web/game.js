// The game as this seat sees it: the host's state taken in, the table drawn from it, and the moves sent,
// one at a time until the host answers.
import { bringEndIntoSight, bringIntoSight, keepFocus, keepingFocus, newCardOf, offered, showButtons, showHand, showJokerLegend, showMelds, showPiles, showStatus, whyNotNow } from "./board.js";
import { showHandEnd, showReady } from "./handend.js";
import { $, drawnSeen, ended, gameOver, logLine, me, mine, myTurn, page, picks, send, show } from "./page.js";
import { dealLines, endLines, fitNames, playerRows, seatLabelOf } from "./sheets.js";

export function takeState(message) {
  const previous = page.view;
  page.view = message.view;
  page.coach = message.coach || null;
  page.standIns = message.stand_ins || {};
  page.readiness = Array.isArray(message.ready) && Array.isArray(message.waiting_for)
    ? { ready: message.ready, waiting_for: message.waiting_for } : null;
  if (page.view.phase !== "hand_over") page.saidReady = false;
  const answered = page.pending;
  page.pending = null;
  // Back at the table: the moves missed are told, and this seat's were a bot's (the table played it
  // past its wait), though the host's words tell them as yours ("You draw ...").
  const missed = page.back && Array.isArray(message.events) ? message.events : [];
  page.back = false;
  const playedForMe = missed.some((event) => event && event.player === me.name);
  if (playedForMe) logLine("While you were away a bot played for you: its moves are told below as yours.", "presence");
  // A new hand (the first: the game starts) before its first moves, as the terminal heads it.
  for (const line of dealLines(message.events, page.view.players[me.seat])) logLine(line, "turn");
  if (page.coach) for (const line of page.coach.log) logLine(line, "turn");
  // The hand's end, after its last turn: the log would otherwise stop at the last discard.
  for (const line of endLines(message.events, page.coach, page.view.players[me.seat])) logLine(line, "turn");
  // Where the bot's moves end: the log ran on into this player's own with nothing between.
  if (playedForMe) logLine("You are back: your own moves from here.", "presence");
  // An undo brings no events: without this line the log would tell the melds taken back as still laid.
  if (answered && answered.move === "undo") logLine("Taken back: your hand and the table are as they were after your draw.", "turn");
  // Another player's undo: their melds were told as laid, and no event takes them back.
  const taken = message.taken_back;
  if (Number.isInteger(taken) && taken !== me.seat && page.view.players[taken] !== undefined) {
    const name = page.view.players[taken]; // as written, as the log's lines begin with it: never re-capitalised
    logLine(`${name} takes back this turn's melds: the table is as it was after the draw.`, "turn");
  }
  if (!previous || previous.hand.join() !== page.view.hand.join() || previous.table.length !== page.view.table.length
      || previous.phase !== page.view.phase || previous.current !== page.view.current) {
    // Taps stay while nothing left the hand (a draw, another's move).
    const same = previous && previous.hand_number === page.view.hand_number && !ended(page.view) && !ended(previous)
      && holdsAll(page.view.hand, previous.hand);
    picks.refresh(page.view.phase === "play" && page.view.current === me.seat, page.view.hand, same ? previous.hand : null,
      same && previous.table.length === page.view.table.length);
  }
  if (answered) { $("reason").textContent = ""; page.moved = true; }
  if (answered && $("move-input").value.trim() === answered.move) $("move-input").value = "";
  $("hint").hidden = true;
  show("table");
  $("scores-button").disabled = false;
  drawTable();
  // The turn begins, or its draw is answered (the card drawn and the lines under the hand push the
  // buttons down, below a phone's fold): the hand and the moves are brought into sight.
  const drew = previous && mine(previous) && previous.phase === "draw" && page.view.phase === "play";
  if (myTurn() && (!(previous && mine(previous)) || drew)) bringIntoSight(document.querySelector(".mine"), $("actions"));
  if (ended(page.view) && !(previous && ended(previous))) bringEndIntoSight($("hand-end"), $("ready-button"));
  if (answered) {
    keepFocus(answered.from, $("actions"), $("hand"));
    window.kalookiTimings.push(performance.now() - answered.started);
    if (page.queue.length) play(page.queue.shift());
  }
  if (!page.shownTable) {
    page.shownTable = true;
    performance.mark("kalooki-table-shown");
    // The frame after the one that paints it: when the table is on the screen.
    requestAnimationFrame(() => setTimeout(() => performance.mark("kalooki-table-painted"), 0));
  }
}

// Whether ``hand`` holds every card of ``before`` (two packs: as many of each).
function holdsAll(hand, before) {
  const left = [...hand];
  return before.every((code) => {
    const at = left.indexOf(code);
    if (at >= 0) left.splice(at, 1);
    return at >= 0;
  });
}

export function drawTitle() {
  // Over, the tab says so, where "Not connected" once the host stopped read as a game to come back to.
  document.title = gameOver() ? "Game over · Kalooki" : !page.connected ? "Not connected · Kalooki" : myTurn() ? "Your turn · Kalooki" : "Kalooki table";
}

export function drawTable() {
  $("title").textContent = page.coach ? page.coach.title : "Kalooki";
  drawTitle();
  $("table").dataset.phase = page.view.phase;
  $("table").dataset.turn = myTurn() ? "mine" : "theirs";
  $("scoring").textContent = page.coach ? page.coach.scoring : "";
  drawPlayers();
  drawMelds();
  showJokerLegend($("joker-legend"), page.coach, offered(page.moveCommands, "s"));
  showPiles($("discard"), $("stock"), page.view);
  drawHand();
  drawStatus();
  drawButtons();
  drawEnd();
}

export const seatLabel = (seat) => seatLabelOf(seat, page.view, page.lobby, page.standIns, me.seat);
const seatName = (seat) => (seat === me.seat ? "you" : page.view.players[seat]);

export function drawPlayers() {
  $("players").tBodies[0].replaceChildren(...playerRows(page.view, me.seat, seatLabel));
  fitNames($("players"));
}
// Names fitted at one width are fitted again at another (a phone turned, a window narrowed, a scroll bar come).
let playersWidth = 0;
new ResizeObserver(([seen]) => {
  if (seen.contentRect.width !== playersWidth) { playersWidth = seen.contentRect.width; fitNames($("players")); }
}).observe($("players"));

function drawMelds() {
  keepingFocus($("melds"), () => showMelds($("melds"), $("melds-title"), page.view, page.coach, picks.target, seatName, (number) => {
    picks.pick(number);
    drawMelds(); drawButtons();
  }));
}

export function drawHand() {
  const newCard = newCardOf(page.view, myTurn(), drawnSeen);
  keepingFocus($("hand"), () => showHand($("hand"), $("hand-title"), page.view, page.coach, picks.selected, picks.grouped(page.view.hand), newCard, toggle));
}

function toggle(index) {
  picks.tap(index, page.view.hand);
  drawHand(); drawButtons();
}

export function drawStatus() {
  const canLay = myTurn() && page.view.phase === "play";
  showStatus($("status"), $("preview"), $("staged"), page.coach, canLay, picks.groups, (moves) => {
    page.queue = moves.slice(1);
    play(moves[0]);
  });
}

export function drawButtons() {
  showButtons($, page.view, picks, whyNotNow(page.view, me.seat, page.pending, page.connected), page.moveCommands);
}

function drawEnd() {
  const over = ended(page.view);
  $("hand-end").hidden = !over;
  $("actions").hidden = over;
  $("move-form").hidden = over;
  // The Move box's codes in words (its placeholder alone puzzled newcomers) until this page's first move:
  // shown on focus, the line came and went under a tap, which then missed its button.
  $("box-tip").hidden = over || page.moved;
  if (!over) { $("ready-wait").hidden = true; return; }
  drawReady();
  showHandEnd(endScreen, page.view, page.coach, seatLabel);
}
const endScreen = {
  title: $("hand-end-title"), lines: $("hand-end-lines"), table: $("hand-end-table"),
  gameEnd: $("game-end"), gameEndLines: $("game-end-lines"), gameEndTable: $("game-end-table"),
};

export function drawReady() {
  showReady($("ready-button"), $("ready-wait"), page.view, me.seat, page.readiness, page.saidReady);
  $("ready-button").disabled = !page.connected;  // a dropped page's press went nowhere
}

// ------------------------------------------------------------ moves

// A move or a command from this page: the last one's refusal, and the box's help, are read already.
export function fresh() {
  $("reason").textContent = "";
  $("box-help").hidden = true;
}

export function play(move) {
  if (!move || page.pending) return;
  fresh();
  if (send({ type: "move", move })) {
    page.pending = { started: performance.now(), move, from: document.activeElement };
    drawButtons();
  } else {
    $("reason").textContent = "✗ not connected to the table: reconnecting…";
  }
}

export function undo() {
  if (page.pending) return;
  fresh();
  if (send({ type: "undo" })) { page.pending = { started: performance.now(), move: "undo" }; drawButtons(); }
}

