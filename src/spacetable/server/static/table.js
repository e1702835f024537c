// The table page: one WebSocket to /ws/{table}, drawing only what the server sends (docs/WEB.md).
// At /learn/{game}/{lesson} the same page is a lesson: its moves go to the lesson API (lesson.js).
import { fill, h, viewToDom } from "./common.js";
import { askLesson, drawLesson, lessonAddress, markDone } from "./lesson.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const board = $("board");
const actionsBox = $("actions");
const filterInput = $("actions-filter");
const logBox = $("log");
const notice = $("notice");
const info = $("info");
const side = $("side");

const page = {
  seat: null,
  token: null,
  socket: null,
  retry: 0,
  lastN: null, // the n of the last update drawn
  loggedN: -1, // events up to this n are in the log
  update: null,
  receivedAt: 0, // when the update came (performance.now()): its clock counts down from there
  presenceAt: 0, // when the presence came: its grace periods count down from there
  seats: [],
  votes: {},
  gameId: null, // the game's id, for the links to its rules
  glossary: {},
  names: [], // one name per seat, as the game's board and log call them ("Red", "Player 2")
  tab: null, // the side panel shown where a split board's panels are tabs
  sheet: "moves", // the panel the phone's bottom sheet shows (null: the sheet is folded)
  path: [], // the data-parts chosen so far: a prefix of some actions' parts (docs/WEB.md, "Parts are paths")
  noted: null, // the i of the move whose note or warning is shown
  focusPart: null, // the board element keys act on (the roving tabindex), by its data-part
  refocus: false, // a move was sent: the next decision's first control takes the focus
  keyboard: false, // the last thing the person did was a key press
  replay: null, // {k, total} while the replay timeline is shown
  log: [], // every event line shown live, kept while the replay borrows the log
  lesson: null, // on a lesson page: {address, moves (the right ones so far), frame}
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
  if (page.lesson) return sendLesson(frame);
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(frame));
    return true;
  }
  showNotice("Not connected: reconnecting…");
  return false;
}

// ---- a lesson's transport: the learner's moves from the lesson's start, to the lesson API ----------

/** A move at a lesson: the right moves so far and this one are sent; a right one is kept. */
function sendLesson(frame) {
  if (frame.type !== "act") return false;
  const moves = [...page.lesson.moves, frame.action];
  askLesson(page.lesson.address, moves).then(
    (answer) => {
      if (answer.right) page.lesson.moves = moves;
      handlers.lesson(answer);
    },
    (error) => {
      showNotice(`Refused: ${error.message}`);
      if (page.lesson.frame) handlers.lesson(page.lesson.frame);
    },
  );
  return true;
}

/** The lesson from its start (also "Start again"). */
function startLesson() {
  page.lesson.moves = [];
  askLesson(page.lesson.address, []).then(handlers.lesson, (error) => showNotice(`Lesson: ${error.message}`, true));
}

function messageId() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
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
    $("game-name").title = $("game-name").textContent; // a phone's header cuts it short
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
    page.receivedAt = page.presenceAt = performance.now();
    if (frame.names && frame.names.length) page.names = frame.names;
    appendEvents(frame.events || []);
    if (!page.replay) draw();
    drawPlayers();
    drawOutcome();
    drawHanded();
    if (!page.replay) focusNext();
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
    page.presenceAt = performance.now();
    page.votes = frame.votes || {};
    drawPlayers();
    drawHanded();
  },
  rematch(frame) {
    const link = h("a", { href: frame.link, id: "rematch-link", class: "button primary" }, "Go to the rematch");
    $("outcome").append(h("p", {}, link));
    $("outcome").hidden = false;
  },
  pong() {},
  lesson(frame) {
    const first = !page.lesson.frame;
    if (first) {
      page.seat = frame.seat;
      page.glossary = frame.glossary || {};
      page.seats = frame.names.map((_, seat) => ({ seat, kind: seat === frame.seat ? "human" : "lesson" }));
      handlers.welcome({ seat: frame.seat, game: frame.game, seats: page.seats, names: frame.names, glossary: frame.glossary });
      document.title = `spacetable: lesson — ${frame.lesson.title}`;
    }
    if (page.lastN !== null && frame.n < page.lastN) {
      // started again: the log starts again too
      page.log = [];
      page.loggedN = -1;
      fill(logBox);
    }
    page.lesson.frame = frame;
    if (frame.finished) markDone(frame.game.id, frame.lesson.id);
    drawLesson($("lesson"), frame, { restart: startLesson, notice: showNotice });
    handlers.update(frame);
  },
};

// ---- drawing an update ---------------------------------------------------------------------------

function draw() {
  const u = page.update;
  if (!u) return;
  drawTurn(); // first: the status line above the board takes from the board's room
  drawBoard(u.svg, u.view);
  drawActions(u.actions || []);
}

function drawBoard(svg, view) {
  if (svg) {
    board.innerHTML = svg;
    board.classList.remove("as-data");
  } else {
    fill(board, viewToDom(view));
    board.classList.add("as-data");
  }
  // a drawing whose parts are clicked is a group of controls, not one picture (axe: nested-interactive)
  for (const root of board.querySelectorAll(":scope > svg, :scope > .st-split > svg")) {
    if (root.getAttribute("role") === "img" && root.querySelector("[data-part]")) root.setAttribute("role", "group");
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

/** What sits above the board in its panel (the guide, a note): it takes from the board's room. */
function aboveBoard() {
  return board.getBoundingClientRect().top - boardPanel.getBoundingClientRect().top;
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
  const room = Math.max(240, boardRoom() - aboveBoard());
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
  const room = Math.max(240, boardRoom() - aboveBoard());
  const beside = Math.min(room * (box.width / box.height), width - SIDE_MIN - 12);
  const wide = beside >= Math.min(480, width * 0.5);
  board.dataset.layout = wide ? "wide" : "tall";
  split.classList.toggle("st-stacked", !wide);
  svg.style.width = wide ? `${Math.floor(beside)}px` : "100%";
  board.style.setProperty("--board-room", `${room}px`);
  drawTabs(split, !wide);
  const panels = split.querySelector(":scope > .st-side");
  if (panels) keyScrollable(panels, "Board panels");
}

/** A region that scrolls is in the Tab order, so that keys scroll it (axe: scrollable-region-focusable). */
function keyScrollable(node, label) {
  const scrolls = node.scrollHeight > node.clientHeight + 1;
  if (scrolls) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "region");
    node.setAttribute("aria-label", label);
  } else {
    for (const name of ["tabindex", "role", "aria-label"]) node.removeAttribute(name);
  }
}

/** On a narrow screen the side panels become tabs, the one chosen kept across updates. */
function drawTabs(split, tabbed) {
  const panels = split.querySelector(":scope > .st-side");
  const sections = panels ? [...panels.querySelectorAll(":scope > section[data-tab]")] : [];
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
  panels.before(bar);
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

// ---- the phone's bottom sheet --------------------------------------------------------------------
// On a narrow screen the side panels (moves, the board element's explanation, players, log) sit in
// a sheet fixed at the bottom, one at a time behind a tab bar, so that none of them waits under the
// board; the page keeps room below the board for the sheet (--sheet-height).

const narrow = window.matchMedia("(max-width: 899px)");
const sheetTabs = $("sheet-tabs");

function arrangeSheet() {
  const on = narrow.matches;
  document.body.classList.toggle("sheet", on);
  sheetTabs.hidden = !on;
  if (on) sheetTabs.setAttribute("role", "tablist");
  else sheetTabs.removeAttribute("role");
  for (const button of sheetTabs.querySelectorAll("[data-sheet-for]")) {
    const chosen = button.dataset.sheetFor === page.sheet;
    if (on) {
      button.setAttribute("role", "tab");
      button.setAttribute("aria-selected", String(chosen));
      button.setAttribute("aria-expanded", String(chosen));
    } else {
      for (const name of ["role", "aria-selected", "aria-expanded"]) button.removeAttribute(name);
    }
  }
  for (const section of side.querySelectorAll(":scope > [data-sheet]")) {
    section.hidden = on && section.dataset.sheet !== page.sheet;
    if (on) section.setAttribute("role", "tabpanel");
    else section.removeAttribute("role");
  }
  if (!on) document.documentElement.style.removeProperty("--sheet-height");
}

/** Turn to a panel of the sheet; choosing the open one again folds the sheet to its tab bar. */
function showSheet(name) {
  page.sheet = page.sheet === name ? null : name;
  const button = sheetTabs.querySelector(`[data-sheet-for="${name}"]`);
  if (button) button.classList.remove("st-fresh");
  arrangeSheet();
}

/** A panel that changed while another is shown is marked on its tab. */
function markSheet(name, fresh) {
  const button = sheetTabs.querySelector(`[data-sheet-for="${name}"]`);
  if (button) button.classList.toggle("st-fresh", fresh && page.sheet !== name);
}

for (const button of sheetTabs.querySelectorAll("[data-sheet-for]")) {
  button.addEventListener("click", () => showSheet(button.dataset.sheetFor));
}
narrow.addEventListener("change", arrangeSheet);
new ResizeObserver(() => {
  if (narrow.matches) document.documentElement.style.setProperty("--sheet-height", `${Math.ceil(side.getBoundingClientRect().height)}px`);
  roomForNote(); // the note waits on top of the sheet
}).observe(side);
arrangeSheet();

// ---- the moves and the board's parts -------------------------------------------------------------

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

/** The next steps of the chosen path: each board part that extends it, with the actions it leads to. */
function nextSteps(list) {
  const depth = page.path.length;
  const steps = new Map();
  for (const a of matching(list)) {
    if (a.parts.length <= depth) continue;
    const part = a.parts[depth];
    if (!steps.has(part)) steps.set(part, []);
    steps.get(part).push(a);
  }
  return steps;
}

/** Classes on the board: pieces that start an action, the chosen path, the next steps it reaches,
 * and (st-risky) a step all of whose moves the game warns lose. */
function markBoard() {
  for (const node of board.querySelectorAll(".st-piece, .st-selected, .st-target, .st-risky, .st-look")) {
    node.classList.remove("st-piece", "st-selected", "st-target", "st-risky", "st-look");
    node.setAttribute("tabindex", "-1");
    if (node.getAttribute("role") === "button") node.removeAttribute("role");
  }
  const list = actions();
  const mark = (part, ...classes) => {
    for (const node of partElements(part)) {
      node.classList.add(...classes);
      node.setAttribute("role", "button");
    }
  };
  const depth = page.path.length;
  // a lesson's step lights up the parts it talks about (its look and its right moves' parts)
  const look = page.lesson && !page.replay && page.update ? page.update.look || [] : [];
  for (const part of look) for (const node of partElements(part)) node.classList.add("st-look");
  for (const a of list) if (a.parts.length) mark(a.parts[0], "st-piece");
  for (const part of page.path) mark(part, "st-selected");
  for (const [part, leading] of nextSteps(list)) {
    if (depth) mark(part, "st-target");
    if (leading.every((a) => a.warning)) mark(part, "st-risky");
  }
  const chosen = new Set(depth ? matching(list).map((a) => a.i) : []);
  for (const button of actionsBox.querySelectorAll("button")) {
    button.classList.toggle("st-match", chosen.has(Number(button.dataset.i)));
  }
  markTabs();
  applyFilter();
  rove();
}

// ---- the keyboard: a roving tabindex over the board's clickable parts -----------------------------
// The parts a key can act on now (the pieces that start a move, or the next steps of the chosen path
// and its last element) are focusable; one of them is in the Tab order (tabindex 0), the arrow keys
// go to the nearest in their direction on the screen, Enter or Space clicks, Escape takes the choice
// back. After a move the next decision's first part (or first move button) takes the focus.

function shown(node) {
  return node.getClientRects().length > 0 && !node.closest("[hidden]");
}

/** The board elements a key can act on now, in the drawing's order. */
function liveParts() {
  const depth = page.path.length;
  const nodes = [...board.querySelectorAll(depth ? ".st-target" : ".st-piece")];
  if (depth && matching(actions()).some((a) => a.parts.length === depth)) nodes.push(...partElements(page.path[depth - 1]));
  return nodes.filter(shown);
}

/** Put the element keys act on (the one last focused where it is still live, else the first) in the Tab order. */
function rove() {
  const live = liveParts();
  const current = live.find((n) => n.getAttribute("data-part") === page.focusPart) || live[0];
  for (const node of live) node.setAttribute("tabindex", node === current ? "0" : "-1");
  return current || null;
}

function focusNode(node) {
  page.focusPart = node.getAttribute("data-part");
  node.focus({ preventScroll: !page.keyboard });
  if (page.keyboard && node.scrollIntoView) node.scrollIntoView({ block: "nearest", inline: "nearest" });
  rove();
}

/** The next sensible control: the board's part to act on, else the first move button. */
function focusFirstControl() {
  const part = rove();
  if (part) return focusNode(part), true;
  const button = actionsBox.querySelector("button.action:not([disabled]):not([hidden])");
  if (button) {
    button.focus({ preventScroll: !page.keyboard });
    return true;
  }
  return false;
}

/** After a move (or where the focus was lost with a redrawn board), the next decision's first
 * control takes the focus; at the end, the outcome. Never the page's top. */
function focusNext() {
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (!page.refocus && (!lost || touch.matches)) return; // a finger needs no focus to move on
  if (!note.hidden) return;
  const u = page.update;
  if (u && u.outcome) {
    const heading = $("outcome").querySelector("h2");
    if (heading && page.refocus) heading.focus({ preventScroll: !page.keyboard });
    page.refocus = false;
    return;
  }
  if (actions().length && focusFirstControl()) page.refocus = false;
}

const touch = window.matchMedia("(pointer: coarse)");
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function centre(node) {
  const box = node.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** The live part nearest to ``from`` in the direction ``[dx, dy]`` by their boxes on the screen. */
function nearest(from, [dx, dy]) {
  const start = centre(from);
  const part = from.getAttribute("data-part");
  let best = null;
  let bestScore = Infinity;
  for (const node of liveParts()) {
    if (node === from || node.getAttribute("data-part") === part) continue;
    const c = centre(node);
    const along = (c.x - start.x) * dx + (c.y - start.y) * dy;
    if (along < 1) continue;
    const across = Math.abs((c.x - start.x) * dy) + Math.abs((c.y - start.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) [best, bestScore] = [node, score];
  }
  return best;
}

board.addEventListener("keydown", (event) => {
  const node = event.target.closest && event.target.closest("[data-part]");
  if (!node) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    clickPart(node.getAttribute("data-part"));
    if (note.hidden && !page.refocus) {
      const next = rove();
      if (next) focusNode(next);
    }
  } else if (ARROWS[event.key]) {
    event.preventDefault();
    const next = nearest(node, ARROWS[event.key]);
    if (next) focusNode(next);
  }
});

document.addEventListener("keydown", (event) => {
  page.keyboard = true;
  if (event.key !== "Escape") return;
  if (!note.hidden) return cancelNote();
  if (page.path.length) {
    select([]);
    const next = rove();
    if (next && board.contains(document.activeElement)) focusNode(next);
  }
}, true);
document.addEventListener("pointerdown", () => (page.keyboard = false), true);
board.addEventListener("focusin", (event) => {
  const part = event.target.closest && event.target.closest("[data-part]");
  if (part && part.getAttribute("tabindex") !== null) {
    page.focusPart = part.getAttribute("data-part");
    if (part.getAttribute("tabindex") === "-1" && liveParts().includes(part)) rove();
  }
});

// ---- notes and warnings --------------------------------------------------------------------------

const note = $("note");

/** On a phone the note waits fixed above the sheet: the page keeps room below for both (--note-reach:
 * how much of the screen's bottom they cover), so that the chosen element, which sends the move when
 * chosen again, can be scrolled above the note. */
function roomForNote() {
  const root = document.documentElement;
  if (narrow.matches && !note.hidden) root.style.setProperty("--note-reach", `${Math.ceil(root.clientHeight - note.getBoundingClientRect().top)}px`);
  else root.style.removeProperty("--note-reach");
}
new ResizeObserver(roomForNote).observe(note);

/** A move with a note (what it risks: a fight's odds) or a warning (why it loses) asks first: the
 * note with "Go", the warning as a danger with "Play it anyway" and the focus on Cancel. */
function showNote(a) {
  page.noted = a.i;
  const risky = Boolean(a.warning);
  note.classList.toggle("danger", risky);
  $("note-title").textContent = risky ? `⚠ This move can lose you the game: ${a.label}` : a.label;
  $("note-warning").textContent = a.warning || "";
  $("note-warning").hidden = !risky;
  $("note-text").textContent = a.note || "";
  $("note-text").hidden = !a.note;
  $("note-go").textContent = risky ? "Play it anyway" : `Go: ${a.label}`;
  $("note-go").onclick = () => act(a, true);
  note.hidden = false;
  arrange();
  roomForNote();
  // the note in sight; on a phone (where it is always in sight) the chosen element, above the note
  const chosen = narrow.matches && page.path.length ? [...partElements(page.path.at(-1))].filter(shown).pop() : null;
  (chosen || note).scrollIntoView({ block: "nearest" });
  (risky ? $("note-cancel") : $("note-go")).focus({ preventScroll: true });
}

function hideNote() {
  page.noted = null;
  if (note.hidden) return;
  note.hidden = true;
  arrange();
}

/** Cancel: nothing is sent, the choice is taken back, and the keys go back to the board. */
function cancelNote() {
  hideNote();
  select([]);
  if (!focusFirstControl()) board.focus({ preventScroll: true });
}

$("note-cancel").addEventListener("click", cancelNote);

/** The note or warning of the one action that choosing ``part`` next would complete, if it has one. */
function noteFor(part) {
  const path = [...page.path, part];
  const done = actions().filter((a) => a.parts.length === path.length && extends_(a, path));
  if (done.length !== 1) return null;
  return done[0].warning ? { text: done[0].warning, risky: true } : done[0].note ? { text: done[0].note, risky: false } : null;
}

function drawActions(list) {
  if (!list.some((a) => a.parts.length > 0 && extends_(a, page.path))) page.path = [];
  if (page.noted !== null && !list.some((a) => a.i === page.noted && (a.note || a.warning))) hideNote();
  fill(actionsBox,
    ...list.map((a) =>
      h(
        "button",
        { type: "button", class: a.warning ? "action st-risky" : "action", "data-i": a.i, title: a.warning, onclick: () => act(a) },
        a.warning ? [h("span", { class: "risk", role: "img", "aria-label": "Warning: this move can lose the game" }, "⚠"), " "] : null,
        a.label,
      ),
    ),
  );
  if (!list.length) actionsBox.append(h("p", { class: "muted", id: "no-actions" }, page.lesson ? "The lesson is done." : page.seat === null ? "You are watching." : "Nothing to do now."));
  filterInput.hidden = list.length <= 12;
  markSheet("moves", list.length > 0);
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

/** Send ``a``; a move with a note or a warning is shown first and sent once confirmed: with the
 * dialog's button, or (a note only) by choosing its last board element again. */
function act(a, confirmed = false) {
  if ((a.note || a.warning) && !confirmed) return showNote(a);
  hideNote();
  if (send({ type: "act", id: messageId(), n: page.update.n, action: a.action })) {
    page.path = [];
    page.refocus = true;
    actionsBox.setAttribute("aria-busy", "true");
    for (const b of actionsBox.querySelectorAll("button")) b.disabled = true;
  }
}

// ---- names, the turn line and the players --------------------------------------------------------

/** What the game calls a seat ("Red", "Player 2"), as its board and log do. */
function nameOf(seat) {
  return page.names[seat] || `Player ${seat + 1}`;
}

/** A seat's name, with "(you)" for this page's own. */
function seatName(seat) {
  return seat === page.seat ? `${nameOf(seat)} (you)` : nameOf(seat);
}

function mineNow() {
  return Boolean(page.update && (page.update.actions || []).length);
}

/** The header's line: the game's guide (after "Your move:" where it is this seat's), the clock. */
function turnText() {
  const u = page.update;
  let text;
  if (u.guide) text = mineNow() && !/\byour\b/i.test(u.guide) ? `Your move: ${u.guide}` : u.guide;
  else if (u.outcome) text = "Game over";
  else if (!u.to_act.length) text = "…";
  else if (mineNow()) text = "Your move";
  else text = `Waiting for ${u.to_act.map(nameOf).join(", ")}`;
  if (u.clock !== null && u.clock !== undefined && !u.outcome) {
    const left = Math.max(0, Math.ceil(u.clock - (performance.now() - page.receivedAt) / 1000));
    text += ` · ${left} s left`;
  }
  return text;
}

/** The turn line, whole in its hover text where a phone's header cuts it short. */
function showTurn() {
  const text = turnText();
  $("turn").textContent = text;
  $("turn").title = text;
}

function drawTurn() {
  showTurn();
  $("turn").classList.toggle("mine", mineNow());
  drawGuide(page.update.guide);
}

/** The game's one line on what is happening and what this seat may do (none: hidden). */
function drawGuide(text) {
  const guide = $("guide");
  guide.textContent = text || "";
  guide.hidden = !text;
  guide.classList.toggle("mine", !page.replay && mineNow());
}

/** Whole seconds before an absent person's seat may be handed to a bot, counted down here from
 * the server's ``grace``; null when there is none (connected, a bot, or the grace has passed). */
function graceLeft(entry) {
  if (!entry || entry.grace === null || entry.grace === undefined) return null;
  const left = Math.ceil(entry.grace - (performance.now() - page.presenceAt) / 1000);
  return left > 0 ? left : null;
}

function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Who sits in a seat, in words: "you", "normal bot", "online", "away — can be handed to a bot in 1:52". */
function sitting(s, entry) {
  if (page.lesson) return s.seat === page.seat ? "you" : "played by the lesson";
  if (s.kind === "bot") {
    if (!s.handed) return `${s.level} bot`;
    return s.seat === page.seat ? `${s.level} bot, playing for you` : `${s.level} bot, until its player takes it back`;
  }
  if (s.seat === page.seat) return "you";
  if (entry && entry.connected) return "online";
  const left = graceLeft(entry);
  return left === null ? "away" : `away — can be handed to a bot in ${minutes(left)}`;
}

function drawPlayers() {
  const u = page.update;
  const presence = new Map(((u && u.presence) || []).map((p) => [p.seat, p]));
  const toAct = (u && u.to_act) || [];
  const over = Boolean(u && u.outcome);
  const me = page.seats.find((s) => s.seat === page.seat);
  const voter = Boolean(me && me.kind === "human" && !over);
  const items = page.seats.map((s) => {
    const entry = presence.get(s.seat);
    const online = Boolean(page.lesson) || s.kind === "bot" || Boolean(entry && entry.connected);
    const handable = voter && s.kind === "human" && s.seat !== page.seat && !online && graceLeft(entry) === null;
    const agreed = (page.votes[s.seat] || []).map(Number);
    return h(
      "li",
      { class: `player ${online ? "online" : "offline"} ${toAct.includes(s.seat) ? "to-act" : ""}`, "data-seat": s.seat },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("span", { class: "player-name" }, nameOf(s.seat)),
      h("span", { class: "muted who", "data-grace": graceLeft(entry) === null ? null : s.seat }, `— ${sitting(s, entry)}`),
      toAct.includes(s.seat) ? h("span", { class: "badge" }, "to move") : null,
      handable
        ? agreed.includes(page.seat)
          ? h("span", { class: "muted" }, `you agreed to hand it to a bot (${agreed.length} so far)`)
          : h(
              "button",
              { type: "button", class: "small hand", onclick: () => send({ type: "replace", seat: s.seat, agree: true }) },
              `Hand to a bot${agreed.length ? ` (${agreed.length} agree)` : ""}`,
            )
        : null,
    );
  });
  if (u && u.spectators) items.push(h("li", { class: "muted" }, `${u.spectators} watching`));
  $("players").replaceChildren(...items);
  $("record-mine-line").hidden = !(page.token && page.seat !== null && u && !over);
}

/** The banner of a person whose seat a bot plays: they may take it back until the game ends. */
function drawHanded() {
  const me = page.seats.find((s) => s.seat === page.seat);
  const over = Boolean(page.update && page.update.outcome);
  $("handed").hidden = !(me && me.handed && !over);
}

$("take-back").addEventListener("click", () => send({ type: "take_back", id: messageId() }));

/** Each second: the clock in the turn line and the grace periods of the players panel count down. */
setInterval(() => {
  const u = page.update;
  if (!u) return;
  if (u.clock !== null && u.clock !== undefined && !page.replay) showTurn();
  const presence = new Map((u.presence || []).map((p) => [p.seat, p]));
  for (const node of $("players").querySelectorAll("[data-grace]")) {
    const seat = Number(node.dataset.grace);
    const s = page.seats.find((x) => x.seat === seat);
    if (graceLeft(presence.get(seat)) === null) return drawPlayers(); // the grace has passed: the hand-over is offered
    node.textContent = `— ${sitting(s, presence.get(seat))}`;
  }
}, 1000);

// ---- the end, and the records --------------------------------------------------------------------

function headline(o) {
  const mine = page.seat !== null && o.winners.includes(page.seat);
  if (mine && o.winners.length === 1) return "You won";
  if (mine) return `You won, with ${o.winners.filter((s) => s !== page.seat).map(nameOf).join(", ")}`;
  if (o.winners.length) return `Won by ${o.winners.map(nameOf).join(", ")}`;
  return page.seat !== null && page.seats.length === 1 ? "You lost" : "Nobody won";
}

function drawOutcome() {
  const u = page.update;
  const box = $("outcome");
  if (!u || !u.outcome || page.lesson) {
    box.hidden = true;
    return;
  }
  if (box.dataset.n === String(u.n)) return;
  box.dataset.n = u.n;
  const o = u.outcome;
  const won = page.seat !== null && o.winners.includes(page.seat);
  const player = page.seat !== null;
  box.className = `outcome ${won ? "won" : "lost"}`;
  fill(box,
    h("h2", { tabindex: "-1" }, headline(o)),
    h("p", { class: "ending" }, u.ending || o.reason),
    o.scores && o.scores.length ? h("p", { class: "scores" }, `Scores: ${o.scores.map((s, i) => `${seatName(i)} ${s}`).join(", ")}`) : null,
    h(
      "p",
      { class: "buttons" },
      player ? h("button", { type: "button", id: "rematch", onclick: () => send({ type: "rematch" }) }, "Rematch") : null,
      h("button", { type: "button", id: "replay-open", onclick: () => openReplay(u.n) }, "Replay"),
      h("button", { type: "button", id: "record-download", onclick: () => downloadRecord(false) }, "Download record"),
    ),
  );
  box.hidden = false;
}

/** Save the table's record as a file: the whole of it after the game, or during the game this
 * seat's own copy (what it may know), asked for with its token. */
async function downloadRecord(own) {
  const headers = own && page.token ? { Authorization: `Bearer ${page.token}` } : {};
  let response;
  try {
    response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers });
  } catch {
    return showNotice("Record: the server cannot be reached");
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    return showNotice(`Record: ${(data && data.error) || response.statusText}`);
  }
  const named = /filename="?([^";]+)"?/.exec(response.headers.get("Content-Disposition") || "");
  const url = URL.createObjectURL(await response.blob());
  const link = h("a", { href: url, download: named ? named[1] : `${page.gameId || "game"}-${tableId}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

$("record-mine").addEventListener("click", () => downloadRecord(true));

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
  if (page.log.length > fresh.length) markSheet("log", true); // news, not the first lines
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

// ---- board clicks and the info panel -------------------------------------------------------------

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
      if (done.length === 1) return act(done[0], page.noted === done[0].i && !done[0].warning);
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
  const ahead = part && page.path.length ? noteFor(part.getAttribute("data-part")) : null;
  fill(info,
    ahead ? h("p", { class: ahead.risky ? "info-note risky" : "info-note" }, ahead.risky ? `⚠ ${ahead.text}` : ahead.text) : null,
    title ? h("p", { class: "info-title" }, title) : null,
    gloss && !title.includes(gloss) ? h("p", { class: "muted" }, h("strong", {}, `${term}: `), gloss) : null,
  );
  markSheet("about", true);
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
  drawGuide(data.guide);
  drawBoard(data.svg, data.view);
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

const address = lessonAddress();
if (address) {
  page.lesson = { address, moves: [], frame: null };
  document.body.classList.add("lesson-page");
  $("connection").hidden = true;
  startLesson();
} else {
  readSeat();
  if (!tableId) showNotice("No table in this address.", true);
  else connect();
}
