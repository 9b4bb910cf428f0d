// What the page's modules share: this seat (``me``), all the page knows (``page``), the cards tapped, what
// the browser keeps, and the log, the banner and the screen shown. No module holds state of its own.
import { el } from "./cards.js";
import { Kept } from "./kept.js";
import { Picks } from "./picks.js";

export const PROTOCOL = 1;
const LOG_LINES = 300;

export const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
export const me = {
  code: (params.get("code") || "").trim().toUpperCase(),
  token: null, seat: null, name: "", host: false,
};
export const page = {
  socket: null,
  view: null,
  coach: null,
  lobby: null,
  standIns: {},
  readiness: null, // between hands, from a host that says it: {ready, waiting_for}, seats
  saidReady: false, // this page pressed "Next hand" this hand (a host that does not say who is ready)
  pending: null, // the move sent and not yet answered: {started}
  queue: [], // further moves to send after the pending one (a laid preview)
  moved: false,
  retry: 0,
  seatInUse: 0,
  leaving: false, // a refusal that a new connection cannot mend (wrong code)
  closedBecause: null, // the host's reason when it closed the table (kept while reconnecting)
  connected: false, // seated on an open connection: the move buttons work only then
  heldOff: null, // the host's refusal of this address's joins for a while (too many wrong tries)
  shownTable: false,
  back: false, // joined with the seat's token: the next state tells what was missed
  rulesHtml: null,
  moveCommands: [], // the moves the table's rules allow, from the welcome: [{usage, key}]
};
export const picks = new Picks();  // the cards and the meld tapped towards a move
export const drawnSeen = {};       // the card drawn this turn: how many the hand held after the draw
window.kalookiTimings = [];  // milliseconds from a move sent to the table redrawn with its answer

// The seat's token and log, kept in the browser for this table.
export const kept = new Kept(() => `kalooki:${location.host}:${me.code}`, LOG_LINES);

export function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

export const ended = (shown) => shown.phase === "hand_over" || shown.phase === "game_over";
export const mine = (shown) => (shown.phase === "draw" || shown.phase === "play") && shown.current === me.seat;
export const myTurn = () => page.view && mine(page.view);
export const gameOver = () => page.view !== null && page.view.phase === "game_over";

export function logLine(text, kind) {
  const log = $("log");
  log.append(el("li", kind, text));
  while (log.children.length > LOG_LINES) log.firstChild.remove();
  kept.keepLine(kind, text, me.token);
  if (following) scrollLog();
}
const scrollLog = () => { $("log").scrollTop = $("log").scrollHeight; };

// The log follows its newest line unless its reader scrolled up (each bot's move pulled them back down);
// at the bottom again, it follows. Made narrower, its lines wrap anew: a log that followed still does (the
// scroll a new width makes is the browser's, not the reader's).
let following = true;
let logWidth = 0;
$("log").addEventListener("scroll", () => {
  const log = $("log");
  if (log.clientWidth === logWidth) following = log.scrollTop + log.clientHeight >= log.scrollHeight - 2;
});
new ResizeObserver(() => {
  logWidth = $("log").clientWidth;
  if (following) scrollLog();
}).observe($("log"));

export function banner(text) {
  $("banner").hidden = !text;
  $("banner").textContent = text || "";
}

export function show(screen) {
  for (const id of ["join", "lobby", "table"]) $(id).hidden = id !== screen;
  // Seated, in the lobby or the game, a player reads the table's talk and has their say.
  $("talk").hidden = screen === "join";
  const main = document.querySelector("main");
  const shown = main.dataset.screen !== screen;
  main.dataset.screen = screen;
  // A log filled while hidden (restored after a reload) did not scroll, and a new screen lays it out
  // anew: it shows its newest line.
  if (shown) { following = true; scrollLog(); }
  if (screen === "join") ($("join-code").value ? $("join-name") : $("join-code")).focus();
}
