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
let lang = query.get("lang") || localStorage.getItem("venedig-lang") || "en";
let socket = null;
let latest = null;      // the last live page data
let replaying = false;
let busy = false;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/api/tables/${encodeURIComponent(tableId)}/live?` +
    new URLSearchParams({ seat: token, lang });
  const ws = new WebSocket(url);
  let first = true;
  ws.onmessage = (message) => {
    const page = JSON.parse(message.data);
    page.reset = page.reset || first;
    first = false;
    latest = page;
    if (!replaying) show(page);
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    if (event.code >= 4000) $("message").textContent = event.reason || "This page cannot follow the table.";
    else setTimeout(connect, 1000);   // the server restarted or the network dropped: try again
  };
  socket = ws;
}

function show(page) {
  $("title").textContent = page.title + (page.variants.length ? ` (${page.variants.join(", ")})` : "") +
    (page.public_seed !== null && page.public_seed !== undefined ? `, public seed ${page.public_seed}: anyone who knows it can work out every card` : "");
  document.title = `${page.title}: ${page.seat_name}`;
  $("who").textContent = page.seat === null ? "You are watching" : `You are ${page.seat_name}`;
  if (curtain(page)) return;
  $("board").innerHTML = page.board;
  showStatus(page);
  showLog(page);
  showResult(page);
  const tools = page.seat !== null && !page.replay;
  $("undo").hidden = !(tools && page.can_undo && page.can_undo.allowed);
  $("save").hidden = !tools;
}

// Hot seat: when another of this browser's seats is to move, hide everything until its
// player says they sit at the screen.
function curtain(page) {
  if (!hotSeats.size || page.replay || page.over) { $("curtain").hidden = true; $("play").hidden = false; return false; }
  const next = page.to_move.find((p) => hotSeats.has(p));
  if (page.to_move.includes(page.seat) || next === undefined) { $("curtain").hidden = true; $("play").hidden = false; return false; }
  const name = page.seats[next].name;
  for (const id of ["board", "options", "log", "prompt", "waiting", "result"]) $(id).replaceChildren();
  $("play").hidden = true;
  $("curtain").hidden = false;
  $("curtain-text").textContent = `${page.seat_name} is done. Pass the screen to ${name}.`;
  $("curtain-button").textContent = `I am ${name}: show my seat`;
  $("curtain-button").onclick = () => {
    token = hotSeats.get(next);
    $("curtain").hidden = true;
    connect();
  };
  return true;
}

function showStatus(page) {
  const others = page.waiting_for.filter((w) => w.player !== page.seat).map((w) => w.prompt);
  $("waiting").textContent = others.join("; ");
  const decision = page.decision;
  $("message").textContent = "";
  let prompt = "";
  if (page.over) prompt = "The game is over";
  else if (decision) prompt = decision.prompt;
  else if (page.committed) prompt = "Your choice is made; waiting for the others";
  else if (!page.waiting_for.length) prompt = "";
  else prompt = page.seat === null ? "Watching" : "Waiting for the others";
  $("prompt").textContent = prompt;
  const options = $("options");
  options.replaceChildren();
  const list = decision && !page.replay ? decision.options : [];
  for (const option of list) {
    const button = el("button", { type: "button", "data-action": option.action, title: option.action }, option.text);
    button.addEventListener("click", () => act(option.action));
    options.append(button);
  }
  $("filter").hidden = list.length < 10;
  $("filter").value = "";
  markBoard(list);
}

// Each board element an option refers to (data-space, data-connection, ... as the ref's
// kind) can be clicked: one option there is taken at once, several are picked out.
function markBoard(options) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const found = new Map();
  for (const option of options) {
    for (const ref of option.refs || []) {
      const id = CSS.escape(String(ref.id));
      let nodes = svg.querySelectorAll(`[data-${ref.kind}="${id}"]:not(text)`);
      if (!nodes.length) nodes = svg.querySelectorAll(`[data-region="${id}"]:not(text)`);
      for (const node of nodes) {
        if (!found.has(node)) found.set(node, new Set());
        found.get(node).add(option.action);
      }
    }
  }
  for (const [node, actions] of found) {
    node.classList.add("choosable");
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      if (actions.size === 1) { act([...actions][0]); return; }
      for (const button of $("options").querySelectorAll("button[data-action]")) {
        button.classList.toggle("picked", actions.has(button.dataset.action));
      }
      $("message").textContent = `${actions.size} options concern this place; they are marked.`;
    });
  }
}

function showLog(page) {
  const log = $("log");
  if (page.reset) log.replaceChildren();
  for (const event of page.events) log.append(el("li", { "data-type": event.type }, event.text));
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  if (log.lastElementChild) log.lastElementChild.scrollIntoView({ block: "nearest" });
}

function showResult(page) {
  const result = $("result");
  result.replaceChildren();
  if (!page.over) return;
  const names = page.winners.map((w) => w.name);
  const box = el("div", { "data-testid": "winners" });
  box.append(el("h2", {}, names.length > 1 ? `Winners: ${names.join(", ")}` : `Winner: ${names.join("")}`));
  const table = el("table", { "data-testid": "scores" });
  for (const s of [...page.scores].sort((a, b) => b.score - a.score)) {
    const row = el("tr");
    row.append(el("td", {}, s.name), el("td", {}, String(s.score)));
    table.append(row);
  }
  box.append(table);
  result.append(box);
}

async function post(path, body) {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat: token, ...body }),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function act(action) {
  if (busy) return;
  busy = true;
  $("options").replaceChildren();   // the next page brings the next options
  try {
    await post("act", { action });
  } catch (error) {
    $("message").textContent = error.message;
    if (latest) show(latest);
  } finally {
    busy = false;
  }
}

$("undo").addEventListener("click", async () => {
  try { await post("undo", {}); } catch (error) { $("message").textContent = error.message; }
});
$("save").addEventListener("click", async () => {
  try {
    const data = await post("save", {});
    localStorage.setItem(`venedig-save:${data.save}`, token);   // the lobby goes on with it by this token
    $("saved").textContent = `Saved as ${data.save} (the lobby lists it)`;
  } catch (error) { $("message").textContent = error.message; }
});
$("filter").addEventListener("input", () => {
  const words = $("filter").value.toLowerCase();
  for (const button of $("options").querySelectorAll("button[data-action]")) {
    button.hidden = !button.textContent.toLowerCase().includes(words);
  }
});
$("lang").value = lang;
$("lang").addEventListener("change", () => {
  lang = $("lang").value;
  localStorage.setItem("venedig-lang", lang);
  if (replaying) replayAt(Number($("replay-step").value)); else connect();
});

// The replay viewer: the seat's page after any number of actions (time travel).
async function replayAt(step) {
  const params = new URLSearchParams({ seat: token, lang, step });
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?${params}`);
  const page = await response.json();
  if (!response.ok) { $("message").textContent = page.error; return; }
  $("replay-step").max = page.replay.steps;
  $("replay-step").value = page.replay.step;
  $("replay-at").textContent = `after ${page.replay.step} of ${page.replay.steps} actions`;
  show(page);
}
$("replay-mode").addEventListener("change", () => {
  replaying = $("replay-mode").checked;
  $("replay").hidden = !replaying;
  if (replaying) replayAt(latest ? latest.actions : 0);
  else connect();
});
const stepTo = (f) => () => replayAt(Math.max(0, Math.min(Number($("replay-step").max), f(Number($("replay-step").value)))));
$("replay-first").addEventListener("click", stepTo(() => 0));
$("replay-back").addEventListener("click", stepTo((s) => s - 1));
$("replay-forward").addEventListener("click", stepTo((s) => s + 1));
$("replay-last").addEventListener("click", stepTo(() => Infinity));
$("replay-step").addEventListener("change", () => replayAt(Number($("replay-step").value)));

connect();
