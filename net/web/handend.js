// The screen between hands and at the game's end, drawn from the seat's view and the host's words as
// the terminal shows it: who went out and how, everyone's cards left and the scores; at the end of
// the game who won and the score sheet; and "Next hand", or whom the next deal waits for.
import { el } from "./cards.js";
import { handTable, scoreSheet } from "./sheets.js";

// The last hand's end, as after every hand; at the end of the game the result and the score sheet below
// it. ``screen``: the elements it fills ({title, lines, table, gameEnd, gameEndLines, gameEndTable}).
export function showHandEnd(screen, view, coach, seatLabel) {
  const gameOver = view.phase === "game_over";
  const result = view.results[view.results.length - 1];
  screen.title.textContent = `Hand ${result ? result.number : view.hand_number} is over`;
  if (coach && coach.hand_end) {
    screen.lines.replaceChildren(...coach.hand_end.lines.map((line) => el("p", "", line)));
  }
  screen.table.replaceChildren(handTable(view, result, seatLabel));
  screen.gameEnd.hidden = !gameOver;
  if (gameOver) {
    // The sheet's own legend and scoring line are under the sheet: its lines keep only the sentences above it.
    const sentences = coach && coach.game_end
      ? coach.game_end.lines.filter((line) => !(coach.scoring && line.endsWith(coach.scoring))) : [];
    screen.gameEndLines.replaceChildren(...sentences.map((line) => el("p", "", line)));
    screen.gameEndTable.replaceChildren(scoreSheet(view, seatLabel, coach && coach.scoring));
  }
}

// Between hands: "Next hand" until this seat has said ready (the host says so, also after a reload), then
// whom the deal waits for. ``readiness``: {ready, waiting_for} from a host that says it, else null;
// ``saidReady``: this page pressed "Next hand" this hand.
export function showReady(button, wait, view, mySeat, readiness, saidReady) {
  const ready = view.phase === "hand_over" && (readiness ? readiness.ready.includes(mySeat) : saidReady);
  button.hidden = view.phase !== "hand_over" || ready;
  wait.hidden = !ready;
  const others = readiness ? readiness.waiting_for.filter((seat) => seat !== mySeat && view.players[seat] !== undefined) : [];
  wait.textContent = others.length ? `Waiting for ${listed(others.map((seat) => view.players[seat]))}…`
    : readiness ? "Dealing the next hand…" : "Waiting for the others to be ready…";
}

const listed = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);
