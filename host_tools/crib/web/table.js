"use strict";
// A seat at a remote table: its view from the server (long polls), its moves sent with a seq each, so a
// move sent again after a lost answer is applied once. Everything shown is set as text, never as HTML.
const SVGNS = "http://www.w3.org/2000/svg";
const W = 300, X0 = 7, ROW = 20;
const RANKS = "A23456789TJQK", SUITS = "♠♥♦♣";
const root = document.getElementById("table");
const code = root.dataset.code;
const KEY = "crib-table-" + code;
let me = JSON.parse(localStorage.getItem(KEY) || "null");  // {seat, token, share}: a reload rejoins
let view = null, picked = [], sending = null;

function $(id) { return document.getElementById(id); }
function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function card(c) { return RANKS[c >> 2] + SUITS[c & 3]; }
function cards(cs) { return cs.map(card).join(" "); }
function holeX(hole, target) { return X0 + (W - 2 * X0) * hole / target; }
function status(text) { $("status").textContent = text; }

function randomShare() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
}

async function api(path, body, token) {
  const headers = {"content-type": "application/json"};
  if (token) headers.authorization = "Bearer " + token;
  const r = await fetch(path, body === undefined ? {headers} : {method: "POST", headers, body: JSON.stringify(body)});
  const got = await r.json().catch(() => ({error: "the server said " + r.status}));
  if (!r.ok) { const e = new Error(got.error || r.status); e.status = r.status; throw e; }
  return got;
}

// Seats sit in playing order; a seat's side is seat % sides (the seat itself, but partners in 2 v 2).
function sideOf(v, seat) { return seat % v.scores.length; }
function seatName(v, s) { return (v.seats[s] || {}).name || "seat " + (s + 1); }
function sideName(v, side) {
  const seats = v.seats.map((_x, s) => s).filter(s => sideOf(v, s) === side);
  return seats.map(s => seatName(v, s) + (s === v.seat ? " (you)" : "")).join(" & ");
}

function track(v) {
  const rows = v.scores.length;
  const svg = el("svg:svg", {viewBox: `0 0 ${W} ${ROW * rows + 2}`, role: "img", "aria-label": "the pegging board"});
  for (const line of [v.target - 90, v.target - 60, v.target - 30]) {
    const x = holeX(line, v.target);
    svg.appendChild(el("svg:line", {x1: x, x2: x, y1: 2, y2: ROW * rows + 4, class: "line"}));
  }
  for (let s = 0; s < rows; s++) {
    const y = 11 + s * ROW;
    for (let h = 0; h <= v.target; h++) {
      svg.appendChild(el("svg:circle", {cx: holeX(h, v.target), cy: y, r: h % 5 ? 0.7 : 1.2, class: "hole"}));
    }
    // The back peg, as on a real board and the scoreboard: where the seat's last peg came from (the view
    // keeps the game's last twelve pegs; a seat with none among them has its back peg under the front).
    const last = v.pegs.filter(p => sideOf(v, p[1]) === s).pop();
    const back = last ? Math.max(0, v.scores[s] - last[2]) : v.scores[s];
    svg.appendChild(el("svg:circle", {cx: holeX(back, v.target), cy: y, r: 3.6, class: `peg back s${s}`,
                                      "data-side": s, "data-hole": back}));
    svg.appendChild(el("svg:circle", {cx: holeX(v.scores[s], v.target), cy: y, r: 4.6, class: `peg front s${s}`,
                                      "data-side": s, "data-hole": v.scores[s]}));
  }
  return svg;
}

// The cards each seat has laid this deal, a line a seat in its peg's colour: a lay that ends the count (a 31,
// a go) or the play is still on the table, as cards laid on a real one are.
function lays(v, laid, deal) {
  const out = [];
  for (let s = 0; s < v.seats.length; s++) {
    const name = seatName(v, s);
    const line = el("span", {class: `lays s${sideOf(v, s)}`}, name + (s === v.seat ? " (you)" : "") + ": ");
    for (const [who, c] of laid) {
      if (who === s) line.appendChild(el("span", {class: "laid", "data-lay": `${deal}:${s}:${c}`}, card(c) + " "));
    }
    out.push(line);
  }
  return out;
}

function render(v) {
  view = v;
  $("join").hidden = true;
  $("play").hidden = false;
  $("empty").hidden = !v.seats.some(s => !s);
  const board = $("board");
  board.replaceChildren(track(v));
  const two = v.seats.length === 2;
  v.scores.forEach((score, side) => {
    const row = el("div", {class: `side s${side}`, "data-side": side});
    if (two) row.setAttribute("data-seat", side);
    // a row a side: each seat's name, or the partners' in 2 v 2; an empty seat says so
    let label = v.seats.some((x, s) => x && sideOf(v, s) === side) || !two ? sideName(v, side) :
      "(empty seat)";
    // (in 2 v 2 the row is two players': which of them deals)
    const paired = v.scores.length < v.seats.length;
    if (v.dealer !== null && sideOf(v, v.dealer) === side) label += paired ? ` (crib: ${seatName(v, v.dealer)})` : " (crib)";
    if (v.winner === side) label += " wins";
    row.appendChild(el("span", {}, label));
    row.appendChild(el("span", {class: "score"}, String(score)));
    board.appendChild(row);
  });
  const mine = v.awaited.includes(v.seat);
  const throwing = v.phase === "discard" && !v.thrown.length;
  const toThrow = v.to_throw || 2;
  const layer = v.phase === "play" ? seatName(v, v.awaited[0]) : "";
  let phase = {shares: "shuffling: each seat sends its share of the deal",
               discard: throwing ? `throw ${toThrow === 1 ? "one card" : "two cards"} to the crib` :
                 `thrown: the crib waits for the other seat${two ? "" : "s"}`,
               play: mine ? "your lay" : two ? "the other seat lays" : `${layer} lays`,
               over: "game over"}[v.phase];
  if (v.phase === "discard" && v.dealer !== null) phase += v.dealer === v.seat ? " (your crib)" : " (their crib)";
  $("phase").textContent = `deal ${v.deal}: ${phase}`;
  if (v.phase === "over") status(v.winner === sideOf(v, v.seat) ? "you win" : sideName(v, v.winner) + " wins");
  else if (v.seats.some(s => !s)) {
    status(two ? "waiting for the other seat to be taken: share this page's address" :
      `waiting for the other seats to be taken (${v.seats.filter(s => !s).length} empty): share this page's address`);
  }
  else if (v.waiting_for.length) status("waiting for " + v.waiting_for.join(", "));
  else status("your move");
  $("starter").textContent = v.starter === null ? "–" : card(v.starter);
  $("count").textContent = String(v.count);
  $("current").textContent = cards(v.current);
  $("laid").replaceChildren(...(v.phase === "play" || v.laid.length ? lays(v, v.laid, v.deal) : []));
  const hand = $("hand");
  hand.replaceChildren();
  picked = picked.filter(c => v.hand.includes(c)).slice(-toThrow);
  for (const c of v.hand) {
    const b = el("button", {type: "button", "data-card": c, class: (c & 3) % 3 ? "red" : "",
                            "aria-pressed": picked.includes(c) ? "true" : "false"}, card(c));
    const canLay = v.phase === "play" && mine && v.count + Math.min(10, (c >> 2) + 1) <= 31;
    b.disabled = !(v.phase === "discard" && !v.thrown.length) && !canLay;
    b.addEventListener("click", () => pick(c));
    hand.appendChild(b);
  }
  $("throw").hidden = !throwing;
  $("throw").disabled = picked.length !== toThrow;
  const show = $("show");
  show.replaceChildren();
  for (const s of v.shows) {
    show.appendChild(el("h2", {}, `deal ${s.deal}'s show (starter ${card(s.starter)})`));
    const played = el("p", {class: "played"}, "the play: ");
    played.append(...lays(v, s.laid || [], s.deal));
    show.appendChild(played);
    const list = el("ul");
    for (const c of s.counted) {
      const who = seatName(v, c.seat);
      const cs = c.k === "crib" ? s.crib : s.kept[c.seat];
      list.appendChild(el("li", {"data-seat": c.seat, "data-k": c.k}, `${who}'s ${c.k}: ${cards(cs)} = ${c.n}`));
    }
    show.appendChild(list);
  }
  const p = v.proof;
  $("proof").textContent = p.seed ? `deal revealed: seed ${p.seed} (committed as ${p.seed_commit})` :
    p.seed_commit ? `deal committed: ${p.seed_commit}` : `server committed: ${p.secret_commit}`;
  if (v.phase === "shares" && !v.share_in && !sending) send({t: "share", share: me.share});
}

function pick(c) {
  if (!view || sending) return;  // a tap while a throw is on its way must not unpick what was sent
  if (view.phase === "play") { send({t: "lay", card: c}); return; }
  picked = picked.includes(c) ? picked.filter(x => x !== c) : picked.concat([c]).slice(-(view.to_throw || 2));
  render(view);
}

async function send(move) {
  if (sending) return;
  sending = {seq: view.seq + 1, move};
  $("error").textContent = "";
  for (let tries = 0; ; tries++) {
    try {
      const got = await api(`/api/tables/${code}/moves`, sending, me.token);
      sending = null;
      render(got.view);
      return;
    } catch (e) {
      if (e.status) { sending = null; $("error").textContent = e.message; return; }
      status("the server is away: trying again…");  // the same seq again: applied once however often sent
      await new Promise(r => setTimeout(r, Math.min(5000, 500 * (tries + 1))));
    }
  }
}

async function follow() {
  let n = -1;
  for (;;) {
    try {
      const v = await api(`/api/tables/${code}/seat?after=${n}`, undefined, me.token);
      n = v.n;
      render(v);
    } catch (e) {
      if (e.status === 403 || e.status === 404) { status(e.message); return; }
      status("the server is away: rejoining…");
      await new Promise(r => setTimeout(r, 1000));
    }
  }
}

async function sit() {
  const name = $("name").value.trim();
  try {
    const got = await api(`/api/tables/${code}/join`, {name});
    me = {seat: got.seat, token: got.token, share: randomShare()};
    localStorage.setItem(KEY, JSON.stringify(me));
    follow();
  } catch (e) { status(e.message); }
}

if (code) $("throw").addEventListener("click", () => {
  if (view && picked.length === (view.to_throw || 2)) send({t: "discard", cards: picked});
});
if (code) $("sit").addEventListener("click", sit);
if (code) $("fill").addEventListener("click", async () => {
  try { await api(`/api/tables/${code}/fill`, {level: $("level").value}); status("the board's opponent sat down"); }
  catch (e) { status(e.message); }
});
// The page without a code makes a table in the chosen form (two players, three-handed, 2 v 2) and opens it.
async function make() {
  const form = document.querySelector("input[name=form]:checked").value;
  try { location.assign((await api("/api/tables", {form})).page); } catch (e) { status(e.message); }
}

if (!code) $("make").addEventListener("click", make);
else if (me) follow(); else { $("join").hidden = false; status("take a seat"); }
