// The tables drawn from the seat's view as the terminal draws them: the players beside the table,
// and the two score tables, the end of a hand (everyone's cards left, points, scores, totals) and
// the score sheet (every hand's scores and the totals); and the log's lines told as the terminal tells them.
import { cardNode, el, nameNode, sortedHand } from "./cards.js";

// A bot's seat: "greedy bot", where the kind alone, "(greedy)", told a newcomer nothing of a bot.
export const botLabel = (kind) => (typeof kind !== "string" || !kind ? "bot" : /bot$/i.test(kind) ? kind : `${kind} bot`);

// A seat's name and what it is ("(you)", "(greedy bot)", "(away)"), from the state (``standIns``: the seats a bot
// plays while their players are away) and the lobby; the name as a nameNode: the label wraps at its spaces only.
export function seatLabelOf(seat, view, lobby, standIns, mySeat) {
  const name = nameNode(view.players[seat]);
  const info = lobby && lobby.seats[seat];
  let what = "";
  if (seat === mySeat) what = "(you)";
  else if (standIns[String(seat)]) what = `(away: ${botLabel(standIns[String(seat)])} plays)`;
  else if (info && info.kind === "bot") what = `(${botLabel(info.bot)})`;
  else if (info && info.kind === "human" && !info.connected) what = "(away)";
  return what ? [name, ` ${what}`] : [name];
}

// The players' rows, from this seat round the table: the pointer at whose turn it is, the cards
// each holds, whether they have opened, and their totals.
export function playerRows(view, mySeat, seatLabel) {
  const rows = [];
  const count = view.players.length;
  const playing = view.phase === "draw" || view.phase === "play";
  for (let offset = 0; offset < count; offset += 1) {
    const seat = (Math.max(mySeat, 0) + offset) % count;
    const row = el("tr");
    const turn = playing && seat === view.current;
    if (turn) row.className = "current";
    const name = el("td", "who");
    name.append(el("span", "pointer", turn ? "▶" : ""), ...seatLabel(seat));
    row.append(name);
    if (view.eliminated[seat]) {
      row.append(el("td"), el("td", "out", "out"));
    } else {
      const cards = view.hand_counts[seat];
      row.append(el("td", "num", `${cards} card${cards === 1 ? "" : "s"}`),
        el("td", view.opened[seat] ? "opened" : "dim", view.opened[seat] ? "opened" : "not opened"));
    }
    row.append(el("td", "num", `total ${view.totals[seat]}`));
    rows.push(row);
  }
  return rows;
}

// Each name on a line of its own, the numbers under it, where a name would be cut, or a label is wider than its
// cell even at its spaces ("cid (greedy)" at 360 px: its "(greedy)" ran over the cards column beside it).
export function fitNames(players) {
  players.classList.remove("long-names");
  const over = (node) => node.scrollWidth > node.clientWidth;
  const cut = [...players.querySelectorAll(".name")].some(over) || [...players.querySelectorAll("td.who")].some(over);
  players.classList.toggle("long-names", cut);
}

// The end of a hand as the terminal tabulates it: everyone's cards left, points, score, total.
export function handTable(view, result, seatLabel) {
  const table = el("table", "scores hand");
  if (!result) return table;
  const head = el("tr");
  for (const title of ["player", "cards left", "points", "this hand", "total"]) head.append(el("th", "", title));
  table.append(el("thead"));
  table.tHead.append(head);
  const rows = el("tbody");
  for (const seat of result.seats) {
    const row = el("tr");
    const who = el("th", "who");
    who.append(...seatLabel(seat));
    row.append(who);
    const left = el("td", "left");
    const cards = view.revealed ? sortedHand(view.revealed[seat]) : [];
    if (cards.length) cards.forEach((code) => left.append(cardNode(code), " ")); else left.textContent = "-";
    const score = result.scores[seat];
    row.append(left, el("td", "num", String(result.hand_points[seat])),
      el("td", "num", score ? (score > 0 ? "+" : "") + score : "0"), el("td", "num", String(view.totals[seat])));
    rows.append(row);
  }
  table.append(rows);
  return table;
}

// A score with its mark after it ("*" went out, " out" out of the game). The mark sits in a slot
// as wide in every cell of the sheet (the table's marks-star or marks-out), so that the numbers'
// last digits stand in one column, as on the terminal.
function scoreCell(score, mark) {
  const cell = el("td", "num");
  cell.append(el("span", "n", score), el("span", "mark", mark));
  return cell;
}

// Every hand's scores, "*" for who went out, and the totals: the terminal's score sheet.
export function scoreSheet(view, seatLabel, scoring) {
  const sheet = el("div");
  const table = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", "hand"));
  view.players.forEach((_, seat) => {
    const who = el("th", "who");
    who.append(...seatLabel(seat));
    head.append(who);
  });
  table.append(el("thead"));
  table.tHead.append(head);
  const rows = el("tbody");
  let wentOut = false;
  for (const result of view.results) {
    const row = el("tr");
    row.append(el("td", "num", String(result.number)));
    view.players.forEach((_, seat) => {
      const mark = result.winner === seat ? "*" : "";
      if (mark) wentOut = true;
      row.append(result.seats.includes(seat) ? scoreCell(String(result.scores[seat]), mark) : el("td", "num", ""));
    });
    rows.append(row);
  }
  const total = el("tr", "total");
  total.append(el("th", "", "total"));
  view.players.forEach((_, seat) => total.append(scoreCell(String(view.totals[seat]), view.eliminated[seat] ? " out" : "")));
  rows.append(total);
  table.append(rows);
  if (view.eliminated.some(Boolean)) table.classList.add("marks-out");
  else if (wentOut) table.classList.add("marks-star");
  sheet.append(table);
  if (!view.results.length) sheet.append(el("p", "dim", "No hand has ended yet."));
  if (wentOut) sheet.append(el("p", "dim", "* went out."));
  if (scoring) sheet.append(el("p", "dim", scoring));
  return sheet;
}

// The log's line for a hand's end (the state's ``hand_end`` event), as kalooki join tells it above its
// table: who went out (``said``: the host's sentence for it, when it sends its words), then each
// player's score for the hand and their total. ``mine``: this seat's name, "you" in the line.
export function handEndLine(event, said, mine) {
  const who = (name) => (name === mine ? "you" : name);
  const signed = (score) => (score > 0 ? `+${score}` : String(score));
  const listed = (scores, write) => Object.entries(scores).map(([name, score]) => `${who(name)} ${write(score)}`).join(", ");
  // "you" opens no sentence: a name, written as its player wrote it, may.
  const out = event.winner === mine ? "You" : event.winner;
  const how = said || (event.winner === null ? "Nobody went out." : `${out} went out.`);
  return `Hand ${event.hand} is over. ${how} This hand: ${listed(event.scores, signed)}. Totals: ${listed(event.totals, String)}.`;
}

// The log's lines for the ends among a state's ``events``: each hand's (its ``hand_end`` event), and the
// game's (``game_end``), who won, as the terminal heads its score sheet; the host's sentences where
// ``coach`` has them. ``mine``: this seat's name, "you" in the lines.
export function endLines(events, coach, mine) {
  const lines = [];
  for (const event of Array.isArray(events) ? events : []) {
    if (event && event.type === "hand_end") lines.push(handEndLine(event, coach && coach.hand_end ? coach.hand_end.lines[0] : null, mine));
    if (event && event.type === "game_end") lines.push(coach && coach.game_end ? coach.game_end.lines[0] : gameEndLine(event.winners, mine));
  }
  return lines;
}

function gameEndLine(winners, mine) {
  const who = (Array.isArray(winners) ? winners : []).map((name) => (name === mine ? "you" : name));
  if (!who.length) return "The game ended without a winner.";
  if (who.length > 1) return `${who.join(" and ")} share the win.`;
  return who[0] === "you" ? "You win the game!" : `${who[0]} wins the game!`;
}

// The log's lines for the hands dealt among a state's ``events`` (its ``deal`` events), in the terminal's
// words: "The game starts." (the host's) before the first, then the hand's heading, "Hand 2: bob plays
// first". ``mine``: this seat's name, "you" in the line.
export function dealLines(events, mine) {
  const lines = [];
  for (const event of Array.isArray(events) ? events : []) {
    if (!event || event.type !== "deal") continue;
    if (event.hand === 1) lines.push("The game starts.");
    lines.push(event.first === mine ? `Hand ${event.hand}: you play first` : `Hand ${event.hand}: ${event.first} plays first`);
  }
  return lines;
}

// A ``presence`` message as the terminal says it (kalooki_net.protocol.presence_line, the same words).
const PRESENCE = {
  joined: "joined the table",
  left: "dropped out: the table waits for them",
  back: "is back",
  bot_playing: "is away: a bot plays for them until they are back",
};
export const presenceLine = (message) =>
  message.free === true && message.status === "left"
    ? `${message.name} left the table.`
    : `${message.name} ${PRESENCE[message.status] || message.status}.`;

// The lobby's line on the game to be played: before the deal a player new to the table read nothing of
// which rules it plays. Its name and the knobs a newcomer asks about first, as the table has them (a
// variant's description may say otherwise of a table hosted with --set): "The game: classic: 13 cards
// each, 51 points to open, runs of 3 or more, 2 jokers."
export function lobbyGame(variant) {
  if (!variant || typeof variant.name !== "string") return "";
  const count = (knob) => (Number.isInteger(variant[knob]) ? variant[knob] : null);
  const facts = [];
  if (count("hand_size") !== null) facts.push(`${count("hand_size")} cards each`);
  if (count("opening_threshold") !== null) facts.push(count("opening_threshold") ? `${count("opening_threshold")} points to open` : "nothing to open");
  if (count("run_minimum") !== null) facts.push(`runs of ${count("run_minimum")} or more`);
  if (count("jokers") !== null) facts.push(count("jokers") === 0 ? "no jokers" : `${count("jokers")} joker${count("jokers") === 1 ? "" : "s"}`);
  return `The game: ${variant.name}${facts.length ? `: ${facts.join(", ")}` : ""}. Rules, at the top, has the whole rulebook.`;
}
