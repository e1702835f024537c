// The lobby: pick a game, its players, options and seats; create a table; list the tables.
//
// Options come from /api/games with their words: a label, a line of help, labels for their
// values, the group they come under (as the rulebook presents them) and what they require.
// The lobby knows no game rule: a dependency between options is kept as the person chooses
// (choosing a value that needs another option sets that one too, and taking that one away sets
// the first back, each with a note), and a dependency on the player count is shown in words
// before submit, with Create off while it stands. The server checks everything again.
import { api, copy, fill, h } from "./common.js";
import { doneLessons } from "./lesson.js";

const form = document.getElementById("new-table");
const gameSelect = document.getElementById("game");
const playersInput = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const conflictsBox = document.getElementById("conflicts");
const createButton = document.getElementById("create");
const errorLine = document.getElementById("error");
const created = document.getElementById("created");
const tablesBox = document.getElementById("tables");
const PLAYERS = "players";
const OTHER = "\u0000other";
/** Groups shown first and last; the others keep the game's order. */
const FIRST_GROUPS = ["Game mode"];
const LAST_GROUPS = ["House rules", "For designers"];
let games = [];
let specs = [];

function showError(message) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

function current() {
  return games.find((g) => g.id === gameSelect.value);
}

function players() {
  return Number(playersInput.value) || 0;
}

// ---- values in words ----------------------------------------------------------------------

const key = (value) => String(value);
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sentence = (text) => {
  const t = String(text || "").trim();
  return t && t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
};

function playersWords(counts) {
  const list = [...counts].sort((a, b) => a - b);
  if (list.length === 1 && list[0] === 1) return "one player";
  const [low, high] = [list[0], list[list.length - 1]];
  if (list.length > 2 && list.length === high - low + 1) return `${low} to ${high} players`;
  return `${list.join(" or ")} players`;
}

/** A value of an option in words: its label, on/off, a seat counted from 1. */
function words(spec, value) {
  const labels = spec.choice_labels || {};
  if (Object.hasOwn(labels, key(value)) && (value === null || typeof value !== "object")) return labels[key(value)];
  if (typeof value === "boolean") return value ? "on" : "off";
  if (value === null || value === undefined) return "off";
  if (spec.seat && Number.isInteger(value)) return `Seat ${value + 1}`;
  if (Array.isArray(value)) return value.map((v) => words(spec, v)).join(", ") || "none";
  return String(value);
}

/** "Planetary exploration turned on", "Game mode set to Victory points". */
function changedWords(spec, value) {
  if (typeof value === "boolean") return `${spec.label} turned ${value ? "on" : "off"}`;
  return `${spec.label} set to ${words(spec, value)}`;
}

/** Why a requirement holds, in a sentence: the game's words, or said from the labels. */
function why(spec, need) {
  if (need.why) return need.why;
  const wanted = need.option === PLAYERS ? playersWords(need.values) : `${byName(need.option).label} ${need.values.map((v) => words(byName(need.option), v)).join(" or ")}`;
  return `${spec.label} ${need.when === null ? "" : `${words(spec, read(spec))} `}needs ${wanted}`;
}

// ---- the option fields --------------------------------------------------------------------

function byName(name) {
  return specs.find((s) => s.name === name);
}

function fieldOf(name) {
  return document.getElementById(`field-${name}`);
}

function inputOf(name) {
  return document.getElementById(`opt-${name}`);
}

/** Open choices: a text option whose usual values have labels (a layout, a deck), others typed. */
function isOpen(spec) {
  return !spec.choices && spec.kind === "str" && Object.keys(spec.choice_labels || {}).length > 0;
}

function isItemList(spec) {
  return spec.kind === "list" && Object.keys(spec.choice_labels || {}).length > 0;
}

function seatChoices(spec) {
  const none = (spec.choice_labels || {}).null || "None";
  const count = Math.max(players(), 1);
  return [h("option", { value: "" }, none), Array.from({ length: count }, (_, s) => h("option", { value: s }, `Seat ${s + 1}`))];
}

/** The input of one option, by its kind: a checkbox, a select of labelled values, a number, text. */
function control(spec, described) {
  const id = `opt-${spec.name}`;
  const labels = spec.choice_labels || {};
  const common = { id, "aria-describedby": described, "data-option": spec.name };
  if (spec.choices && spec.choices.length) {
    return h(
      "select",
      common,
      spec.choices.map((c) => h("option", { value: key(c), selected: same(c, spec.default) }, words(spec, c))),
    );
  }
  if (spec.kind === "bool") return h("input", { ...common, type: "checkbox", checked: spec.default === true });
  if (spec.seat) return h("select", common, seatChoices(spec));
  if (spec.kind === "int") {
    const nullable = spec.default === null;
    return h("input", {
      ...common,
      type: "number",
      step: 1,
      inputmode: "numeric",
      value: spec.default ?? "",
      placeholder: nullable ? labels.null || "off" : "",
    });
  }
  if (isOpen(spec)) {
    const select = h(
      "select",
      common,
      Object.entries(labels).map(([value, text]) => h("option", { value, selected: value === spec.default }, text)),
      h("option", { value: OTHER }, "Another (type its name)…"),
    );
    return select;
  }
  if (isItemList(spec)) {
    return h(
      "div",
      { ...common, class: "opt-items", role: "group", "aria-label": spec.label },
      Object.entries(labels).map(([value, text]) =>
        h("label", { class: "opt-item" }, h("input", { type: "checkbox", value, "data-item": spec.name }), text),
      ),
    );
  }
  const text = spec.default === null || spec.default === undefined ? "" : typeof spec.default === "string" ? spec.default : JSON.stringify(spec.default);
  if (spec.kind === "dict" || spec.kind === "list" || spec.kind === "object") {
    return h("textarea", { ...common, rows: 4, placeholder: "A JSON object; empty: the game's own data", spellcheck: "false" }, text);
  }
  return h("input", { ...common, type: "text", value: text, spellcheck: "false" });
}

function optionField(spec) {
  const help = `help-${spec.name}`;
  const note = `note-${spec.name}`;
  const input = control(spec, `${help} ${note}`);
  const helpLine = h("p", { class: "opt-help", id: help }, sentence(spec.help));
  const noteLine = h("p", { class: "opt-note", id: note, role: "status", hidden: true });
  if (spec.kind === "bool") {
    return h("div", { class: "opt opt-check", id: `field-${spec.name}` }, input, h("label", { for: input.id }, spec.label), helpLine, noteLine);
  }
  const label = isItemList(spec) ? h("span", { class: "opt-label" }, spec.label) : h("label", { for: input.id }, spec.label);
  const other = isOpen(spec)
    ? h("input", { id: `opt-${spec.name}-other`, type: "text", class: "opt-other", hidden: true, spellcheck: "false", "aria-label": `${spec.label}: its name` })
    : null;
  return h("div", { class: "opt", id: `field-${spec.name}` }, label, input, other, helpLine, noteLine);
}

function groupsOf(options) {
  const groups = new Map();
  for (const spec of options) {
    const name = spec.group || "Options";
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(spec);
  }
  const rank = (name) => (FIRST_GROUPS.includes(name) ? -1 : LAST_GROUPS.includes(name) ? 1 + LAST_GROUPS.indexOf(name) : 0);
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

function renderOptions(game) {
  specs = (game.options || []).map((s) => ({ ...s, label: s.label || s.name, requires: s.requires || [] }));
  const sets = groupsOf(specs).map(([name, members]) => {
    const set = h("fieldset", { class: "opt-group" }, h("legend", {}, name), members.map(optionField));
    return name === "For designers" ? h("details", { class: "designers", id: "designers" }, h("summary", {}, "For designers"), set) : set;
  });
  fill(optionsBox, sets);
  optionsBox.hidden = !specs.length;
  for (const spec of specs) {
    if (isOpen(spec) && !Object.hasOwn(spec.choice_labels, key(spec.default))) setValue(spec, spec.default);
  }
}

/** The value of an option as chosen (its default where the field is left empty). */
function read(spec) {
  const input = inputOf(spec.name);
  if (!input) return spec.default;
  if (spec.choices && spec.choices.length) {
    const at = spec.choices.findIndex((c) => key(c) === input.value);
    return at < 0 ? spec.default : spec.choices[at];
  }
  if (spec.kind === "bool") return input.checked;
  if (spec.seat) return input.value === "" ? null : Number(input.value);
  if (isOpen(spec)) {
    if (input.value !== OTHER) return input.value;
    return document.getElementById(`opt-${spec.name}-other`).value.trim() || spec.default;
  }
  if (isItemList(spec)) {
    const chosen = [...input.querySelectorAll("input:checked")].map((i) => i.value);
    return chosen.length ? chosen : spec.default;
  }
  const raw = input.value.trim();
  if (!raw) return spec.default;
  if (spec.kind === "int") return Number(raw);
  if (spec.kind === "str") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${spec.label}: this is not valid JSON`);
  }
}

function readSafe(spec) {
  try {
    return read(spec);
  } catch {
    return spec.default;
  }
}

function setValue(spec, value) {
  const input = inputOf(spec.name);
  if (spec.choices && spec.choices.length) input.value = key(value);
  else if (spec.kind === "bool") input.checked = value === true;
  else if (spec.seat) input.value = value === null ? "" : String(value);
  else if (isOpen(spec)) {
    const other = document.getElementById(`opt-${spec.name}-other`);
    const labelled = Object.hasOwn(spec.choice_labels, key(value));
    input.value = labelled ? value : OTHER;
    other.value = labelled ? "" : value ?? "";
    other.hidden = labelled;
  } else if (isItemList(spec)) {
    for (const box of input.querySelectorAll("input")) box.checked = Array.isArray(value) && value.includes(box.value);
  } else input.value = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  fieldOf(spec.name).classList.add("changed");
}

// ---- dependencies -------------------------------------------------------------------------

function applies(need, spec, value) {
  return need.when === null ? !same(value, spec.default) : need.when.some((w) => same(w, value));
}

function met(need) {
  const value = need.option === PLAYERS ? players() : readSafe(byName(need.option));
  return need.values.some((v) => same(v, value));
}

/** Keep the options' dependencies after the person changed ``changed`` (an option's name,
 * "players" or null); returns the notes to show, by option name. */
function settle(changed) {
  const notes = new Map();
  const say = (name, text) => notes.set(name, [...(notes.get(name) || []), sentence(text)]);
  for (let pass = 0; pass < 8; pass++) {
    let moved = false;
    for (const spec of specs) {
      for (const need of spec.requires) {
        const value = readSafe(spec);
        if (!applies(need, spec, value) || met(need)) continue;
        const back = !applies(need, spec, spec.default);
        if (need.when === null || (need.option !== PLAYERS && changed === need.option)) {
          // an option for a mode or a module not chosen (its field is off), or the one it needs taken away
          if (!back) continue;
          setValue(spec, spec.default);
          say(need.option === PLAYERS || need.when === null ? spec.name : need.option, `${changedWords(spec, spec.default)}: ${why(spec, need)}`);
          moved = true;
        } else if (need.option !== PLAYERS) {
          const other = byName(need.option);
          setValue(other, need.values[0]);
          say(spec.name, `${changedWords(other, need.values[0])} too: ${why(spec, need)}`);
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return notes;
}

/** What stands in the way of creating the table: [{spec, need, text, fixes}]. */
function conflicts() {
  const found = [];
  const game = current();
  for (const spec of specs) {
    const value = readSafe(spec);
    for (const need of spec.requires) {
      if (need.when === null || !applies(need, spec, value) || met(need)) continue;
      const now = need.option === PLAYERS ? `the table has ${playersWords([players()])}` : `${byName(need.option).label} is ${words(byName(need.option), readSafe(byName(need.option)))}`;
      const fixes = [];
      if (need.option === PLAYERS) {
        const fits = need.values.filter((n) => n >= game.min_players && n <= game.max_players);
        const nearest = fits.sort((a, b) => Math.abs(a - players()) - Math.abs(b - players()))[0];
        if (nearest !== undefined) fixes.push([`Use ${playersWords([nearest])}`, () => setPlayers(nearest)]);
      }
      if (!applies(need, spec, spec.default)) {
        fixes.push([`${spec.label} back to ${words(spec, spec.default)}`, () => { setValue(spec, spec.default); refresh(spec.name); }]);
      }
      found.push({ spec, need, text: sentence(`${why(spec, need)}, but ${now}`), fixes });
    }
  }
  return found;
}

function setPlayers(count) {
  playersInput.value = count;
  renderSeats();
  refresh(PLAYERS);
}

/** After a change: keep dependencies, mark fields that cannot be used now, list conflicts. */
function refresh(changed) {
  for (const field of optionsBox.querySelectorAll(".opt.changed")) field.classList.remove("changed");
  const notes = settle(changed);
  for (const spec of specs) {
    const field = fieldOf(spec.name);
    const input = inputOf(spec.name);
    const blocked = spec.requires.find((need) => need.when === null && !met(need));
    input.disabled = Boolean(blocked);
    for (const box of input.querySelectorAll("input")) box.disabled = Boolean(blocked);
    field.classList.toggle("off", Boolean(blocked));
    field.classList.remove("bad");
    const lines = [...(notes.get(spec.name) || [])];
    if (blocked && !lines.length) lines.push(sentence(why(spec, blocked)));
    const note = document.getElementById(`note-${spec.name}`);
    note.textContent = lines.join(" ");
    note.hidden = !lines.length;
    note.classList.remove("bad");
  }
  const found = conflicts();
  for (const { spec, text } of found) {
    fieldOf(spec.name).classList.add("bad");
    const note = document.getElementById(`note-${spec.name}`);
    note.textContent = text;
    note.hidden = false;
    note.classList.add("bad");
  }
  fill(
    conflictsBox,
    found.map(({ text, fixes }) =>
      h("p", { class: "conflict" }, h("span", {}, text), fixes.map(([label, act]) => h("button", { type: "button", class: "small fix", onclick: act }, label))),
    ),
  );
  conflictsBox.hidden = !found.length;
  createButton.disabled = found.length > 0;
  createButton.title = found.length ? `Not yet: ${found.map((c) => c.text).join(" ")}` : "";
}

// ---- seats, game, submit ------------------------------------------------------------------

function renderSeats() {
  const game = current();
  const count = players() || game.default_players || game.min_players;
  const kept = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  fill(seatsBox, h("legend", {}, "Seats"), h("p", { class: "opt-help" }, "Each person gets an invite link to send them; a bot plays at once."));
  for (let seat = 0; seat < count; seat++) {
    const id = `seat-${seat}`;
    const select = h(
      "select",
      { id, "data-seat": seat },
      h("option", { value: "human" }, "Person"),
      (game.bots || []).map((bot) => h("option", { value: `bot:${bot}` }, `Bot: ${bot}`)),
    );
    if (kept[seat]) select.value = kept[seat];
    seatsBox.append(h("div", { class: "field inline" }, h("label", { for: id }, `Seat ${seat + 1}`), select));
  }
  for (const spec of specs.filter((s) => s.seat)) {
    const input = inputOf(spec.name);
    const value = input.value;
    fill(input, seatChoices(spec));
    input.value = value !== "" && Number(value) < count ? value : "";
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
  renderOptions(game);
  fill(seatsBox);
  renderSeats();
  refresh(null);
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
  if (conflicts().length) return;
  try {
    const options = {};
    for (const spec of specs) {
      const value = read(spec);
      if (!same(value, spec.default)) options[spec.name] = value;
    }
    const seats = [...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) },
    );
    const body = { game: game.id, players: players(), options, seats };
    const clock = document.getElementById("clock").value.trim();
    if (clock) body.clock = Number(clock);
    showCreated(await api("/api/tables", { body }));
  } catch (error) {
    showError(error.message);
  }
}

function optionChanged(event) {
  const target = event.target;
  // one refresh per change: a select or a checkbox on "change", what is typed on "input"
  const picked = target.tagName === "SELECT" || target.type === "checkbox";
  if (picked !== (event.type === "change")) return;
  const owner = target.closest("[data-option]") || (target.dataset.item ? inputOf(target.dataset.item) : null);
  const name = owner ? owner.dataset.option : target.id.startsWith("opt-") ? target.id.slice(4, -"-other".length) : null;
  if (!name) return;
  const spec = byName(name);
  if (spec && isOpen(spec) && target === inputOf(name)) {
    const other = document.getElementById(`opt-${name}-other`);
    other.hidden = target.value !== OTHER;
    if (!other.hidden && event.type === "change") other.focus();
  }
  showError("");
  refresh(name);
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

// ---- learn to play: each game's lessons, a tick on those done in this browser --------------------

const SHOWN_LESSONS = 6;
/** A game's lessons, numbered; past the sixth they fold under "N more" (Mothership's modules and
 * modes), open when one of them is done. */
function lessonLists(g, done) {
  const items = g.lessons.map((lesson) => {
    const ticked = done.includes(lesson.id);
    return h(
      "li",
      { class: ticked ? "done" : "", "data-lesson": lesson.id },
      h("a", { href: `/learn/${encodeURIComponent(g.game)}/${encodeURIComponent(lesson.id)}`, title: lesson.summary }, lesson.title),
      ticked ? h("span", { class: "tick", role: "img", "aria-label": "done" }, " ✓") : null,
    );
  });
  const first = h("ol", { class: "learn-list" }, items.slice(0, SHOWN_LESSONS));
  if (items.length <= SHOWN_LESSONS) return first;
  const rest = g.lessons.slice(SHOWN_LESSONS);
  const more = h(
    "details",
    { class: "learn-more" },
    h("summary", {}, `${rest.length} more lessons`),
    h("ol", { class: "learn-list", start: String(SHOWN_LESSONS + 1) }, items.slice(SHOWN_LESSONS)),
  );
  if (rest.some((lesson) => done.includes(lesson.id))) more.open = true;
  return h("div", {}, first, more);
}

async function loadLessons() {
  const box = document.getElementById("lessons");
  let catalogue;
  try {
    catalogue = await api("/api/lessons");
  } catch (error) {
    fill(box, h("p", { class: "error" }, error.message));
    return;
  }
  const done = doneLessons();
  const games = catalogue.filter((g) => g.lessons.length);
  if (!games.length) return fill(box, h("p", { class: "muted" }, "No lessons yet."));
  fill(box,
    h(
      "div",
      { class: "learn-games" },
      games.map((g) =>
        h(
          "div",
          { class: "learn-game", "data-game": g.game },
          h("h3", {}, g.name),
          lessonLists(g, done[g.game] || []),
        ),
      ),
    ),
  );
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
  playersInput.addEventListener("input", () => {
    renderSeats();
    refresh(PLAYERS);
  });
  for (const type of ["input", "change"]) optionsBox.addEventListener(type, optionChanged);
  form.addEventListener("submit", submit);
  loadLessons();
  loadTables();
  setInterval(loadTables, 5000);
}

start();
