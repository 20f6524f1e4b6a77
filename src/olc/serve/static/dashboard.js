// olc serve's dashboard: polls the JSON API and draws each model's counts and progressive error
// curve as hand-written SVG. No framework, no network beyond this server. Every value from the
// server is written with textContent or as an SVG attribute, never parsed as markup.
"use strict";

(() => {
  const REFRESH_MS = 3000;
  const REQUEST_TIMEOUT_MS = 10000;
  const CURVE_POINTS = 200;
  const TOKEN_KEY = "olc-serve-token";
  const SVG_NS = "http://www.w3.org/2000/svg";
  const CHART_MARGIN = { top: 12, right: 16, bottom: 34, left: 48 };

  const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(undefined, {
    style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1,
  });
  const tickPercent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
  const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
  const real = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 4 });
  // The progressive metric of each kind of model (GET /curve's "metric"): its name and format.
  const METRICS = {
    error: { name: "progressive error", short: "Error", format: (v) => percent.format(v),
      tick: (v) => tickPercent.format(v), cap: 1 },
    mean_squared_error: { name: "progressive mean squared error", short: "MSE",
      format: (v) => real.format(v), tick: (v) => real.format(v), cap: Infinity },
  };
  const metricOf = (curve) => METRICS[curve.metric] || METRICS.error;

  const byId = (id) => document.getElementById(id);
  // problem: the status line's message (null: all is well; undefined: nothing shown yet)
  const state = { paused: false, timer: null, cards: new Map(), curves: new Map(), nextId: 0,
    problem: undefined };

  // ---- the token: this tab only (sessionStorage), sent as a bearer header --------------------
  function readToken() {
    try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (_) { return ""; }
  }
  function writeToken(value) {
    try {
      if (value) sessionStorage.setItem(TOKEN_KEY, value); else sessionStorage.removeItem(TOKEN_KEY);
    } catch (_) { /* storage disabled: the token lasts until the page is left */ }
    showTokenState();
  }
  function showTokenState() {
    byId("auth").querySelector("summary").textContent =
      readToken() ? "Access token (set for this tab)" : "Access token";
  }

  class HttpError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  async function getJSON(path) {
    const headers = { Accept: "application/json" };
    const token = readToken();
    if (token) headers.Authorization = "Bearer " + token;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(path, {
        headers, signal: abort.signal, cache: "no-store", credentials: "omit",
      });
      if (!response.ok) {
        let message = `${response.status} ${response.statusText}`;
        try {
          const body = await response.json();
          if (body && typeof body.error === "string") message = body.error;
        } catch (_) { /* not JSON: keep the status line */ }
        throw new HttpError(response.status, message);
      }
      return await response.json();
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- status line: announced only when it changes, not at every refresh ---------------------
  function setProblem(message) {
    if (message === state.problem) return;
    state.problem = message;
    const status = byId("status");
    status.textContent = message || "Live";
    status.classList.toggle("bad", Boolean(message));
  }

  // ---- refresh loop ---------------------------------------------------------------------------
  function schedule() {
    clearTimeout(state.timer);
    state.timer = null;
    if (!state.paused && !document.hidden) state.timer = setTimeout(refresh, REFRESH_MS);
  }

  async function refresh() {
    clearTimeout(state.timer);
    state.timer = null;
    try {
      const listing = await getJSON("/models");
      const models = (listing.models || []).slice().sort((a, b) => (a.name < b.name ? -1 : 1));
      const curves = await Promise.all(models.map((model) =>
        getJSON(`/models/${encodeURIComponent(model.name)}/curve?points=${CURVE_POINTS}`)
          .catch((error) => error)));
      render(models, curves);
      setProblem(null);
      byId("updated").textContent = "Updated " + new Date().toLocaleTimeString();
    } catch (error) {
      if (error.status === 401 || error.status === 403) {
        clearCards(); // what was shown under a token is not shown without it
        byId("auth").open = true;
        setProblem(readToken()
          ? `The server refused the token (${error.message}). Paste the right one below.`
          : "This server needs a token: paste it under “Access token” below.");
      } else {
        setProblem(`Cannot reach the server (${error.message || error}); retrying.`);
      }
    }
    schedule();
  }

  // ---- the cards ------------------------------------------------------------------------------
  function render(models, curves) {
    const seen = new Set();
    const container = byId("cards");
    models.forEach((model, i) => {
      seen.add(model.name);
      let card = state.cards.get(model.name);
      if (!card) {
        card = newCard(model.name);
        state.cards.set(model.name, card);
      }
      container.appendChild(card); // re-appended in name order: the cards stay sorted
      fillCard(card, model);
      const curve = curves[i];
      if (curve instanceof Error) {
        card.querySelector(".caption").textContent = `Curve unavailable: ${curve.message}`;
      } else {
        state.curves.set(model.name, curve);
        drawCurve(card.querySelector("svg"), curve, model.name);
      }
    });
    for (const [name, card] of state.cards) {
      if (!seen.has(name)) { card.remove(); state.cards.delete(name); state.curves.delete(name); }
    }
    byId("empty").hidden = models.length > 0;
  }

  function clearCards() {
    for (const card of state.cards.values()) card.remove();
    state.cards.clear();
    state.curves.clear();
    byId("empty").hidden = true;
  }

  function newCard(name) {
    const card = byId("card-template").content.firstElementChild.cloneNode(true);
    const headingId = `model-${state.nextId++}`;
    card.dataset.model = name;
    card.setAttribute("aria-labelledby", headingId);
    const heading = card.querySelector(".name");
    heading.id = headingId;
    heading.textContent = name;
    return card;
  }

  function setField(card, field, text) {
    card.querySelector(`[data-field="${field}"]`).textContent = text;
  }

  function fillCard(card, model) {
    card.querySelector(".learner").textContent = model.learner;
    const params = Object.entries(model.params || {})
      .map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(", ");
    const paramsLine = card.querySelector(".params");
    paramsLine.textContent = params;
    paramsLine.hidden = !params;
    setField(card, "rows_seen", integer.format(model.rows_seen));
    setField(card, "updates", integer.format(model.updates));
    setField(card, "events_logged", integer.format(model.events_logged));
    const lastN = model.error_last_n || {};
    const regression = model.kind === "regressor";
    const metric = regression ? METRICS.mean_squared_error : METRICS.error;
    const lastValue = regression ? lastN.mean_squared_error : lastN.error;
    card.querySelector(".total-label").textContent = regression ? "Mean squared error" : "Mistakes";
    setField(card, "mistakes", regression
      ? (model.mean_squared_error == null ? "—" : real.format(model.mean_squared_error))
      : integer.format(model.mistakes));
    card.querySelector(".last-n-label").textContent =
      `${metric.short}, last ${lastN.n ? integer.format(lastN.n) : "N"}`;
    setField(card, "error_last_n", lastValue == null ? "—" : metric.format(lastValue));
    setField(card, "last_snapshot_event", model.last_snapshot_event == null
      ? "none" : integer.format(model.last_snapshot_event));
  }

  // ---- the curve: an SVG drawn at the element's own pixel size (crisp text at any width) ----
  function svg(name, attributes, text) {
    const element = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // The top of the error axis: the smallest round value (1, 1.2, 1.6, 2, ..., 8 × 10^k) at or
  // above x, so that its quarters are round too; at most cap (100 % for an error rate).
  function niceCeiling(x, cap) {
    if (!(x > 0)) return 0.04;
    const power = 10 ** Math.floor(Math.log10(x));
    for (const step of [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10]) {
      if (step * power >= x * (1 - 1e-12)) return Math.min(step * power, cap);
    }
    return cap;
  }

  const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  function xTicks(maximum, count) {
    if (maximum <= 0) return [0];
    const raw = maximum / count;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((s) => s * power).find((s) => s >= raw);
    const ticks = [];
    for (let t = 0; t <= maximum + 1e-9; t += step) ticks.push(t);
    return ticks;
  }

  function drawCurve(chart, curve, name) {
    const rows = curve.rows || [];
    const metric = metricOf(curve);
    const errors = curve[curve.metric] || curve.error || [];
    const width = Math.max(chart.clientWidth, 200);
    const height = Math.max(chart.clientHeight, 120);
    chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
    chart.replaceChildren();
    const caption = chart.parentElement.querySelector(".caption");
    const m = CHART_MARGIN;
    const plotW = width - m.left - m.right;
    const plotH = height - m.top - m.bottom;
    const n = Math.min(rows.length, errors.length);
    if (n === 0) {
      chart.setAttribute("aria-label", `${name}: no events learned yet`);
      chart.append(svg("text", { x: width / 2, y: height / 2, class: "empty-text",
        "text-anchor": "middle" }, "No events learned yet"));
      caption.textContent = `${capitalized(metric.name)}: no events yet.`;
      return;
    }
    const xMax = Math.max(rows[n - 1], 1);
    // The first rows' error is noise (0 % or 100 % after one row): once there are enough rows,
    // the axis fits the curve after the first 2 % of them and the early part is cut off at
    // the top (and the caption says so).
    const settled = xMax >= 200 ? rows.findIndex((r) => r >= Math.max(10, 0.02 * xMax)) : 0;
    const yMax = niceCeiling(Math.max(...errors.slice(Math.max(settled, 0), n)) * 1.05, metric.cap);
    const cut = errors.slice(0, n).some((e) => e > yMax);
    const px = (r) => m.left + (r / xMax) * plotW;
    const py = (e) => m.top + (1 - e / yMax) * plotH;

    const grid = svg("g", { class: "grid", "aria-hidden": "true" });
    for (let k = 0; k <= 4; k++) {
      const e = (yMax * k) / 4;
      const y = py(e).toFixed(1);
      grid.append(svg("line", { x1: m.left, x2: width - m.right, y1: y, y2: y }));
      grid.append(svg("text", { x: m.left - 6, y, dy: "0.32em", "text-anchor": "end" },
        metric.tick(e)));
    }
    for (const t of xTicks(xMax, width < 360 ? 3 : 5)) {
      const x = px(t).toFixed(1);
      grid.append(svg("line", { class: "tick", x1: x, x2: x, y1: height - m.bottom,
        y2: height - m.bottom + 4 }));
      grid.append(svg("text", { x, y: height - m.bottom + 16, "text-anchor": "middle" },
        compact.format(t)));
    }
    grid.append(svg("text", { class: "axis-label", x: width - m.right, y: height - 2,
      "text-anchor": "end" }, "rows seen"));
    chart.append(grid);

    const points = [];
    for (let i = 0; i < n; i++) points.push(`${px(rows[i]).toFixed(1)},${py(errors[i]).toFixed(1)}`);
    const clipId = `${chart.closest(".card").querySelector("h3").id}-plot`;
    const clip = svg("clipPath", { id: clipId });
    clip.append(svg("rect", { x: m.left - 4, y: m.top - 4, width: plotW + 8, height: plotH + 8 }));
    chart.append(clip);
    chart.append(svg("polyline", { class: "line", points: points.join(" "), "data-points": n,
      "clip-path": `url(#${clipId})` }));
    const last = errors[n - 1];
    chart.append(svg("circle", { class: "dot", cx: px(rows[n - 1]).toFixed(1),
      cy: py(last).toFixed(1), r: 3.5 }));

    const summary = `${name}: ${metric.name} ${metric.format(last)} after ` +
      `${integer.format(rows[n - 1])} rows`;
    chart.setAttribute("aria-label", summary);
    chart.prepend(svg("title", {}, summary));
    caption.textContent = `${capitalized(metric.name)} over ${integer.format(rows[n - 1])} rows ` +
      `(now ${metric.format(last)}).` +
      (cut ? ` The first rows, above ${metric.tick(yMax)}, are cut off.` : "");
  }

  function redrawAll() {
    for (const [name, card] of state.cards) {
      const curve = state.curves.get(name);
      if (curve) drawCurve(card.querySelector("svg"), curve, name);
    }
  }

  // ---- wiring ---------------------------------------------------------------------------------
  function start() {
    showTokenState();
    byId("token-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = byId("token");
      writeToken(input.value.trim());
      input.value = "";
      setProblem(null);
      refresh();
    });
    byId("forget").addEventListener("click", () => { writeToken(""); refresh(); });
    byId("pause").addEventListener("click", (event) => {
      state.paused = !state.paused;
      event.currentTarget.setAttribute("aria-pressed", String(state.paused));
      event.currentTarget.textContent = state.paused ? "Resume updates" : "Pause updates";
      if (state.paused) { schedule(); setProblem("Updates paused"); } else { setProblem(null); refresh(); }
    });
    document.addEventListener("visibilitychange", () => { if (!document.hidden && !state.paused) refresh(); });
    let pending = false;
    window.addEventListener("resize", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; redrawAll(); });
    });
    refresh();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
