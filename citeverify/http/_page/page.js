// citeverify's page: send a brief to POST api/v1/verify-document, mark the answer in the text.
//
// Plain ES2020, no framework, no network but this server. A brief is hostile input: every
// string from the brief or the response goes into the page through textContent or DOM
// nodes, never as HTML. Positions in the response are Unicode code-point offsets, while JS
// strings are UTF-16, so the text is cut by code points (Array.from), never by index.
"use strict";

(function () {
  const ENDPOINT = "api/v1/verify-document";
  const KEY_STORE = "citeverify.key";
  const RANK = { critical: 0, warning: 1, verified: 2 };
  const ICON = { critical: "\u2716", warning: "\u26a0", verified: "\u2714" };
  const LABEL = { critical: "critical", warning: "warning", verified: "verified" };
  const TYPES = {
    pdf: "application/pdf",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    txt: "text/plain",
  };
  const MAX_DIFF_WORDS = 600;

  const $ = (role) => document.querySelector('[data-role="' + role + '"]');

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "className") node.className = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function statusOf(result) {
    const status = result && result.verdict && result.verdict.status;
    return Object.prototype.hasOwnProperty.call(RANK, status) ? status : "warning";
  }

  // --- links a person can open --------------------------------------------------------

  function humanUrl(url) {
    if (typeof url !== "string") return null;
    let parsed;
    try {
      parsed = new URL(url.trim());
    } catch (_) {
      return null;
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
    if (parsed.pathname.includes("/api/rest/")) {
      const ids = parsed.pathname.split("/").filter((part) => /^\d+$/.test(part));
      if (!ids.length) return null;
      return "https://www.courtlistener.com/opinion/" + ids[ids.length - 1] + "/";
    }
    return parsed.href;
  }

  // --- word diff (longest common subsequence over words) -----------------------------

  function words(text) {
    return String(text || "").split(/\s+/).filter(Boolean);
  }

  function wordKey(word) {
    return word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  }

  // Returns [aSame, bSame]: for each word of a and b, whether it is in the common part.
  function wordDiff(a, b) {
    const n = a.length;
    const m = b.length;
    if (n > MAX_DIFF_WORDS || m > MAX_DIFF_WORDS) return null;
    const ka = a.map(wordKey);
    const kb = b.map(wordKey);
    const table = [];
    for (let i = 0; i <= n; i++) table.push(new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i][j] =
          ka[i] === kb[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    const aSame = new Array(n).fill(false);
    const bSame = new Array(m).fill(false);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (ka[i] === kb[j]) {
        aSame[i] = bSame[j] = true;
        i++;
        j++;
      } else if (table[i + 1][j] >= table[i][j + 1]) i++;
      else j++;
    }
    return [aSame, bSame];
  }

  function diffLine(list, same, tag, label) {
    const out = el("p", { className: "cv-diff" });
    list.forEach((word, index) => {
      if (index) out.append(" ");
      if (same && !same[index]) out.append(el(tag, { className: "cv-changed", title: label }, word));
      else out.append(word);
    });
    return out;
  }

  // --- the marked text ----------------------------------------------------------------

  // The marks of results, nested where positions nest; a position that crosses another's
  // end is clipped to it (marks never overlap partially).
  function renderText(container, text, results, select) {
    container.replaceChildren();
    const chars = Array.from(text); // one entry per code point
    const spans = results
      .filter((r) => r.position && Number.isInteger(r.position.start) && Number.isInteger(r.position.end))
      .map((r) => ({
        result: r,
        start: Math.max(0, Math.min(chars.length, r.position.start)),
        end: Math.max(0, Math.min(chars.length, r.position.end)),
      }))
      .filter((s) => s.end > s.start)
      .sort((x, y) => x.start - y.start || y.end - x.end);
    const root = { node: container, end: chars.length };
    const stack = [root];
    let cursor = 0;
    const marks = new Map();
    const emit = (upto) => {
      if (upto > cursor) {
        stack[stack.length - 1].node.append(chars.slice(cursor, upto).join(""));
        cursor = upto;
      }
    };
    for (const span of spans) {
      while (stack.length > 1 && stack[stack.length - 1].end <= span.start) {
        emit(stack[stack.length - 1].end);
        stack.pop();
      }
      if (span.start < cursor) continue; // starts inside text already written: skip
      emit(span.start);
      const parent = stack[stack.length - 1];
      const end = Math.min(span.end, parent.end);
      const mark = makeMark(span.result, select);
      parent.node.append(mark);
      stack.push({ node: mark, end });
      if (!marks.has(span.result.id)) marks.set(span.result.id, mark);
    }
    while (stack.length > 1) {
      emit(stack[stack.length - 1].end);
      stack.pop();
    }
    emit(chars.length);
    return marks;
  }

  function describe(result) {
    const status = statusOf(result);
    const kind = result.type === "quote" ? "quotation" : "citation";
    const message = (result.verdict && result.verdict.message) || "";
    return LABEL[status] + " " + kind + (message ? ": " + message : "");
  }

  function makeMark(result, select) {
    const status = statusOf(result);
    const mark = el("mark", {
      className: "cv-mark",
      "data-result-id": result.id,
      "data-status": status,
      "data-type": result.type,
      tabindex: "0",
      role: "button",
      "aria-label": describe(result),
      title: describe(result),
    });
    mark.addEventListener("click", (event) => {
      event.stopPropagation();
      select(result.id, false);
    });
    mark.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        select(result.id, true);
      }
    });
    return mark;
  }

  // --- summary, problem list, details -------------------------------------------------

  function renderSummary(node, response) {
    const results = response.results || [];
    const summary = response.summary || {};
    const counts = { critical: 0, warning: 0, verified: 0 };
    for (const r of results) counts[statusOf(r)] += 1;
    node.replaceChildren();
    node.setAttribute("data-total", String(results.length));
    node.setAttribute("data-status", summary.overallStatus || (counts.critical ? "critical" : counts.warning ? "warning" : "verified"));
    const fully = summary.is_fully_verified === true || (results.length > 0 && counts.verified === results.length && summary.is_fully_verified !== false);
    node.append(
      el("p", { className: "cv-verdict", "data-fully-verified": fully ? "true" : "false" },
        fully ? ICON.verified + " Fully verified" : ICON.warning + " Not fully verified"),
    );
    const list = el("ul", { className: "cv-counts" });
    for (const status of ["critical", "warning", "verified"]) {
      list.append(el("li", { "data-status": status, "data-count": counts[status] },
        ICON[status] + " " + counts[status] + " " + LABEL[status]));
    }
    list.append(el("li", { "data-count": results.length }, results.length + " in all"));
    node.append(list);
  }

  function renderProblems(node, results, select) {
    node.replaceChildren();
    const ordered = results
      .map((r, index) => ({ r, index }))
      .filter(({ r }) => statusOf(r) !== "verified")
      .sort((x, y) => RANK[statusOf(x.r)] - RANK[statusOf(y.r)] || x.index - y.index);
    if (!ordered.length) {
      node.append(el("li", { className: "cv-none" }, "No problems found."));
      return;
    }
    for (const { r } of ordered) {
      const status = statusOf(r);
      const text = (r.position && r.position.text) || (r.citation && r.citation.raw) || r.id;
      const button = el("button", { type: "button", className: "cv-problem", "data-status": status, "data-result-id": r.id },
        el("span", { className: "cv-badge", "data-status": status }, ICON[status] + " " + LABEL[status]),
        " ",
        el("span", { className: "cv-problem-text" }, text),
        el("span", { className: "cv-problem-message" }, (r.verdict && r.verdict.message) || ""),
      );
      button.addEventListener("click", () => select(r.id, true, true));
      node.append(el("li", null, button));
    }
  }

  function comparisonTable(comparisons) {
    const table = el("table", { className: "cv-comparisons" },
      el("caption", null, "What was cited against what was found"),
      el("thead", null, el("tr", null,
        el("th", { scope: "col" }, "Attribute"),
        el("th", { scope: "col" }, "Cited"),
        el("th", { scope: "col" }, "Found"),
        el("th", { scope: "col" }, "Agrees"))));
    const body = el("tbody");
    for (const c of comparisons) {
      body.append(el("tr", { "data-match": c.match ? "true" : "false" },
        el("th", { scope: "row" }, c.attribute || ""),
        el("td", null, c.cited === undefined || c.cited === null ? "" : String(c.cited)),
        el("td", null, c.found === undefined || c.found === null ? "" : String(c.found)),
        el("td", null, c.match ? ICON.verified + " yes" : ICON.critical + " no")));
    }
    table.append(body);
    return table;
  }

  function authorityBlock(opinion) {
    const block = el("div", { className: "cv-authority" }, el("h4", null, "Authority found"));
    const parts = [];
    if (opinion.caseName) parts.push(opinion.caseName);
    if (Array.isArray(opinion.citations) && opinion.citations.length) parts.push(opinion.citations.join(", "));
    const court = opinion.court && opinion.court.name;
    const tail = [court, opinion.year].filter(Boolean).join(", ");
    block.append(el("p", null, parts.join(", ") + (tail ? " (" + tail + ")" : "")));
    const docs = Array.isArray(opinion.documents) ? opinion.documents : [];
    const links = el("ul", { className: "cv-links" });
    for (const doc of docs) {
      const url = humanUrl(doc && doc.url);
      if (!url) continue;
      links.append(el("li", null, el("a", { href: url, target: "_blank", rel: "noopener noreferrer" },
        "Read it" + (doc.provider ? " on " + doc.provider : ""))));
    }
    if (links.childElementCount) block.append(links);
    return block;
  }

  function quoteBlock(quote) {
    const block = el("div", { className: "cv-quote" }, el("h4", null, "The quotation"));
    const asQuoted = words(quote.snippet);
    if (typeof quote.passage === "string" && quote.passage) {
      const passage = words(quote.passage);
      const diff = wordDiff(asQuoted, passage);
      block.append(el("p", { className: "cv-help" }, "Words that differ are marked."));
      block.append(el("p", { className: "cv-diff-label" }, "As quoted in the brief:"));
      block.append(diffLine(asQuoted, diff && diff[0], "del", "not in the authority"));
      block.append(el("p", { className: "cv-diff-label" }, "The authority's words:"));
      block.append(diffLine(passage, diff && diff[1], "ins", "the authority's word"));
    } else if (quote.snippet) {
      block.append(el("p", { className: "cv-diff-label" }, "As quoted in the brief:"));
      block.append(el("p", { className: "cv-diff" }, quote.snippet));
    }
    return block;
  }

  function renderDetail(body, result, byId, select) {
    body.replaceChildren();
    const status = statusOf(result);
    body.setAttribute("data-result-id", result.id);
    body.append(el("p", { className: "cv-badge", "data-status": status }, ICON[status] + " " + LABEL[status] +
      (result.verdict && result.verdict.outcome ? " (" + result.verdict.outcome + ")" : "")));
    if (result.position && result.position.text) {
      body.append(el("p", { className: "cv-detail-text" }, result.position.text));
    }
    if (result.verdict && result.verdict.message) body.append(el("p", null, result.verdict.message));
    if (result.citationId) {
      const target = byId.get(result.citationId);
      const label = target ? (target.position && target.position.text) || (target.citation && target.citation.raw) || target.id : result.citationId;
      const button = el("button", { type: "button", className: "cv-link-button", "data-citation-id": result.citationId }, label);
      button.addEventListener("click", () => select(result.citationId, true, true));
      body.append(el("p", { className: "cv-attributed" },
        result.type === "quote" ? "Attributed to: " : "Short form of: ", button));
    }
    const comparisons = result.evidence && Array.isArray(result.evidence.comparisons) ? result.evidence.comparisons : [];
    if (comparisons.length) body.append(comparisonTable(comparisons));
    if (result.quote) body.append(quoteBlock(result.quote));
    if (result.opinion) body.append(authorityBlock(result.opinion));
  }

  // --- the request ---------------------------------------------------------------------

  function extension(name) {
    const dot = name.lastIndexOf(".");
    return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
  }

  async function errorMessage(response) {
    try {
      const body = await response.json();
      const error = body && body.error;
      if (error && error.message) {
        const details = Array.isArray(error.details) ? error.details.map((d) => (d.field ? d.field + ": " : "") + d.message).join("; ") : "";
        return error.message + (details ? " (" + details + ")" : "");
      }
    } catch (_) { /* not JSON */ }
    return "the server answered " + response.status;
  }

  function start() {
    const local = document.body.getAttribute("data-mode") === "local";
    const brief = $("brief");
    const keyField = $("key");
    const check = $("check");
    const status = $("status");
    const error = $("error");
    const fileInput = $("file");
    const fileName = $("file-name");
    const clearFile = $("clear-file");
    const drop = $("drop");
    const results = document.getElementById("cv-results");
    let pendingFile = null;
    let marks = new Map();
    let byId = new Map();
    let current = null;

    if (local) {
      $("key-row").hidden = true;
      $("local-note").hidden = false;
    } else {
      try {
        keyField.value = sessionStorage.getItem(KEY_STORE) || "";
      } catch (_) { /* storage may be disabled */ }
      keyField.addEventListener("change", () => {
        try {
          sessionStorage.setItem(KEY_STORE, keyField.value.trim());
        } catch (_) { /* ignore */ }
      });
    }

    function showError(message) {
      error.textContent = message;
      error.hidden = !message;
    }

    function select(id, focusMark, fromList) {
      const result = byId.get(id);
      if (!result) return;
      for (const mark of document.querySelectorAll(".cv-mark[aria-pressed]")) mark.removeAttribute("aria-pressed");
      const mark = marks.get(id);
      if (mark) {
        mark.setAttribute("aria-pressed", "true");
        if (focusMark || fromList) {
          mark.scrollIntoView({ block: "center" });
        }
      }
      $("detail-empty").hidden = true;
      renderDetail($("detail-body"), result, byId, select);
      current = id;
      if (fromList && mark) mark.focus();
      else if (focusMark) $("detail").focus();
    }

    function show(response, sentText) {
      const list = Array.isArray(response.results) ? response.results : [];
      const text = response.document && typeof response.document.text === "string" ? response.document.text : sentText;
      byId = new Map(list.map((r) => [r.id, r]));
      marks = renderText($("text"), text || "", list, select);
      renderSummary($("summary"), response);
      renderProblems($("problems"), list, select);
      $("detail-body").replaceChildren();
      $("detail-empty").hidden = false;
      current = null;
      results.hidden = false;
      results.scrollIntoView({ block: "start" });
      const problems = list.filter((r) => statusOf(r) !== "verified").length;
      status.textContent = "Checked: " + list.length + " citations and quotations, " + problems + " need attention.";
    }

    async function run() {
      showError("");
      const headers = {};
      if (!local) {
        const key = keyField.value.trim();
        if (!key) {
          showError("Enter your API key first.");
          keyField.focus();
          return;
        }
        try {
          sessionStorage.setItem(KEY_STORE, key);
        } catch (_) { /* ignore */ }
        headers.Authorization = "Bearer " + key;
      }
      let body;
      let sentText = null;
      if (pendingFile) {
        headers["Content-Type"] = TYPES[extension(pendingFile.name)] || pendingFile.type || "application/octet-stream";
        body = pendingFile;
      } else {
        sentText = brief.value;
        if (!sentText.trim()) {
          showError("Paste a brief or choose a file first.");
          brief.focus();
          return;
        }
        headers["Content-Type"] = "application/json";
        body = JSON.stringify({ text: sentText });
      }
      check.disabled = true;
      status.textContent = "Checking\u2026";
      try {
        const response = await fetch(ENDPOINT, { method: "POST", headers, body, credentials: "omit", cache: "no-store" });
        if (!response.ok) {
          status.textContent = "";
          showError("Not checked: " + (await errorMessage(response)));
          return;
        }
        show(await response.json(), sentText);
      } catch (failure) {
        status.textContent = "";
        showError("Not checked: the server could not be reached (" + failure.message + ").");
      } finally {
        check.disabled = false;
      }
    }

    async function take(file) {
      if (!file) return;
      const ext = extension(file.name);
      if (!TYPES[ext]) {
        showError("Only .txt, .pdf and .docx files can be checked.");
        return;
      }
      showError("");
      if (ext === "txt") {
        pendingFile = null;
        brief.value = await file.text();
        fileName.hidden = true;
        clearFile.hidden = true;
      } else {
        pendingFile = file;
        fileName.textContent = "File to check: " + file.name;
        fileName.hidden = false;
        clearFile.hidden = false;
      }
      await run();
    }

    check.addEventListener("click", run);
    clearFile.addEventListener("click", () => {
      pendingFile = null;
      fileInput.value = "";
      fileName.hidden = true;
      clearFile.hidden = true;
      brief.focus();
    });
    brief.addEventListener("input", () => {
      if (pendingFile) clearFile.click();
    });
    fileInput.addEventListener("change", () => take(fileInput.files && fileInput.files[0]));
    for (const name of ["dragenter", "dragover"]) {
      drop.addEventListener(name, (event) => {
        event.preventDefault();
        drop.classList.add("cv-dragging");
      });
    }
    drop.addEventListener("dragleave", () => drop.classList.remove("cv-dragging"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      drop.classList.remove("cv-dragging");
      const files = event.dataTransfer && event.dataTransfer.files;
      take(files && files[0]);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && current) {
        const mark = marks.get(current);
        if (mark) mark.focus();
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
