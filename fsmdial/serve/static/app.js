// The fsmdial playground page. Everything shown is put into the page as text
// (textContent), never as HTML; the only markup inserted is the SVG Mermaid
// draws, from a diagram whose labels the server has escaped.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { flows: {}, assistant: false, view: null, busy: false, renders: 0 };

class ApiError extends Error {
  constructor(type, message) { super(message); this.type = type; }
}

// An element with text children (strings become text nodes, never markup).
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// JSON that stays on one line when it is short, and breaks into indented lines only where it is not.
function oneLine(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`).join(", ")}}`;
}

function json(value, indent = "") {
  const flat = oneLine(value);
  if (flat === undefined || flat.length + indent.length <= 80 || value === null || typeof value !== "object") return flat;
  const inner = indent + "  ";
  const items = Array.isArray(value)
    ? value.map((item) => inner + json(item, inner))
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${json(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${items.join(",\n")}\n${indent}${close}`;
}

async function api(method, path, body) {
  const options = { method, headers: { "Accept": "application/json" } };
  if (method === "POST") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError("ConnectionError", "the server did not answer (is fsmdial serve still running?)");
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) {
    const error = (data && data.error) || { type: "HTTP " + response.status, message: response.statusText };
    throw new ApiError(error.type, error.message);
  }
  return data;
}

// ------------------------------------------------------------------ status
function showError(err) {
  $("error-type").textContent = (err.type || "Error") + ":";
  $("error-message").textContent = err.message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

function setBusy(busy, label) {
  state.busy = busy;
  document.body.classList.toggle("busy", busy);
  for (const id of ["chat-input", "send", "new-session", "flow-select"]) $(id).disabled = busy;
  $("undo").disabled = busy || !(state.view && state.view.can_undo);
  clearTimeout(state.progressTimer);
  clearInterval(state.progressTick);
  if (busy) {
    // A fast turn answers before the progress line would flicker; a slow (model) one shows it, with the time.
    const started = performance.now();
    state.progressTimer = setTimeout(() => {
      $("progress").hidden = false;
      const tick = () => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        $("progress-text").textContent = `${label}… ${seconds} s`;
      };
      tick();
      state.progressTick = setInterval(tick, 100);
    }, 150);
  } else {
    $("progress").hidden = true;
  }
}

async function busyWith(label, work) {
  if (state.busy) return;
  setBusy(true, label);
  try {
    clearError();
    await work();
  } catch (err) {
    showError(err);
  } finally {
    setBusy(false);
  }
}

// ------------------------------------------------------------------ rendering
function renderChat(view) {
  const log = $("chat-log");
  log.replaceChildren();
  for (const turn of view.turns) {
    const group = el("div", { className: "turn", dataset: { turn: String(turn.number) } });
    if (turn.user !== null) group.append(el("div", { className: "msg user" }, turn.user));
    for (const act of turn.acts) {
      if (!act.text) continue;
      group.append(el("div", { className: "msg bot", dataset: { act: act.kind, name: act.name } }, act.text));
    }
    log.append(group);
  }
  log.scrollTop = log.scrollHeight;
  $("ended").hidden = !view.ended;
}

function renderSlots(view) {
  const body = $("slots").tBodies[0];
  body.replaceChildren();
  for (const slot of view.slots) {
    const value = slot.set ? (typeof slot.value === "string" ? slot.value : json(slot.value)) : "—";
    body.append(el("tr", { dataset: { slot: slot.name }, className: slot.set ? "set" : "unset" },
      el("td", {}, slot.name),
      el("td", { className: "value" }, value),
      el("td", { className: "turn" }, slot.turn === null ? "" : String(slot.turn)),
      el("td", { className: slot.corrected ? "corrected yes" : "corrected" }, slot.corrected ? "corrected" : "")));
  }
  if (!view.slots.length) body.append(el("tr", {}, el("td", { colspan: "4", className: "muted" }, "no slots")));
}

function renderToolCalls(view) {
  const body = $("tool-calls").tBodies[0];
  body.replaceChildren();
  for (const turn of view.turns) {
    for (const call of turn.tool_calls) {
      const result = call.error !== undefined ? "error: " + call.error : json(call.result);
      body.append(el("tr", { dataset: { tool: call.tool } },
        el("td", {}, String(turn.number)),
        el("td", {}, call.tool),
        el("td", { className: "status " + call.status }, call.status),
        el("td", {}, el("pre", {}, json(call.arguments))),
        el("td", {}, el("pre", {}, result))));
    }
  }
  if (!body.rows.length) body.append(el("tr", {}, el("td", { colspan: "5", className: "muted" }, "no tool called yet")));
}

function ms(trace) {
  const total = trace.timings_ms && trace.timings_ms.total;
  return total === undefined ? "" : ` · ${total.toFixed(1)} ms`;
}

function renderTraces(view) {
  const box = $("traces");
  box.replaceChildren();
  const turns = view.turns;
  turns.forEach((turn, index) => {
    const trace = turn.trace;
    const path = trace.path || (turn.number === 0 ? "start" : "—");
    const calls = trace.model_calls || 0;
    const evaluated = trace.understanding && trace.understanding.evaluated_tokens;
    const tokens = typeof evaluated === "number" ? ` · ${evaluated} tokens evaluated` : "";
    const summary = el("summary", {},
      el("strong", {}, turn.number === 0 ? "start" : `turn ${turn.number}`),
      ` · path ${path} · ${calls} model call${calls === 1 ? "" : "s"}${tokens}${ms(trace)} · at ${turn.node}`);
    const rows = el("dl", {});
    const add = (label, value) => {
      if (value === undefined || value === null) return;
      if (Array.isArray(value) && !value.length) return;
      rows.append(el("dt", {}, label), el("dd", {}, typeof value === "string" ? value : el("pre", {}, json(value))));
    };
    add("text", turn.user);
    add("parse", trace.parse);
    add("path", trace.path);
    add("model calls", trace.model_calls || 0);
    add("understanding (tokens, model)", trace.understanding);
    add("slot changes", trace.slot_changes);
    add("invalid values", trace.invalid);
    add("reset", trace.reset);
    add("nodes entered", trace.nodes);
    add("conditions", trace.conditions);
    add("tool calls", trace.tool_calls);
    add("notes", trace.notes);
    add("timings (ms)", trace.timings_ms);
    const details = el("details", { dataset: { turn: String(turn.number) } }, summary, rows);
    if (index === turns.length - 1) details.open = true;
    box.append(details);
  });
}

function mermaidReady() {
  if (!window.mermaid) return false;
  if (!state.mermaidInitialised) {
    window.mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: "neutral",
    });
    state.mermaidInitialised = true;
  }
  return true;
}

async function renderDiagram(view) {
  const box = $("diagram");
  const flow = view.flow ? state.flows[view.flow] : null;
  $("flow-name").textContent = view.flow || "";
  $("node-name").textContent = view.node || "";
  if (!flow) {
    box.replaceChildren(el("p", { className: "muted" }, "No flow is active yet: say what you need."));
    return;
  }
  const aliases = flow.diagram.aliases;
  const current = aliases[view.node];
  const entered = [...new Set(view.entered.map((node) => aliases[node]).filter((a) => a && a !== current))];
  let source = flow.diagram.source;
  for (const alias of entered) source += `  class ${alias} entered\n`;
  if (current) source += `  class ${current} current\n`;
  if (!mermaidReady()) {
    box.replaceChildren(el("pre", {}, source));
    return;
  }
  const id = `diagram-svg-${++state.renders}`;
  let svg;
  try {
    ({ svg } = await window.mermaid.render(id, source));
  } catch (err) {
    box.replaceChildren(el("p", { className: "muted" }, "The diagram could not be drawn: " + err), el("pre", {}, source));
    return;
  }
  box.innerHTML = svg; // Mermaid's own output (securityLevel strict); every label in it was escaped by the server
  // Name the drawn states by node id so the page (and its tests) can find them.
  const names = Object.fromEntries(Object.entries(aliases).map(([node, alias]) => [alias, node]));
  for (const g of box.querySelectorAll("g.node[id*='-state-']")) {
    const match = /-state-(s\d+)-\d+$/.exec(g.id);
    if (!match || !(match[1] in names)) continue;
    g.dataset.node = names[match[1]];
    if (match[1] === current) g.dataset.highlight = "current";
    else if (entered.includes(match[1])) g.dataset.highlight = "entered";
  }
}

async function render(view) {
  state.view = view;
  renderChat(view);
  renderSlots(view);
  renderToolCalls(view);
  renderTraces(view);
  $("undo").disabled = !view.can_undo;
  const download = $("download");
  download.href = `/sessions/${encodeURIComponent(view.id)}/download`;
  download.setAttribute("download", `fsmdial-session-${view.id}.json`);
  download.classList.remove("disabled");
  download.removeAttribute("aria-disabled");
  $("session-label").textContent = `session ${view.id.slice(0, 8)}`;
  const url = new URL(window.location.href);
  if (url.searchParams.get("session") !== view.id) {
    url.searchParams.set("session", view.id);
    history.replaceState(null, "", url);
  }
  await renderDiagram(view);
  document.body.dataset.events = String(view.events); // lets a test wait for a given step
}

// ------------------------------------------------------------------ actions
async function newSession() {
  const flow = $("flow-select").value;
  await render(await api("POST", "/sessions", flow ? { flow } : {}));
}

async function send(text) {
  await render(await api("POST", `/sessions/${encodeURIComponent(state.view.id)}/turns`, { text }));
}

async function init() {
  const info = await api("GET", "/flows");
  state.assistant = info.assistant;
  const select = $("flow-select");
  if (info.assistant) select.append(el("option", { value: "" }, "all flows (assistant)"));
  for (const flow of info.flows) {
    state.flows[flow.name] = flow;
    select.append(el("option", { value: flow.name }, flow.name));
  }
  const wanted = new URL(window.location.href).searchParams.get("session");
  if (wanted) {
    try {
      await render(await api("GET", `/sessions/${encodeURIComponent(wanted)}`));
      return;
    } catch (err) {
      showError(err);
      if (err.type !== "UnknownSession") return;
    }
  }
  await newSession();
}

document.addEventListener("DOMContentLoaded", () => {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value;
    if (!text.trim() || !state.view) return;
    busyWith("understanding", async () => {
      // Shown at once, marked pending; the answer redraws the log from the server's view.
      const pending = el("div", { className: "msg user pending" }, text);
      $("chat-log").append(pending);
      $("chat-log").scrollTop = $("chat-log").scrollHeight;
      try {
        await send(text);
        input.value = ""; // kept when the turn failed, to try again
      } finally {
        pending.remove();
      }
    }).then(() => input.focus());
  });
  $("new-session").addEventListener("click", () => busyWith("starting", newSession));
  $("undo").addEventListener("click", () => busyWith("undoing", async () => {
    await render(await api("POST", `/sessions/${encodeURIComponent(state.view.id)}/undo`));
  }));
  $("error-close").addEventListener("click", clearError);
  busyWith("loading", init).then(() => $("chat-input").focus());
});
