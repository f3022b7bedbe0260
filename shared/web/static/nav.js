// The bar across the top of every page.
const LINKS = [["/", "Tournament"], ["/tv", "TV"], ["/replays", "Replays"], ["/puzzles", "Puzzles"], ["/submit", "Hand in"]];

export function nav(active) {
  const bar = document.querySelector("header.nav");
  if (!bar) return;
  bar.innerHTML = `<a class="brand" href="/">Quoridor Arena</a>` +
    LINKS.map(([href, label]) => `<a href="${href}"${href === active ? ' class="active"' : ""}>${label}</a>`).join("") +
    `<span class="conn" id="conn"></span>`;
}

export function connState(text, ok) {
  const el = document.getElementById("conn");
  if (el) { el.textContent = text; el.className = "conn " + (ok ? "ok" : "bad"); }
}
