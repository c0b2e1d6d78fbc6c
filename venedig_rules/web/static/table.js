// A seat's page (or a spectator's): everything shown comes from the server's page data, which
// it builds from the seat's view; nothing here knows a game. See docs/web.md.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const query = new URLSearchParams(location.search);
// hot seat: "#hotseat=0:TOKEN,2:TOKEN": the people's seats played in this browser, in turn
const hotSeats = new Map(
  (new URLSearchParams(location.hash.slice(1)).get("hotseat") || "")
    .split(",").filter(Boolean).map((pair) => pair.split(":")).map(([p, t]) => [Number(p), t]),
);
let token = query.get("seat") || (hotSeats.size ? hotSeats.values().next().value : "");
let lang = query.get("lang") || localStorage.getItem("venedig-lang") || "";
let socket = null;
let latest = null;        // the last live page data
let replaying = false;
let busy = false;         // an action is on its way to the server
let pendingVersion = null; // the table version that holds the action just sent
const STALE = {};        // a shownKey that no decision has: the buttons are built again
let shownKey = STALE;     // the decision the option buttons were built for (null: none)
let decidedSince = 0;     // when the shown decision appeared (for the person's pace)
let autoTimer = null;
let attempts = 0;         // connection attempts since the last open socket
let retryTimer = null;
let boardText = null;     // the board as the server last sent it
let boardParts = new Map(); // each board place's markup in that board (for the last-move mark)
let lastMove = new Set();   // board places that changed with the last update
const boardActions = new Map(); // board element -> the actions of the options that refer to it
const paces = [];         // this person's recent answering times (ms) at decisions with a choice

//: The page's own words (game texts come from the server in the chosen language).
const UI = {
  en: {
    lobby: "Lobby", language: "Language", auto_pass: "Answer forced moves for me", replay: "Replay",
    log: "Log", undo: "Undo my last action", save: "Save the game", filter: "filter the options",
    you_are: "You are {name}", watching: "You are watching", you: "you", to_move: "to move", bot: "{name} bot",
    over: "The game is over", committed: "Your choice is made; waiting for the others",
    waiting_others: "Waiting for the others", watching_prompt: "Watching",
    your_turn: "Your turn", your_turn_title: "Your turn: {title}",
    auto_note: "Only one choice: answering “{option}” for you in a moment.",
    no_undo: "Undo is not available: {reason}", saved: "Saved as {name} (the lobby lists it)",
    several: "{n} options concern this place; they are marked.",
    winner: "Winner: {names}", winners: "Winners: {names}", player: "Player", total: "Total",
    connecting: "Connecting…", connected: "Connected", lost: "Connection lost; trying again in {s} s",
    refused: "Not connected", cannot_follow: "This page cannot follow the table.",
    board: "board", summary: "The game so far", pass_screen: "{seat} is done. Pass the screen to {name}.",
    i_am: "I am {name}: show my seat", after_steps: "after {step} of {steps} actions",
    public_seed: "public seed {seed}: anyone who knows it can work out every card",
  },
  de: {
    lobby: "Lobby", language: "Sprache", auto_pass: "Erzwungene Züge für mich beantworten", replay: "Wiederholung",
    log: "Verlauf", undo: "Meinen letzten Zug zurücknehmen", save: "Spiel speichern", filter: "Optionen filtern",
    you_are: "Du bist {name}", watching: "Du schaust zu", you: "du", to_move: "am Zug", bot: "Bot {name}",
    over: "Das Spiel ist vorbei", committed: "Deine Wahl steht; die anderen sind noch dran",
    waiting_others: "Die anderen sind dran", watching_prompt: "Zuschauen",
    your_turn: "Du bist dran", your_turn_title: "Du bist dran: {title}",
    auto_note: "Nur eine Wahl: „{option}“ wird gleich für dich beantwortet.",
    no_undo: "Zurücknehmen geht nicht: {reason}", saved: "Gespeichert als {name} (die Lobby führt es auf)",
    several: "{n} Optionen betreffen diesen Ort; sie sind markiert.",
    winner: "Sieger: {names}", winners: "Sieger: {names}", player: "Spieler", total: "Summe",
    connecting: "Verbinde…", connected: "Verbunden", lost: "Verbindung verloren; neuer Versuch in {s} s",
    refused: "Nicht verbunden", cannot_follow: "Diese Seite kann dem Tisch nicht folgen.",
    board: "Spielplan", summary: "Der Stand des Spiels", pass_screen: "{seat} ist fertig. Gib den Bildschirm an {name} weiter.",
    i_am: "Ich bin {name}: meinen Platz zeigen", after_steps: "nach {step} von {steps} Zügen",
    public_seed: "öffentlicher Seed {seed}: wer ihn kennt, kann jede Karte ausrechnen",
  },
};
function t(key, vars = {}) {
  const words = UI[lang] || UI.en;
  return (words[key] || UI.en[key]).replace(/\{(\w+)\}/g, (_, name) => String(vars[name]));
}

//: How long the page waits before it answers a forced decision that is public (ms): long enough to
//: see it go by. A secret or simultaneous one waits as this person would (see personPause).
const PUBLIC_PAUSE = 300;
//: The bounds of the pause at a secret or simultaneous forced decision (ms).
const PACE_BOUNDS = [700, 8000];
//: Seconds between reconnection attempts: doubling up to the last.
const BACKOFF_MAX = 30;
const NARROW = window.matchMedia("(max-width: 899px)");

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const tablePath = (rest = "") => `/api/tables/${encodeURIComponent(tableId)}${rest}`;

// -- the connection ---------------------------------------------------------------------------
function connect() {
  clearTimeout(retryTimer);
  if (socket) { socket.onclose = null; socket.onmessage = null; socket.close(); }
  setConnection("connecting");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}${tablePath("/live")}?` + new URLSearchParams({ seat: token, lang }));
  let first = true;
  ws.onopen = () => { attempts = 0; setConnection("open"); };
  ws.onmessage = (message) => {
    const page = JSON.parse(message.data);
    page.reset = page.reset || first;
    if (first) { pendingVersion = null; showBusy(); }   // a new socket: whatever was sent is in this page
    first = false;
    latest = page;
    if (!replaying) show(page);
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    if (event.code >= 4000 && event.code < 5000) {
      setConnection("refused");
      showMessage(event.reason || t("cannot_follow"));
      return;
    }
    retry();
  };
  socket = ws;
}

// The server restarted or the network dropped: try again after 1, 2, 4 ... 30 s (with some
// jitter, so the pages of a restarted server do not all come back at once).
function retry() {
  attempts += 1;
  const seconds = Math.min(BACKOFF_MAX, 2 ** Math.min(attempts - 1, 5)) * (0.8 + Math.random() * 0.4);
  setConnection("lost", Math.max(1, Math.round(seconds)));
  retryTimer = setTimeout(async () => {
    if (attempts >= 2 && await refusedOverHttp()) return;
    connect();
  }, seconds * 1000);
}

// A socket refused before it opens looks like a lost connection: the same question over HTTP
// tells a table that is gone (404) or a token that is wrong (403) from a network that is down.
async function refusedOverHttp() {
  try {
    const response = await fetch(tablePath(`?${new URLSearchParams({ seat: token, lang })}`));
    if (response.status === 403 || response.status === 404) {
      setConnection("refused");
      showMessage((await response.json()).error || t("cannot_follow"));
      return true;
    }
  } catch (error) { /* still offline: keep trying */ }
  return false;
}

function setConnection(state, seconds = 0) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = { connecting: t("connecting"), open: t("connected"), lost: t("lost", { s: seconds }), refused: t("refused") }[state];
}

const tryNow = () => { if (!socket && $("connection").dataset.state === "lost") connect(); };
window.addEventListener("online", tryNow);
document.addEventListener("visibilitychange", () => { if (!document.hidden) tryNow(); });

// -- the page ---------------------------------------------------------------------------------
function show(page) {
  setLanguage(page.lang);
  $("title").textContent = page.title + (page.variants.length ? ` (${page.variants.join(", ")})` : "") +
    (page.public_seed !== null && page.public_seed !== undefined ? `, ${t("public_seed", { seed: page.public_seed })}` : "");
  $("who").textContent = page.seat === null ? t("watching") : t("you_are", { name: page.seat_name });
  $("auto-pass-label").hidden = page.seat === null;
  showPlayers(page);
  if (curtain(page)) return;
  showItems(page);
  showBoard(page);
  showSummary(page);
  showStatus(page);
  showLog(page);
  showResult(page);
  showTools(page);
  showTitle(page);
  announce(page);
}

function setLanguage(code) {
  if (setLanguage.shown === code) return;
  setLanguage.shown = code;
  document.documentElement.lang = code;
  for (const node of document.querySelectorAll("[data-ui]")) node.textContent = t(node.dataset.ui);
  $("filter").placeholder = t("filter");
  $("filter").setAttribute("aria-label", t("filter"));
  $("undo").textContent = t("undo");
  $("save").textContent = t("save");
}

function showPlayers(page) {
  const list = $("players");
  list.replaceChildren(...page.seats.map((seat) => {
    const active = page.to_move.includes(seat.player);
    const item = el("li", { "data-player": seat.player, class: active ? "active" : "" });
    if (active) item.setAttribute("aria-current", "true");
    item.append(el("span", { class: "name" }, seat.name));
    // a bot's id is its name, in the lobby's words ("random bot", "Bot random")
    const notes = [seat.player === page.seat ? t("you") : seat.kind === "human" ? "" : t("bot", { name: seat.kind })];
    if (active && !page.over) notes.push(t("to_move"));
    const note = notes.filter(Boolean).join(", ");
    if (note) item.append(el("span", { class: "kind" }, ` (${note})`));
    return item;
  }));
}

// Hot seat: when another of this browser's seats is to move, hide everything until its
// player says they sit at the screen.
function curtain(page) {
  const open = () => { $("curtain").hidden = true; $("play").hidden = false; return false; };
  if (!hotSeats.size || page.replay || page.over) return open();
  const next = page.to_move.find((p) => hotSeats.has(p));
  if (page.to_move.includes(page.seat) || next === undefined) return open();
  const name = page.seats[next].name;
  for (const id of ["board", "summary", "options", "log", "prompt", "waiting", "result"]) $(id).replaceChildren();
  boardText = null;
  shownKey = STALE;
  clearTimeout(autoTimer);
  $("play").hidden = true;
  $("curtain").hidden = false;
  $("curtain-text").textContent = t("pass_screen", { seat: page.seat_name, name });
  $("curtain-button").textContent = t("i_am", { name });
  $("curtain-button").onclick = () => {
    token = hotSeats.get(next);
    $("curtain").hidden = true;
    connect();
  };
  return true;
}

// -- the board --------------------------------------------------------------------------------
// The server draws the board and every seat's zones as one SVG. The page shows the board part
// alone (as wide as the screen above the options on a phone); the hands and supplies are the
// summary's panels, in words.
function showBoard(page, redraw = false) {
  const text = page.board;
  if (text !== boardText || redraw) {
    const focused = focusedPlace();
    const parts = placesOf(text);
    if (text !== boardText) {
      lastMove = boardText === null || page.reset ? new Set() : changedPlaces(boardParts, parts);
    }
    boardText = text;
    boardParts = parts;
    placeBoard(text);
    for (const key of lastMove) for (const node of findPlaces(key)) node.classList.add("last-move");
    markBoard(optionsOf(page));
    if (focused) { const again = findPlaces(focused)[0]; if (again) again.focus({ preventScroll: true }); }
  } else {
    markBoard(optionsOf(page));
  }
}

//: The options as the terminal lists them (present/table.py): by their text with numbers read as
//: numbers (C3 before C10), a pass last.
function inReadingOrder(options) {
  const passes = (o) => /\bpass$/.test(o.action);
  return [...options].sort((a, b) => (passes(a) - passes(b)) || a.text.localeCompare(b.text, lang || undefined, { numeric: true }));
}

function optionsOf(page) { return page.decision && !page.replay ? page.decision.options : []; }

const PLACE = "[data-space], [data-connection], [data-region], [data-track][data-step]";
function placeKey(node) {
  for (const kind of ["space", "connection", "region"]) if (node.hasAttribute(`data-${kind}`)) return `${kind}=${node.getAttribute(`data-${kind}`)}`;
  return `track=${node.dataset.track}/${node.dataset.step}`;
}
function findPlaces(key) {
  const [kind, id] = key.split("=");
  const svg = $("board").querySelector("svg");
  if (!svg) return [];
  if (kind === "track") { const [track, step] = id.split("/"); return [...svg.querySelectorAll(`[data-track="${CSS.escape(track)}"][data-step="${CSS.escape(step)}"]`)]; }
  return [...svg.querySelectorAll(`[data-${kind}="${CSS.escape(id)}"]:not(text)`)];
}

// Each board place's markup: what changed between two boards is what the last moves changed.
function placesOf(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const parts = new Map();
  for (const node of doc.querySelectorAll(PLACE)) {
    if (node.localName === "text") continue;
    const key = placeKey(node);
    parts.set(key, (parts.get(key) || "") + node.outerHTML);
  }
  return parts;
}
function changedPlaces(before, after) {
  const changed = new Set();
  for (const [key, markup] of after) if (before.has(key) && before.get(key) !== markup) changed.add(key);
  return changed;
}

function placeBoard(text) {
  const board = $("board");
  board.innerHTML = text;
  const svg = board.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const title = svg.querySelector(":scope > title");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-roledescription", t("board"));
  svg.setAttribute("aria-label", title ? title.textContent : t("board"));
  const picture = svg.querySelector(":scope > g.board");
  const panel = svg.querySelector(":scope > g.zones");
  if (picture && panel) {
    const box = boardBox(picture);
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
    panel.remove();
  }
  for (const node of svg.querySelectorAll(PLACE)) {
    if (node.localName === "text") continue;
    const title = node.querySelector(":scope > title");
    const id = placeKey(node).split("=")[1];
    // a title that starts with the place's id ("cannaregio_san_marco: Cannaregio - San Marco")
    // is shown and read without it: people get names, not ids
    if (title && title.textContent.startsWith(`${id}: `)) title.textContent = title.textContent.slice(id.length + 2);
    node.setAttribute("tabindex", "-1");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", title ? title.textContent : id);
  }
}

// The board's own rectangle in the SVG's units: its background rect through its transform.
function boardBox(picture) {
  const rect = picture.querySelector(":scope > rect");
  const matrix = picture.transform.baseVal.consolidate();
  if (!rect || !matrix) return picture.getBBox();
  const m = matrix.matrix;
  const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => rect[a].baseVal.value);
  return { x: m.a * x + m.e, y: m.d * y + m.f, width: m.a * w, height: m.d * h };
}

// Each board element an option refers to (data-space, data-connection, ... as the ref's
// kind) can be clicked or taken with Enter: one option there is taken at once, several are
// picked out among the buttons.
function markBoard(options) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const node of boardActions.keys()) {
    node.classList.remove("choosable");
    if (node.isConnected) {
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", node.dataset.name || node.getAttribute("aria-label"));
    }
  }
  boardActions.clear();
  const texts = new Map(options.map((o) => [o.action, o.text]));
  for (const option of options) {
    for (const ref of option.refs || []) {
      const id = CSS.escape(String(ref.id));
      let nodes = svg.querySelectorAll(`[data-${ref.kind}="${id}"]:not(text)`);
      if (!nodes.length) nodes = svg.querySelectorAll(`[data-region="${id}"]:not(text)`);
      for (const node of nodes) {
        if (!boardActions.has(node)) boardActions.set(node, new Set());
        boardActions.get(node).add(option.action);
      }
    }
  }
  for (const [node, actions] of boardActions) {
    node.classList.add("choosable");
    node.dataset.name = node.dataset.name || node.getAttribute("aria-label") || "";
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "-1");
    const what = actions.size === 1 ? texts.get([...actions][0]) : `${actions.size}`;
    node.setAttribute("aria-label", `${node.dataset.name}: ${what}`);
  }
  rovingStop(svg);
}

// One tab stop on the board (the first choosable place, else the first place); the arrow keys
// go to the nearest place in their direction.
function rovingStop(svg) {
  const places = [...svg.querySelectorAll(PLACE)].filter((n) => n.localName !== "text");
  if (!places.length) return;
  const current = places.find((n) => n === document.activeElement);
  const stop = current || [...boardActions.keys()].find((n) => svg.contains(n)) || places[0];
  for (const node of places) node.setAttribute("tabindex", node === stop ? "0" : "-1");
}

function focusedPlace() {
  const node = document.activeElement;
  return node && $("board").contains(node) && node.matches(PLACE) ? placeKey(node) : null;
}

function takePlace(node) {
  const actions = boardActions.get(node);
  if (!actions) return;
  if (actions.size === 1) { act([...actions][0]); return; }
  for (const button of $("options").querySelectorAll("button[data-action]")) {
    button.classList.toggle("picked", actions.has(button.dataset.action));
  }
  showMessage(t("several", { n: actions.size }));
}

$("board").addEventListener("click", (event) => {
  for (let node = event.target; node && node !== event.currentTarget; node = node.parentNode) {
    if (boardActions.has(node)) { takePlace(node); return; }
  }
});

const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
$("board").addEventListener("keydown", (event) => {
  const node = event.target;
  if (!(node instanceof Element) || !node.matches(PLACE)) return;
  if ((event.key === "Enter" || event.key === " ") && boardActions.has(node)) {
    event.preventDefault();
    takePlace(node);
    return;
  }
  const direction = DIRECTIONS[event.key];
  if (!direction) return;
  event.preventDefault();
  const centre = (n) => { const r = n.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const [x0, y0] = centre(node);
  let best = null;
  let bestScore = Infinity;
  for (const other of $("board").querySelectorAll(PLACE)) {
    if (other === node || other.localName === "text") continue;
    const [x, y] = centre(other);
    const along = (x - x0) * direction[0] + (y - y0) * direction[1];
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * direction[1]) + Math.abs((y - y0) * direction[0]);
    const score = along + 2 * across;
    if (score < bestScore) { best = other; bestScore = score; }
  }
  if (best) {
    node.setAttribute("tabindex", "-1");
    best.setAttribute("tabindex", "0");
    best.focus();
  }
});

// -- the decision -----------------------------------------------------------------------------
function decisionKey(page) {
  const d = page.decision;
  if (!d || page.replay || page.over) return null;
  return [page.generation, d.label, d.prompt, ...d.options.map((o) => o.action)].join("\n");
}

function showStatus(page) {
  const others = page.waiting_for.filter((w) => w.player !== page.seat).map((w) => w.prompt);
  $("waiting").textContent = others.join("; ");
  const decision = page.decision;
  let prompt = "";
  if (page.over) prompt = t("over");
  else if (decision) prompt = decision.prompt;
  else if (page.committed) prompt = t("committed");
  else if (page.waiting_for.length) prompt = page.seat === null ? t("watching_prompt") : t("waiting_others");
  $("prompt").textContent = prompt;
  if (pendingVersion !== null && page.version < pendingVersion) return; // the move is on its way
  pendingVersion = null;
  showBusy();
  const key = decisionKey(page);
  if (key === shownKey) return;   // the same decision: the buttons (and the filter) stay put
  shownKey = key;
  clearTimeout(autoTimer);
  $("auto-note").hidden = true;
  const options = $("options");
  const hadFocus = document.activeElement === document.body || document.activeElement === null ||
    options.contains(document.activeElement) || $("board").contains(document.activeElement);
  const list = key === null ? [] : inReadingOrder(decision.options);
  options.replaceChildren(...list.map((option) => {
    const button = el("button", { type: "button", "data-action": option.action });
    button.append(marked(option.text));
    button.addEventListener("click", () => act(option.action));
    return button;
  }));
  options.dataset.forced = String(Boolean(key !== null && decision.forced));
  $("filter").hidden = list.length < 10;
  $("filter").value = "";
  decidedSince = performance.now();
  if (list.length && hadFocus) options.firstElementChild.focus({ preventScroll: true });
  if (key !== null) answerIfForced(page);
}

// "Answer forced moves for me": a decision with one option is answered by the page. Where the
// decision is secret or simultaneous the question itself may exist only to hide something
// (Venedig asks "exchange gold?" even of a player with no gold), so the page waits as this
// person would have: a pause drawn from their own recent answering times. See docs/web.md.
function answerIfForced(page) {
  const decision = page.decision;
  if (!decision.forced || !autoPass() || page.seat === null) return;
  const hides = decision.secret || decision.simultaneous;
  const key = shownKey;
  $("auto-note").textContent = t("auto_note", { option: decision.options[0].text });
  $("auto-note").hidden = false;
  autoTimer = setTimeout(() => {
    if (shownKey === key && autoPass() && !replaying) act(decision.options[0].action, true);
  }, hides ? personPause() : PUBLIC_PAUSE);
}

function personPause() {
  const [low, high] = PACE_BOUNDS;
  const drawn = paces.length >= 3 ? paces[Math.floor(Math.random() * paces.length)] : 1200 + Math.random() * 1800;
  return Math.min(high, Math.max(low, drawn * (0.85 + Math.random() * 0.3)));
}

function autoPass() { return $("auto-pass").checked; }

function showMessage(text) { $("message").textContent = text; }

async function post(path, body) {
  const response = await fetch(tablePath(`/${path}`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat: token, ...body }),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// The options are greyed from a click until the page that holds its action arrives: a second
// click meanwhile would send an action of a decision that is already answered.
function showBusy() { $("options").classList.toggle("busy", busy || pendingVersion !== null); }

async function act(action, automatic = false) {
  if (busy || pendingVersion !== null) return;
  busy = true;
  clearTimeout(autoTimer);
  if (!automatic) {
    showMessage("");
    const shown = $("options").dataset.forced !== "true";
    if (shown && !document.hidden) { paces.push(performance.now() - decidedSince); if (paces.length > 20) paces.shift(); }
  }
  showBusy();
  for (const button of $("options").querySelectorAll("button[data-action]")) button.classList.toggle("sent", button.dataset.action === action);
  try {
    const data = await post("act", { action });
    // the next decision may look the same as this one (another "Keep the gold"): rebuild it
    // from the first page that holds this action
    pendingVersion = data.version;
    shownKey = STALE;
    if (latest && latest.version >= pendingVersion && !replaying) show(latest);
  } catch (error) {
    showMessage(error.message);   // stays until the next action
    for (const button of $("options").querySelectorAll("button.sent")) button.classList.remove("sent");
  } finally {
    busy = false;
    showBusy();
  }
}

// -- the summary and the items' texts ----------------------------------------------------------
// The seat's position as panels: the table's, then one per player (its own marked), each part a
// label and a value in words. Wide screens show them beside the board, phones below the tools.
function showSummary(page) {
  const box = $("summary");
  // the seat's own panel first, then the table's, then the others'
  const sections = [...(page.summary || [])];
  const own = sections.findIndex((section) => section.player !== null && section.player === page.seat);
  if (own > 0) sections.unshift(...sections.splice(own, 1));
  box.replaceChildren(...sections.map((section) => {
    const panel = el("section", { class: "panel", "data-testid": "summary-panel" });
    if (section.player !== null) panel.dataset.player = section.player;
    if (section.player !== null && section.player === page.seat) panel.classList.add("mine");
    if (section.player !== null && page.to_move.includes(section.player)) panel.classList.add("active");
    panel.append(el("h3", {}, section.title));
    const list = el("dl");
    for (const part of section.parts) {
      const value = el("dd");
      value.append(marked(part.value));
      list.append(el("dt", {}, part.label), value);
    }
    panel.append(list);
    return panel;
  }));
  placeSummary();
}
function placeSummary() {
  const box = $("summary");
  if (NARROW.matches) { if (box.parentNode !== $("aside")) $("aside").insertBefore(box, $("log-section")); }
  else if (box.parentNode !== $("board-row")) $("board-row").append(box);
}

// Item texts: the page data's `items` ([{name, text}]) for the items its texts name; each name
// is marked (`data-item`, the name) where it is written, and its text shows on hover or tap.
const itemTexts = new Map();   // name -> {name, text}
let itemPattern = null;
function showItems(page) {
  if (page.reset || showItems.lang !== page.lang) { itemTexts.clear(); showItems.lang = page.lang; itemPattern = null; }
  let added = false;
  for (const item of page.items || []) {
    if (!itemTexts.has(item.name)) { itemTexts.set(item.name, item); added = true; }
  }
  if (added || (itemPattern === null && itemTexts.size)) {
    const names = [...itemTexts.keys()].sort((a, b) => b.length - a.length);
    const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    itemPattern = new RegExp(`(?<![\\p{L}\\p{N}_])(${escaped.join("|")})[\\p{L}\\p{N}_]*`, "gu");
  }
}
// The text with each item name in it as a <span data-item>.
function marked(text) {
  const out = document.createDocumentFragment();
  if (!itemPattern) { out.append(text); return out; }
  let at = 0;
  for (const match of text.matchAll(itemPattern)) {
    if (!itemTexts.has(match[1])) continue;
    out.append(text.slice(at, match.index));
    out.append(el("span", { class: "item", "data-item": match[1] }, match[0]));
    at = match.index + match[0].length;
  }
  out.append(text.slice(at));
  return out;
}
function showItemTip(node) {
  const item = itemTexts.get(node.dataset.item);
  const tip = $("item-tip");
  if (!item) { tip.hidden = true; return; }
  tip.replaceChildren(el("strong", {}, item.name), el("span", {}, item.text));
  tip.hidden = false;
  tip.dataset.item = node.dataset.item;
  const r = node.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(r.left, window.innerWidth - tip.offsetWidth - 8));
  const below = r.bottom + 6 + tip.offsetHeight <= window.innerHeight;
  tip.style.left = `${left}px`;
  tip.style.top = `${below ? r.bottom + 6 : Math.max(8, r.top - tip.offsetHeight - 6)}px`;
}
function hideItemTip() { $("item-tip").hidden = true; }
const itemOf = (target) => (target instanceof Element ? target.closest("[data-item]") : null);
document.addEventListener("pointerover", (event) => { const node = itemOf(event.target); if (node && event.pointerType !== "touch") showItemTip(node); });
document.addEventListener("pointerout", (event) => {
  const node = itemOf(event.target);
  if (node && event.pointerType !== "touch" && !node.contains(event.relatedTarget)) hideItemTip();
});
// a tap on a name outside a button shows its text (a tap on an option still takes it); a tap
// elsewhere hides it
document.addEventListener("click", (event) => {
  const node = itemOf(event.target);
  if (node && !node.closest("button")) { showItemTip(node); return; }
  hideItemTip();
});
document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideItemTip(); });
window.addEventListener("resize", hideItemTip);

// -- the log, the end, the tools --------------------------------------------------------------
// The human log: one entry per move (or phase, scoring, the end), what it caused indented
// below it. An entry the server sends again (it grew) replaces the one shown.
function showLog(page) {
  if (page === showLog.last) return;   // this page's entries are in already
  showLog.last = page;
  const log = $("log");
  if (page.reset) { log.replaceChildren(); logAtEnd = true; }
  for (const entry of page.log) {
    const item = el("li", { "data-kind": entry.kind, "data-index": entry.index });
    if (entry.actor !== null) item.dataset.actor = entry.actor;
    item.append(el("span", { class: "entry" }));
    item.firstChild.append(marked(entry.text));
    if (entry.details.length) {
      const details = el("ul", { class: "details" });
      for (const line of entry.details) { const li = el("li"); li.append(marked(line)); details.append(li); }
      item.append(details);
    }
    const known = log.querySelector(`:scope > li[data-index="${entry.index}"]`);
    if (known) known.replaceWith(item); else log.append(item);
  }
  if (logAtEnd) log.scrollTop = log.scrollHeight;   // the log's own scroll, never the window's
}
// New lines keep the log at its end unless the person scrolled back to read. Only a scroll
// the person made counts: the page's own (and a change of the log's height) moves it too.
let logAtEnd = true;
let logTouched = -Infinity;
for (const type of ["wheel", "touchmove", "keydown", "pointerdown"]) {
  $("log").addEventListener(type, () => { logTouched = performance.now(); }, { passive: true });
}
$("log").addEventListener("scroll", () => {
  const log = $("log");
  if (performance.now() - logTouched < 1500) logAtEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
});
new ResizeObserver(() => { if (logAtEnd) $("log").scrollTop = $("log").scrollHeight; }).observe($("log"));

function showResult(page) {
  const result = $("result");
  if (!page.over) { result.replaceChildren(); return; }
  const names = page.winners.map((w) => w.name);
  const box = el("div", { "data-testid": "winners" });
  box.append(el("h2", {}, names.length > 1 ? t("winners", { names: names.join(", ") }) : t("winner", { names: names.join("") })));
  const scores = [...page.scores].sort((a, b) => b.score - a.score);
  // a column per player (best first), a row per reason of the breakdown ({seat: {reason:
  // points}}), the totals last: reasons are long words, players few
  const breakdown = page.score_breakdown || {};
  const partsOf = (s) => breakdown[s.player] || breakdown[String(s.player)] || {};
  const reasons = [...new Set(scores.flatMap((s) => Object.keys(partsOf(s))))];
  const table = el("table", { "data-testid": "scores" });
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("player")), ...scores.map((s) => el("th", { scope: "col" }, s.name)));
  table.append(head);
  for (const reason of reasons) {
    const row = el("tr", { "data-testid": "reason" });
    row.append(el("th", { scope: "row" }, reason), ...scores.map((s) => el("td", {}, String(partsOf(s)[reason] ?? 0))));
    table.append(row);
  }
  const totals = el("tr");
  totals.append(el("th", { scope: "row" }, t("total")), ...scores.map((s) => el("td", { class: "total" }, String(s.score))));
  table.append(totals);
  box.append(table);
  result.replaceChildren(box);
}

function showTools(page) {
  const tools = page.seat !== null && !page.replay;
  const undo = page.over ? null : page.can_undo;   // at the end there is nothing to take back
  $("undo").hidden = !tools || !undo;
  $("undo").disabled = !(undo && undo.allowed);
  $("undo-why").textContent = tools && undo && !undo.allowed && undo.reason ? t("no_undo", { reason: undo.reason }) : "";
  $("save").hidden = !tools;
}

function showTitle(page) {
  const base = `${page.title}: ${page.seat_name}`;
  const mine = !page.replay && !page.over && page.decision && !(page.decision.forced && autoPass());
  document.title = mine ? `● ${t("your_turn_title", { title: base })}` : base;
}

// The live region: whose turn it is, and what the others did since the last update.
function announce(page) {
  if (page.replay || page === announce.page) return;
  announce.page = page;
  const lines = page.reset ? [] : page.log
    .filter((e) => (e.kind === "action" && e.actor !== page.seat) || e.kind === "end")
    .map((e) => e.text).slice(-4);
  const key = decisionKey(page);
  if (key !== null && key !== announce.last && !(page.decision.forced && autoPass())) lines.push(`${t("your_turn")}: ${page.decision.prompt}`);
  announce.last = key;
  if (lines.length) $("announce").textContent = lines.join(". ");
}
announce.last = null;

$("undo").addEventListener("click", async () => {
  showMessage("");
  try { await post("undo", { lang }); } catch (error) { showMessage(error.message); }
});
$("save").addEventListener("click", async () => {
  showMessage("");
  try {
    const data = await post("save", {});
    localStorage.setItem(`venedig-save:${data.save}`, token);   // the lobby goes on with it by this token
    $("saved").textContent = t("saved", { name: data.save });
  } catch (error) { showMessage(error.message); }
});
$("filter").addEventListener("input", () => {
  const words = $("filter").value.toLowerCase();
  for (const button of $("options").querySelectorAll("button[data-action]")) {
    button.hidden = !button.textContent.toLowerCase().includes(words);
  }
});
$("auto-pass").checked = localStorage.getItem("venedig-auto-pass") !== "off";
$("auto-pass").addEventListener("change", () => {
  localStorage.setItem("venedig-auto-pass", autoPass() ? "on" : "off");
  if (!autoPass()) { clearTimeout(autoTimer); $("auto-note").hidden = true; }
  else if (latest && !replaying) { shownKey = STALE; show(latest); }
});
$("lang").addEventListener("change", () => {
  lang = $("lang").value;
  localStorage.setItem("venedig-lang", lang);
  if (replaying) replayAt(Number($("replay-step").value)); else connect();
});
NARROW.addEventListener("change", () => {
  placeSummary();
  if (latest && boardText !== null) showBoard(replaying ? { ...latest, board: boardText } : latest, true);
});

// The replay viewer: the seat's page after any number of actions (time travel).
async function replayAt(step) {
  const params = new URLSearchParams({ seat: token, lang, step });
  const response = await fetch(tablePath(`/replay?${params}`));
  const page = await response.json();
  if (!response.ok) { showMessage(page.error); return; }
  $("replay-step").max = page.replay.steps;
  $("replay-step").value = page.replay.step;
  $("replay-at").textContent = t("after_steps", { step: page.replay.step, steps: page.replay.steps });
  show(page);
}
$("replay-mode").addEventListener("change", () => {
  replaying = $("replay-mode").checked;
  $("replay").hidden = !replaying;
  shownKey = STALE;
  if (replaying) replayAt(latest ? latest.actions : 0);
  else connect();
});
const stepTo = (f) => () => replayAt(Math.max(0, Math.min(Number($("replay-step").max), f(Number($("replay-step").value)))));
$("replay-first").addEventListener("click", stepTo(() => 0));
$("replay-back").addEventListener("click", stepTo((s) => s - 1));
$("replay-forward").addEventListener("click", stepTo((s) => s + 1));
$("replay-last").addEventListener("click", stepTo(() => Infinity));
$("replay-step").addEventListener("change", () => replayAt(Number($("replay-step").value)));

// The languages of this table's game, and the one to show: the link's, else the last chosen,
// else the first of the browser's Accept-Language that the game has.
async function start() {
  setLanguage("en");
  setConnection("connecting");
  try {
    const [games, state] = await Promise.all([
      fetch("/api/games").then((r) => r.json()),
      fetch(tablePath(`?${new URLSearchParams({ seat: token })}`)).then(async (r) => ({ ok: r.ok, data: await r.json() })),
    ]);
    if (!state.ok) { setConnection("refused"); showMessage(state.data.error || t("cannot_follow")); return; }
    const game = (games.games || []).find((g) => g.id === state.data.game);
    const offered = game ? game.languages : ["en"];
    $("lang").replaceChildren(...offered.map((code) => el("option", { value: code }, code)));
    if (!offered.includes(lang)) lang = bestLanguage(games.accept_languages || [], offered);
  } catch (error) {
    if (!lang) lang = "en";
  }
  $("lang").value = lang;
  connect();
}

function bestLanguage(accepted, offered) {
  for (const wanted of [...accepted, ...navigator.languages]) {
    const code = wanted.toLowerCase().split("-")[0];
    if (offered.includes(code)) return code;
  }
  return offered.includes("en") ? "en" : offered[0];
}

start();
