// What the player has tapped towards a move, and the moves it makes in the move language: cards of
// the hand in the order tapped, the melds kept so far with "New group", and the table's meld chosen
// to build on or swap with. The page's buttons send what these methods write.
import { meldOrder, sortedHand } from "./cards.js";

export class Picks {
  constructor() {
    this.clear();
  }

  clear() {
    this.selected = [];  // indexes into the sorted hand, in the order tapped
    this.groups = [];    // melds kept with "New group", each a list of card codes
    this.target = null;  // the table's meld tapped (from 1)
  }

  // The hand or the table changed: the cards tapped and the meld chosen mean nothing now; the melds
  // kept so far stay while ``keepGroups`` (the same turn goes on).
  refresh(keepGroups) {
    this.selected = [];
    this.target = null;
    if (!keepGroups) this.groups = [];
  }

  get count() {
    return this.selected.length;
  }

  get anything() {
    return this.selected.length > 0 || this.groups.length > 0 || this.target !== null;
  }

  // The card at ``index`` of the sorted hand tapped: chosen (numbered after the others), or no more.
  tap(index) {
    const at = this.selected.indexOf(index);
    if (at >= 0) this.selected.splice(at, 1); else this.selected.push(index);
  }

  // The table's meld ``number`` tapped: chosen, or no more.
  pick(number) {
    this.target = this.target === number ? null : number;
  }

  cards(hand) {
    const sorted = sortedHand(hand);
    return this.selected.map((index) => sorted[index]);
  }

  // "New group": the cards tapped become one meld of those to lay together.
  keepGroup(hand) {
    this.groups.push(meldOrder(this.cards(hand)));
    this.selected = [];
  }

  // The melds kept and the cards tapped, laid together; null with nothing chosen.
  meldMove(hand) {
    const all = [...this.groups];
    if (this.selected.length) all.push(meldOrder(this.cards(hand)));
    return all.length ? "m " + all.map((group) => group.join(" ")).join(", ") : null;
  }

  buildMove(hand) {
    return `b ${this.target} ${meldOrder(this.cards(hand)).join(" ")}`;
  }

  swapMove(hand) {
    return `s ${this.target} ${this.cards(hand)[0]}`;
  }

  discardMove(hand) {
    return `d ${this.cards(hand)[0]}`;
  }
}
