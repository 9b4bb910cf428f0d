// What the page keeps in the browser's storage for one table (its address and join code): the
// seat's token, to take the seat back after a reload, the name it was taken as, and the log beside
// it, for that token only.
// A reload (or a browser started again) shows what was said and played before it; a seat taken
// anew starts with an empty log. Storage may be refused (private mode, a full quota): then the page
// keeps nothing, and the screen alone holds the log.
const LOG_KINDS = ["said", "presence", "turn"];

export class Kept {
  // key(): the table's storage key, read each time (the join code is typed after the page loads).
  constructor(key, limit) {
    this.key = key;
    this.limit = limit;
    this.lines = [];  // the log's lines, oldest first, as [kind, text]
  }

  token() {
    try { return localStorage.getItem(this.key()); } catch (error) { return null; }
  }

  // The name the kept token's seat was taken as; null where none is kept (or a page before names were
  // kept stored the token alone).
  name() {
    try { return localStorage.getItem(this.nameKey()); } catch (error) { return null; }
  }

  keepToken(token, name) {
    try {
      localStorage.setItem(this.key(), token);
      localStorage.setItem(this.nameKey(), name);
    } catch (error) { /* private mode: no rejoin */ }
  }

  forget() {
    try {
      localStorage.removeItem(this.key());
      localStorage.removeItem(this.nameKey());
    } catch (error) { /* nothing kept */ }
    this.forgetLog();
  }

  forgetLog() {
    this.lines = [];
    try { localStorage.removeItem(this.logKey()); } catch (error) { /* nothing kept */ }
  }

  // A line shown in the log, kept for the seat that holds ``token``.
  keepLine(kind, text, token) {
    this.lines.push([kind, text]);
    this.lines = this.lines.slice(-this.limit);
    try {
      localStorage.setItem(this.logKey(), JSON.stringify({ token, lines: this.lines }));
    } catch (error) { /* full, or private mode: the log is on the screen only */ }
  }

  // The lines kept for ``token``, as [kind, text]: none for another seat's token, and none of what
  // is not a line this page writes (storage another page, or a person, may have changed).
  storedLines(token) {
    let stored = null;
    try { stored = JSON.parse(localStorage.getItem(this.logKey())); } catch (error) { return []; }
    if (!stored || stored.token !== token || !Array.isArray(stored.lines)) return [];
    return stored.lines.filter((line) => Array.isArray(line) && LOG_KINDS.includes(line[0]) && typeof line[1] === "string");
  }

  logKey() {
    return `${this.key()}:log`;
  }

  nameKey() {
    return `${this.key()}:name`;
  }
}
