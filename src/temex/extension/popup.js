// temex popup: checks that temex runs, starts an extraction of the tab's page
// (the background runs it), shows the counts and switches the view.
"use strict";

const api = globalThis.browser || globalThis.chrome;
const DEFAULT_SERVER = "http://127.0.0.1:8000";
const $ = (id) => document.getElementById(id);
let tabId = null;
let server = DEFAULT_SERVER;

// A message; `text` may hold `code` spans between backquotes.
function say(text, error = false) {
  const m = $("message");
  m.textContent = "";
  m.className = error ? "error" : "";
  text.split("`").forEach((part, i) => {
    if (i % 2) {
      const c = document.createElement("code");
      c.textContent = part;
      m.append(c);
    } else {
      m.append(part);
    }
  });
}

async function targetTab() {
  // popup.html?tab=ID: the panel opened in a tab of its own, for that tab
  const q = new URLSearchParams(location.search).get("tab");
  if (q && /^\d+$/.test(q)) return Number(q);
  const [tab] = await api.tabs.query({active: true, currentWindow: true});
  return tab ? tab.id : null;
}

async function temexRuns() {
  try {
    const r = await fetch(server + "/api/health", {credentials: "omit", cache: "no-store"});
    return r.ok && (await r.json()).status === "ok";
  } catch (e) {
    return false;
  }
}

async function pageState() {
  try {
    return await api.tabs.sendMessage(tabId, {type: "temex-state"});
  } catch (e) {
    // no content script yet (the tab was open before the extension came): add it
    try {
      await api.scripting.executeScript({target: {tabId}, files: ["content.js"]});
      return await api.tabs.sendMessage(tabId, {type: "temex-state"});
    } catch (e2) {
      return null;
    }
  }
}

function show(state) {
  const r = state.result || {};
  $("n-template").textContent = state.marked;
  $("n-pages").textContent = (r.pages || []).length;
  $("n-loads").textContent = r.loads ?? "–";
  $("counts").hidden = false;
  $("views").hidden = false;
  $("again").hidden = false;
  for (const b of document.querySelectorAll("#views button")) {
    b.setAttribute("aria-pressed", String(b.dataset.view === state.view));
  }
  const notes = [];
  if (r.fallback) notes.push(`No page sharing its template was found (${r.fallback}).`);
  if (r.unnumbered) notes.push(`${r.unnumbered} template element(s) the parser added are not on the page.`);
  $("note").textContent = notes.join(" ");
  $("note").hidden = !notes.length;
  say(state.marked ? "Template elements are marked with the class template_node." :
      "No template element was found on this page.");
  document.body.dataset.state = "done";
}

async function poll() {
  const run = await api.runtime.sendMessage({type: "status", tabId});
  if (run.status === "running") {
    say("Comparing this page with pages of its site…");
    setTimeout(poll, 300);
  } else if (run.status === "error") {
    say(run.error, true);
    $("again").hidden = false;
    document.body.dataset.state = "error";
  } else {
    const state = await pageState();
    if (state) show(state);
  }
}

async function extract() {
  document.body.dataset.state = "running";
  $("again").hidden = true;
  say("Comparing this page with pages of its site…");
  await api.runtime.sendMessage({type: "extract", tabId});
  poll();
}

async function main() {
  const got = await api.storage.local.get(["server", "render"]);
  server = (got.server || DEFAULT_SERVER).replace(/\/+$/, "");
  $("server").value = server;
  $("render").checked = Boolean(got.render);
  $("host").textContent = new URL(server).host;
  tabId = await targetTab();
  if (!(await temexRuns())) {
    say(`temex is not running at ${server}: start it with \`temex serve\`.`, true);
    $("settings").open = true;
    document.body.dataset.state = "no-temex";
    return;
  }
  const state = tabId === null ? null : await pageState();
  if (!state) {
    say("temex cannot read this tab (browser pages and extension stores are closed to " +
        "extensions).", true);
    document.body.dataset.state = "error";
    return;
  }
  const open = $("open");
  open.href = server + "/?url=" + encodeURIComponent(state.url);
  open.hidden = false;
  if (state.marked) {
    show(state);
    return;
  }
  const run = await api.runtime.sendMessage({type: "status", tabId});
  if (run.status === "running") poll();
  else extract();
}

for (const b of document.querySelectorAll("#views button")) {
  b.addEventListener("click", async () => {
    show(await api.tabs.sendMessage(tabId, {type: "temex-view", view: b.dataset.view}));
  });
}
$("again").addEventListener("click", extract);
$("render").addEventListener("change", () => api.storage.local.set({render: $("render").checked}));
$("server-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const value = $("server").value.trim().replace(/\/+$/, "");
  await api.storage.local.set({server: value});
  location.reload();
});

main().catch((e) => say(String(e.message || e), true));
