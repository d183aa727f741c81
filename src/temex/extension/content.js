// temex content script: serialises the tab's DOM for temex, marks the
// template elements it answers with (class template_node, as TeMex did) and
// shows the page in one of three views: template, content or page.
//
// Elements are named by number: before serialising, every element of a copy
// of the live DOM gets data-temex-n = its place in the live DOM's pre-order,
// so the elements temex names resolve to the live ones whatever its HTML
// parser makes of the serialisation (see temex/web/extension_api.py).
(() => {
  "use strict";
  if (globalThis.__temex) return; // injected twice (declared, then by the popup)

  const NUMBER_ATTR = "data-temex-n";
  const TEMPLATE_CLASS = "template_node";
  // never given a visibility: no box, or not page content
  const SKIP = new Set(["script", "style", "noscript", "template", "link", "meta", "title",
                        "base", "head"]);

  let live = [];          // live elements by number, as last serialised
  let template = null;    // Set of the template's live elements
  let result = null;      // temex's answer, less the element numbers
  let view = "page";
  let saved = new Map();  // element -> [inline visibility, priority] before the view

  function doctype() {
    const d = document.doctype;
    if (!d) return "";
    let s = "<!DOCTYPE " + d.name;
    if (d.publicId) s += ` PUBLIC "${d.publicId}"`;
    if (d.systemId) s += (d.publicId ? "" : " SYSTEM") + ` "${d.systemId}"`;
    return s + ">";
  }

  // The tab's DOM as HTML, each element numbered; remembers the live elements.
  function serialise() {
    const root = document.documentElement;
    // a copy in a document of its own: no custom element constructors run
    const copy = document.implementation.createHTMLDocument("").importNode(root, true);
    const numbered = [];
    const a = [root], b = [copy];
    while (a.length) {
      const x = a.pop(), y = b.pop();
      y.setAttribute(NUMBER_ATTR, String(numbered.length));
      numbered.push(x);
      const xs = x.children, ys = y.children;
      for (let i = xs.length - 1; i >= 0; i--) { a.push(xs[i]); b.push(ys[i]); }
    }
    live = numbered;
    return doctype() + copy.outerHTML;
  }

  function unmark() {
    setView("page");
    if (template) for (const el of template) el.classList.remove(TEMPLATE_CLASS);
    template = null;
    result = null;
  }

  function mark(numbers, answer) {
    unmark();
    template = new Set();
    for (const n of numbers) {
      const el = live[n];
      if (el && el.isConnected) {
        el.classList.add(TEMPLATE_CLASS);
        template.add(el);
      }
    }
    result = answer;
  }

  function restore() {
    for (const [el, [value, priority]] of saved) {
      if (value) el.style.setProperty("visibility", value, priority);
      else el.style.removeProperty("visibility");
      if (el.getAttribute("style") === "") el.removeAttribute("style");
    }
    saved = new Map();
  }

  function set(el, value) {
    if (!saved.has(el)) {
      saved.set(el, [el.style.getPropertyValue("visibility"),
                     el.style.getPropertyPriority("visibility")]);
    }
    el.style.setProperty("visibility", value, "important");
  }

  // "template": non-template elements hidden (visibility, so the layout
  // stays); "content": the template hidden; "page": as the page was.
  function setView(v) {
    restore();
    view = v;
    if (v === "page" || !template || !document.body) return;
    const body = document.body;
    const hide = [], show = [];
    for (const el of [body, ...body.querySelectorAll("*")]) {
      if (SKIP.has(el.localName)) continue;
      const t = template.has(el);
      const parentT = el !== body && template.has(el.parentElement);
      if (v === "template") {
        if (!t) hide.push(el);
        else if (el !== body && !parentT) show.push(el); // a template control in content
      } else {
        if (t) hide.push(el);
        else if (el === body || parentT) show.push(el); // a content root
      }
    }
    // shown again only where the page shows it (read all before any write:
    // one style computation)
    const shown = show.filter((el) => getComputedStyle(el).visibility === "visible");
    for (const el of hide) set(el, "hidden");
    for (const el of shown) set(el, "visible");
  }

  function state() {
    return {url: location.href, view, marked: template ? template.size : 0, result};
  }

  globalThis.__temex = {serialise, mark, setView, state, unmark};

  if (globalThis.chrome && chrome.runtime && chrome.runtime.onMessage) {
    chrome.runtime.onMessage.addListener((msg, sender, reply) => {
      if (sender.id !== chrome.runtime.id || !msg || typeof msg.type !== "string") return;
      switch (msg.type) {
        case "temex-serialise":
          reply({url: location.href, html: serialise()});
          break;
        case "temex-mark":
          mark(msg.template, msg.result);
          setView(msg.view || "template");
          reply(state());
          break;
        case "temex-view":
          setView(msg.view);
          reply(state());
          break;
        case "temex-state":
          reply(state());
          break;
      }
    });
  }
})();
