// The bar across the top of every page.
const LINKS = [["/", "Tournament"], ["/tv", "TV"], ["/replays", "Replays"], ["/puzzles", "Puzzles"], ["/submit", "Hand in"]];

export function nav(active) {
  const bar = document.querySelector("header.nav");
  if (!bar) return;
  bar.innerHTML = `<a class="brand" href="/">Quoridor Arena</a>` +
    LINKS.map(([href, label]) => `<a href="${href}"${href === active ? ' class="active"' : ""}>${label}</a>`).join("") +
    `<span class="conn" id="conn"></span>`;
  if (active === ORGANISER[0]) showOrganiser();
}

/** The organiser's page (`/organiser`): linked once the server's welcome says it has one (`organiser_page`). */
const ORGANISER = ["/organiser", "Organiser"];

/** Add the organiser's page to the bar (a server with an organiser's key said so in its welcome). */
export function showOrganiser() {
  const bar = document.querySelector("header.nav");
  if (!bar || bar.querySelector(`a[href="${ORGANISER[0]}"]`)) return;
  const link = document.createElement("a");
  link.href = ORGANISER[0];
  link.textContent = ORGANISER[1];
  if (location.pathname === ORGANISER[0]) link.className = "active";
  bar.insertBefore(link, bar.querySelector("#conn"));
}

export function connState(text, ok) {
  const el = document.getElementById("conn");
  if (el) { el.textContent = text; el.className = "conn " + (ok ? "ok" : "bad"); }
}

/** The close reason of the normal close that follows `tournament_over` (docs/protocol.md). */
export const TOURNAMENT_OVER = "tournament over";

/** Say why the page's connection closed: the tournament has finished (`over`, or the server's own reason), or not. */
export function closedState(event, over = false) {
  if (over || (event.code === 1000 && event.reason === TOURNAMENT_OVER)) {
    connState("the tournament has finished · the server has closed", true);
    document.body.dataset.closed = "finished";
  } else {
    connState("disconnected", false);
    document.body.dataset.closed = "disconnected";
  }
}
