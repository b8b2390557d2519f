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
      state: { useMaxWidth: false }, // drawn at its own size: the pane pans and zooms it (below)
    });
    state.mermaidInitialised = true;
  }
  return true;
}

// ------------------------------------------------------------------ the diagram, panned and zoomed
// The SVG is drawn at its own size in a canvas moved and scaled by one CSS transform; the pane clips it. A flow
// is first shown at the larger of "the whole flow fits" and "its labels are READABLE_PX tall", with the current
// node in view. The zoom and position are kept across turns (per flow); the view moves by itself only when the
// current node would be out of sight.
const READABLE_PX = 12;
const ZOOM_STEP = 1.25;
const MAX_SCALE = 4;
const PAD = 12;
const diagramView = { flow: null, scale: 1, x: 0, y: 0, base: 1, width: 0, height: 0, saved: {} };

function pane() {
  const box = $("diagram");
  return { box, w: box.clientWidth, h: box.clientHeight, canvas: box.querySelector(".diagram-canvas") };
}

function applyView() {
  const { canvas } = pane();
  if (!canvas) return;
  const v = diagramView;
  canvas.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.scale})`;
  v.saved[v.flow] = { scale: v.scale, x: v.x, y: v.y };
}

function clampView() {
  // Some of the drawing always stays in the pane, however far it is dragged.
  const { w, h } = pane();
  const v = diagramView;
  const dw = v.width * v.scale, dh = v.height * v.scale;
  const mx = Math.min(48, dw), my = Math.min(48, dh);
  v.x = Math.min(w - mx, Math.max(mx - dw, v.x));
  v.y = Math.min(h - my, Math.max(my - dh, v.y));
}

function fitScale() {
  const { w, h } = pane();
  return Math.min((w - 2 * PAD) / diagramView.width, (h - 2 * PAD) / diagramView.height);
}

function zoomAt(factor, px, py) {
  const v = diagramView;
  if (!pane().canvas) return;
  const scale = Math.min(MAX_SCALE, Math.max(Math.min(fitScale(), v.base) * 0.5, v.scale * factor));
  const k = scale / v.scale;
  v.x = px - (px - v.x) * k;
  v.y = py - (py - v.y) * k;
  v.scale = scale;
  clampView();
  applyView();
}

function zoomCentre(factor) {
  const { w, h } = pane();
  zoomAt(factor, w / 2, h / 2);
}

function panBy(dx, dy) {
  if (!pane().canvas) return;
  diagramView.x += dx;
  diagramView.y += dy;
  clampView();
  applyView();
}

function fitDiagram() {
  const { w, h, canvas } = pane();
  if (!canvas) return;
  const v = diagramView;
  v.scale = fitScale();
  v.x = (w - v.width * v.scale) / 2;
  v.y = (h - v.height * v.scale) / 2;
  applyView();
}

// Where the current node is, in the drawing's own units.
function currentNodeBox() {
  const { box, canvas } = pane();
  const g = box.querySelector("g[data-highlight=current]");
  if (!g || !canvas) return null;
  const c = canvas.getBoundingClientRect(), r = g.getBoundingClientRect(), s = diagramView.scale;
  return { x: (r.left - c.left) / s, y: (r.top - c.top) / s, w: r.width / s, h: r.height / s };
}

// Put the view on ``node`` (the drawing centred when it fits the pane, else the node a third of the way down).
function placeOn(node) {
  const { w, h } = pane();
  const v = diagramView;
  const dw = v.width * v.scale, dh = v.height * v.scale;
  const cx = node ? node.x + node.w / 2 : v.width / 2, cy = node ? node.y + node.h / 2 : 0;
  v.x = dw <= w ? (w - dw) / 2 : Math.min(PAD, Math.max(w - dw - PAD, w / 2 - cx * v.scale));
  v.y = dh <= h ? (h - dh) / 2 : Math.min(PAD, Math.max(h - dh - PAD, h / 3 - cy * v.scale));
}

function resetDiagram() {
  if (!pane().canvas) return;
  diagramView.scale = diagramView.base;
  placeOn(currentNodeBox());
  applyView();
}

function followCurrentNode() {
  const node = currentNodeBox();
  if (!node) return;
  const { w, h } = pane();
  const v = diagramView;
  const left = v.x + node.x * v.scale, top = v.y + node.y * v.scale;
  const inside = left >= 0 && top >= 0 && left + node.w * v.scale <= w && top + node.h * v.scale <= h;
  if (!inside) placeOn(node);
}

// Size the drawing, then show it: as it was for this flow, else at the readable size on the current node.
function showDiagram(flowName) {
  const { box, canvas } = pane();
  const svg = canvas.querySelector("svg");
  const frame = svg.viewBox.baseVal;
  const v = diagramView;
  v.width = frame && frame.width ? frame.width : svg.getBBox().width;
  v.height = frame && frame.height ? frame.height : svg.getBBox().height;
  svg.setAttribute("width", String(v.width)); // its own size; the canvas transform scales it
  svg.setAttribute("height", String(v.height));
  svg.style.maxWidth = "none";
  const label = svg.querySelector("g.node .nodeLabel, g.node text");
  const font = (label && parseFloat(getComputedStyle(label).fontSize)) || 16;
  if (v.flow !== flowName) {
    v.flow = flowName;
    const most = Math.round(window.innerHeight * 0.62);
    const whole = Math.min((box.clientWidth - 2 * PAD) / v.width, (most - 2 * PAD) / v.height, 1);
    v.base = Math.max(whole, READABLE_PX / font);
    box.style.height = `${Math.max(160, Math.min(most, Math.round(v.height * v.base + 2 * PAD)))}px`;
    const saved = v.saved[flowName];
    if (saved) {
      Object.assign(v, saved);
    } else {
      v.scale = v.base;
      placeOn(currentNodeBox());
    }
  }
  followCurrentNode();
  clampView();
  applyView();
}

function showPlain(...children) {
  const box = $("diagram");
  box.classList.add("plain");
  box.style.height = "";
  diagramView.flow = null;
  box.replaceChildren(...children);
}

async function renderDiagram(view) {
  const box = $("diagram");
  const flow = view.flow ? state.flows[view.flow] : null;
  $("flow-name").textContent = view.flow || "";
  $("node-name").textContent = view.node || "";
  if (!flow) {
    showPlain(el("p", { className: "muted" }, "No flow is active yet: say what you need."));
    return;
  }
  const aliases = flow.diagram.aliases;
  const current = aliases[view.node];
  const entered = [...new Set(view.entered.map((node) => aliases[node]).filter((a) => a && a !== current))];
  let source = flow.diagram.source;
  for (const alias of entered) source += `  class ${alias} entered\n`;
  if (current) source += `  class ${current} current\n`;
  if (!mermaidReady()) {
    showPlain(el("pre", {}, source));
    return;
  }
  const id = `diagram-svg-${++state.renders}`;
  let svg;
  try {
    ({ svg } = await window.mermaid.render(id, source));
  } catch (err) {
    showPlain(el("p", { className: "muted" }, "The diagram could not be drawn: " + err), el("pre", {}, source));
    return;
  }
  const canvas = el("div", { className: "diagram-canvas" });
  canvas.innerHTML = svg; // Mermaid's own output (securityLevel strict); every label in it was escaped by the server
  box.classList.remove("plain");
  box.replaceChildren(canvas);
  // Name the drawn states by node id so the page (and its tests) can find them.
  const names = Object.fromEntries(Object.entries(aliases).map(([node, alias]) => [alias, node]));
  for (const g of box.querySelectorAll("g.node[id*='-state-']")) {
    const match = /-state-(s\d+)-\d+$/.exec(g.id);
    if (!match || !(match[1] in names)) continue;
    g.dataset.node = names[match[1]];
    if (match[1] === current) g.dataset.highlight = "current";
    else if (entered.includes(match[1])) g.dataset.highlight = "entered";
  }
  showDiagram(view.flow);
}

function diagramControls() {
  const box = $("diagram");
  $("diagram-zoom-in").addEventListener("click", () => zoomCentre(ZOOM_STEP));
  $("diagram-zoom-out").addEventListener("click", () => zoomCentre(1 / ZOOM_STEP));
  $("diagram-fit").addEventListener("click", fitDiagram);
  $("diagram-reset").addEventListener("click", resetDiagram);
  box.addEventListener("wheel", (event) => {
    if (!pane().canvas) return;
    event.preventDefault(); // the wheel zooms the diagram (as a map does), not the page
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? box.clientHeight : 1;
    const r = box.getBoundingClientRect();
    zoomAt(Math.exp(-event.deltaY * unit * 0.0015), event.clientX - r.left, event.clientY - r.top);
  }, { passive: false });
  let drag = null;
  box.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !pane().canvas) return;
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY };
    box.setPointerCapture(event.pointerId);
    box.classList.add("dragging");
  });
  box.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    panBy(event.clientX - drag.x, event.clientY - drag.y);
    drag.x = event.clientX;
    drag.y = event.clientY;
  });
  const stop = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    box.classList.remove("dragging");
  };
  box.addEventListener("pointerup", stop);
  box.addEventListener("pointercancel", stop);
  const keys = {
    "+": () => zoomCentre(ZOOM_STEP), "=": () => zoomCentre(ZOOM_STEP),
    "-": () => zoomCentre(1 / ZOOM_STEP), "_": () => zoomCentre(1 / ZOOM_STEP),
    "0": resetDiagram, "f": fitDiagram, "F": fitDiagram,
    "ArrowUp": () => panBy(0, 60), "ArrowDown": () => panBy(0, -60),
    "ArrowLeft": () => panBy(60, 0), "ArrowRight": () => panBy(-60, 0),
  };
  box.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey || !pane().canvas) return;
    event.preventDefault();
    action();
  });
  window.addEventListener("resize", () => { clampView(); applyView(); });
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
  diagramControls();
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
