// Cards as the table writes them: codes ("7H", "TS", "JK") to shapes, names and the order of a hand.
// A card on the page shows its rank, its suit's shape and letter, red or black: the suit never rests
// on colour alone.
export const SUITS = { C: ["♣", "clubs", false], D: ["♦", "diamonds", true], H: ["♥", "hearts", true], S: ["♠", "spades", false] };
const SUIT_ORDER = "CDHS";
export const RANKS = "A23456789TJQK";
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

export const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

// A player's name, which never breaks: whole, or cut with an ellipsis where there is no room,
// and whole in its title.
export const nameNode = (name, className = "") => {
  const node = el("span", `name ${className}`.trim(), name);
  node.title = name;
  return node;
};

export const cardParts = (code) => {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code[0], suit: code[1] };
};
export const rankLabel = (rank) => (rank === "T" ? "10" : rank);
export const cardName = (code) => {
  const { rank, suit } = cardParts(code);
  if (!suit) return "joker";
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit][1]}`;
};
// What a screen reader says of a card: its name, and for a joker what the table's notes say of it,
// their cards in words ("9♥, laid by bob": "9 of hearts, laid by bob"; "6♣/♦/♠": "6 of clubs,
// diamonds or spades"), as a screen reader reads no suit's shape the way a player names it.
export const cardLabel = (code, standsFor = null) => cardName(code) + (standsFor ? ` standing for ${spokenNote(standsFor)}` : "");
const SUIT_WORDS = Object.fromEntries(Object.values(SUITS).map(([shape, name]) => [shape, name]));
const NOTE_CARDS = /(?<![\w♣♦♥♠])(10|[2-9AJQKT])([♣♦♥♠](?:\/[♣♦♥♠])*)/g;
export const spokenNote = (note) => note.replace(NOTE_CARDS, (_, rank, shapes) => {
  const suits = shapes.split("/").map((shape) => SUIT_WORDS[shape]);
  const named = suits.length > 1 ? `${suits.slice(0, -1).join(", ")} or ${suits[suits.length - 1]}` : suits[0];
  return `${RANK_NAMES[rank] || rank} of ${named}`;
});
export const cardText = (code) => (code === "JK" ? "JK" : rankLabel(code[0]) + SUITS[code[1]][0]);
// A sentence with its cards written as the page draws them ("you have no 3♦", "discard 10♠"): the
// host words refusals and hints in the move language's codes, which typed moves and the protocol keep.
// A joker stays JK; a card in brackets after one ("JK(7♠)") is already a note.
const CODES = /(?<!\w)(?<!JK\()(10|[2-9TJQKA])([CDHS])(?!\w)/g;
// 10C is a spelling of TC that a typed move may use, and a refusal quotes the move as typed.
const drawnCodes = (text) => text.replace(CODES, (_, rank, suit) => cardText((rank === "10" ? "T" : rank) + suit));
// What a mistyped card is told of how cards are written stays as written: drawn, its examples read
// "a suit (C D H S), e.g. 7♥, 10♣, 10♣, Q♠", two spellings of one card made one card twice.
const NOTATION = "write a rank (";
export const cardsInText = (text) => {
  const lesson = text.indexOf(NOTATION);
  return lesson < 0 ? drawnCodes(text) : drawnCodes(text.slice(0, lesson)) + text.slice(lesson);
};
export const sortKey = (code) => {
  if (code === "JK") return 4 * 20;
  return SUIT_ORDER.indexOf(code[1]) * 20 + RANKS.indexOf(code[0]);
};
export const sortedHand = (cards) => [...cards].sort((a, b) => sortKey(a) - sortKey(b));

// A card as the table draws it: the rank, the suit's shape and its letter (for colour-blind
// eyes the shape and letter say what red and black say), a joker with what it stands for.
export function cardNode(code, tag = "span", standsFor = null) {
  const node = el(tag, "card");
  const { rank, suit } = cardParts(code);
  if (suit) {
    node.classList.add(SUITS[suit][2] ? "red" : "black", "suit-" + suit);
    node.append(el("span", "rank", rankLabel(rank)), el("span", "pip", SUITS[suit][0]), el("span", "letter", suit));
  } else {
    node.classList.add("joker");
    node.append(el("span", "rank", "JK"));
    if (standsFor) node.append(el("span", "stands", `(${standsFor})`));
  }
  node.setAttribute("aria-label", cardLabel(code, standsFor));
  // A span's own label is read only where it has a role: as an image, the card is read by its name.
  if (tag === "span") node.setAttribute("role", "img");
  return node;
}

// Cards of one meld in the order the move language wants: a run low to high with each joker
// where the card it stands for belongs (the rest at the top, or at the bottom past an ace);
// a set, or anything else, as tapped. An ace sits where the variant's ace_in_runs lets it (below the
// two, above the king, or runs round the corner), and where it may sit both ways, where fewer jokers
// must fill the gaps between the cards (Q JK A: the joker is the king, not nine of them the two to the
// ten); where both need as many, low, as the engine reads an ace written first.
export function meldOrder(cards, aceInRuns = "high_or_low") {
  const plain = cards.filter((code) => code !== "JK");
  const suits = new Set(plain.map((code) => code[1]));
  const rank = (code) => RANKS.indexOf(code[0]) + 1;
  const ranks = plain.map(rank);
  if (suits.size !== 1 || new Set(ranks).size !== ranks.length || plain.length < 2) return cards;
  const high = (code) => (rank(code) === 1 ? 14 : rank(code));
  // Each way to read the ranks as places in the run, the first preferred where they tie: round the
  // corner, each card in turn the lowest (the lowest rank first: no turn of the corner at all).
  const readings = aceInRuns === "wrap"
    ? [...plain].sort((a, b) => rank(a) - rank(b)).map((first) => (code) => ((rank(code) - rank(first) + 13) % 13) + 1)
    : !ranks.includes(1) || aceInRuns === "low" ? [rank] : aceInRuns === "high" ? [high] : [rank, high];
  const jokers = cards.length - plain.length;
  let best = null;
  for (const place of readings) {
    const order = runOrder(plain, jokers, place);
    if (best === null || order.gaps < best.gaps) best = order;
  }
  return best.cards;
}

// ``plain`` (naturals of one suit, no rank twice) in the order of their places in the run (``place``:
// 1 for a low ace, 14 for a high one), with ``jokers`` jokers in the gaps and then at the top, or at the
// bottom past a high ace; ``gaps``: the jokers the gaps need.
function runOrder(plain, jokers, place) {
  const sorted = [...plain].sort((a, b) => place(a) - place(b));
  const out = [sorted[0]];
  let left = jokers;
  let gaps = 0;
  for (let index = 1; index < sorted.length; index += 1) {
    for (let gap = place(sorted[index]) - place(sorted[index - 1]) - 1; gap > 0; gap -= 1) {
      gaps += 1;
      if (left > 0) { out.push("JK"); left -= 1; }
    }
    out.push(sorted[index]);
  }
  const rest = Array(left).fill("JK");
  const cards = place(sorted[sorted.length - 1]) >= 14 ? [...rest, ...out] : [...out, ...rest];
  return { cards, gaps };
}

// The engine names the player ("ann must draw first"); at your own table, to ``name``, that is "you".
export function secondPerson(text, name) {
  for (const [said, meant] of [[`${name} has `, "you have "], [`${name} must `, "you must "]]) {
    if (text.startsWith(said)) return meant + text.slice(said.length);
  }
  return text;
}
