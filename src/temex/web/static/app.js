// temex serve: the page. Plain JS, no build step. Talks to the JSON API only.
"use strict";

const VIEWS = ["page", "template", "content"];
const NEXT_LABEL = { page: "Show template", template: "Show content", content: "Show page" };
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let job = null;       // current job id
let view = "page";    // current view
let source = null;    // EventSource
let texts = {};       // the job's content text and Markdown, fetched once
let textFmt = "content";

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = !msg;
}

async function loadHealth() {
  try {
    const h = await (await fetch("/api/health")).json();
    const sel = $("equality");
    sel.textContent = "";
    for (const q of h.equalities || ["label"]) {
      const o = el("option", { value: q }, q);
      if (q === (h.default_equality || "label")) o.selected = true;
      sel.appendChild(o);
    }
    if (h.render && !h.render.available) {
      // no job that is bound to fail: the box is off and says why
      const box = $("render");
      box.checked = false;
      box.disabled = true;
      $("render-label").title = "Not available on this server: " + h.render.reason;
      $("render-off").textContent = "(not available: " + h.render.reason + ")";
      $("render-off").hidden = false;
    }
    if (h.limits) {
      $("max-loads").max = h.limits.max_loads;
      $("n").max = h.limits.max_n;
    }
    if (h.example) {
      $("example-url").textContent = h.example;
      $("example-on").hidden = false;
      $("example-off").hidden = true;
      $("try-example").addEventListener("click", () => {
        $("url").value = h.example;
        $("form").requestSubmit();
      });
    }
  } catch (e) { /* the defaults in the form stay */ }
}

function options() {
  const o = {
    url: $("url").value.trim(),
    n: parseInt($("n").value, 10) || 3,
    method: $("method").value,
    equality: $("equality").value,
    render: $("render").checked,
  };
  // left empty: the server's default, the key page and n more
  const loads = parseInt($("max-loads").value, 10);
  if (loads) o.max_loads = loads;
  return o;
}

async function start(ev) {
  ev.preventDefault();
  showError("");
  if (source) { source.close(); source = null; }
  $("result").hidden = true;
  $("intro").hidden = true;
  texts = {};
  $("events").textContent = "";
  $("meter-fill").style.width = "0%";
  $("progress-text").textContent = "Starting…";
  $("progress").hidden = false;
  $("extract").disabled = true;
  let resp;
  try {
    resp = await fetch("/api/extract", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(options()),
    });
  } catch (e) {
    return fail("Cannot reach the temex server: " + e);
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    // said once: a refusal that says "refused" is not prefixed again
    const msg = data.error || resp.statusText;
    if (resp.status === 429) return fail("The server is busy: " + msg);
    return fail(/^refused\b/i.test(msg) ? msg[0].toUpperCase() + msg.slice(1) : "Refused: " + msg);
  }
  job = data.id;
  follow(job);
}

function fail(msg) {
  $("extract").disabled = false;
  $("progress").hidden = true;
  $("intro").hidden = false;  // what temex does and the help stay with the error
  showError(msg);
}

function addEvent(e) {
  const list = $("events");
  let text = "";
  if (e.type === "page") {
    text = `${e.status === "loaded" ? "loaded" : e.status} — ${e.url}`;
    const pct = Math.min(100, Math.round(100 * e.loads / Math.max(1, e.max_loads)));
    $("meter-fill").style.width = pct + "%";
    $("progress-text").textContent = `Loading pages: ${e.loads} of at most ${e.max_loads}`;
  } else if (e.type === "start") {
    text = `exploring ${e.url}${e.render ? " (rendered in Chromium)" : ""}`;
  } else if (e.type === "fit") {
    text = `comparing the key page with ${e.pages} page(s)`;
    $("progress-text").textContent = "Comparing DOM trees…";
  } else if (e.type === "done") {
    text = `done: ${e.loads} page loads`;
  } else if (e.type === "failed") {
    text = "failed: " + e.error;
  } else if (e.type === "queued") {
    text = "queued";
  } else { return; }
  const li = el("li", {}, text);
  if (e.type === "failed" || (e.type === "page" && e.status !== "loaded")) li.className = "bad";
  list.appendChild(li);
  list.scrollTop = list.scrollHeight;
}

function follow(id) {
  let seen = -1;
  const onEvent = (msg) => {
    const e = JSON.parse(msg.data);
    if (e.seq <= seen) return;
    seen = e.seq;
    addEvent(e);
  };
  if (window.EventSource) {
    source = new EventSource(`/api/jobs/${id}/events`);
    for (const t of ["queued", "start", "page", "fit", "done", "failed"]) {
      source.addEventListener(t, onEvent);
    }
    source.addEventListener("end", () => { source.close(); source = null; finish(id); });
    source.onerror = () => { if (source) { source.close(); source = null; poll(id, seen + 1); } };
  } else {
    poll(id, 0);
  }
}

async function poll(id, since) {
  // Fallback when server-sent events are unavailable.
  while (id === job) {
    const r = await fetch(`/api/jobs/${id}?since=${since}`);
    if (!r.ok) return fail("Lost the job: " + r.status);
    const d = await r.json();
    for (const e of d.events) { addEvent(e); since = e.seq + 1; }
    if (d.status === "done" || d.status === "failed") return show(d);
    await new Promise((res) => setTimeout(res, 500));
  }
}

async function finish(id) {
  const r = await fetch(`/api/jobs/${id}`);
  if (!r.ok) return fail("Lost the job: " + r.status);
  show(await r.json());
}

function show(d) {
  $("extract").disabled = false;
  $("progress").hidden = true;
  if (d.status !== "done") {
    $("intro").hidden = false;
    return showError("The extraction failed: " + (d.error || "unknown error"));
  }
  const res = d.result;
  $("result").hidden = false;
  const a = $("key-url");
  a.href = res.key_url;
  a.textContent = res.title ? `${res.title} — ${res.key_url}` : res.key_url;
  fillDl($("stats"), {
    "page loads": `${res.loads} (${res.requests} requested)`,
    "CS found": `${res.pages.length} of ${res.options.n}${res.complete ? "" : " (incomplete)"}`,
    "body elements": res.counts.body_nodes,
    "template": res.counts.template_nodes,
    "content": res.counts.content_nodes,
    "method": `${res.options.method} / ${res.options.equality}`,
    "rendered": res.options.render ? "yes (Chromium)" : "no",
  });
  const timings = {};
  for (const [k, v] of Object.entries(res.timings)) timings[k] = `${(v * 1000).toFixed(0)} ms`;
  fillDl($("timings"), timings);
  const pages = $("pages");
  pages.textContent = "";
  res.pages.forEach((u, i) => {
    const li = el("li", { "data-node": `p${i}` });
    li.appendChild(el("a", { href: u, target: "_blank", rel: "noopener noreferrer" }, u));
    pages.appendChild(li);
  });
  const errs = $("page-errors");
  errs.textContent = "";
  if (res.errors.length) {
    errs.appendChild(el("h2", {}, "Pages that failed"));
    const ul = el("ul");
    for (const e of res.errors) ul.appendChild(el("li", {}, `${e.page}: ${e.error}`));
    errs.appendChild(ul);
  }
  drawGraph(res.graph);
  const dl = $("downloads");
  dl.textContent = "Download:";
  const names = { template: "template.html", annotated: "annotated.html", content: "content.txt",
                  markdown: "content.md", html: "content.html", json: "report.json",
                  saved: "saved template" };
  for (const f of res.outputs) {
    dl.appendChild(el("a", { href: `/api/jobs/${d.id}/output/${f}`, "data-format": f,
                             download: "" }, names[f] || f));
  }
  setView("page");
}

function fillDl(dl, obj) {
  dl.textContent = "";
  for (const [k, v] of Object.entries(obj)) {
    dl.appendChild(el("dt", {}, k));
    dl.appendChild(el("dd", {}, String(v)));
  }
}

function drawGraph(g) {
  const box = $("graph");
  box.textContent = "";
  const W = 300, H = 200, cx = W / 2, cy = 40, R = 120;
  const svg = document.createElementNS(SVG, "svg");
  // Nodes are labelled with short numbers (the list under the picture gives
  // each page's whole path): a path as a label was cut or ran into others.
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "links among the explored pages");
  const pos = {};
  const others = g.nodes.filter((n) => n.role !== "key");
  // The key page on top, the other pages on an arc below it.
  pos.key = [cx, 22];
  others.forEach((n, i) => {
    const a = Math.PI * (0.15 + 0.7 * (others.length === 1 ? 0.5 : i / (others.length - 1)));
    pos[n.id] = [cx + R * Math.cos(a), cy + R * Math.sin(a) * 1.0];
  });
  const line = (a, b, cls) => {
    const l = document.createElementNS(SVG, "line");
    const [x1, y1] = pos[a], [x2, y2] = pos[b];
    for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, v.toFixed(1));
    l.setAttribute("class", cls);
    svg.appendChild(l);
  };
  for (const [a, b] of g.one_way) line(a, b, "edge-one");
  for (const [a, b] of g.key_edges) line(a, b, "edge-key");
  for (const [a, b] of g.mutual) line(a, b, "edge-mutual");
  for (const n of g.nodes) {
    const [x, y] = pos[n.id];
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x.toFixed(1)); c.setAttribute("cy", y.toFixed(1));
    c.setAttribute("r", n.role === "key" ? 9 : 7);
    c.setAttribute("class", "node-" + n.role);
    const t = document.createElementNS(SVG, "title");
    t.textContent = n.url;
    c.appendChild(t);
    svg.appendChild(c);
    const label = document.createElementNS(SVG, "text");
    // above and right of its node: edges leave nodes sideways and downwards
    label.setAttribute("x", (x + (n.role === "key" ? 13 : 7)).toFixed(1));
    label.setAttribute("y", (y + (n.role === "key" ? 5 : -8)).toFixed(1));
    label.textContent = n.role === "key" ? "key" : String(others.indexOf(n) + 1);
    svg.appendChild(label);
  }
  box.appendChild(svg);
  const list = el("ol", { id: "graph-pages" });
  for (const n of others) {
    const li = el("li", {}, pathOf(n.url) + (n.role === "cs" ? "" : " (explored)"));
    li.title = n.url;
    list.appendChild(li);
  }
  box.appendChild(list);
  const cap = el("p", {}, `${g.mutual.length} mutual link(s) among ${others.length} page(s); ` +
                 "blue: CS pages and their mutual links, dashed: links from the key page.");
  cap.className = "legend";
  box.appendChild(cap);
}

function pathOf(u) {
  try { const p = new URL(u); return p.pathname + p.search; } catch (e) { return u; }
}

function setView(v) {
  view = v;
  $("view-name").textContent = v;
  $("toggle").textContent = NEXT_LABEL[v];
  const hl = $("highlight").checked ? 1 : 0;
  const frame = $("viewer");
  frame.dataset.view = v;
  frame.src = `/api/jobs/${job}/view/${v}?highlight=${hl}`;
  $("text-pane").hidden = v !== "content";
  if (v === "content") showText(textFmt);
}

async function showText(fmt) {
  // The extracted content as text (or Markdown) beside the content view.
  textFmt = fmt;
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("on", b.dataset.fmt === fmt);
  const box = $("content-text");
  const id = job;
  if (texts[fmt] === undefined) {
    box.textContent = "Loading…";
    try {
      const r = await fetch(`/api/jobs/${id}/output/${fmt}?download=0`);
      texts[fmt] = r.ok ? await r.text() : `(could not load the ${fmt}: ${r.status})`;
    } catch (e) {
      texts[fmt] = `(could not load the ${fmt}: ${e})`;
    }
  }
  if (id === job && textFmt === fmt) {
    box.textContent = texts[fmt].trim() || "(no main content was found on this page)";
  }
}

document.addEventListener("DOMContentLoaded", () => {
  loadHealth();
  $("form").addEventListener("submit", start);
  $("toggle").addEventListener("click", () => {
    setView(VIEWS[(VIEWS.indexOf(view) + 1) % VIEWS.length]);
  });
  $("highlight").addEventListener("change", () => setView(view));
  for (const b of document.querySelectorAll(".tab")) {
    b.addEventListener("click", () => showText(b.dataset.fmt));
  }
  const q = new URLSearchParams(location.search).get("url");
  if (q) $("url").value = q;
});
