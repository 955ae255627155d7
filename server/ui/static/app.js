// The Config UI: signs in, lists and shows Configs, edits spec.raw through the same JSON
// API kubectl uses. Text reaches the page only through textContent, never as markup.
"use strict";

const API = "/apis/management.platform.sh/v1/configs";
const KEY = "syncpatch.token";
const MASK = "********";
const $ = (id) => document.getElementById(id);

const state = { token: null, fromLogin: false, user: "", role: "", canEdit: false,
                lockReason: "", current: null, baseRaw: "", checkTimer: null };

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function show(id, on) { $(id).hidden = !on; }

function notice(text) {
  $("notice").textContent = text || "";
  show("notice", Boolean(text));
}

async function call(method, path, body, contentType) {
  const headers = { "Accept": "application/json" };
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  const init = { method, headers, credentials: "omit", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = contentType || "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, code: 0, body: { message: "the server cannot be reached" } };
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (response.status === 401 && state.token && !path.startsWith("/auth/login")) {
    signedOut("Your session has ended; sign in again.");
  }
  return { ok: response.ok, code: response.status, body: data || {} };
}

function message(result) {
  return (result.body && result.body.message) || ("the server answered " + result.code);
}

// ---- signing in ------------------------------------------------------------------------
async function useToken(token, fromLogin) {
  state.token = token;
  state.fromLogin = fromLogin;
  const who = await call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                         { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" });
  if (!who.ok) {
    state.token = null;
    return message(who);
  }
  const info = (who.body.status || {}).userInfo || {};
  state.user = info.username || "";
  state.role = (info.groups || []).includes("syncpatch:admins") ? "admin" : "viewer";
  sessionStorage.setItem(KEY, JSON.stringify({ token, fromLogin }));
  await refreshPermission();
  $("who-name").textContent = state.user;
  $("who-role").textContent = state.role;
  show("who", true);
  show("signin", false);
  show("app", true);
  await loadList();
  route();
  return "";
}

async function refreshPermission() {
  const review = await call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
    apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview",
    spec: { resourceAttributes: { verb: "patch", group: "management.platform.sh", resource: "configs" } },
  });
  const status = review.body.status || {};
  state.canEdit = review.ok && status.allowed === true;
  state.lockReason = state.canEdit ? "" : (status.reason || message(review));
}

$("password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("signin-error").textContent = "";
  const username = $("username").value.trim();
  const password = $("password").value;
  if (!username || !password) {
    $("signin-error").textContent = "Enter both the username and the password.";
    return;
  }
  const result = await call("POST", "/auth/login", { username, password });
  $("password").value = "";
  if (!result.ok) {
    $("signin-error").textContent = "Sign-in failed: " + message(result);
    return;
  }
  const problem = await useToken(result.body.token, true);
  if (problem) $("signin-error").textContent = "Sign-in failed: " + problem;
});

$("key-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("signin-error").textContent = "";
  const key = $("access-key").value.trim();
  $("access-key").value = "";
  if (!key) {
    $("signin-error").textContent = "Enter an access key.";
    return;
  }
  const problem = await useToken(key, false);
  if (problem) $("signin-error").textContent = "The access key was not accepted: " + problem;
});

$("sign-out").addEventListener("click", async () => {
  const parts = (state.token || "").split(".");
  if (state.fromLogin && parts.length === 3) {
    await call("DELETE", "/auth/keys/" + encodeURIComponent(parts[1]));  // a login key dies with the session
  }
  signedOut("Signed out.");
});

function signedOut(text) {
  state.token = null;
  state.current = null;
  sessionStorage.removeItem(KEY);
  show("who", false);
  show("app", false);
  show("signin", true);
  notice(text);
  $("username").focus();
}

// ---- the list --------------------------------------------------------------------------
async function loadList() {
  const result = await call("GET", API);
  const list = $("config-list");
  list.replaceChildren();
  if (!result.ok) {
    list.append(el("li", "Cannot list Configs: " + message(result), "error"));
    return;
  }
  for (const item of result.body.items || []) {
    const name = item.metadata.name;
    const link = el("a", name);
    link.href = "#/configs/" + encodeURIComponent(name);
    if (state.current && state.current.metadata.name === name) link.setAttribute("aria-current", "page");
    const li = el("li");
    li.append(link);
    const host = (item.status || {}).platformHost;
    if (host) li.append(el("span", " " + host, "sub"));
    list.append(li);
  }
  if (!list.children.length) list.append(el("li", "No Configs yet."));
}

$("refresh").addEventListener("click", loadList);
window.addEventListener("hashchange", route);

function route() {
  const match = location.hash.match(/^#\/configs\/(.+)$/);
  if (state.token && match) openConfig(decodeURIComponent(match[1]));
}

// ---- one Config ------------------------------------------------------------------------
async function openConfig(name, reveal) {
  const result = await call("GET", API + "/" + encodeURIComponent(name) + (reveal ? "?reveal=true" : ""));
  if (!result.ok) {
    notice("Cannot read Config " + name + ": " + message(result));
    return;
  }
  notice("");
  state.current = result.body;
  state.baseRaw = (result.body.spec || {}).raw || "";
  $("detail-title").textContent = "Config " + name;
  renderMeta(result.body);
  renderStatus(result.body.status || {});
  $("raw").value = state.baseRaw;
  clearProblems();
  $("edit-result").textContent = "";
  show("latest", false);
  show("latest-box", false);
  await refreshPermission();
  applyPermission();
  show("detail", true);
  await loadList();
  if (!reveal) $("detail-title").focus();
}

function renderMeta(obj) {
  const meta = obj.metadata || {};
  const dl = $("meta");
  dl.replaceChildren();
  const rows = [["resourceVersion", meta.resourceVersion], ["generation", meta.generation],
                ["created", meta.creationTimestamp], ["uid", meta.uid]];
  for (const [key, value] of rows) {
    if (value === undefined) continue;
    dl.append(el("dt", key), el("dd", value));
  }
}

function renderStatus(status) {
  const box = $("status");
  box.replaceChildren();
  const keys = Object.keys(status);
  if (!keys.length) box.append(el("p", "The status is empty."));
  for (const key of keys) {
    const details = el("details");
    details.open = true;
    const summary = el("summary", key);
    details.append(summary, renderValue(status[key]));
    box.append(details);
  }
}

function renderValue(value) {
  if (Array.isArray(value)) {
    if (!value.length) return el("span", "[]", "scalar");
    const ol = el("ol", null, "tree");
    ol.start = 0;
    for (const item of value) {
      const li = el("li");
      li.append(renderValue(item));
      ol.append(li);
    }
    return ol;
  }
  if (value !== null && typeof value === "object") {
    const dl = el("dl", null, "tree");
    for (const [key, child] of Object.entries(value)) {
      dl.append(el("dt", key));
      const dd = el("dd");
      dd.append(renderValue(child));
      dl.append(dd);
    }
    return dl;
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return el("span", text, value === MASK ? "scalar masked" : "scalar");
}

function applyPermission() {
  const locked = !state.canEdit;
  $("raw").readOnly = locked;
  $("raw").setAttribute("aria-readonly", String(locked));
  for (const id of ["check", "save", "reveal", "latest"]) $(id).disabled = locked;
  $("locked").textContent = locked ? "Editing is turned off: " + state.lockReason + "." : "";
  show("locked", locked);
  const hasMask = $("raw").value.includes(MASK);
  show("reveal", !locked && state.role === "admin" && hasMask);
}

// ---- editing ---------------------------------------------------------------------------
function clearProblems() {
  $("raw-errors").replaceChildren();
  $("raw").removeAttribute("aria-invalid");
}

function located(text) {
  const match = /\(line (\d+), column (\d+)\)\s*$/.exec(text || "");
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}

function showProblems(causes) {
  clearProblems();
  const list = $("raw-errors");
  for (const cause of causes) {
    const where = located(cause.message);
    const field = (cause.field || "").replace(/^spec\.raw\.?/, "") || "spec.raw";
    const text = cause.message.replace(/\s*\(line \d+, column \d+\)\s*$/, "");
    const li = el("li");
    if (where) {
      const jump = el("button", "Line " + where.line + ", column " + where.column, "jump");
      jump.type = "button";
      jump.setAttribute("aria-label", "Go to line " + where.line + ", column " + where.column);
      jump.addEventListener("click", () => moveTo(where.line, where.column));
      li.append(jump, el("span", " " + field + ": " + text));
    } else {
      li.append(el("span", field + ": " + text));
    }
    list.append(li);
  }
  if (causes.length) $("raw").setAttribute("aria-invalid", "true");
}

function moveTo(line, column) {
  const area = $("raw");
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  area.focus();
  area.setSelectionRange(offset, offset);
}

function patchBody() {
  return { metadata: { resourceVersion: state.current.metadata.resourceVersion },
           spec: { raw: $("raw").value } };
}

async function submit(dryRun) {
  if (!state.current) return null;  // the server, not the page, decides whether a write is allowed
  const name = state.current.metadata.name;
  const query = "?fieldManager=syncpatch-ui" + (dryRun ? "&dryRun=All" : "");
  return call("PATCH", API + "/" + encodeURIComponent(name) + query, patchBody(),
              "application/merge-patch+json");
}

function report(result, dryRun) {
  const out = $("edit-result");
  show("latest", false);
  if (result.ok) {
    clearProblems();
    out.textContent = dryRun ? "No problems found. Nothing has been saved yet." : "";
    return true;
  }
  if (result.code === 422) {
    const causes = ((result.body.details || {}).causes) || [{ field: "spec.raw", message: message(result) }];
    showProblems(causes);
    out.textContent = "Not saved: " + causes.length + " problem" + (causes.length === 1 ? "" : "s") +
                      " in the text (listed beside it).";
    return false;
  }
  if (result.code === 409) {
    out.textContent = "Not saved: this Config was changed by someone else after you opened it " +
      "(you edited resourceVersion " + state.current.metadata.resourceVersion + "). Your text is " +
      "kept in the box; show the latest version, merge your change into it, and save again.";
    show("latest", true);
    return false;
  }
  if (result.code === 403) {
    state.canEdit = false;
    state.lockReason = message(result);
    applyPermission();
  }
  out.textContent = "Not saved: " + message(result);
  return false;
}

$("check").addEventListener("click", async () => {
  const result = await submit(true);
  if (result) report(result, true);
});

$("edit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearTimeout(state.checkTimer);
  state.submits = (state.submits || 0) + 1;  // a live check still in flight must not report over this
  const result = await submit(false);
  if (!result || !report(result, false)) return;
  const name = state.current.metadata.name;
  await openConfig(name);
  $("edit-result").textContent = "Saved: resourceVersion " + state.current.metadata.resourceVersion + ".";
});

$("raw").addEventListener("input", () => {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(async () => {
    const text = $("raw").value, submits = state.submits || 0;
    const result = await submit(true);
    // a late reply about text that is no longer in the box (or older than a save) is dropped
    if (result && result.code !== 409 && $("raw").value === text && (state.submits || 0) === submits) {
      report(result, true);
    }
  }, 700);
});

$("latest").addEventListener("click", async () => {
  const name = state.current.metadata.name;
  const result = await call("GET", API + "/" + encodeURIComponent(name));
  if (!result.ok) {
    $("edit-result").textContent = "Cannot read the latest version: " + message(result);
    return;
  }
  state.current = result.body;  // the next save is checked against this version
  renderMeta(result.body);
  renderStatus(result.body.status || {});
  $("latest-rv").textContent = result.body.metadata.resourceVersion;
  $("latest-raw").textContent = (result.body.spec || {}).raw || "";
  show("latest-box", true);
  show("latest", false);
  $("edit-result").textContent = "The latest version is shown below your text; your text was not changed. " +
                                 "Saving now replaces the latest version.";
  $("latest-raw").focus();
});

$("reveal").addEventListener("click", async () => {
  if ($("raw").value !== state.baseRaw && !window.confirm("Replace your unsaved edits with the stored text?")) return;
  await openConfig(state.current.metadata.name, true);
  $("raw").focus();
});

// ---- start -----------------------------------------------------------------------------
(async function start() {
  const saved = sessionStorage.getItem(KEY);
  if (saved) {
    try {
      const { token, fromLogin } = JSON.parse(saved);
      if (!(await useToken(token, fromLogin))) return;
    } catch (err) { /* fall through to the sign-in form */ }
  }
  signedOut("");
})();
