// The kalooki table in a browser (docs/browser.md lists its modules): this one opens the page, the join
// form or the seat taken back. Whatever a player or a variant wrote goes in with textContent only.
import { connect } from "./connection.js";
import { wireMoves } from "./moves.js";
import { $, banner, kept, me, show } from "./page.js";

const sameName = (one, other) => one.normalize("NFKC").toLowerCase() === other.normalize("NFKC").toLowerCase();

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  me.code = $("join-code").value.trim().toUpperCase();
  const name = $("join-name").value.trim();
  me.token = kept.token();
  // The seat kept here is its player's: another name typed sits anew, as kalooki join --name does
  // (a token kept without its name, by an older page, is used as before).
  const keptName = kept.name();
  if (me.token && keptName !== null && !sameName(keptName, name)) me.token = null;
  $("join-error").textContent = "";
  history.replaceState(null, "", `?code=${encodeURIComponent(me.code)}`);
  performance.mark("kalooki-join-sent");
  connect(name);
});
wireMoves();
$("join-code").value = me.code;
me.token = me.code ? kept.token() : null;
if (me.token) {
  banner("Taking your seat back…");
  connect(null);
} else {
  show("join");
}
