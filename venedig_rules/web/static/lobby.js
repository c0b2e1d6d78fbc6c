// The lobby: a new table (game, variants, players, who plays each seat, a public seed or a
// secret deal) or one of this visitor's saved games to go on with. Everything it offers comes
// from /api/games.
"use strict";

const $ = (id) => document.getElementById(id);
const form = $("new-table");
let catalog = null;
//: Languages by their own name (a code not listed shows as it is).
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", fr: "Français", it: "Italiano", es: "Español", nl: "Nederlands" };
//: What each bundled bot does, in a few words (docs/bots.md).
const BOT_ABOUT = {
  random: "picks any legal move",
  greedy: "takes the move that scores most now",
  ismcts: "searches ahead over what it cannot see (slow, strong)",
};

const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};

function game() { return catalog.games.find((g) => g.id === form.game.value); }

function fillGame() {
  const g = game();
  // each variant by its title, with its description: what it changes
  $("variants").replaceChildren(...g.variants.map((v) => {
    const about = (g.variant_about || {})[v] || { title: v.replace(/_/g, " "), description: "" };
    const label = el("label");
    const box = el("input", { type: "checkbox", name: "variant", value: v });
    label.append(box, ` ${about.title}`);
    if (about.description) {
      const text = el("small", { class: "about", id: `about-${v}` }, about.description);
      box.setAttribute("aria-describedby", text.id);
      label.append(text);
    }
    return label;
  }));
  const before = Number(form.players.value) || g.players[0];
  form.players.replaceChildren();
  for (let n = g.players[0]; n <= g.players[1]; n++) form.players.append(el("option", { value: n }, String(n)));
  form.players.value = String(Math.min(Math.max(before, g.players[0]), g.players[1]));
  const chosen = form.lang.value;
  form.lang.replaceChildren(...g.languages.map((l) => el("option", { value: l }, LANGUAGE_NAMES[l] || l)));
  form.lang.value = g.languages.includes(chosen) ? chosen : preferredLanguage(g.languages);
  fillSeats();
}

function fillSeats() {
  const n = Number(form.players.value);
  const kinds = [catalog.human, ...catalog.bots];
  const before = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  $("seats").replaceChildren();
  for (let p = 0; p < n; p++) {
    const select = el("select", { name: "seat", "data-testid": `seat-${p}` });
    for (const k of kinds) select.append(el("option", { value: k }, seatLabel(k)));
    select.value = before[p] || (p === 0 ? catalog.human : catalog.default_bot);
    const label = el("label", {}, `Seat p${p} `);
    label.append(select);
    $("seats").append(label);
  }
}

// a person, or one of the bots (each listed once; the default bot says so)
function seatLabel(kind) {
  if (kind === catalog.human) return "a person";
  const about = BOT_ABOUT[kind] ? `: ${BOT_ABOUT[kind]}` : "";
  return `${kind} bot${kind === catalog.default_bot ? " (default)" : ""}${about}`;
}

// The first of the browser's languages (its Accept-Language, as the server read it) that the
// game has; English when none.
function preferredLanguage(offered) {
  for (const wanted of [...(catalog.accept_languages || []), ...navigator.languages]) {
    const code = wanted.toLowerCase().split("-")[0];
    if (offered.includes(code)) return code;
  }
  return offered.includes("en") ? "en" : offered[0];
}

function seats(count) {
  const chosen = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  return chosen.length === count ? chosen : Array.from({ length: count }, (_, p) => chosen[p] || catalog.human);
}

function names() {
  const text = form.names.value.trim();
  return text ? text.split(",").map((s) => s.trim()) : null;
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function opened(made) {
  const lang = form.lang.value;
  const people = made.seats.filter((s) => s.token);
  if (form.hotseat.checked && people.length) {
    const hot = people.map((s) => `${s.player}:${s.token}`).join(",");
    location.href = `${people[0].url}&lang=${lang}#hotseat=${hot}`;
    return;
  }
  const links = $("links");
  links.hidden = false;
  links.replaceChildren(el("h2", {}, "Your table"), el("p", {}, "Give each person the link of their seat; keep the others' links secret."));
  if (made.public_seed !== null) {
    links.append(el("p", { "data-testid": "public-seed-note" }, `Public seed ${made.public_seed}: whoever knows it can work out every card.`));
  }
  const list = el("ul");
  for (const s of made.seats) {
    const item = el("li", {}, `${s.name} (${s.kind}) `);
    if (s.url) item.append(el("a", { href: `${s.url}&lang=${lang}`, "data-testid": `seat-link-${s.player}` }, location.origin + s.url));
    else if (s.kind === catalog.human) item.append(`plays by its own link: ${location.origin}/table/${made.table}?seat=<its token>`);
    list.append(item);
  }
  const watch = el("li", {}, "Spectators ");
  watch.append(el("a", { href: made.spectator, "data-testid": "spectator-link" }, location.origin + made.spectator));
  list.append(watch);
  links.append(list);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  $("error").textContent = "";
  const players = Number(form.players.value);
  try {
    opened(await call("POST", "/api/tables", {
      game: form.game.value,
      variants: [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
      players,
      seats: seats(players),
      seed: form.seed.value === "" ? null : Number(form.seed.value),   // none: the server deals in secret
      names: names(),
    }));
  } catch (error) { $("error").textContent = error.message; }
});

async function listSaves() {
  const { saves } = await call("GET", "/api/saves");
  $("saves").replaceChildren(...saves.map((s) => {
    const item = el("li", {}, `${s.title}${s.variants.length ? " (" + s.variants.join(", ") + ")" : ""}, ` +
      `${s.players} players, ${s.actions} actions${s.over ? ", finished" : ""} `);
    const button = el("button", { type: "button", "data-save": s.name }, "Go on with it");
    button.addEventListener("click", async () => {
      $("error").textContent = "";
      // the token of the seat that saved it, kept by its page (table.js) or by the upload below
      const seat = localStorage.getItem(`venedig-save:${s.name}`);
      if (!seat) { $("error").textContent = "This browser does not hold the link of the seat that saved it."; return; }
      try { opened(await call("POST", "/api/tables", { save: s.name, seat })); }
      catch (error) { $("error").textContent = error.message; }
    });
    item.append(button);
    return item;
  }));
}

$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (!file) return;
  try {
    const kept = await call("POST", "/api/saves", JSON.parse(await file.text()));
    localStorage.setItem(`venedig-save:${kept.save}`, kept.seat);
    await listSaves();
  } catch (error) { $("error").textContent = error.message; }
});

(async () => {
  catalog = await call("GET", "/api/games");
  form.game.replaceChildren(...catalog.games.map((g) => el("option", { value: g.id }, g.title)));
  form.game.addEventListener("change", fillGame);
  form.players.addEventListener("change", fillSeats);
  fillGame();
  await listSaves();
})();
