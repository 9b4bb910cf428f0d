// What the player has tapped towards a move, and the moves it makes in the move language: cards of
// the hand in the order tapped, how to read them where they could be a set or a run, the melds kept
// so far with "New group", and the table's meld chosen to build on or swap with. The page's buttons
// send what these methods write.
import { meldOrder, sortedHand } from "./cards.js";

export class Picks {
  constructor() {
    this.aceInRuns = "high_or_low"; // the variant's ace_in_runs (the welcome says it): where a run's ace may sit
    this.clear();
  }

  clear() {
    this.selected = [];  // indexes into the sorted hand, in the order tapped
    this.reading = null; // "set" or "run" where the cards tapped could be either (see lone), else null
    this.groups = [];    // melds kept with "New group", each {cards, kind}: card codes, "set", "run" or null
    this.target = null;  // the table's meld tapped (from 1)
  }

  // The hand or the table changed: the melds kept so far stay while ``keepGroups`` (the same turn) and
  // ``hand`` holds their cards; the cards tapped in ``before`` (null: none stay) stay while in it (a draw
  // untapped them all); the meld chosen only with ``keepTarget``.
  refresh(keepGroups, hand, before = null, keepTarget = false) {
    const tapped = before ? this.cards(before) : [];
    this.selected = [];
    this.reading = null;
    if (!keepTarget) this.target = null;
    if (!keepGroups) this.groups = [];
    const left = [...hand];
    this.groups = this.groups.filter((group) => {
      const at = [];
      for (const code of group.cards) {
        const index = left.findIndex((card, position) => card === code && !at.includes(position));
        if (index < 0) return false;
        at.push(index);
      }
      for (const index of at.sort((a, b) => b - a)) left.splice(index, 1);
      return true;
    });
    const sorted = sortedHand(hand);
    const grouped = this.grouped(hand);
    for (const code of tapped) {
      const index = sorted.findIndex((card, at) => card === code && !grouped.has(at) && !this.selected.includes(at));
      if (index >= 0) this.selected.push(index);
    }
  }

  get count() {
    return this.selected.length;
  }

  get anything() {
    return this.selected.length > 0 || this.groups.length > 0 || this.target !== null;
  }

  // The card at ``index`` of the sorted hand tapped: chosen (numbered after the others), or no more. A
  // card in a meld kept so far is no more the hand's to play (the table would refuse it twice).
  tap(index, hand) {
    if (this.grouped(hand).has(index)) return;
    const at = this.selected.indexOf(index);
    if (at >= 0) this.selected.splice(at, 1); else this.selected.push(index);
    if (!this.lone(hand)) this.reading = null;
  }

  // The table's meld ``number`` tapped: chosen, or no more.
  pick(number) {
    this.target = this.target === number ? null : number;
  }

  // The sorted hand's indexes of the cards in the melds kept so far: each card of a meld takes the first
  // card of its kind not taken already (two decks hold two of a card).
  grouped(hand) {
    const sorted = sortedHand(hand);
    const taken = new Set();
    for (const code of this.groups.flatMap((group) => group.cards)) {
      const index = sorted.findIndex((card, at) => card === code && !taken.has(at));
      if (index >= 0) taken.add(index);
    }
    return taken;
  }

  cards(hand) {
    const sorted = sortedHand(hand);
    return this.selected.map((index) => sorted[index]);
  }

  // One natural card and jokers (JK 6H JK): a set of sixes, or a run read low to high as tapped (5-6-7).
  // The move language says which by a last word; unsaid, a set wherever a set may hold that many cards.
  lone(hand) {
    const cards = this.cards(hand);
    return cards.length >= 3 && cards.filter((code) => code !== "JK").length === 1;
  }

  // "set" or "run" chosen for the cards tapped; chosen again, unsaid.
  read(kind) {
    this.reading = this.reading === kind ? null : kind;
  }

  // The cards tapped as one meld to lay: in the move language's order, read as chosen.
  group(hand) {
    return { cards: meldOrder(this.cards(hand), this.aceInRuns), kind: this.lone(hand) ? this.reading : null };
  }

  // "New group": the cards tapped become one meld of those to lay together.
  keepGroup(hand) {
    this.groups.push(this.group(hand));
    this.selected = [];
    this.reading = null;
  }

  // The melds kept and the cards tapped, laid together; null with nothing chosen.
  meldMove(hand) {
    const all = [...this.groups];
    if (this.selected.length) all.push(this.group(hand));
    return all.length ? "m " + all.map((group) => groupText(group)).join(", ") : null;
  }

  // Only jokers tapped towards a run on the table (``table``: the view's melds) that either end of it can
  // take: the move says which end ("b 6 JK low"). Unsaid, the engine tries the top, then the bottom: so
  // where one end only can take them (J Q K A), one plain Build.
  eitherEnd(hand, table) {
    const meld = this.target === null ? null : table[this.target - 1];
    const cards = this.cards(hand);
    if (!meld || meld.kind !== "run" || !cards.length || !cards.every((code) => code === "JK")) return false;
    return endTakes(meld, cards.length, "high", this.aceInRuns) && endTakes(meld, cards.length, "low", this.aceInRuns);
  }

  // ``end``: "low" or "high" where the player chose the run's end, else null.
  buildMove(hand, end = null) {
    return `b ${this.target} ${[...meldOrder(this.cards(hand), this.aceInRuns), ...(end ? [end] : [])].join(" ")}`;
  }

  // One card tapped towards a meld with a joker in it (``table``: the view's melds): elsewhere there is no
  // joker to free, and the table could only refuse the swap.
  swappable(table) {
    const meld = this.target === null ? null : table[this.target - 1];
    return this.selected.length === 1 && Boolean(meld) && meld.cards.includes("JK");
  }

  swapMove(hand) {
    return `s ${this.target} ${this.cards(hand)[0]}`;
  }

  discardMove(hand) {
    return `d ${this.cards(hand)[0]}`;
  }
}

// A meld group as the move language writes it, its cards (each as ``write`` writes it) and then the
// reading where one was chosen: "JK 6H JK run".
export const groupText = (group, write = (code) => code) =>
  [...group.cards.map(write), ...(group.kind ? [group.kind] : [])].join(" ");

// Whether ``count`` jokers fit at the ``side`` end of the run ``meld`` (the view's: its first position
// ``rank``, 1 an ace below the two, 14 one above the king), as the library's run frame says
// (kalooki/rules.py, RunFrame.span_ok, under ace_in_runs): at most 13 cards, and no end past an ace
// where the ace may not sit; a run round the corner has no end.
function endTakes(meld, count, side, aceInRuns) {
  const length = meld.cards.length + count;
  if (length > 13) return false;
  if (aceInRuns === "wrap") return true;
  const low = side === "high" ? meld.rank : meld.rank - count;
  const lowest = aceInRuns === "high" ? 2 : 1;
  const highest = aceInRuns === "low" ? 13 : 14;
  return lowest <= low && low + length - 1 <= highest;
}
