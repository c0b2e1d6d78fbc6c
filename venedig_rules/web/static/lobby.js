// The lobby: a new table (game, variants, players, who plays each seat, a public seed or a
// secret deal) or one of this visitor's saved games to go on with. Everything it offers comes
// from /api/games.
"use strict";

const $ = (id) => document.getElementById(id);
const form = $("new-table");
let catalog = null;
//: Languages by their own name (a code not listed shows as it is).
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", fr: "Français", it: "Italiano", es: "Español", nl: "Nederlands" };
//: The lobby's own words (game and variant texts come from the server). A language not
//: listed here shows the English words.
const UI = {
  en: {
    new_table: "New table", game: "Game", variants: "Variants (optional)", players: "Players",
    names: "Names", names_hint: "Anna, Ben, ... (optional)", public_seed: "Public seed",
    seed_hint: "none: a secret deal",
    seed_help: "Leave the public seed empty: the server then deals from a secret seed no one knows. " +
      "A public seed is for tests and replays: whoever knows it can work out every card, and every page of the table says so.",
    language: "Language", hotseat: "Hot seat: all people play in this browser, taking turns",
    create: "Start the game", saved_games: "Saved games",
    saves_help: "Your saves from this browser. A saved game goes on with the link of the seat that saved it, once its " +
      "table is closed; the other seats keep their links' tokens (the table's maker gets new links for every seat).",
    upload: "Bring a save file (from venedig-rules play)", seat: "Seat {seat}", person: "a person",
    bot: "{name} bot", default_bot: "{name} bot (default)",
    bot_random: "picks any legal move", bot_greedy: "takes the move that scores most now",
    bot_ismcts: "searches ahead over what it cannot see (slow, strong)",
    your_table: "Your table", give_links: "Give each person the link of their seat; keep the others' links secret.",
    seed_note: "Public seed {seed}: whoever knows it can work out every card.",
    own_link: "plays by its own link: {url}", spectators: "Spectators",
    save_line: "{title}{variants}, {players} players, {actions} actions", finished: ", finished",
    go_on: "Go on with it", no_seat_link: "This browser does not hold the link of the seat that saved it.",
    kind_human: "person", kind_bot: "bot",
  },
  de: {
    new_table: "Neuer Tisch", game: "Spiel", variants: "Varianten (freiwillig)", players: "Spieler",
    names: "Namen", names_hint: "Anna, Ben, ... (freiwillig)", public_seed: "Öffentlicher Seed",
    seed_hint: "keiner: geheim gemischt",
    seed_help: "Lass den öffentlichen Seed leer: Dann mischt der Server mit einem geheimen Seed, den niemand kennt. " +
      "Ein öffentlicher Seed ist für Tests und Wiederholungen da: Wer ihn kennt, kann jede Karte ausrechnen, und jede Seite des Tisches sagt das.",
    language: "Sprache", hotseat: "Am selben Gerät: Alle Personen spielen abwechselnd in diesem Browser",
    create: "Spiel beginnen", saved_games: "Gespeicherte Spiele",
    saves_help: "Deine Spielstände aus diesem Browser. Ein gespeichertes Spiel geht mit dem Link des Platzes weiter, der es " +
      "gespeichert hat, sobald sein Tisch geschlossen ist; die anderen Plätze behalten ihre Links (wer den Tisch eröffnet, bekommt neue Links für alle Plätze).",
    upload: "Spielstand-Datei laden (aus venedig-rules play)", seat: "Platz {seat}", person: "eine Person",
    bot: "Bot {name}", default_bot: "Bot {name} (Vorgabe)",
    bot_random: "wählt irgendeinen erlaubten Zug", bot_greedy: "nimmt den Zug, der jetzt am meisten Punkte bringt",
    bot_ismcts: "sucht voraus über das, was er nicht sieht (langsam, stark)",
    your_table: "Dein Tisch", give_links: "Gib jeder Person den Link ihres Platzes; halte die Links der anderen geheim.",
    seed_note: "Öffentlicher Seed {seed}: Wer ihn kennt, kann jede Karte ausrechnen.",
    own_link: "spielt über seinen eigenen Link: {url}", spectators: "Zuschauer",
    save_line: "{title}{variants}, {players} Spieler, {actions} Züge", finished: ", beendet",
    go_on: "Weiterspielen", no_seat_link: "Dieser Browser hat den Link des Platzes nicht, der gespeichert hat.",
    kind_human: "Person", kind_bot: "Bot",
  },
};
let lang = "en";
function t(key, vars = {}) {
  const words = UI[lang] || UI.en;
  return (words[key] || UI.en[key]).replace(/\{(\w+)\}/g, (_, name) => String(vars[name]));
}

const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};

// The lobby's words in `code` (English when it has none in that language); the page's
// language attribute follows, for screen readers.
function setLanguage(code) {
  lang = UI[code] ? code : "en";
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-ui]")) node.textContent = t(node.dataset.ui);
  for (const node of document.querySelectorAll("[data-ui-label]")) node.setAttribute("aria-label", t(node.dataset.uiLabel));
  for (const node of document.querySelectorAll("[data-ui-placeholder]")) node.placeholder = t(node.dataset.uiPlaceholder);
}

function game() { return catalog.games.find((g) => g.id === form.game.value); }

function fillGame() {
  const g = game();
  $("variants").replaceChildren();
  const before = Number(form.players.value) || g.players[0];
  form.players.replaceChildren();
  for (let n = g.players[0]; n <= g.players[1]; n++) form.players.append(el("option", { value: n }, String(n)));
  form.players.value = String(Math.min(Math.max(before, g.players[0]), g.players[1]));
  const chosen = form.lang.value;
  form.lang.replaceChildren(...g.languages.map((l) => el("option", { value: l }, LANGUAGE_NAMES[l] || l)));
  form.lang.value = g.languages.includes(chosen) ? chosen : preferredLanguage(g.languages);
  fillTexts();
}

// Everything worded in the chosen language: the lobby's words, the variants, the seats' choices
// and the saves (what was ticked or chosen stays).
function fillTexts() {
  setLanguage(form.lang.value);
  fillVariants();
  fillSeats();
  if (catalog.saves_listed) listSaves();
}

// each variant by its title, with its description: what it changes
function fillVariants() {
  const g = game();
  const ticked = new Set([...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value));
  $("variants").replaceChildren(...g.variants.map((v) => {
    const about = variantAbout(g, v);
    const label = el("label");
    const box = el("input", { type: "checkbox", name: "variant", value: v });
    box.checked = ticked.has(v);
    label.append(box, ` ${about.title}`);
    if (about.description) {
      const text = el("small", { class: "about", id: `about-${v}` }, about.description);
      box.setAttribute("aria-describedby", text.id);
      label.append(text);
    }
    return label;
  }));
}

// A variant's title and description in the lobby's language when its file gives them, else
// as its file writes them.
function variantAbout(g, v) {
  const about = (g.variant_about || {})[v] || { title: v.replace(/_/g, " "), description: "" };
  return { ...about, ...((about.translations || {})[form.lang.value] || {}) };
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
    const label = el("label", {}, `${t("seat", { seat: `p${p}` })} `);
    label.append(select);
    $("seats").append(label);
  }
}

// a person, or one of the bots (each listed once; the default bot says so)
function seatLabel(kind) {
  if (kind === catalog.human) return t("person");
  const about = (UI[lang] || UI.en)[`bot_${kind}`] || UI.en[`bot_${kind}`];
  return `${t(kind === catalog.default_bot ? "default_bot" : "bot", { name: kind })}${about ? `: ${about}` : ""}`;
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
  links.replaceChildren(el("h2", {}, t("your_table")), el("p", {}, t("give_links")));
  if (made.public_seed !== null) {
    links.append(el("p", { "data-testid": "public-seed-note" }, t("seed_note", { seed: made.public_seed })));
  }
  const list = el("ul");
  for (const s of made.seats) {
    const kind = s.kind === catalog.human ? t("kind_human") : s.kind;
    const item = el("li", {}, `${s.name} (${kind}) `);
    if (s.url) item.append(el("a", { href: `${s.url}&lang=${lang}`, "data-testid": `seat-link-${s.player}` }, location.origin + s.url));
    else if (s.kind === catalog.human) item.append(t("own_link", { url: `${location.origin}/table/${made.table}?seat=<token>` }));
    list.append(item);
  }
  const watch = el("li", {}, `${t("spectators")} `);
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
    const variants = s.variants.length ? ` (${s.variants.join(", ")})` : "";
    const line = t("save_line", { title: s.title, variants, players: s.players, actions: s.actions });
    const item = el("li", {}, `${line}${s.over ? t("finished") : ""} `);
    const button = el("button", { type: "button", "data-save": s.name }, t("go_on"));
    button.addEventListener("click", async () => {
      $("error").textContent = "";
      // the token of the seat that saved it, kept by its page (table.js) or by the upload below
      const seat = localStorage.getItem(`venedig-save:${s.name}`);
      if (!seat) { $("error").textContent = t("no_seat_link"); return; }
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
  // the lobby speaks the language chosen for the game; the variants' texts follow it too
  form.lang.addEventListener("change", fillTexts);
  fillGame();
  // disabled in the page until now: a table asked for before the games are known would name none
  form.querySelector("button[type=submit]").disabled = false;
  await listSaves();
  catalog.saves_listed = true;
  $("saves").dataset.listed = "true";
})().catch((error) => { $("error").textContent = error.message; });
