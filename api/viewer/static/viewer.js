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
let ending = null;
let before = null; // the board one event earlier, to mark what the event touched

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

// A value in words, never JSON: names and numbers as they are, lists joined, maps as "key value".
function valueText(v) {
  if (v === null || v === undefined) return "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(", ") : "nothing";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${valueText(x)}`).join("; ");
  return String(v);
}

function summary(e) {
  const told = (data.texts || [])[data.events.indexOf(e)];
  if (told) return told;
  const b = e.body || {};
  if (e.kind === "header") return `${b.ruleset} · ${b.seats} seats`;
  if (e.kind === "reveal") return `seed revealed · ${b.outcome ? b.outcome.kind : ""}`;
  if (e.kind === "move") {
    const args = Object.entries(b.args || {}).map(([k, v]) => `${k} ${valueText(v)}`).join(", ");
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
    const text = summary(e);
    const li = el("li", { id: `ev-${e.version}`, "data-version": e.version, role: "option", tabindex: "-1",
      "aria-selected": "false", title: text },
      el("span", { class: "kind" }, `${e.version} ${e.kind}`), " ", el("span", { class: "text" }, text));
    if (e.version === failing) li.classList.add("failed");
    li.addEventListener("click", () => go(e.version));
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(e.version); } });
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

// Each visible component of a view with its zone's key: [key, component] pairs.
function visibleComponents(view) {
  return Object.entries((view && view.zones) || {}).flatMap(([key, zone]) => (zone.components || []).map((c) => [key, c]));
}

// Where each visible component lies, and its marks: what an event changed shows as a difference.
function places(view) {
  return new Map(visibleComponents(view).map(([key, c]) => [c.name, `${key}|${valueText(c.marks || null)}`]));
}

// A chip's colour: the rules' display hint for one of its attribute values (`display ENUM colours`),
// else an attribute whose value the browser reads as a colour.
function chipColour(c) {
  const hinted = (data.display && data.display.colours) || {};
  for (const [k, v] of Object.entries(c)) {
    if (k !== "name" && k !== "kind" && typeof v === "string" && hinted[v]) return hinted[v];
  }
  for (const [k, v] of Object.entries(c)) {
    if (k !== "name" && k !== "kind" && typeof v === "string" && /^[a-z]+$/.test(v) && CSS.supports("color", v)) return v;
  }
  return null;
}

// The words on a chip: the attributes the rules name (`display KIND label a, b`), else the component's name.
function chipLabel(c) {
  const attrs = ((data.display && data.display.labels) || {})[c.kind];
  return attrs && attrs.length ? attrs.map((a) => valueText(a === "name" ? c.name : c[a])).join(" ") : c.name;
}

// A zone's layout from the rules' hint (`display zone NAME as fan`), by the zone's own name.
function zoneLayout(key) {
  const name = key.replace(/\[\d+\]$/, "").split(".").pop();
  return ((data.display && data.display.layouts) || {})[name] || null;
}

// Each visible component's marks in words (a mark that is a list reads as its items, spaced).
function markTexts(c) {
  return (c.marks || []).map((m) => (Array.isArray(m) ? m.map(valueText).join(" ") : valueText(m)));
}

function marksBy(view) {
  return new Map(visibleComponents(view).map(([, c]) => [c.name, markTexts(c)]));
}

// A chip's marks, under its label; the marks this event put on it are set apart (`.new`), so a
// referee reads what a move told about each component it marked, not only that it marked it.
function marksCaption(c, old) {
  const texts = markTexts(c);
  if (!texts.length) return null;
  const before = old.get(c.name) || [];
  return el("span", { class: "marks" }, ...texts.map((t) =>
    el("span", { class: before.includes(t) ? "mark" : "mark new" }, t)));
}

function renderZone(key, zone, touched, old) {
  const layout = zoneLayout(key);
  const div = el("div", { class: "zone", "data-zone": key }, el("span", { class: "key" }, key));
  if (layout) div.dataset.layout = layout;
  if (zone.components) {
    div.append(el("span", { class: "count" }, `(${zone.count})`));
    const chips = el("div", { class: "chips" });
    if (zone.components.length > 1) chips.dataset.more = `+${zone.components.length - 1}`;
    for (const c of zone.components) {
      const attrs = Object.entries(c).filter(([k]) => k !== "name" && k !== "kind")
        .map(([k, v]) => `${k} ${valueText(v)}`).join(", ");
      const caption = marksCaption(c, old);
      const chip = el("span", { class: "chip", title: `${c.name} (${c.kind}: ${attrs})`, "data-name": c.name },
        chipLabel(c), ...(caption ? [caption] : []));
      const colour = chipColour(c);
      if (colour) chip.style.borderLeft = `6px solid ${colour}`;
      if (touched.has(c.name)) {
        chip.classList.add("touched");
        chip.setAttribute("aria-label", `${c.name} (changed by this event)`);
      }
      chips.append(chip);
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
  if (step.terminal) turn = `Game over: ${step.ending ? step.ending.text : v.outcome ? v.outcome.reason : ""}`;
  else if (!step.decision) turn = "The rules are resolving this move (no decision pending)";
  else turn = `Seat ${step.decision.seats.join(", ")} to act · step ${step.decision.step}`;
  $("turn").textContent = `After event ${step.at}: ${turn}`;
  const now = places(v);
  const then = before ? places(before) : new Map();
  const marked = before ? marksBy(before) : marksBy(v);
  const touched = new Set([...now].filter(([name, where]) => before && then.get(name) !== where).map(([name]) => name));
  $("zones").replaceChildren(...[...zoneGroups(v.zones)].map(([name, zones]) =>
    el("div", { class: "group" }, el("h4", {}, name), ...zones.map(([k, z]) => renderZone(k, z, touched, marked)))));
  const ents = Object.entries(v.entities || {});
  $("entities").replaceChildren(...(ents.length ? [el("h3", {}, "Entities"), el("table", {}, ...ents.map(([name, f]) =>
    el("tr", {}, el("td", {}, name), el("td", {}, valueText(f)))))] : []));
  const vars = Object.entries(v.vars || {});
  $("vars").replaceChildren(...(vars.length ? [el("h3", {}, "Variables"), el("table", {}, ...vars.map(([name, x]) =>
    el("tr", {}, el("td", {}, name), el("td", {}, valueText(x)))))] : []));
  const legal = step.legal_moves || [];
  const texts = step.legal_texts || [];
  $("legal").replaceChildren(...(legal.length ? legal.map((m, i) =>
    el("li", {}, texts[i] || `seat ${m.seat}: ${m.name} ${valueText(m.args)}`))
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

// The event's details as labelled lines of words (never raw JSON).
function details(e) {
  const b = e.body || {};
  const rows = [];
  const add = (label, value) => { if (value !== undefined && value !== null && value !== "") rows.push([label, value]); };
  if (e.kind === "header") {
    add("Rules", `${b.ruleset}${(b.variants || []).length ? " with " + b.variants.join(", ") : ""}`);
    add("Seats", b.seats);
    add("Options", Object.keys(b.options || {}).length ? valueText(b.options) : "");
    add("Rule files", (b.sources || []).map((s) => s[0]).join(", "));
    add("Rules hash", b.content_hash);
    add("Seed commitment", b.seed_commitment);
    add("Created", b.created_at);
  } else if (e.kind === "reveal") {
    add("Seed", b.seed);
    add("Outcome", b.outcome ? `${b.outcome.kind}: ${b.outcome.reason}` : "");
  } else {
    add("Seat", b.seat);
    add("Move", b.move);
    // a slot whose component the move made public to this reader: its name, and the slot it was shown as
    const named = (data.named || [])[data.events.indexOf(e)] || {};
    for (const [k, v] of Object.entries(b.args || {})) add(`Argument ${k}`, k in named ? `${named[k]} (shown as ${valueText(v)})` : valueText(v));
    add("Chance node", b.node);
    add("Zone", b.zone);
    if (b.kind !== "move") add("Components", (b.outcome || []).length ? valueText(b.outcome) : b.hidden ? `${b.hidden} hidden` : "");
  }
  add("Hash", e.hash);
  return rows;
}

function renderEvent(e) {
  $("event-title").textContent = `Event ${e.version} · ${e.kind}`;
  const b = e.body || {};
  $("event-text").textContent = summary(e);
  let rule = b.rule ? `${b.rule} — ${b.source}` : "";
  let source = b.source || "";
  if (e.kind === "header") rule = "The game's header: the pinned rules and the seed commitment";
  if (e.kind === "reveal") {
    rule = ending ? `Ended by ${ending.rule} — ${ending.rule_source}${ending.citation ? " · " + ending.citation : ""}`
      : "The seed's reveal: the game is over";
    source = ending ? ending.rule_source : "";
  }
  $("event-rule").textContent = rule;
  $("event-source").textContent = source ? sourceText(source) : "";
  $("event-body").replaceChildren(...details(e).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

async function go(version) {
  const last = data.events.length;
  at = Math.max(1, Math.min(last, version));
  $("jump").value = at;
  document.querySelectorAll("#events li.current").forEach((li) => {
    li.classList.remove("current");
    li.setAttribute("aria-selected", "false");
    li.tabIndex = -1;
  });
  const item = $(`ev-${at}`);
  item.classList.add("current");
  item.setAttribute("aria-selected", "true");
  item.tabIndex = 0;
  $("events").setAttribute("aria-activedescendant", item.id);
  if (document.activeElement && document.activeElement.closest && document.activeElement.closest("#events")) item.focus();
  item.scrollIntoView({ block: "nearest" });
  renderEvent(data.events[at - 1]);
  const requested = at;
  try {
    const query = (n) => getJSON(`/step?at=${n}&seat=${encodeURIComponent(seat)}`);
    const [step, prior] = await Promise.all([query(at), at > 1 ? query(at - 1) : Promise.resolve(null)]);
    before = prior ? prior.view : null;
    if (requested === at) renderBoard(step);
  } catch (err) {
    $("turn").textContent = `Event ${at} cannot be replayed: ${err.message}`;
    $("zones").replaceChildren();
  }
  if (requested === at) document.body.dataset.at = String(at); // a later step has not overtaken this one
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
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    const keys = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 1, End: data.events.length };
    if (ev.key in keys) { ev.preventDefault(); go(keys[ev.key]); }
  });
  if (data.finished) {
    const last = await getJSON(`/step?at=${data.events.length}&seat=all`).catch(() => null);
    ending = last && last.ending;
    $("ending").textContent = ending ? `Game over: ${ending.text}` : "";
  }
  const failing = data.audit.failure && data.audit.failure.version;
  await go(failing || data.events.length);
  if (failing) $(`ev-${failing}`).scrollIntoView({ block: "center" });
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  $("verdict").textContent = `The viewer could not load this game: ${err.message}`;
  $("audit").className = "audit failed";
});
