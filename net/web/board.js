// The parts of the table drawn from what the host sent this seat: the melds, the piles, the hand, the
// lines under it, a hint and the lobby's seats. Each function fills the elements it is given and calls
// back on a tap; what a tap means (and the page's state) stays in game.js and moves.js.
import { cardLabel, cardNode, cardsInText, cardText, el, nameNode, sortedHand } from "./cards.js";
import { groupText } from "./picks.js";
import { botLabel } from "./sheets.js";

// The table's melds, each a button ("meld 2, bob's: ..."): tapped, it is the target of a build or a swap.
// ``target``: the meld chosen (from 1), or null; ``seatName(seat)``: "you" or the player's name.
export function showMelds(list, title, view, coach, target, seatName, onPick) {
  list.replaceChildren();
  title.textContent = view.table.length ? "Table" : "Table: no melds yet";
  view.table.forEach((meld, index) => {
    const number = index + 1;
    const item = el("li");
    const button = el("button", "meld");
    button.type = "button";
    button.setAttribute("aria-pressed", String(target === number));
    button.title = "Choose this meld to build on or swap with";
    button.append(el("span", "meld-number", String(number)), nameNode(seatName(meld.owner), "owner"));
    const cards = el("span", "cards");
    const jokers = coach && coach.jokers[index] ? coach.jokers[index] : [];
    meld.cards.forEach((code, position) => cards.append(cardNode(code, "span", jokers[position] || null)));
    button.append(cards);
    // The button's name is all a screen reader says of it: each joker with its note, as on the card
    // (what it stands for, and who laid it where that decides who may take it).
    const labels = meld.cards.map((code, position) => cardLabel(code, jokers[position] || null));
    // "you" is the seat's own ("meld 1, yours"): no player may be called "you".
    const owner = seatName(meld.owner);
    const whose = owner === "you" ? "yours" : `${owner}'s`;
    button.setAttribute("aria-label", `meld ${number}, ${whose}: ${labels.join(", ")}`);
    button.addEventListener("click", () => onPick(number));
    item.append(button);
    list.append(item);
  });
}

// Under the melds, where a joker lies on the table: what its note says, and how a joker is won from
// the table (``swaps``: the table's rules free one), in the notes' own words ("closed", "laid by bob").
// A player new to the game read "JK (9♣, closed)" with nothing to say what they could do with it.
export function showJokerLegend(legend, coach, swaps) {
  const notes = (coach && Array.isArray(coach.jokers) ? coach.jokers.flat() : []).filter(Boolean);
  // A run's joker makes the example where there is one: a set's stands for one of several cards ("7♥/♠").
  const example = (notes.find((note) => !note.includes("/")) || notes[0] || "").split(", ")[0];
  const what = example.includes("/") ? "the cards it may stand for" : "the card it stands for";
  const lines = notes.length ? [`JK (${example}): a joker, and ${what}.`] : [];
  if (notes.length && swaps) {
    lines.push("Swap wins a joker from the table: tap its meld, then the cards that free it (Rules: Jokers on the table).");
  }
  if (notes.some((note) => note.includes(", closed"))) lines.push("closed: that joker stays on the table for good.");
  const layer = notes.map((note) => /, laid by (\S+)/.exec(note)).find(Boolean);
  if (layer) lines.push(`laid by ${layer[1]}: anyone but ${layer[1]} may take it.`);
  legend.hidden = !lines.length;
  legend.textContent = lines.join(" ");
}

export function showPiles(discard, stock, view) {
  discard.replaceChildren();
  const pile = view.discard_pile;
  if (pile.length) {
    discard.append(cardNode(pile[pile.length - 1]), el("span", "dim", ` (${pile.length} card${pile.length === 1 ? "" : "s"})`));
  } else {
    discard.append(el("span", "dim", "empty"));
  }
  stock.textContent = `${view.stock_count} card${view.stock_count === 1 ? "" : "s"}`;
}

// The card just drawn to mark as new in the hand, or null. ``seen`` keeps, from one redraw to the next,
// how many of it the hand held just after the draw: with two packs the hand may hold its twin, and once
// one of the two is laid the tag could be on either, so it goes (the terminal's rule).
export function newCardOf(view, myTurn, seen) {
  const card = myTurn && view.phase === "play" ? view.turn.drawn_card : null;
  if (!card) return null;
  const held = view.hand.filter((code) => code === card).length;
  const turn = `${view.hand_number}/${view.turn_number}`;
  if (seen.turn !== turn) Object.assign(seen, { turn, held });
  return held < seen.held ? null : card;
}

// The hand, sorted, a gap between suits: the cards tapped numbered in the order tapped (``selected``:
// indexes into the sorted hand), those in the melds kept so far off (``grouped``: a Set of such indexes),
// those the preview would lay marked, and ``newCard`` (just drawn) marked new.
export function showHand(hand, title, view, coach, selected, grouped, newCard, onTap) {
  hand.replaceChildren();
  title.textContent = handHeading(view);
  if (view.eliminated[view.seat]) return;
  const cards = sortedHand(view.hand);
  const couldLay = coach && coach.preview ? [...coach.preview.cards] : [];
  let previousSuit = null;
  cards.forEach((code, index) => {
    const button = cardNode(code, "button");
    button.type = "button";
    const suit = code === "JK" ? "J" : code[1];
    if (previousSuit !== null && suit !== previousSuit) button.classList.add("gap");
    previousSuit = suit;
    const chosen = selected.indexOf(index);
    button.setAttribute("aria-pressed", String(chosen >= 0));
    if (chosen >= 0) button.append(el("span", "order", String(chosen + 1)));
    // In a meld kept with "New group": laid with it, not to be tapped into another.
    if (grouped.has(index)) {
      button.disabled = true;
      button.classList.add("grouped");
      button.setAttribute("aria-label", button.getAttribute("aria-label") + ", in the melds so far");
    }
    const lay = couldLay.indexOf(code);
    if (lay >= 0) { couldLay.splice(lay, 1); button.classList.add("could"); }
    if (newCard && code === newCard) {
      newCard = null;
      button.classList.add("new");
      button.append(el("span", "new-mark", "new"));
      button.setAttribute("aria-label", button.getAttribute("aria-label") + ", just drawn");
    }
    button.addEventListener("click", () => onTap(index));
    hand.append(button);
  });
}

// The heading over the hand, where "Your hand (0)" said nothing of going out, and out of the game the
// terminal's words (watching only while the game goes on).
export function handHeading(view) {
  const over = view.phase === "hand_over" || view.phase === "game_over";
  if (view.eliminated[view.seat]) {
    return view.phase === "game_over" ? "You are out of the game." : "You are out of the game: watching the others play on.";
  }
  if (!over) return `Your hand (${view.hand.length})`;
  if (!view.hand.length) return "You went out: no cards left in your hand.";
  return `Cards left in your hand (${view.hand.length})`;
}

// The turn begun: the hand and the moves (``mine``, ending with ``moves``) brought into sight, where they
// are not (a phone, melds above them), unless the player is at something else by the keyboard (typing,
// a control reached with Tab, a dialog open): the page does not jump away from it.
export function bringIntoSight(mine, moves) {
  const active = document.activeElement;
  if (document.querySelector("dialog[open]") || (active && active.matches("input, textarea, :focus-visible"))) return;
  if (mine.getBoundingClientRect().top >= 0 && moves.getBoundingClientRect().bottom <= innerHeight) return;
  mine.scrollIntoView({ block: "start" });
  // Taller than the screen (a phone, a long hand and the lines under it): the buttons come first, with
  // as much of the hand above them as fits.
  if (moves.getBoundingClientRect().bottom > innerHeight) moves.scrollIntoView({ block: "end" });
}

// A hand or the game just ended (or a page opened on its end): its screen, who went out, the scores and who
// won, brought into sight where it is not (a phone, ten melds above it), unless the player is typing in the
// Say box or reading a dialog. The focus, lost with the move buttons and the Move box the end hides (a
// keyboard player's discard went out), goes to ``next`` (Next hand) where it is shown: Tab started again
// from the page's top.
export function bringEndIntoSight(screen, next) {
  const active = document.activeElement;
  if (!active || active === document.body || active.disabled || active.closest("[hidden]")) {
    if (!next.hidden && !next.disabled) next.focus({ preventScroll: true });
  }
  if (document.querySelector("dialog[open]") || document.activeElement === document.getElementById("say-input")) return;
  const top = screen.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) screen.scrollIntoView({ block: "start" });
}

// A move button pressed (Draw stock, Discard) is off until the move is answered, and a button turned off
// drops the focus to the page's top: a keyboard or screen-reader player lost their place at every move.
// Answered, the focus goes back to the button where it is on again (a refused Meld), else to the card just
// drawn, else to the hand's first card (``from``: what had the focus when the move was sent; ``moves``:
// the buttons; ``hand``: the cards).
export function keepFocus(from, moves, hand) {
  // A button turned off keeps the focus until the browser's next frame: off is lost already.
  const active = document.activeElement;
  const lost = !active || active === document.body || active.disabled;
  if (!lost || !from || !moves.contains(from)) return;
  const back = from.disabled || from.hidden ? null : from;
  const card = back || hand.querySelector(".new") || hand.querySelector("button:not(:disabled)");
  if (card) card.focus({ preventScroll: true });
}

// ``draw`` redraws ``list`` (the hand, the melds) anew: a button of it that had the focus (a card tapped by
// keyboard, or only moved to while another player moved) has it again, by its place, where the redraw
// would drop it to the page's top.
export function keepingFocus(list, draw) {
  const at = [...list.querySelectorAll("button")].indexOf(document.activeElement);
  draw();
  const buttons = list.querySelectorAll("button");
  if (at >= 0 && buttons.length) buttons[Math.min(at, buttons.length - 1)].focus({ preventScroll: true });
}

// The host's lines under the hand (whose turn, what it still needs), "You could lay ..." with a
// "Lay it" button when ``canLay`` and it opens, and the melds kept so far with "New group" ({cards, kind}).
// The terminal's words for laying several melds at once ("in one meld command"), which the host sends
// as they are: where they come, the page adds how its buttons do it.
export const ONE_COMMAND = "in one meld command";
export const BY_TAPPING = "By tapping: tap one meld's cards, New group, the next meld's cards, then Meld lays them all together.";

// The terminal's turn line names the moves to type ("ds (draw stock) or dd (draw discard: 2♠)", "(d CARD)"),
// codes a player at the page never met: here it names the buttons that make them (the Move box still
// takes the codes, and its help lists them).
export const pageWords = (line) => line
  .replace(/: ds \(draw stock\) or dd \(draw discard: (.+)\)$/, ": tap Draw stock, or Draw discard to take $1.")
  .replace(/: ds \(draw stock\)$/, ": tap Draw stock.")
  .replace("a card (d CARD)", "a card (tap it, then Discard)")
  .replace(/ or end the turn without one\.$/, ", or tap End turn to end it without one.");

export function showStatus(status, previewLine, staged, coach, canLay, groups, onLay) {
  status.replaceChildren();
  for (const line of coach ? coach.status : []) {
    status.append(el("p", line.startsWith("Your turn") ? "turn-line" : "", pageWords(line)));
    if (line.includes(ONE_COMMAND)) status.append(el("p", "dim", BY_TAPPING));
  }
  previewLine.replaceChildren();
  if (coach && coach.preview) {
    const preview = coach.preview;
    previewLine.append(el("span", preview.opens ? "" : "short", preview.text));
    if (canLay && preview.opens) {
      const lay = el("button", "small", "Lay it");
      lay.type = "button";
      lay.addEventListener("click", () => onLay(preview.moves));
      previewLine.append(" ", lay);
    }
  }
  staged.hidden = groups.length === 0;
  staged.textContent = groups.length ? "Melds so far: " + groups.map((group) => groupText(group, cardText)).join(", ") : "";
}

// A hint's moves, each a button that puts it in the move box, with its note; then its summary.
export function showHint(list, summary, message, onPick) {
  list.replaceChildren();
  message.moves.forEach((move, index) => {
    const item = el("li");
    // Written as the page draws cards; the move language reads it so, and typed back it plays the same move.
    const written = cardsInText(move);
    const button = el("button", "hint-move", written);
    button.type = "button";
    button.addEventListener("click", () => onPick(written));
    item.append(button);
    if (message.notes[index]) item.append(el("span", "dim", " " + message.notes[index]));
    list.append(item);
  });
  summary.textContent = message.summary || "";
}

// The move box's help: the moves the table's rules allow (as the host words them, with their short
// forms), then the box's own commands and what each does.
export function showCommands(list, moves, commands) {
  list.replaceChildren();
  for (const move of moves) list.append(el("li", null, move.key === move.usage ? move.usage : `${move.usage} | ${move.key}`));
  for (const command of commands) {
    const others = command.words.filter((word) => word !== command.usage.split(" ")[0]);
    const item = el("li", null, [command.usage, ...others].join(" | "));
    item.append(el("span", "dim", ` — ${command.meaning}`));
    list.append(item);
  }
}

// The lobby's seats: open, or who sits there, "(you)", "(host)", the bot, or "(away)".
export function showSeats(list, lobby, mySeat) {
  list.replaceChildren();
  for (const seat of lobby.seats) {
    let text = `Seat ${seat.seat + 1}: `;
    if (seat.kind === "open") text += "open";
    else text += seat.name + (seat.seat === mySeat ? " (you)" : "") + (seat.host ? " (host)" : "")
      + (seat.kind === "bot" ? ` (${botLabel(seat.bot)})` : seat.connected ? "" : " (away)");
    list.append(el("li", seat.kind, text));
  }
}

// Whether the table's rules have the move ``key`` ("dd", "s"), from the welcome's list of moves (a host
// that sends none allows them all).
export const offered = (moveCommands, key) => !moveCommands.length || moveCommands.some((command) => command.key === key);

// Why this seat may not move now, or null when it may: the connection gone, its move not answered yet,
// the hand over, out of the game, or another's turn.
export function whyNotNow(view, mySeat, pending, connected) {
  if (!connected) return "Not connected to the table";
  if (pending) return "Waiting for the table to answer your move";
  if (view.phase !== "draw" && view.phase !== "play") return "The hand is over";
  if (view.eliminated[mySeat]) return "You are out of the game";
  return view.current === mySeat ? null : `It is ${view.players[view.current]}'s turn`;
}

// A button off, with why (``why``), or on (``why`` null). An off button once said nothing of what it waited
// for ("draw first", "tap a meld"): why is its title, shown under a pointer held over it and read by a
// screen reader; on again, its own title (what it does) is back.
function offBecause(button, why) {
  if (button.dataset.title === undefined) button.dataset.title = button.title;
  button.disabled = Boolean(why);
  button.title = why || button.dataset.title;
}

// A tap on a move button that is off says why under the buttons (``why``: the line for it), where a phone
// shows no title: the browser sends an off button no click, but it does send the pointer's release.
export function sayWhyOff(buttons, why) {
  buttons.addEventListener("pointerup", (event) => {
    const button = event.target.closest("button");
    if (button && button.disabled && button.title) whyOff(button, why);
  });
}
const whyOff = (button, why) => { why.textContent = `${button.textContent}: ${button.title.charAt(0).toLowerCase()}${button.title.slice(1)}.`; };

// A tap on a pile draws from it as its ``button`` does, or says why not: a player new to the page tapped
// the card they wanted, and nothing happened.
export function drawnByTap(pile, button, why) {
  pile.addEventListener("click", () => {
    if (button.hidden) return;
    if (!button.disabled) button.click();
    else if (button.title) whyOff(button, why);
  });
}

// The move buttons as the turn and the cards tapped allow (``$``: the page's elements by id; ``picks``:
// what was tapped; ``notNow``: why this seat may not move now, from whyNotNow, or null; ``moveCommands``:
// the moves the table's rules allow, from the welcome).
export function showButtons($, view, picks, notNow, moveCommands) {
  $("why-off").textContent = "";  // said of the buttons as they were
  const playing = !notNow && view.phase === "play";
  const count = picks.count;
  const target = picks.target;
  const drawn = notNow || (view.phase === "draw" ? null : "You have drawn this turn");
  offBecause($("draw-stock"), drawn);
  offBecause($("draw-discard"), drawn || (view.discard_pile.length ? null : "The discard pile is empty"));
  const notPlaying = notNow || (playing ? null : "Draw a card first");
  offBecause($("meld-button"), notPlaying || (count || picks.groups.length ? null : "Tap the cards of a meld in your hand first"));
  offBecause($("group-button"), notPlaying || (count ? null : "Tap the cards of one meld first"));
  const toBuild = target === null ? (count ? "Tap a meld on the table to build on" : "Tap cards in your hand and a meld on the table first")
    : count ? null : "Tap the cards in your hand to build with";
  offBecause($("build-button"), notPlaying || toBuild);
  // Jokers onto a run could go at either end: a button for each, as "b 6 JK low" and "b 6 JK high".
  const ends = playing && picks.eitherEnd(view.hand, view.table);
  $("build-button").textContent = target === null ? "Build (tap a meld)" : `Build ${ends ? "high " : ""}on meld ${target}`;
  $("build-low-button").hidden = !ends;
  $("build-low-button").textContent = `Build low on meld ${target}`;
  offBecause($("swap-button"), notPlaying || (picks.swappable(view.table) ? null : "Tap a meld with a joker, then the card it stands for"));
  $("swap-button").textContent = target === null ? "Swap" : `Swap on meld ${target}`;
  offBecause($("discard-button"), notPlaying || (count === 1 ? null : count ? "Tap one card only to discard it" : "Tap the card to discard first"));
  // Only where the variant lets a turn end without a discard, and only while it may: a hidden
  // button is no invitation where the rule does not exist.
  $("end-button").hidden = !playing || !view.can_end_turn;
  // Nor where the rule never exists: the discard never taken, no joker ever freed (czech-500), as the
  // welcome's list of moves leaves them out (a host that sends none allows them all).
  $("draw-discard").hidden = !offered(moveCommands, "dd");
  $("swap-button").hidden = !offered(moveCommands, "s");
  offBecause($("clear-button"), picks.anything ? null : "Nothing tapped to clear");
  // One card and jokers could be a set or a run: the player says which, as "m JK 6H JK run" does.
  const lone = playing && picks.lone(view.hand);
  $("reading").hidden = !lone;
  if (lone) $("reading-cards").textContent = picks.cards(view.hand).map(cardText).join(" ");
  for (const kind of ["set", "run"]) $(`as-${kind}`).setAttribute("aria-pressed", String(picks.reading === kind));
  offBecause($("undo-button"), notNow || (view.can_undo ? null : "Nothing laid this turn to take back"));
  offBecause($("hint-button"), notNow);
  // The Move box's Play stays on: the box's commands (say, help, score...) work on the others' turns
  // too, and a disabled submit button would stop Enter; a move out of turn gets the table's refusal.
}
