"use strict";
// Everything shown comes from the boards: it is set as text, never as HTML.
const SVGNS = "http://www.w3.org/2000/svg";
const W = 300, X0 = 7, ROW = 20;

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function holeX(hole, target) { return X0 + (W - 2 * X0) * hole / target; }

function track(b) {
  const sides = b.front.length;
  const svg = el("svg:svg", {viewBox: `0 0 ${W} ${ROW * sides + 2}`, role: "img",
                             "aria-label": "tracks of board " + b.board});
  const target = b.target || 121;
  for (const line of [target - 90, target - 60, target - 30]) {  // the skunk lines
    const x = holeX(line, target);
    svg.appendChild(el("svg:line", {x1: x, x2: x, y1: 2, y2: ROW * sides + 4, class: "line"}));
  }
  for (let s = 0; s < sides; s++) {
    const y = 11 + s * ROW;
    for (let h = 0; h <= target; h += 1) {
      svg.appendChild(el("svg:circle", {cx: holeX(h, target), cy: y, r: h % 5 ? 0.7 : 1.2, class: "hole"}));
    }
    const back = el("svg:circle", {cx: holeX(b.back[s], target), cy: y, r: 3.6, class: `peg back s${s}`,
                                   "data-side": s, "data-hole": b.back[s]});
    const front = el("svg:circle", {cx: holeX(b.front[s], target), cy: y, r: 4.6, class: `peg front s${s}`,
                                    "data-side": s, "data-hole": b.front[s]});
    svg.appendChild(back);
    svg.appendChild(front);
  }
  return svg;
}

// At a club night a board is its table: the card's name, and what is said before its scores.
function label(b) { return b.table ? `table ${b.table.tab}` : "board " + b.board.slice(-6); }

function boardCard(b) {
  // The night says which game a board holds: the table whose result is the game on the board, or the
  // one being played there.
  const t = b.table;
  const card = el("div", {class: "board", "data-board": b.board});
  const head = el("h2");
  head.appendChild(el("span", {class: "label"}, label(b)));
  let where = b.deal ? `game ${b.game}, deal ${b.deal}` : "waiting";
  if (t && t.round) where = `game ${t.round}: ${t.players.join(" v ")}`;
  else if (t && b.game_over) where = "game over, not a game of the night";
  head.appendChild(el("small", {class: "where"}, where));
  card.appendChild(head);
  if (t) card.appendChild(el("div", {class: "id"}, "board " + b.board.slice(-6)));
  card.appendChild(track(b));
  b.names.forEach((boardName, s) => {
    const row = el("div", {class: `side s${s}`});
    // The seat's player is the night's; the board's own name stays beside it.
    const seated = t && t.round && t.players[s];
    const name = seated && seated !== boardName ? `${seated} (${boardName})` : boardName;
    const won = b.game_over && b.winner === s;
    const label = name + (b.dealer === s && !b.game_over ? " (crib)" : "") + (won ? " wins" : "");
    row.appendChild(el("span", {class: won ? "won" : ""}, label));
    row.appendChild(el("span", {class: "score", "data-side": s}, String(b.front[s])));
    card.appendChild(row);
  });
  return card;
}

function standings(night) {
  const box = document.getElementById("standings");
  const notes = document.getElementById("notes");
  box.replaceChildren();
  notes.replaceChildren();
  if (!night) { box.textContent = "no club night: the director starts one with crib club night"; return; }
  document.getElementById("night-title").textContent = night.name + ": standings";
  if (night.error) { box.textContent = night.error; return; }
  // The director's notes: tables with no finished game yet, games that fit no table.
  for (const n of night.notes || []) notes.appendChild(el("li", {}, n));
  if (!night.standings.some((r) => r.games)) box.appendChild(el("p", {}, "no game finished yet"));
  const t = el("table", {id: "standings-table"});
  const head = el("tr");
  for (const h of ["place", "player", "games", "won", "points", "spread", "skunks"]) head.appendChild(el("th", {}, h));
  t.appendChild(head);
  for (const r of night.standings) {
    const tr = el("tr", {"data-player": r.player, class: r.place ? "" : "unplaced"});
    const spread = (r.spread > 0 ? "+" : "") + r.spread;
    for (const v of [r.place || "-", r.player, r.games, r.won, r.points, spread, r.skunks]) tr.appendChild(el("td", {}, String(v)));
    t.appendChild(tr);
  }
  box.appendChild(t);
  if (night.pots && night.pots.length) {
    box.appendChild(el("h1", {}, "Side pots"));
    const list = el("ul", {id: "pots"});
    for (const p of night.pots) {
      const cards = p.cards ? " " + p.cards : "";
      list.appendChild(el("li", {}, `game ${p.round}: ${p.player}, ${p.kind}${cards} (${p.why})`));
    }
    box.appendChild(list);
  }
}

// New scores said once each: a line in the live region for a screen reader, and aloud when 'Speak
// scores' is on. What a board holds when the page opens (or when the board first appears) is not said,
// only the pegs that come after; a reconnect or a redraw of the same room says nothing again.
const heard = new Map();  // board -> the seq of its newest peg this page has seen
const SAID_KEPT = 20;  // lines left in the live region (a reader has heard the older ones)

function newScores(room) {
  const lines = [];
  const several = room.boards.length > 1;
  for (const b of room.boards) {
    const said = b.said || [];
    if (heard.has(b.board)) {
      const last = heard.get(b.board), where = label(b);
      const head = several ? where[0].toUpperCase() + where.slice(1) + ". " : "";  // "Table 2. Ann: ..."
      for (const p of said) if (p.seq > last) lines.push(head + p.text);
    }
    // The newest peg in force: an undo that took one back leaves an older one, and nothing is said again.
    heard.set(b.board, said.length ? said[said.length - 1].seq : 0);
  }
  return lines;
}

const speaker = (() => {
  const KEY = "crib-speak";  // "on" or nothing: off unless this browser's button turned it on
  const button = document.getElementById("speak");
  const note = document.getElementById("speak-note");
  const synth = window.speechSynthesis;
  button.hidden = false;  // without this script the button could do nothing, so it stays hidden
  if (!synth || !window.SpeechSynthesisUtterance) {
    button.disabled = true;
    button.textContent = "Speak scores (this browser cannot speak)";
    return {say() {}};
  }
  const on = () => localStorage.getItem(KEY) === "on";
  const show = () => button.setAttribute("aria-pressed", String(on()));
  button.addEventListener("click", () => {
    if (on()) { localStorage.removeItem(KEY); synth.cancel(); } else localStorage.setItem(KEY, "on");
    show();
  });
  window.addEventListener("storage", (e) => { if (e.key === KEY) show(); });  // another tab chose
  // A browser may refuse to speak for a page nobody has clicked yet (Chromium's rule): say so until then.
  // (on the click, not the press: the note going moves the header, and the press's click with it)
  for (const kind of ["click", "keydown"]) document.addEventListener(kind, () => { note.hidden = true; });
  show();
  return {say(text) {
    if (!on()) return;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = document.documentElement.lang || "en";
    u.onerror = (e) => { if (e.error === "not-allowed") note.hidden = false; };
    synth.speak(u);
  }};
})();

function announce(room) {
  const region = document.getElementById("said");
  for (const line of newScores(room)) {
    region.appendChild(el("p", {}, line));
    speaker.say(line);
  }
  while (region.childElementCount > SAID_KEPT) region.firstElementChild.remove();
}

function render(room) {
  announce(room);
  const boards = document.getElementById("boards");
  boards.replaceChildren(...room.boards.map(boardCard));
  standings(room.night);
  const status = room.error ? room.error : "live · " + new Date().toLocaleTimeString();
  document.getElementById("status").textContent = status;
}

function connect() {
  const source = new EventSource("/api/stream");
  source.onmessage = (e) => render(JSON.parse(e.data));
  source.onerror = () => { document.getElementById("status").textContent = "reconnecting…"; };
}
connect();
