// temex background: runs an extraction for a tab (the popup may close while
// it runs): gets the tab's serialised DOM from the content script, sends it
// with the tab's URL to the local temex (POST /api/extension/template) and
// hands the answer to the content script, which marks the page.
"use strict";

const api = globalThis.browser || globalThis.chrome;
const DEFAULT_SERVER = "http://127.0.0.1:8000";
const runs = new Map(); // tabId -> {status: "running"|"done"|"error", error, result}

async function settings() {
  const got = await api.storage.local.get(["server", "render"]);
  return {server: (got.server || DEFAULT_SERVER).replace(/\/+$/, ""), render: Boolean(got.render)};
}

async function extract(tabId) {
  runs.set(tabId, {status: "running"});
  // a worker waiting on a slow answer is kept alive by an API call now and then
  const keepAlive = setInterval(() => api.runtime.getPlatformInfo(), 20000);
  try {
    const page = await api.tabs.sendMessage(tabId, {type: "temex-serialise"});
    if (!page || typeof page.html !== "string") throw new Error("the page gave no DOM");
    const {server: base, render} = await settings();
    let res;
    try {
      res = await fetch(base + "/api/extension/template", {
        method: "POST",
        headers: {"Content-Type": "application/json", "X-Temex-Extension": "1"},
        body: JSON.stringify({url: page.url, html: page.html, render}),
        credentials: "omit",
      });
    } catch (e) {
      throw new Error(`temex is not running at ${base}: start it with \`temex serve\``);
    }
    const body = await res.json().catch(() => ({error: `HTTP ${res.status}`}));
    if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
    const {template, kind, ...rest} = body;
    const result = {...rest, marked: template.length};
    await api.tabs.sendMessage(tabId, {type: "temex-mark", template, result, view: "template"});
    runs.set(tabId, {status: "done", result});
  } catch (e) {
    runs.set(tabId, {status: "error", error: String(e.message || e)});
  } finally {
    clearInterval(keepAlive);
  }
}

api.runtime.onMessage.addListener((msg, sender, reply) => {
  if (sender.id !== api.runtime.id || !msg) return;
  if (msg.type === "extract" && Number.isInteger(msg.tabId)) {
    if (runs.get(msg.tabId)?.status !== "running") extract(msg.tabId);
    reply(runs.get(msg.tabId));
  } else if (msg.type === "status" && Number.isInteger(msg.tabId)) {
    reply(runs.get(msg.tabId) || {status: "none"});
  }
});

api.tabs.onRemoved.addListener((tabId) => runs.delete(tabId));
