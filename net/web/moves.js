// What the page's buttons, the Say box and the Move box's commands (undo, hint, look, ...) do.
import { drawnByTap, offered, sayWhyOff, showCommands, showHint } from "./board.js";
import { drawButtons, drawHand, drawReady, drawStatus, drawTable, fresh, play, seatLabel, undo } from "./game.js";
import { $, me, page, picks, send } from "./page.js";
import { scoreSheet } from "./sheets.js";

// The table's buttons and boxes, given what they do (the join form's is table.js's).
export function wireMoves() {
  $("draw-stock").addEventListener("click", () => play("ds"));
  $("draw-discard").addEventListener("click", () => play("dd"));
  $("meld-button").addEventListener("click", () => play(picks.meldMove(page.view.hand)));
  $("group-button").addEventListener("click", () => {
    picks.keepGroup(page.view.hand);
    drawHand(); drawStatus(); drawButtons();
  });
  $("build-button").addEventListener("click", () => play(picks.buildMove(page.view.hand, picks.eitherEnd(page.view.hand, page.view.table) ? "high" : null)));
  $("build-low-button").addEventListener("click", () => play(picks.buildMove(page.view.hand, "low")));
  $("swap-button").addEventListener("click", () => play(picks.swapMove(page.view.hand)));
  $("discard-button").addEventListener("click", () => play(picks.discardMove(page.view.hand)));
  $("end-button").addEventListener("click", () => play("end"));
  for (const kind of ["set", "run"]) $(`as-${kind}`).addEventListener("click", () => { picks.read(kind); drawButtons(); });
  $("clear-button").addEventListener("click", () => {
    picks.clear();
    drawTable();
  });
  $("undo-button").addEventListener("click", undo);
  sayWhyOff($("actions"), $("why-off"));
  drawnByTap($("discard").parentElement, $("draw-discard"), $("why-off"));
  drawnByTap($("stock").parentElement, $("draw-stock"), $("why-off"));
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
    page.saidReady = true;
    // Until the host's state says who is ready now: this seat is, and the others it waited for still are not.
    if (page.readiness && !page.readiness.ready.includes(me.seat)) {
      page.readiness = { ready: [...page.readiness.ready, me.seat], waiting_for: page.readiness.waiting_for.filter((seat) => seat !== me.seat) };
    }
    drawReady();
  });
  $("start-button").addEventListener("click", () => send({ type: "start" }));
  $("rules-button").addEventListener("click", openRules);
  $("scores-button").addEventListener("click", openScores);
  for (const button of document.querySelectorAll("dialog .close")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
}

// The move box's commands besides the moves, in the terminal's order and words (cli/render.py): one list
// for what the box runs, its help, and its refusal of a text that is neither.
export const BOX_COMMANDS = [
  // Sent even when the button is off: the host says why, as at a terminal.
  { usage: "undo", words: ["undo", "u"], meaning: "", run: undo }, // its meaning: undoMeaning
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
  if (!page.view) return;
  drawTable();
  document.querySelector(".board").scrollIntoView({ block: "start" });
}

// Undo's words as the terminal's help says them in this variant (cli/prompt_commands.undo_meaning): no
// swaps where no joker leaves the table (czech-500), the turn ended by end too where end is a move.
function undoMeaning(moves) {
  const laid = offered(moves, "s") ? "melds, builds and swaps" : "melds and builds";
  const end = moves.some((move) => move.key === "end") ? " or end your turn" : "";
  return `take back this turn's ${laid} (before you discard${end})`;
}

function showHelp() {
  fresh();
  const commands = BOX_COMMANDS.map((c) => (c.usage === "undo" ? { ...c, meaning: undoMeaning(page.moveCommands) } : c));
  showCommands($("box-help-list"), page.moveCommands, commands);
  $("box-help").hidden = false;
}

export function drawHint(message) {
  showHint($("hint-moves"), $("hint-summary"), message, (move) => {
    $("move-input").value = move;
    $("move-input").focus();
  });
  $("hint").hidden = false;
}

function openRules() {
  fresh();
  if (page.rulesHtml === null) send({ type: "rules" });
  $("rules-dialog").showModal();
}

function openScores() {
  fresh();
  if (!page.view) return;
  $("scores-body").replaceChildren(scoreSheet(page.view, seatLabel, page.coach && page.coach.scoring));
  $("scores-dialog").showModal();
}
