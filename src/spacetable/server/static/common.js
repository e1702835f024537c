// Helpers shared by the lobby and the table page: DOM building, JSON requests, views as data.

/** An element: h("a", {href: "/"}, "text", child...). Attributes starting with "on" are listeners. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** A JSON request; throws an Error whose message is the server's one-line {"error"}. */
export async function api(path, options = {}) {
  const init = { headers: { Accept: "application/json" }, ...options };
  if (options.body !== undefined) {
    init.method = options.method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error("the server cannot be reached");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

/** Copy text to the clipboard, falling back to selecting it for browsers without the API. */
export async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function plainText(value) {
  if (value === null) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function words(key) {
  return String(key).replaceAll("_", " ");
}

/** A view (any JSON) as readable HTML: objects as definition lists, lists of records as tables. */
export function viewToDom(value) {
  if (isPlain(value)) return document.createTextNode(plainText(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every(isPlain)) return document.createTextNode(value.map(plainText).join(", "));
    const records = value.every((v) => v && typeof v === "object" && !Array.isArray(v));
    if (records) {
      const keys = [...new Set(value.flatMap(Object.keys))];
      return h(
        "table",
        { class: "view-table" },
        h("thead", {}, h("tr", {}, keys.map((k) => h("th", { scope: "col" }, words(k))))),
        h("tbody", {}, value.map((row) => h("tr", {}, keys.map((k) => h("td", {}, viewToDom(row[k] ?? null)))))),
      );
    }
    return h("ol", { class: "view-list" }, value.map((v) => h("li", {}, viewToDom(v))));
  }
  return h(
    "dl",
    { class: "view-dl" },
    Object.entries(value).map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, viewToDom(v))]),
  );
}

/** Replace a node's children, skipping null/false ones and flattening lists (as h() does). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
