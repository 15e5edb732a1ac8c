// The rlsim playground: it opens a session, draws the frames the server streams
// and sends the controls. It computes no figure itself: every number shown is
// one the server sent.
"use strict";

const MARKS = ["admitted", "delayed", "refused", "shed", "dropped"];
const KEEP_COLUMNS = 4096; // per lane: more than a screen is wide (the server holds 1024 for hovering)

// Columns is one lane's latest KEEP_COLUMNS columns, five counts each, in a
// ring of typed arrays: drawing reads them without hashing or allocating.
class Columns {
  constructor() { this.n = new Float64Array(KEEP_COLUMNS * 5); this.hi = -1; }
  set(k, counts) {
    if (k > this.hi) {
      // Slots between the old latest and k hold columns KEEP_COLUMNS older: clear them.
      for (let j = Math.max(this.hi + 1, k - KEEP_COLUMNS + 1); j < k; j++) this.n.fill(0, (j % KEEP_COLUMNS) * 5, (j % KEEP_COLUMNS) * 5 + 5);
      this.hi = k;
    } else if (k <= this.hi - KEEP_COLUMNS) return;
    this.n.set(counts, (k % KEEP_COLUMNS) * 5);
  }
  // at is the offset of column k's counts in n, or -1 when it holds none.
  at(k) { return k > this.hi || k <= this.hi - KEEP_COLUMNS || k < 0 ? -1 : (k % KEEP_COLUMNS) * 5; }
  total(k) { const o = this.at(k); return o < 0 ? 0 : this.n[o] + this.n[o + 1] + this.n[o + 2] + this.n[o + 3] + this.n[o + 4]; }
  get(k) { const o = this.at(k); return o < 0 || this.total(k) === 0 ? null : Array.from(this.n.subarray(o, o + 5)); }
}
const MIN_COLUMN_PX = 3, MAX_COLUMN_PX = 16;
const $ = (id) => document.getElementById(id);

const state = {
  sess: null,       // the session's description
  source: null,     // its EventSource
  frame: null,      // the latest frame
  cols: [],         // per lane: Map column index -> counts
  hidden: new Set(),
  drawPending: false,
  colors: {},
  tipKey: "",
};

// Exposed for the browser tests: what was drawn and how long drawing took.
window.rlsim = { frames: 0, draws: 0, drawMs: [], errors: [], state };

window.addEventListener("error", (e) => window.rlsim.errors.push(String(e.message)));

function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

function fmtTime(ns) {
  const s = ns / 1e9;
  if (Math.abs(s) >= 60) return (s / 60).toFixed(1).replace(/\.0$/, "") + "min";
  if (Math.abs(s) >= 1 || s === 0) return (+s.toFixed(3)).toString() + "s";
  return (+(ns / 1e6).toFixed(3)).toString() + "ms";
}
function fmtInt(n) { return n.toLocaleString("en-US"); }

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: r.status + " " + r.statusText }; }
  return { ok: r.ok, data };
}

function setStatus(text, error) {
  const s = $("status");
  if (s.textContent === (text || "") && s.classList.contains("error") === !!error) return;
  s.textContent = text || "";
  s.classList.toggle("error", !!error);
}

// openSession asks for a session (a built-in, YAML, or the server's first,
// with a pasted config or not) and starts drawing it; on problems it shows
// each under its editor, the scenario's or the config's.
async function openSession(body) {
  const { ok, data } = await post("/api/sessions", body);
  if (ok) state.opened = body;
  if (!ok) {
    if (data.errors && (body.yaml !== undefined || body.config !== undefined)) { showProblems(data.errors, data.error, body.config !== undefined); return false; }
    if (body.config !== undefined) editors.config.show([], data.error, []);
    setStatus(data.error, true);
    return false;
  }
  if (state.source) state.source.close();
  state.sess = data;
  state.frame = null;
  state.head = "";
  state.cols = data.lanes.map(() => new Columns());
  state.tipKey = "";
  buildRows();
  state.width = 0;
  setupControls();
  $("yaml").value = data.yaml;
  editors.scenario.show([], "", []);
  if (body.config !== undefined) {
    editors.config.show([], "", data.warnings || []);
    if (!(data.warnings || []).length) editors.config.status.textContent = `applied: ${data.lanes.map((l) => l.name).join(", ")} in place of the scenario's lanes`;
  } else editors.config.show([], "", []);
  $("description").textContent = data.description || "";
  const sel = $("scenario");
  sel.value = [...sel.options].some((o) => o.value === data.name && !o.disabled) && body.yaml === undefined ? data.name : "";
  $("download-yaml").href = `/api/sessions/${data.id}/scenario.yaml`;
  $("download-report").href = `/api/sessions/${data.id}/report.html`;
  setStatus("");
  const es = new EventSource(`/api/sessions/${data.id}/events`);
  es.onmessage = (e) => onFrame(JSON.parse(e.data));
  es.onerror = () => { if (state.source === es && es.readyState === EventSource.CLOSED) setStatus("the server closed this session: reload the page", true); };
  state.source = es;
  return true;
}

async function control(body) {
  if (!state.sess) return null;
  const { ok, data } = await post(`/api/sessions/${state.sess.id}/control`, body);
  if (!ok) { setStatus(data.error, true); return null; }
  if (data.status) setStatus(data.status);
  return data;
}

function buildRows() {
  const rows = $("rows");
  rows.textContent = "";
  state.sess.lanes.forEach((lane, i) => {
    const row = document.createElement("div");
    row.className = "lane" + (state.hidden.has(lane.name) ? " off" : "");
    row.dataset.lane = lane.name;
    row.innerHTML = `<label class="name"><input type="checkbox" ${state.hidden.has(lane.name) ? "" : "checked"}> <span></span></label>
      <canvas height="54"></canvas>
      <div class="figs"><dl>
        <dt>offered</dt><dd data-fig="attempts"></dd><dt>admitted</dt><dd data-fig="admitted"></dd><dt>refused</dt><dd data-fig="refused"></dd>
        <dt>delayed</dt><dd data-fig="delayed"></dd><dt>shed</dt><dd data-fig="shed"></dd><dt>dropped</dt><dd data-fig="dropped"></dd>
      </dl><div class="peakbox" title="the most admitted in any window of the limit's length, for one key"><b data-fig="peak">0</b> / <span data-fig="limit"></span><small>most in any window</small></div></div>
      <p class="limiting" hidden></p>`;
    row.querySelector(".name span").textContent = lane.title;
    row.querySelector("input").addEventListener("change", (e) => {
      if (e.target.checked) state.hidden.delete(lane.name); else state.hidden.add(lane.name);
      row.classList.toggle("off", !e.target.checked);
      requestDraw();
    });
    const canvas = row.querySelector("canvas");
    row.refs = { canvas, box: row.querySelector(".peakbox"), boxNote: row.querySelector(".peakbox small"), limiting: row.querySelector(".limiting"),
      limit: row.querySelector("[data-fig=limit]"), figs: {}, last: {} };
    for (const dd of row.querySelectorAll("[data-fig]")) {
      if (dd.tagName === "DD") { dd.textContent = ""; const v = document.createTextNode("0"); const sp = document.createElement("span"); sp.textContent = " " + dd.previousElementSibling.textContent; dd.append(v, sp); row.refs.figs[dd.dataset.fig] = { el: dd, text: v }; }
      else if (dd.dataset.fig === "peak") row.refs.figs.peak = { el: dd, text: dd.firstChild || dd.appendChild(document.createTextNode("0")) };
    }
    canvas.addEventListener("mousemove", (e) => hover(e, i, canvas));
    canvas.addEventListener("mouseleave", () => { $("tip").hidden = true; state.tipKey = ""; });
    rows.appendChild(row);
  });
}

function setupControls() {
  const s = state.sess;
  const speed = $("speed");
  speed.textContent = "";
  s.speeds.forEach((v, i) => {
    const o = document.createElement("option");
    o.value = i;
    o.textContent = (v / 10) + "×";
    speed.appendChild(o);
  });
  speed.value = s.speed;
  // Of the scenario's duration: its end is the duration plus the drain,
  // twice the duration by default, not the scenario's length.
  $("end").textContent = fmtTime(s.duration);
  const lim = s.limit;
  slider("limit", lim.limit, 1, Math.max(4 * lim.limit, 20), 1, (v) => String(v));
  const wms = Math.max(1, Math.round(lim.window / 1e6));
  slider("window", wms, Math.max(1, Math.round(wms / 10)), wms * 5, Math.max(1, Math.round(wms / 20)), (v) => fmtTime(v * 1e6));
  slider("burst", lim.burst, 1, Math.max(4 * lim.burst, 20), 1, (v) => String(v));
  const group = $("group");
  group.textContent = "";
  s.groups.forEach((g, i) => {
    if (!(g.rate > 0)) return;
    const o = document.createElement("option");
    o.value = i;
    o.textContent = g.name;
    group.appendChild(o);
  });
  const rateOK = group.options.length > 0;
  if (!rateOK) {
    const o = document.createElement("option");
    o.textContent = "no steady clients";
    group.appendChild(o);
  }
  $("rate").disabled = group.disabled = !rateOK;
  pickGroup();
  $("burst-count").value = lim.limit;
  $("burst-spread").value = Math.round(lim.window / 10 / 1e6);
}

function pickGroup() {
  const g = $("group").disabled ? null : state.sess.groups[+$("group").value];
  const rate = g ? Math.max(1, Math.round(g.rate)) : 1;
  slider("rate", rate, 1, Math.max(4 * rate, 20), 1, (v) => (g ? v + "/s each" : ""));
}

function slider(id, value, min, max, step, label) {
  const el = $(id);
  el.min = min; el.max = max; el.step = step; el.value = value;
  el.dataset.committed = value;
  const show = () => { $(id + "-value").textContent = label(+el.value); };
  el.oninput = show;
  show();
}

async function pushRule() {
  const body = { op: "rule", limit: +$("limit").value, window: +$("window").value * 1e6, burst: +$("burst").value };
  const r = await control(body);
  for (const id of ["limit", "window", "burst"]) {
    const el = $(id);
    if (r) el.dataset.committed = el.value; else { el.value = el.dataset.committed; el.oninput(); }
  }
}

async function pushRate() {
  const el = $("rate");
  const r = await control({ op: "rate", index: +$("group").value, count: +el.value });
  if (r) el.dataset.committed = el.value; else { el.value = el.dataset.committed; el.oninput(); }
}

function onFrame(f) {
  window.rlsim.frames++;
  f.lanes.forEach((lane, i) => {
    const m = state.cols[i];
    for (const c of lane.columns) m.set(c.i, c.n);
  });
  state.frame = f;
  if (f.status) setStatus(f.status, f.status.startsWith("stopped"));
  requestDraw();
}

// drawFleet shows a fleet's state now and its latest phases with their times.
function drawFleet(fl) {
  $("fleet").hidden = !fl;
  if (!fl) return;
  $("fleet-lane").textContent = fl.lane;
  $("fleet-now").textContent = fl.now;
  const list = $("phases");
  list.textContent = "";
  fl.phases.forEach((p) => {
    const li = document.createElement("li");
    li.textContent = `t=${+(p.at / 1e9).toFixed(2)}s ${p.text}`; // to the hundredth, as the TUI and the findings: minutes blur a cascade
    list.appendChild(li);
  });
  list.start = fl.total - fl.phases.length + 1;
  document.body.dataset.phases = fl.total;
}

function requestDraw() {
  if (state.drawPending) return;
  state.drawPending = true;
  requestAnimationFrame(() => { state.drawPending = false; draw(); });
}

// draw paints every lane and its figures from the latest frame. Its time is
// measured: the browser test holds it under a 60 Hz frame's 16 ms.
function draw() {
  const f = state.frame;
  if (!f) return;
  const t0 = performance.now();
  const s = state.sess;
  if (!state.colors.admitted) for (const k of [...MARKS, "peak", "over", "rule", "burst"]) state.colors[k] = css("--" + k);
  const head = `${f.playing}/${f.finished}/${f.now}/${f.speed}/${f.bursts.length}/${f.rules.length}/${f.rates.length}`;
  if (state.head !== head) {
    state.head = head;
    $("play").textContent = f.playing ? "❚❚ pause" : "▶ play";
    $("play").disabled = f.finished;
    $("step").disabled = f.playing || f.finished;
    $("now").textContent = fmtTime(f.now);
    $("drain").textContent = f.now <= s.duration ? "" : f.finished ? ", drained" : `, draining (to ${fmtTime(s.end)} at most)`;
    drawFleet(f.fleet);
    $("progress").value = f.now / s.end;
    $("speed").value = f.speed;
    document.body.dataset.finished = f.finished;
    document.body.dataset.bursts = f.bursts.length;
    document.body.dataset.rules = f.rules.length;
    document.body.dataset.rates = f.rates.length;
  }

  const rows = $("rows").children;
  if (!state.width) state.width = rows.length ? Math.max(100, rows[0].refs.canvas.clientWidth) : 600;
  const width = state.width;
  // The whole run when it fits; else the latest columns, the present at the right edge.
  const total = Math.ceil(s.end / s.column) + 1;
  const px = Math.max(MIN_COLUMN_PX, Math.min(MAX_COLUMN_PX, Math.floor(width / total)));
  const ncols = Math.floor(width / px);
  const nowCol = Math.floor(f.now / s.column);
  const from = Math.max(0, nowCol - ncols + 1);
  // One scale for every lane, so that their heights compare.
  let peak = 1;
  state.cols.forEach((m, i) => {
    if (state.hidden.has(s.lanes[i].name)) return;
    for (let k = from; k <= nowCol; k++) peak = Math.max(peak, m.total(k));
  });
  state.view = { from, nowCol, width, peak, px };
  drawAxis(width, from, ncols);
  f.lanes.forEach((lane, i) => drawLane(rows[i], lane, i, from, nowCol, width, peak));
  const ms = performance.now() - t0;
  const d = window.rlsim;
  d.draws++;
  d.drawMs.push(ms);
  if (d.drawMs.length > 2000) d.drawMs.shift();
}

function fitCanvas(canvas, width, height) {
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

function xOf(ns, from) { return (ns / state.sess.column - from) * state.view.px; }

function drawAxis(width, from, ncols) {
  const c = $("axis");
  const ctx = fitCanvas(c, width, 22);
  const s = state.sess;
  const span = ncols * s.column;
  const steps = [1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8, 1e9, 2e9, 5e9, 1e10, 3e10, 6e10, 1.2e11, 3e11, 6e11, 1.8e12, 3.6e12];
  const step = steps.find((v) => span / v <= 10) || steps[steps.length - 1];
  ctx.fillStyle = "#5f6368";
  ctx.font = "11px system-ui, sans-serif";
  ctx.strokeStyle = "#c8c8cc";
  for (let t = Math.ceil(from * s.column / step) * step; t <= (from + ncols) * s.column; t += step) {
    const x = xOf(t, from);
    ctx.beginPath(); ctx.moveTo(x + 0.5, 14); ctx.lineTo(x + 0.5, 22); ctx.stroke();
    ctx.fillText(fmtTime(t), Math.min(x + 3, width - 40), 11);
  }
  if (s.duration < (from + ncols) * s.column) {
    const x = xOf(s.duration, from);
    ctx.fillStyle = "#5f6368";
    ctx.fillRect(x, 16, 1, 6);
  }
}

function drawLane(row, lane, i, from, nowCol, width, peak) {
  const s = state.sess;
  const off = state.hidden.has(s.lanes[i].name);
  const H = 54;
  const ctx = fitCanvas(row.refs.canvas, width, H);
  const col = state.colors;
  const px = state.view.px;
  // The busiest window so far, shaded where it lies.
  if (lane.peak.count > 0) {
    const x0 = xOf(lane.peak.start, from), x1 = xOf(lane.peak.end, from);
    if (x1 > 0 && x0 < width) {
      ctx.fillStyle = lane.over ? "rgba(192,57,43,.16)" : col.peak;
      ctx.fillRect(Math.max(0, x0), 0, Math.min(width, x1) - Math.max(0, x0), H);
      if (lane.over) { ctx.strokeStyle = col.over; ctx.lineWidth = 1.5; ctx.strokeRect(Math.max(0, x0) + 0.75, 0.75, Math.min(width, x1) - Math.max(0, x0) - 1.5, H - 1.5); }
    }
  }
  if (!off) {
    // One path per mark: five fills per lane, whatever the number of columns.
    const m = state.cols[i];
    const scale = (H - 4) / peak;
    const n = nowCol - from + 1;
    const base = state.base && state.base.length >= n ? state.base : (state.base = new Float64Array(n * 2));
    base.fill(H, 0, n);
    for (let j = 0; j < 5; j++) {
      ctx.beginPath();
      let any = false;
      for (let k = from; k <= nowCol; k++) {
        const o = m.at(k);
        if (o < 0 || !m.n[o + j]) continue;
        const h = Math.max(1, m.n[o + j] * scale);
        const y = base[k - from] - h;
        ctx.rect((k - from) * px, y, px - 1, h);
        base[k - from] = y;
        any = true;
      }
      if (any) { ctx.fillStyle = col[MARKS[j]]; ctx.fill(); }
    }
  }
  // Rule pushes (dashed) and bursts fired (a bar over their spread).
  ctx.setLineDash([3, 3]);
  ctx.strokeStyle = col.rule;
  ctx.lineWidth = 1;
  for (const r of state.frame.rules) {
    const x = Math.round(xOf(r.at, from)) + 0.5;
    if (x < 0 || x > width) continue;
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, H); ctx.stroke();
  }
  ctx.setLineDash([1, 2]);
  ctx.strokeStyle = col.burst;
  for (const r of state.frame.rates) {
    const x = Math.round(xOf(r.at, from)) + 0.5;
    if (x < 0 || x > width) continue;
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, H); ctx.stroke();
  }
  ctx.setLineDash([]);
  const xNow = xOf(state.frame.now, from);
  if (!state.frame.finished && xNow < width - 1) { ctx.fillStyle = "rgba(29,29,31,.35)"; ctx.fillRect(Math.round(xNow), 0, 1, H); }
  ctx.fillStyle = col.burst;
  for (const b of state.frame.bursts) {
    const x0 = xOf(b.at, from), x1 = Math.max(x0 + 2, xOf(b.at + b.spread, from));
    if (x1 < 0 || x0 > width) continue;
    ctx.fillRect(x0, 0, x1 - x0, 3);
  }
  // Figures: only what changed is written, so a frame costs no layout when idle.
  const r = row.refs;
  const put = (name, v) => {
    if (r.last[name] === v) return;
    r.last[name] = v;
    const f = r.figs[name];
    f.el.dataset.value = v;
    f.text.nodeValue = fmtInt(v);
  };
  put("attempts", lane.attempts);
  put("admitted", lane.admitted);
  put("refused", lane.refused);
  put("delayed", lane.delayed);
  put("shed", lane.shed);
  put("dropped", lane.dropped);
  put("peak", lane.peak.count);
  // What the rate and the timeline do not show: the server words it.
  const limiting = (lane.limiting || []).join(" · ");
  if (r.last.limiting !== limiting) {
    r.last.limiting = limiting;
    r.limiting.textContent = limiting;
    r.limiting.hidden = limiting === "";
  }
  const pushed = state.frame.rules.length > 0;
  const key = `${lane.peak.limit}/${lane.over}/${lane.notLimiting}/${lane.concurrency}/${lane.peak.start}/${pushed}`;
  if (r.last.box !== key) {
    r.last.box = key;
    r.limit.textContent = fmtInt(lane.peak.limit);
    // The server judges it as rlsim run's findings do: against the limit in
    // force during the window, and never a concurrency lane against the rate.
    r.box.classList.toggle("over", lane.over);
    r.boxNote.textContent = lane.notLimiting ? "not limiting" : lane.concurrency ? "most in any window; limits concurrency, not the rate" : pushed ? "most in any window, vs the limit then" : "most in any window";
    row.dataset.over = lane.over;
    r.box.title = lane.peak.count > 0 ? `the most admitted for one key (${lane.peak.key}) in one window, [${fmtTime(lane.peak.start)}, ${fmtTime(lane.peak.end)}); the limit is ${lane.peak.limit}` : "nothing admitted yet";
  }
}

// hover asks the server for the first request of the mark under the pointer
// and shows it with the headers a server would have sent.
let hoverTimer = 0;
function hover(e, i, canvas) {
  const v = state.view;
  if (!v || state.hidden.has(state.sess.lanes[i].name)) return;
  const rect = canvas.getBoundingClientRect();
  const x = e.clientX - rect.left, y = e.clientY - rect.top;
  const k = v.from + Math.floor(x / v.px);
  const n = state.cols[i].get(k);
  const tip = $("tip");
  if (!n) { tip.hidden = true; state.tipKey = ""; return; }
  const H = 54, scale = (H - 4) / v.peak;
  let top = H, mark = -1;
  for (let j = 0; j < 5; j++) {
    if (!n[j]) continue;
    const h = Math.max(1, n[j] * scale);
    if (y >= top - h - 1 && y <= top + 1) { mark = j; break; }
    top -= h;
  }
  if (mark < 0) { for (let j = 4; j >= 0; j--) if (n[j]) { mark = j; break; } }
  const key = `${i}/${k}/${mark}`;
  const host = document.querySelector(".lanes").getBoundingClientRect();
  tip.style.left = Math.min(e.clientX - host.left + 14, host.width - 470) + "px";
  tip.style.top = (e.clientY - host.top + 14) + "px";
  if (key === state.tipKey) return;
  state.tipKey = key;
  clearTimeout(hoverTimer);
  const id = state.sess.id;
  hoverTimer = setTimeout(async () => {
    // A column the server no longer holds just shows nothing: no error line.
    const { ok, data } = await post(`/api/sessions/${id}/control`, { op: "sample", lane: i, column: k, mark });
    if (state.tipKey !== key) return;
    if (!ok || !data.sample) { tip.hidden = true; return; }
    showSample(data.sample);
  }, 40);
}

function showSample(smp) {
  const tip = $("tip");
  tip.textContent = "";
  const head = document.createElement("div");
  head.innerHTML = "<b></b>";
  head.firstChild.textContent = `${smp.mark} at ${fmtTime(smp.at)}` + (smp.more > 0 ? ` (and ${fmtInt(smp.more)} more here)` : "");
  const body = document.createElement("div");
  body.textContent = `client ${smp.client} (${smp.class}), key ${smp.key}, request ${smp.request}, attempt ${smp.attempt}` +
    (smp.cost > 1 ? `, cost ${smp.cost}` : "") + (smp.limit ? `, limit ${smp.limit}` : "");
  const status = document.createElement("div");
  status.textContent = "→ " + smp.status;
  tip.append(head, body, status);
  if (smp.headers) {
    const pre = document.createElement("pre");
    pre.textContent = smp.headers;
    tip.appendChild(pre);
  }
  tip.hidden = false;
}

// The editors, the scenario's and the product config's: line numbers, and
// each problem (red) or warning (amber) marked at its line.
class Editor {
  constructor(ta, gutter, marks, list, status) {
    Object.assign(this, { ta: $(ta), gutter: $(gutter), marks: $(marks), list: $(list), status: $(status), problems: [], warnings: [] });
    this.ta.addEventListener("input", () => this.show([], "", []));
    this.ta.addEventListener("scroll", () => this.sync());
  }
  // marked is every problem and warning with a line, problems first.
  marked() { return [...this.problems.map((p) => ({ p, warn: false })), ...this.warnings.map((p) => ({ p, warn: true }))]; }
  changed() {
    const lines = this.ta.value.split("\n").length;
    const bad = new Set(this.problems.map((p) => p.line)), warn = new Set(this.warnings.map((p) => p.line));
    let html = "";
    for (let n = 1; n <= lines; n++) html += (bad.has(n) ? `<span class="bad">${n}</span>` : warn.has(n) ? `<span class="warn">${n}</span>` : n) + "\n";
    this.gutter.innerHTML = html;
    this.sync();
  }
  sync() {
    const ta = this.ta;
    this.gutter.scrollTop = ta.scrollTop;
    this.marks.textContent = "";
    const lh = 18, pad = 6, at = new Map();
    for (const { p, warn } of this.marked()) {
      if (!(p.line > 0)) continue;
      // One mark a line: a problem's message (with how many more), or a
      // warning's band alone; the list below has every one in full.
      const seen = at.get(p.line);
      if (seen) {
        if (!warn && seen.span) seen.span.textContent = seen.text + ` (and ${++seen.more} more)`;
        continue;
      }
      const d = document.createElement("div");
      d.dataset.line = p.line;
      if (warn) d.className = "warn";
      d.style.top = (pad + (p.line - 1) * lh - ta.scrollTop) + "px";
      const mark = { more: 0 };
      if (!warn) {
        mark.span = document.createElement("span");
        mark.text = mark.span.textContent = (p.field ? p.field + ": " : "") + p.message;
        d.appendChild(mark.span);
      }
      at.set(p.line, mark);
      this.marks.appendChild(d);
    }
  }
  // show lists problems (nothing applied) and warnings (applied anyway).
  show(problems, summary, warnings) {
    this.problems = problems || [];
    this.warnings = warnings || [];
    const ul = this.list;
    ul.textContent = "";
    for (const { p, warn } of this.marked()) {
      const li = document.createElement("li");
      li.textContent = (warn ? "warning: " : "") + p.text;
      li.dataset.line = p.line;
      if (warn) li.className = "warn";
      li.onclick = () => this.goto(p.line);
      ul.appendChild(li);
    }
    if (!this.problems.length && summary) {
      const li = document.createElement("li");
      li.textContent = summary;
      ul.appendChild(li);
    }
    const n = this.problems.length, w = this.warnings.length;
    this.status.textContent = n ? `${n} problem${n > 1 ? "s" : ""}: nothing applied` :
      w ? `applied; ${w} part${w > 1 ? "s" : ""} the scenario cannot say as the config does` : "";
    this.changed();
  }
  goto(line) {
    if (!(line > 0)) return;
    const ta = this.ta;
    const lines = ta.value.split("\n");
    let pos = 0;
    for (let n = 1; n < line && n <= lines.length; n++) pos += lines[n - 1].length + 1;
    ta.focus();
    ta.setSelectionRange(pos, pos + (lines[line - 1] || "").length);
    ta.scrollTop = Math.max(0, (line - 5) * 18);
    this.sync();
  }
}
const editors = {};

// showProblems shows a refused session's problems under the editor each is
// in: the config's under the config, the rest under the scenario.
function showProblems(list, summary, configSent) {
  const config = (list || []).filter((p) => p.source === "config");
  editors.scenario.show((list || []).filter((p) => p.source !== "config"), config.length ? "" : summary, []);
  if (configSent) editors.config.show(config, "", []);
}

function wire() {
  $("scenario").addEventListener("change", (e) => { if (e.target.value) openSession({ builtin: e.target.value }); });
  $("play").addEventListener("click", () => control({ op: state.frame && state.frame.playing ? "pause" : "play" }));
  $("step").addEventListener("click", () => control({ op: "step", count: 1 }));
  $("restart").addEventListener("click", () => openSession(state.opened || {}));
  $("speed").addEventListener("change", (e) => control({ op: "speed", index: +e.target.value }));
  $("fire").addEventListener("click", () => control({ op: "burst", count: +$("burst-count").value, spread: Math.round(+$("burst-spread").value * 1e6) }));
  for (const id of ["limit", "window", "burst"]) $(id).addEventListener("change", pushRule);
  $("rate").addEventListener("change", pushRate);
  $("group").addEventListener("change", pickGroup);
  editors.scenario = new Editor("yaml", "gutter", "marks", "problems", "edit-status");
  editors.config = new Editor("config", "config-gutter", "config-marks", "config-problems", "config-status");
  $("apply").addEventListener("click", () => openSession({ yaml: $("yaml").value }));
  $("apply-config").addEventListener("click", () => {
    if (!$("config").value.trim()) { editors.config.show([], "paste a config first", []); return; }
    const body = { config: $("config").value, from: $("from").value };
    if ($("yaml").value.trim()) body.yaml = $("yaml").value;
    openSession(body);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("textarea, input, select")) return;
    if (e.key === " ") { e.preventDefault(); $("play").click(); }
    if (e.key === "ArrowRight" && !$("step").disabled) { e.preventDefault(); $("step").click(); }
  });
  window.addEventListener("resize", () => { state.width = 0; requestDraw(); });
  window.addEventListener("pagehide", () => { if (state.source) state.source.close(); });
}

wire();
openSession({});
