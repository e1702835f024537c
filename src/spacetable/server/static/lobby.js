// The lobby: pick a game, its players, options and seats; create a table; list the tables.
import { api, copy, fill, h } from "./common.js";

const form = document.getElementById("new-table");
const gameSelect = document.getElementById("game");
const playersInput = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const errorLine = document.getElementById("error");
const created = document.getElementById("created");
const tablesBox = document.getElementById("tables");
let games = [];

function showError(message) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

function current() {
  return games.find((g) => g.id === gameSelect.value);
}

/** One input per option, by its kind: choices -> select, bool -> checkbox, int -> number, else JSON text. */
function optionField(spec) {
  const id = `opt-${spec.name}`;
  const kind = String(spec.kind || "").toLowerCase();
  let input;
  if (spec.choices && spec.choices.length) {
    input = h(
      "select",
      { id },
      spec.choices.map((c) =>
        h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(spec.default) }, c === null ? "default" : String(c)),
      ),
    );
  } else if (kind === "bool") {
    input = h("input", { id, type: "checkbox", checked: spec.default === true });
  } else if (kind === "int") {
    input = h("input", { id, type: "number", step: 1, value: spec.default ?? "", placeholder: "default" });
  } else {
    const text = spec.default === null || spec.default === undefined ? "" : JSON.stringify(spec.default);
    const big = spec.name === "content" || kind === "dict";
    input = big
      ? h("textarea", { id, rows: 4, placeholder: "JSON, e.g. {} (empty: default)", spellcheck: "false" }, text)
      : h("input", { id, type: "text", value: text, placeholder: "JSON (empty: default)", spellcheck: "false" });
  }
  input.dataset.option = spec.name;
  input.dataset.kind = kind;
  input.dataset.default = JSON.stringify(spec.default ?? null);
  const field = h("div", { class: "field" }, h("label", { for: id }, spec.name), input, h("small", { class: "muted" }, spec.help || ""));
  return spec.name === "content" ? h("details", {}, h("summary", {}, "content (designer's card data)"), field) : field;
}

/** The value of an option input, or undefined for "leave the default". */
function optionValue(input) {
  const kind = input.dataset.kind;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (kind === "bool") return input.checked;
  const raw = input.value.trim();
  if (!raw) return undefined;
  if (kind === "int") return Number.parseInt(raw, 10);
  try {
    return JSON.parse(raw);
  } catch {
    if (kind === "str") return raw;
    throw new Error(`option ${input.dataset.option}: not valid JSON`);
  }
}

function renderSeats() {
  const game = current();
  const count = Number(playersInput.value) || game.default_players || game.min_players;
  const kept = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  fill(seatsBox, h("legend", {}, "Seats"));
  for (let seat = 0; seat < count; seat++) {
    const id = `seat-${seat}`;
    const select = h(
      "select",
      { id, "data-seat": seat },
      h("option", { value: "human" }, "human"),
      (game.bots || []).map((bot) => h("option", { value: `bot:${bot}` }, `bot: ${bot}`)),
    );
    if (kept[seat]) select.value = kept[seat];
    seatsBox.append(h("div", { class: "field inline" }, h("label", { for: id }, `Seat ${seat + 1}`), select));
  }
}

function renderGame() {
  const game = current();
  if (!game) return;
  document.getElementById("game-help").textContent =
    game.min_players === game.max_players ? game.min_players === 1 ? "1 player" : `${game.min_players} players` : `${game.min_players} to ${game.max_players} players`;
  playersInput.min = game.min_players;
  playersInput.max = game.max_players;
  playersInput.value = game.default_players || game.min_players;
  playersInput.disabled = game.min_players === game.max_players;
  fill(optionsBox, h("legend", {}, "Options"), (game.options || []).map(optionField));
  optionsBox.hidden = !(game.options || []).length;
  fill(seatsBox);
  renderSeats();
}

function linkRow(label, path, openText) {
  const url = new URL(path, location.href).href;
  const button = h("button", { type: "button", class: "copy", onclick: (e) => copy(url, e.currentTarget) }, "Copy");
  return h(
    "li",
    {},
    h("span", { class: "link-label" }, label),
    h("input", { type: "text", readonly: true, value: url, "aria-label": `${label} link`, onfocus: (e) => e.target.select() }),
    button,
    openText ? h("a", { href: path, class: "button" }, openText) : null,
  );
}

function showCreated(result) {
  const rows = result.seats.map((s) =>
    s.kind === "human"
      ? linkRow(`Seat ${s.seat + 1}`, s.link, `Take seat ${s.seat + 1}`)
      : h("li", { class: "bot-seat" }, h("span", { class: "link-label" }, `Seat ${s.seat + 1}`), h("span", {}, `${s.level} bot`)),
  );
  rows.push(linkRow("Spectators", result.spectate, "Watch"));
  fill(created,
    h("h3", {}, `Table ${result.table}`),
    h("p", { class: "muted" }, "Each invite link holds its seat's secret: send it only to that player."),
    h("ul", { class: "links", id: "invites" }, rows),
  );
  created.hidden = false;
  loadTables();
}

async function submit(event) {
  event.preventDefault();
  showError("");
  const game = current();
  try {
    const options = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const value = optionValue(input);
      if (value !== undefined && JSON.stringify(value) !== input.dataset.default) options[input.dataset.option] = value;
    }
    const seats = [...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) },
    );
    const body = { game: game.id, players: Number(playersInput.value), options, seats };
    const clock = document.getElementById("clock").value.trim();
    if (clock) body.clock = Number(clock);
    showCreated(await api("/api/tables", { body }));
  } catch (error) {
    showError(error.message);
  }
}

async function loadTables() {
  try {
    const tables = await api("/api/tables");
    if (!tables.length) {
      fill(tablesBox, h("p", { class: "muted" }, "No tables yet."));
      return;
    }
    const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
    const rows = tables.map((t) =>
      h(
        "tr",
        {},
        h("td", {}, names[t.game] || t.game),
        h(
          "td",
          {},
          t.seats.map((s) =>
            h(
              "span",
              { class: `seat-chip ${s.connected ? "online" : "offline"}`, title: s.connected ? "connected" : "away" },
              `Seat ${s.seat + 1}: ${s.kind === "bot" ? `${s.level} bot` : "human"}`,
            ),
          ),
        ),
        h("td", {}, t.finished ? "finished" : `move ${t.n}`),
        h("td", {}, h("a", { href: `/t/${t.table}`, class: "button" }, t.finished ? "Replay" : "Watch")),
      ),
    );
    fill(tablesBox,
      h(
        "table",
        { class: "tables" },
        h("thead", {}, h("tr", {}, ["Game", "Seats", "State", ""].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rows),
      ),
      h("p", { class: "muted" }, "To join a seat, open its invite link."),
    );
  } catch (error) {
    fill(tablesBox, h("p", { class: "error" }, error.message));
  }
}

async function start() {
  try {
    games = await api("/api/games");
  } catch (error) {
    showError(error.message);
    return;
  }
  fill(gameSelect, games.map((g) => h("option", { value: g.id }, g.name)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) gameSelect.value = wanted;
  renderGame();
  gameSelect.addEventListener("change", renderGame);
  playersInput.addEventListener("input", renderSeats);
  form.addEventListener("submit", submit);
  loadTables();
  setInterval(loadTables, 5000);
}

start();
