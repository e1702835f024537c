// Lessons (docs/WEB.md, "Lessons"): the lesson page's transport and its lesson box, and the
// progress kept in this browser. The table page (table.js) draws the board, the moves and the log
// as at any table; at /learn/{game}/{lesson} it sends the learner's moves here instead of to a
// WebSocket: each request carries every right move from the lesson's start, and the last one.
import { api, fill, h } from "./common.js";

const DONE_KEY = "spacetable:lessons-done";

/** The game and lesson of a lesson page's address (/learn/{game}/{lesson}), or null elsewhere. */
export function lessonAddress(path = location.pathname) {
  const match = /^\/learn\/([^/]+)\/([^/]+)\/?$/.exec(path);
  return match ? { game: decodeURIComponent(match[1]), lesson: decodeURIComponent(match[2]) } : null;
}

/** The lessons finished in this browser: {game id: [lesson ids]}. */
export function doneLessons() {
  try {
    const done = JSON.parse(localStorage.getItem(DONE_KEY) || "{}");
    return done && typeof done === "object" && !Array.isArray(done) ? done : {};
  } catch {
    return {};
  }
}

export function markDone(game, lesson) {
  const done = doneLessons();
  const list = Array.isArray(done[game]) ? done[game] : [];
  if (!list.includes(lesson)) done[game] = [...list, lesson];
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify(done));
  } catch {
    // storage may be full or off: the lesson is still done, only not remembered
  }
}

/** The lesson's frame after ``moves`` (action JSON) from its start; throws the server's one line. */
export function askLesson(address, moves) {
  const path = `/api/lessons/${encodeURIComponent(address.game)}/${encodeURIComponent(address.lesson)}`;
  return api(path, { body: { moves } });
}

/** The first seat link of a new table made from the lesson's suggested game (its human seat). */
async function newTable(body) {
  const created = await api("/api/tables", { body });
  const mine = created.seats.find((s) => s.kind === "human" && s.link);
  return mine ? mine.link : created.spectate;
}

/** The lesson box (#lesson): the step and its words, the words for the last move (a wrong move's
 * reason marked gently), and at the end the closing words with what to do next. */
export function drawLesson(box, frame, { restart, notice }) {
  const said = frame.said || [];
  const lesson = frame.lesson;
  const head = h(
    "p",
    { class: "lesson-head" },
    h("span", { class: "lesson-title", id: "lesson-title" }, lesson.title),
    h("span", { class: "lesson-step", id: "lesson-step" }, frame.finished ? `Done · ${frame.steps} steps` : `Step ${frame.step} of ${frame.steps}`),
  );
  let told = null;
  if (frame.right === false) {
    told = h(
      "div",
      { class: "lesson-said wrong", id: "lesson-said", "data-right": "false" },
      h("p", { class: "lesson-mark" }, "Not this one — the board is as it was. Try again:"),
      said.map((text) => h("p", {}, text)),
    );
  } else if (frame.right === true && said.length) {
    const words = frame.finished ? said.slice(0, -1) : said; // the closing words come below
    told = h("div", { class: "lesson-said right", id: "lesson-said", "data-right": "true" }, words.map((text, k) => h("p", {}, k ? text : `✓ ${text}`)));
  }
  let end = null;
  if (frame.finished) {
    const next = frame.next || {};
    const play = h("button", { type: "button", id: "lesson-play", class: next.lesson ? "" : "primary" }, "Play a real game");
    play.addEventListener("click", async () => {
      play.disabled = true;
      try {
        location.href = await newTable(next.table);
      } catch (error) {
        play.disabled = false;
        notice(`A new table: ${error.message}`);
      }
    });
    end = h(
      "div",
      { class: "lesson-end", id: "lesson-end" },
      h("p", { class: "lesson-finish", id: "lesson-finish" }, said.length ? said[said.length - 1] : "This lesson is done."),
      h(
        "p",
        { class: "buttons" },
        next.lesson
          ? h("a", { class: "button primary", id: "lesson-next", href: `/learn/${encodeURIComponent(frame.game.id)}/${encodeURIComponent(next.lesson.id)}` }, `Next lesson: ${next.lesson.title}`)
          : null,
        play,
        h("button", { type: "button", id: "lesson-again", onclick: restart }, "Start again"),
        h("a", { href: "/#learn", id: "lesson-all" }, "All lessons"),
      ),
    );
  }
  fill(box, head, told, frame.say ? h("p", { class: "lesson-say", id: "lesson-say" }, frame.say) : null, end);
  box.classList.toggle("finished", Boolean(frame.finished));
  box.hidden = false;
  box.scrollTop = 0;
  if (frame.finished) box.scrollIntoView({ block: "nearest" });
}
