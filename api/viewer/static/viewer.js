// The Ludex referee's viewer: a game's timeline, the board at each event, the rule that made
// it with its pinned source text, and the audit. Plain JavaScript, no outside assets: every
// request goes to the Ludex server that served this page (BASE/data and BASE/step).
"use strict";

const BASE = document.body.dataset.base;
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token");
const HEADERS = TOKEN ? { Authorization: "Bearer " + TOKEN } : {};
const $ = (id) => document.getElementById(id);
let data = null;
let at = 1;
let seat = "spectator";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function getJSON(path) {
  const response = await fetch(BASE + path, { headers: HEADERS });
  const body = await response.json();
  if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
  return body;
}

function summary(e) {
  const b = e.body || {};
  if (e.kind === "header") return `${b.ruleset} · ${b.seats} seats`;
  if (e.kind === "reveal") return `seed revealed · ${b.outcome ? b.outcome.kind : ""}`;
  if (e.kind === "move") {
    const args = Object.entries(b.args || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
    return `seat ${b.seat}: ${b.move} ${args}`;
  }
  if (e.kind === "chance") {
    const shown = b.outcome && b.outcome.length ? b.outcome.join(", ") : `${b.hidden || "?"} hidden`;
    return `${b.node} ${b.zone} → ${shown}`;
  }
  if (e.kind === "show") return `${b.zone} shown: ${(b.outcome || []).join(", ")}`;
  // sealed moves (api/app/sealed.py): who chose, and what only once opened or the caller's own
  if (e.kind === "commit") return b.move ? `seat ${b.seat} sealed: ${b.move} ${JSON.stringify(b.args || {})}` : `seat ${b.seat} chose (sealed)`;
  if (e.kind === "opening") return `seat ${b.seat} opened event ${b.commit}: ${b.move} ${JSON.stringify(b.args || {})}`;
  return "";
}

function renderAudit() {
  const a = data.audit;
  const box = $("audit");
  const failed = a.failure;
  box.className = "audit " + (failed ? "failed" : a.verified ? "verified" : "unverified");
  $("verdict").textContent = failed
    ? `Audit FAILED at event ${failed.version ?? "?"} [${failed.check}]: ${failed.message}`
    : a.verified ? "Audit: verified, a finished game" : `Audit: not fully verified (not checked: ${a.skipped.join(", ")})`;
  $("game-title").textContent = `${data.header.ruleset} · game ${data.game_id} · ${data.events.length} events`;
  const list = $("checks");
  list.replaceChildren(...a.checks.map((c) => el("li", { class: c.status, title: c.detail, "data-check": c.name },
    `${c.name}: ${c.detail}`)));
  const reveal = data.seed === null ? "not revealed yet (game running)" : JSON.stringify(data.seed);
  $("seed").textContent = `seed commitment ${data.header.seed_commitment} · reveal ${reveal}`;
}

function renderTimeline() {
  const failing = data.audit.failure && data.audit.failure.version;
  $("events").replaceChildren(...data.events.map((e) => {
    const li = el("li", { id: `ev-${e.version}`, "data-version": e.version },
      el("span", { class: "kind" }, `${e.version} ${e.kind}`), " ", summary(e));
    if (e.version === failing) li.classList.add("failed");
    li.addEventListener("click", () => go(e.version));
    return li;
  }));
  $("jump").max = data.events.length;
}

function renderSeats() {
  const options = [["spectator", "spectator"]];
  if (data.any_seat) {
    for (let s = 0; s < data.header.seats; s++) options.push([String(s), `seat ${s}`]);
    options.push(["all", "everything (all seats)"]);
  } else if (data.my_seat !== null) {
    options.push([String(data.my_seat), `seat ${data.my_seat} (you)`]);
  }
  $("seat").replaceChildren(...options.map(([v, label]) => el("option", { value: v }, label)));
  seat = data.any_seat ? "all" : data.my_seat !== null ? String(data.my_seat) : "spectator";
  $("seat").value = seat;
}

function zoneGroups(zones) {
  const groups = new Map();
  for (const [key, zone] of Object.entries(zones)) {
    const dot = key.indexOf(".");
    const name = dot > 0 ? key.slice(0, dot) : key.replace(/\[\d+\]$/, "");
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push([key, zone]);
  }
  return groups;
}

function renderZone(key, zone) {
  const div = el("div", { class: "zone", "data-zone": key }, el("span", { class: "key" }, key));
  if (zone.components) {
    div.append(el("span", { class: "count" }, `(${zone.count})`));
    const chips = el("div", { class: "chips" });
    for (const c of zone.components) {
      const attrs = Object.entries(c).filter(([k]) => k !== "name" && k !== "kind")
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
      chips.append(el("span", { class: "chip", title: `${c.kind} ${attrs}` }, c.name));
    }
    div.append(chips);
  } else {
    div.classList.add("hidden");
    div.append(el("span", { class: "count" }, zone.count === null ? "hidden" : `${zone.count} hidden`));
  }
  return div;
}

function renderBoard(step) {
  const v = step.view;
  let turn;
  if (step.terminal) turn = `Game over: ${v.outcome ? v.outcome.kind + " · winners " + JSON.stringify(v.outcome.winners) : ""}`;
  else if (!step.decision) turn = "The rules are resolving this move (no decision pending)";
  else turn = `Seat ${step.decision.seats.join(", ")} to act · step ${step.decision.step}`;
  $("turn").textContent = `After event ${step.at}: ${turn}`;
  $("zones").replaceChildren(...[...zoneGroups(v.zones)].map(([name, zones]) =>
    el("div", { class: "group" }, el("h4", {}, name), ...zones.map(([k, z]) => renderZone(k, z)))));
  const ents = Object.entries(v.entities || {});
  $("entities").replaceChildren(...(ents.length ? [el("h3", {}, "Entities"), el("table", {}, ...ents.map(([name, f]) =>
    el("tr", {}, el("td", {}, name), el("td", {}, JSON.stringify(f)))))] : []));
  const vars = Object.entries(v.vars || {});
  $("vars").replaceChildren(...(vars.length ? [el("h3", {}, "Variables"), el("table", {}, ...vars.map(([name, x]) =>
    el("tr", {}, el("td", {}, name), el("td", {}, JSON.stringify(x)))))] : []));
  const legal = step.legal_moves || [];
  $("legal").replaceChildren(...(legal.length ? legal.map((m) =>
    el("li", {}, `${m.seat !== undefined ? "seat " + m.seat + ": " : ""}${m.name} ${JSON.stringify(m.args)}`))
    : [el("li", {}, step.decision ? "none for this view (choose the acting seat)" : "none (no decision pending)")]));
}

function sourceText(source) {
  const m = /^(.*):(\d+)$/.exec(source || "");
  if (!m || !(m[1] in data.sources)) return "";
  const lines = data.sources[m[1]].split("\n");
  const first = Number(m[2]) - 1;
  const indent = (s) => s.length - s.trimStart().length;
  const out = [lines[first]];
  for (let i = first + 1; i < lines.length && out.length < 14; i++) {
    if (lines[i].trim() && indent(lines[i]) <= indent(lines[first])) break;
    out.push(lines[i]);
  }
  return out.map((line, k) => `${String(first + 1 + k).padStart(4)} │ ${line}`).join("\n");
}

function renderEvent(e) {
  $("event-title").textContent = `Event ${e.version} · ${e.kind}`;
  const b = e.body || {};
  $("event-rule").textContent = b.rule ? `${b.rule} — ${b.source}` : e.kind === "header" ? "the game's header: pinned rules and seed commitment" : "";
  $("event-source").textContent = b.source ? sourceText(b.source) : "";
  const shown = { ...e };
  if (e.kind === "header") shown.body = { ...b, sources: (b.sources || []).map((s) => `${s[0]} (${s[1].length} characters)`) };
  $("event-body").textContent = JSON.stringify(shown, null, 2);
}

async function go(version) {
  const last = data.events.length;
  at = Math.max(1, Math.min(last, version));
  $("jump").value = at;
  document.querySelectorAll("#events li.current").forEach((li) => li.classList.remove("current"));
  const item = $(`ev-${at}`);
  item.classList.add("current");
  item.scrollIntoView({ block: "nearest" });
  renderEvent(data.events[at - 1]);
  const requested = at;
  try {
    const step = await getJSON(`/step?at=${at}&seat=${encodeURIComponent(seat)}`);
    if (requested === at) renderBoard(step);
  } catch (err) {
    $("turn").textContent = `Event ${at} cannot be replayed: ${err.message}`;
    $("zones").replaceChildren();
  }
  document.body.dataset.at = String(at);
}

async function main() {
  data = await getJSON("/data");
  renderAudit();
  renderTimeline();
  renderSeats();
  $("first").onclick = () => go(1);
  $("back").onclick = () => go(at - 1);
  $("forward").onclick = () => go(at + 1);
  $("last").onclick = () => go(data.events.length);
  $("jump").onchange = () => go(Number($("jump").value));
  $("seat").onchange = () => { seat = $("seat").value; go(at); };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") go(at + 1);
    if (ev.key === "ArrowLeft") go(at - 1);
  });
  const failing = data.audit.failure && data.audit.failure.version;
  await go(failing || data.events.length);
  if (failing) $(`ev-${failing}`).scrollIntoView({ block: "center" });
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  $("verdict").textContent = `The viewer could not load this game: ${err.message}`;
  $("audit").className = "audit failed";
});
