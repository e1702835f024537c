// The table page: one WebSocket to /ws/{table}, drawing only what the server sends (docs/WEB.md).
import { fill, h, viewToDom } from "./common.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const board = $("board");
const actionsBox = $("actions");
const filterInput = $("actions-filter");
const logBox = $("log");
const notice = $("notice");
const info = $("info");

const page = {
  seat: null,
  token: null,
  socket: null,
  retry: 0,
  lastN: null, // the n of the last update drawn
  loggedN: -1, // events up to this n are in the log
  update: null,
  seats: [],
  gameId: null, // the game's id, for the links to its rules
  glossary: {},
  names: [], // what the game calls each seat ("Player 2"), as its board and log do
  tab: null, // the side panel shown where a split board's panels are tabs
  path: [], // the data-parts chosen so far: a prefix of some actions' parts (docs/WEB.md, "Parts are paths")
  replay: null, // {k, total} while the replay timeline is shown
  log: [], // every event line shown live, kept while the replay borrows the log
};

// ---- the seat's secret: from the fragment once, then from localStorage -----------------------------

function readSeat() {
  const key = `spacetable:${tableId}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("token")) {
    const stored = { seat: Number(fragment.get("seat")), token: fragment.get("token") };
    localStorage.setItem(key, JSON.stringify(stored));
    history.replaceState(null, "", location.pathname + location.search);
  }
  try {
    const stored = JSON.parse(localStorage.getItem(key) || "null");
    if (stored && stored.token) {
      page.seat = stored.seat;
      page.token = stored.token;
    }
  } catch {
    localStorage.removeItem(key);
  }
}

// ---- the connection ------------------------------------------------------------------------------

function send(frame) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(frame));
    return true;
  }
  showNotice("Not connected: reconnecting…");
  return false;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(tableId)}`);
  page.socket = socket;
  setConnection("connecting…", "");
  socket.addEventListener("open", () => {
    page.retry = 0;
    setConnection("connected", "online");
    socket.send(JSON.stringify({ type: "hello", token: page.token, since: page.lastN }));
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    const handler = handlers[frame.type];
    if (handler) handler(frame);
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return;
    if (event.code === 4401) {
      localStorage.removeItem(`spacetable:${tableId}`);
      setConnection("refused", "offline");
      showNotice("This seat's link is not valid here. Reload the page to watch as a spectator.", true);
      return;
    }
    const delay = Math.min(10000, 500 * 2 ** page.retry++);
    setConnection(`reconnecting in ${Math.round(delay / 1000)} s`, "offline");
    setTimeout(connect, delay);
  });
}

setInterval(() => {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send('{"type":"ping"}');
}, 25000); // keeps proxies from closing a quiet socket

function setConnection(text, cls) {
  const node = $("connection");
  node.textContent = text;
  node.className = `connection ${cls}`;
}

let noticeTimer = null;
function showNotice(text, sticky = false) {
  notice.textContent = text;
  notice.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(() => (notice.hidden = true), 6000);
}

const handlers = {
  welcome(frame) {
    page.seat = frame.seat;
    page.seats = frame.seats || [];
    page.glossary = frame.glossary || {};
    page.names = frame.names || [];
    $("game-name").textContent = frame.game ? frame.game.name : "Table";
    if (frame.game) {
      page.gameId = frame.game.id;
      $("howto").href = `/howto/${encodeURIComponent(frame.game.id)}`;
      $("howto").hidden = false;
    }
    document.title = `spacetable: ${frame.game ? frame.game.name : tableId}`;
  },
  update(frame) {
    page.update = frame;
    page.lastN = frame.n;
    appendEvents(frame.events || []);
    if (!page.replay) draw();
    drawPlayers();
    drawOutcome();
  },
  refused(frame) {
    showNotice(`Refused: ${frame.reason}`);
  },
  presence(frame) {
    if (frame.seats) page.seats = frame.seats;
    if (page.update) {
      page.update.presence = frame.presence;
      page.update.spectators = frame.spectators;
    }
    page.votes = frame.votes || {};
    drawPlayers();
  },
  rematch(frame) {
    const link = h("a", { href: frame.link, id: "rematch-link", class: "button primary" }, "Go to the rematch");
    $("outcome").append(h("p", {}, link));
    $("outcome").hidden = false;
  },
  pong() {},
};

// ---- drawing an update ---------------------------------------------------------------------------

function draw() {
  const u = page.update;
  if (!u) return;
  drawBoard(u.svg, u.view);
  drawActions(u.actions || []);
  drawTurn();
}

function drawBoard(svg, view) {
  if (svg) {
    board.innerHTML = svg;
    board.classList.remove("as-data");
  } else {
    fill(board, viewToDom(view));
    board.classList.add("as-data");
  }
  for (const node of board.querySelectorAll("[data-part]")) node.setAttribute("tabindex", "-1");
  arrange();
  markBoard();
}

// ---- board arrangements --------------------------------------------------------------------------
// A board may be drawn in two arrangements (docs/WEB.md): its viewBox is the tall one, and
// data-viewbox-wide names a wide one that the class "st-wide" on the <svg> switches on. The table
// shows the one that draws the board larger in the room it has, so a landscape screen sees it whole.

const boardPanel = $("board-panel");
const fitButton = $("board-fit");

function boxSize(box) {
  const [, , width, height] = String(box || "").split(/[\s,]+/).map(Number);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The height the board may take: the panel's own cap where it has one (wide screens), else the window's. */
function boardRoom() {
  const cap = Number.parseFloat(getComputedStyle(boardPanel).maxHeight);
  const replayBar = $("replay");
  const below = replayBar.hidden ? 0 : replayBar.offsetHeight;
  return Math.max(240, (Number.isFinite(cap) ? cap : window.innerHeight - 16) - below - 4);
}

function arrange() {
  const split = board.querySelector(":scope > .st-split");
  if (split) return arrangeSplit(split);
  const svg = board.querySelector(":scope > svg");
  const tallBox = svg && (svg.getAttribute("data-viewbox-tall") || svg.getAttribute("viewBox"));
  const wideBox = svg && svg.getAttribute("data-viewbox-wide");
  const tall = boxSize(tallBox);
  const wide = boxSize(wideBox);
  if (!tall || !wide) {
    delete board.dataset.layout;
    fitButton.hidden = false;
    return;
  }
  const width = board.clientWidth || boardPanel.clientWidth;
  const room = boardRoom();
  const scale = (box) => Math.min(width / box.width, room / box.height);
  // the wide arrangement shows everything at once: worth a slightly smaller drawing
  const useWide = scale(wide) >= 0.9 * scale(tall);
  svg.setAttribute("viewBox", useWide ? wideBox : tallBox);
  svg.classList.toggle("st-wide", useWide);
  board.dataset.layout = useWide ? "wide" : "tall";
  board.style.setProperty("--board-room", `${room}px`);
  fitButton.hidden = useWide;
}

// A split board (docs/WEB.md, "Board arrangements"): the grid's <svg> as large as the room allows
// with the side panels beside it (at least SIDE_MIN wide); where that leaves the grid too small, the
// grid takes the whole width and the panels go under it as tabs.
const SIDE_MIN = 400;

function arrangeSplit(split) {
  const svg = split.querySelector(":scope > svg");
  const box = boxSize(svg && svg.getAttribute("viewBox"));
  fitButton.hidden = true;
  if (!box) return;
  const width = board.clientWidth || boardPanel.clientWidth;
  // what sits above the board in its panel (the guide, a note) takes from the room
  const above = board.getBoundingClientRect().top - boardPanel.getBoundingClientRect().top;
  const room = Math.max(240, boardRoom() - above);
  const beside = Math.min(room * (box.width / box.height), width - SIDE_MIN - 12);
  const wide = beside >= Math.min(480, width * 0.5);
  board.dataset.layout = wide ? "wide" : "tall";
  split.classList.toggle("st-stacked", !wide);
  svg.style.width = wide ? `${Math.floor(beside)}px` : "100%";
  board.style.setProperty("--board-room", `${room}px`);
  drawTabs(split, !wide);
}

/** On a narrow screen the side panels become tabs, the one chosen kept across updates. */
function drawTabs(split, tabbed) {
  const side = split.querySelector(":scope > .st-side");
  const sections = side ? [...side.querySelectorAll(":scope > section[data-tab]")] : [];
  const old = split.querySelector(":scope > .st-tabs");
  if (old) old.remove();
  for (const section of sections) section.hidden = false;
  if (!tabbed || sections.length < 2) return;
  const names = sections.map((s) => s.dataset.tab);
  if (!names.includes(page.tab)) page.tab = names[0];
  const bar = h("div", { class: "st-tabs", role: "tablist", "aria-label": "Panels" },
    ...names.map((name) =>
      h("button", { type: "button", role: "tab", "data-tab-for": name, "aria-selected": String(name === page.tab), onclick: () => showTab(name) }, name),
    ),
  );
  side.before(bar);
  for (const section of sections) section.hidden = section.dataset.tab !== page.tab;
}

function showTab(name) {
  page.tab = name;
  for (const section of board.querySelectorAll(".st-side > section[data-tab]")) section.hidden = section.dataset.tab !== name;
  for (const button of board.querySelectorAll(".st-tabs [data-tab-for]")) {
    button.setAttribute("aria-selected", String(button.dataset.tabFor === name));
  }
}

/** Tabs that hold something to click now are marked; when nothing to click is in sight but a
 * hidden tab holds the next step, that tab is shown. */
function markTabs() {
  const buttons = board.querySelectorAll(".st-tabs [data-tab-for]");
  if (!buttons.length) return;
  const live = (root) => root.querySelector(page.path.length ? ".st-target" : ".st-piece");
  const holding = new Set();
  for (const section of board.querySelectorAll(".st-side > section[data-tab]")) {
    if (live(section)) holding.add(section.dataset.tab);
  }
  for (const button of buttons) button.classList.toggle("st-has-moves", holding.has(button.dataset.tabFor));
  const grid = board.querySelector(".st-split > svg");
  if (!holding.has(page.tab) && !(grid && live(grid)) && holding.size) showTab([...holding][0]);
}

let panelWidth = 0;
new ResizeObserver((entries) => {
  const entry = entries[entries.length - 1];
  // the border box: a scroll bar the board brings or takes away must not flip the choice back
  const width = Math.round(entry.borderBoxSize ? entry.borderBoxSize[0].inlineSize : entry.contentRect.width);
  if (width === panelWidth) return;
  panelWidth = width;
  arrange();
}).observe(boardPanel, { box: "border-box" });
window.addEventListener("resize", arrange);

function actions() {
  return page.replay || !page.update ? [] : page.update.actions || [];
}

function partElements(part) {
  return board.querySelectorAll(`[data-part="${CSS.escape(part)}"]`);
}

/** Whether ``a``'s parts begin with ``path``. */
function extends_(a, path) {
  return path.length <= a.parts.length && path.every((part, k) => a.parts[k] === part);
}

/** The actions whose parts begin with the chosen path (every action with parts, before a choice). */
function matching(list) {
  return list.filter((a) => a.parts.length && extends_(a, page.path));
}

/** Classes on the board: pieces that start an action, the chosen path, the next steps it reaches. */
function markBoard() {
  for (const node of board.querySelectorAll(".st-piece, .st-selected, .st-target")) {
    node.classList.remove("st-piece", "st-selected", "st-target");
    node.setAttribute("tabindex", "-1");
  }
  const list = actions();
  const mark = (part, cls) => {
    for (const node of partElements(part)) {
      node.classList.add(cls);
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
    }
  };
  for (const a of list) if (a.parts.length) mark(a.parts[0], "st-piece");
  const depth = page.path.length;
  if (depth) {
    for (const part of page.path) mark(part, "st-selected");
    for (const a of matching(list)) if (a.parts.length > depth) mark(a.parts[depth], "st-target");
  }
  const chosen = new Set(depth ? matching(list).map((a) => a.i) : []);
  for (const button of actionsBox.querySelectorAll("button")) {
    button.classList.toggle("st-match", chosen.has(Number(button.dataset.i)));
  }
  markTabs();
  applyFilter();
}

const note = $("note");

function showNote(a) {
  page.noted = a.i;
  $("note-text").textContent = a.note;
  $("note-go").textContent = `Go: ${a.label}`;
  $("note-go").onclick = () => act(a, true);
  note.hidden = false;
  arrange();
  note.scrollIntoView({ block: "nearest" });
  $("note-go").focus({ preventScroll: true });
}

function hideNote() {
  page.noted = null;
  if (note.hidden) return;
  note.hidden = true;
  arrange();
}

$("note-cancel").addEventListener("click", () => {
  hideNote();
  select([]);
});

/** The note of the one action that choosing ``part`` next would complete, if it has one. */
function noteFor(part) {
  const path = [...page.path, part];
  const done = actions().filter((a) => a.parts.length === path.length && extends_(a, path));
  return done.length === 1 ? done[0].note : null;
}

function drawActions(list) {
  if (!list.some((a) => a.parts.length > 0 && extends_(a, page.path))) page.path = [];
  if (page.noted !== null && page.noted !== undefined && !list.some((a) => a.i === page.noted && a.note)) hideNote();
  fill(actionsBox,
    ...list.map((a) =>
      h("button", { type: "button", class: "action", "data-i": a.i, onclick: () => act(a) }, a.label),
    ),
  );
  if (!list.length) actionsBox.append(h("p", { class: "muted", id: "no-actions" }, page.seat === null ? "You are watching." : "Nothing to do now."));
  filterInput.hidden = list.length <= 12;
  markBoard();
}

/** Show the moves matching the filter box and, while a board piece is chosen, only that piece's moves. */
function applyFilter() {
  const words = filterInput.value.trim().toLowerCase();
  for (const button of actionsBox.querySelectorAll("button")) {
    const off = (words && !button.textContent.toLowerCase().includes(words)) || (page.path.length && !button.classList.contains("st-match"));
    button.hidden = Boolean(off);
  }
}

/** Send ``a``; a move with a note (what it risks: a fight's odds) is shown first and sent once
 * confirmed: with the note's button, or by choosing its last board element again. */
function act(a, confirmed = false) {
  if (a.note && !confirmed) return showNote(a);
  hideNote();
  const id = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  if (send({ type: "act", id, n: page.update.n, action: a.action })) {
    page.path = [];
    actionsBox.setAttribute("aria-busy", "true");
    for (const b of actionsBox.querySelectorAll("button")) b.disabled = true;
  }
}

/** A seat as people count them: the wire's seat 0 is "Seat 1". */
function seatLabel(seat) {
  return `Seat ${seat + 1}`;
}

/** A seat as the game names it ("Player 2", as its board and log do), with who sits there. */
function seatName(seat) {
  const s = page.seats.find((x) => x.seat === seat);
  const game = page.names[seat] || seatLabel(seat);
  if (!s) return game;
  const named = s.name && s.name.toLowerCase() !== game.toLowerCase() ? s.name : "";
  const sitting = s.kind === "bot" ? `${s.level} bot` : named;
  const who = sitting ? `${game} (${sitting})` : game;
  return seat === page.seat ? `${who} (you)` : who;
}

function drawTurn() {
  const u = page.update;
  let text;
  if (u.outcome) text = "Game over";
  else if (!u.to_act.length) text = "…";
  else if (u.to_act.includes(page.seat)) text = u.to_act.length > 1 ? "Your move (with others)" : "Your move";
  else text = `Waiting for ${u.to_act.map(seatName).join(", ")}`;
  if (u.clock !== null && u.clock !== undefined) text += ` · ${Math.ceil(u.clock)} s`;
  $("turn").textContent = text;
  $("turn").classList.toggle("mine", u.to_act.includes(page.seat));
  drawGuide(u.guide);
}

/** The game's one line on what is happening and what this seat may do (none: hidden). */
function drawGuide(text) {
  const guide = $("guide");
  guide.textContent = text || "";
  guide.hidden = !text;
  guide.classList.toggle("mine", Boolean(page.update && page.update.to_act.includes(page.seat)));
}

function drawPlayers() {
  const u = page.update;
  const presence = new Map(((u && u.presence) || []).map((p) => [p.seat, p.connected]));
  const toAct = (u && u.to_act) || [];
  const votes = page.votes || {};
  const items = page.seats.map((s) => {
    const online = s.kind === "bot" || presence.get(s.seat);
    const canVote = page.seat !== null && s.kind === "human" && !online && s.seat !== page.seat && !(u && u.outcome);
    return h(
      "li",
      { class: `player ${online ? "online" : "offline"} ${toAct.includes(s.seat) ? "to-act" : ""}`, "data-seat": s.seat },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("span", {}, seatName(s.seat)),
      h("span", { class: "muted" }, s.kind === "bot" ? "" : online ? " online" : " away"),
      toAct.includes(s.seat) ? h("span", { class: "badge" }, "to move") : null,
      canVote
        ? h(
            "button",
            { type: "button", class: "small", onclick: () => send({ type: "replace", seat: s.seat, agree: true }) },
            `Hand to a bot${votes[s.seat] ? ` (${votes[s.seat].length} agree)` : ""}`,
          )
        : null,
    );
  });
  if (u && u.spectators) items.push(h("li", { class: "muted" }, `${u.spectators} watching`));
  $("players").replaceChildren(...items);
}

function drawOutcome() {
  const u = page.update;
  const box = $("outcome");
  if (!u || !u.outcome) {
    box.hidden = true;
    return;
  }
  if (box.dataset.n === String(u.n)) return;
  box.dataset.n = u.n;
  const o = u.outcome;
  const won = page.seat !== null && o.winners.includes(page.seat);
  const who = o.winners.length ? `Won by ${o.winners.map(seatName).join(", ")}` : "Nobody won";
  box.className = `outcome ${won ? "won" : "lost"}`;
  fill(box,
    h("h2", {}, who),
    h("p", {}, o.reason),
    o.scores && o.scores.length ? h("p", { class: "muted" }, `Scores: ${o.scores.map((s, i) => `${seatName(i)} ${s}`).join(", ")}`) : null,
    h(
      "p",
      { class: "buttons" },
      page.seat !== null ? h("button", { type: "button", id: "rematch", onclick: () => send({ type: "rematch" }) }, "Rematch") : null,
      h("button", { type: "button", id: "replay-open", onclick: () => openReplay(u.n) }, "Replay"),
    ),
  );
  box.hidden = false;
}

// ---- the log --------------------------------------------------------------------------------------

const DICE_KINDS = /roll|dice|die|reroll/;

function appendEvents(events) {
  const fresh = events.filter((e) => e.n > page.loggedN);
  if (!fresh.length) return;
  page.log.push(...fresh);
  page.loggedN = Math.max(page.loggedN, ...fresh.map((e) => e.n));
  if (page.replay) return;
  const stick = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
  for (const e of fresh) logBox.append(eventLine(e));
  if (stick) logBox.scrollTop = logBox.scrollHeight;
}

function eventLine(e) {
  const dice = DICE_KINDS.test(e.kind);
  return h(
    "li",
    { class: `event ev-${e.kind}${dice ? " ev-dice" : ""}`, "data-n": e.n },
    h("span", { class: "n" }, String(e.n)),
    " ",
    e.text,
    e.rule ? [" ", ruleLink(e.rule)] : null,
  );
}

/** A small link to the rule an event names ("Rulebook: Combat · Rulings 14, 15"): its first
 * ruling on the rulings page, or the How to play page where it names none. */
function ruleLink(rule) {
  const game = encodeURIComponent(page.gameId || "");
  const ruling = /Rulings? (\d+)/.exec(rule);
  const href = ruling ? `/rulings/${game}#ruling-${ruling[1]}` : `/howto/${game}`;
  return h(
    "a",
    { class: "rule", href, target: "_blank", rel: "noopener", title: rule, "aria-label": `Rule: ${rule}` },
    ruling ? `§${ruling[1]}` : "§",
  );
}

// ---- board clicks, keys and the info panel -------------------------------------------------------

/** A click on a board element: extend the chosen path with it, send the one action it completes,
 * or start a new path (docs/WEB.md, "Parts are paths"). */
function clickPart(part) {
  const list = actions();
  const depth = page.path.length;
  if (depth) {
    const next = matching(list).filter((a) => a.parts.length > depth && a.parts[depth] === part);
    if (next.length) return choose([...page.path, part], list);
    if (part === page.path[depth - 1]) {
      const done = matching(list).filter((a) => a.parts.length === depth);
      if (done.length === 1) return act(done[0], page.noted === done[0].i);
      return select([]);
    }
  }
  const starting = list.filter((a) => a.parts[0] === part);
  if (starting.length) return choose([part], list);
  select([]);
}

/** Take ``path`` as the choice so far; send the action it completes when nothing longer starts with it. */
function choose(path, list) {
  page.path = path;
  const reached = matching(list);
  const done = reached.filter((a) => a.parts.length === path.length);
  if (done.length === 1 && reached.length === 1) {
    markBoard();
    return act(done[0]);
  }
  if (done.length > 1) {
    filterInput.hidden = false;
    showNotice("Several moves match: pick one in the list.");
  }
  markBoard();
}

function select(path) {
  page.path = path;
  if (!path.length) hideNote();
  markBoard();
}

board.addEventListener("click", (event) => {
  const node = event.target.closest("[data-part]");
  if (node) clickPart(node.getAttribute("data-part"));
  else if (!event.target.closest(".st-side, .st-tabs")) select([]); // reading a panel or turning a tab keeps the choice
});

board.addEventListener("keydown", (event) => {
  const node = event.target.closest && event.target.closest("[data-part]");
  if (node && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    clickPart(node.getAttribute("data-part"));
  }
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && page.path.length) select([]);
});

function describe(node) {
  const titled = node.closest("[data-part], [title], g, rect, polygon, circle, text, ellipse, path");
  let title = "";
  let term = null;
  for (let n = titled; n && n !== board; n = n.parentNode) {
    const t = n.querySelector && n.querySelector(":scope > title");
    if (!title && t) title = t.textContent;
    else if (!title && n.getAttribute && n.getAttribute("title")) title = n.getAttribute("title");
    if (!term && n.getAttribute && n.getAttribute("data-term")) term = n.getAttribute("data-term");
    if (title && term) break;
  }
  if (!title && !term) return;
  const gloss = term && page.glossary[term];
  const part = node.closest && node.closest("[data-part]");
  const odds = part && page.path.length ? noteFor(part.getAttribute("data-part")) : null;
  fill(info,
    odds ? h("p", { class: "info-note" }, odds) : null,
    title ? h("p", { class: "info-title" }, title) : null,
    gloss && !title.includes(gloss) ? h("p", { class: "muted" }, h("strong", {}, `${term}: `), gloss) : null,
  );
}

board.addEventListener("pointerover", (event) => {
  if (event.pointerType !== "touch") describe(event.target);
});
board.addEventListener("pointerdown", (event) => {
  if (event.pointerType === "touch") describe(event.target);
});
board.addEventListener("focusin", (event) => describe(event.target));
filterInput.addEventListener("input", applyFilter);
$("board-fit").addEventListener("click", (event) => {
  const fit = document.body.classList.toggle("fit");
  event.currentTarget.setAttribute("aria-pressed", String(fit));
  event.currentTarget.textContent = fit ? "Zoom in" : "Fit to screen";
});

// ---- replay ---------------------------------------------------------------------------------------

const range = $("replay-range");
const replaySeat = $("replay-seat");

async function showReplay(k) {
  const seat = replaySeat.value === "" ? "" : `?seat=${replaySeat.value}`;
  let data;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay/${k}${seat}`);
    data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
  } catch (error) {
    showNotice(`Replay: ${error.message}`);
    return;
  }
  page.replay = { k: data.k, total: data.total };
  range.max = data.total;
  range.value = data.k;
  $("replay-k").textContent = `move ${data.k} of ${data.total}`;
  drawBoard(data.svg, data.view);
  drawGuide(data.guide);
  fill(logBox, ...data.events.map(eventLine));
  logBox.scrollTop = logBox.scrollHeight;
  drawActions([]);
}

/** The "Seen by" choices: a spectator and every seat, starting from this page's own seat. */
function fillReplaySeats() {
  const seats = page.seats.map((s) => h("option", { value: s.seat }, seatName(s.seat)));
  fill(replaySeat, h("option", { value: "" }, "spectator"), seats);
  replaySeat.value = page.seat === null ? "" : String(page.seat);
}

function openReplay(total) {
  fillReplaySeats();
  $("replay").hidden = false;
  document.body.classList.add("replaying");
  arrange();
  showReplay(total);
}

function closeReplay() {
  page.replay = null;
  $("replay").hidden = true;
  document.body.classList.remove("replaying");
  arrange();
  fill(logBox, ...page.log.map(eventLine));
  logBox.scrollTop = logBox.scrollHeight;
  draw();
}

range.addEventListener("change", () => showReplay(Number(range.value)));
replaySeat.addEventListener("change", () => page.replay && showReplay(page.replay.k));
$("replay-prev").addEventListener("click", () => page.replay && page.replay.k > 0 && showReplay(page.replay.k - 1));
$("replay-next").addEventListener("click", () => page.replay && page.replay.k < page.replay.total && showReplay(page.replay.k + 1));
$("replay-exit").addEventListener("click", closeReplay);

// ---- start ---------------------------------------------------------------------------------------

readSeat();
if (!tableId) showNotice("No table in this address.", true);
else connect();
