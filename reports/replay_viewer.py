"""The replay viewer: one self-contained HTML page that steps through a game on its map.

Any game gives :func:`viewer_page` plain data (no game code here): the map as PNG bytes
with the pixel centre of every hex (``geometry`` from
:func:`simulator.engine.core.mapdraw.draw_board`), the units, and one row per event of the
replay with the position after it (``rows`` and ``frames``, see :func:`viewer_page`). The
page embeds all of it (the map as a data URI, the rows and frames as JSON, the script and
style inline): it needs no server and no network and works opened from a file.

On the page: the map with the units drawn over it on a canvas (stacks side by side,
damage, morale and close-combat markers), the current event's move trail, fire line (with
its result) or close combat; buttons and a slider for events and turns; keys (left/right
arrow: previous/next event; shift+arrow, PageUp/PageDown: previous/next turn; Home/End);
the whole event log beside the map with the current event highlighted (a click jumps to
it); the units' state at the current event. ``#event=N`` in the address opens event row N
(0 the first). The page keeps the shown position in ``<pre id="viewer-state">`` (JSON:
the row, its turn, every unit's hex name and status), which the browser tests read.
"""

from __future__ import annotations

import base64
import html
import json

VIEWER_VERSION = 1


def viewer_page(*, title: str, subtitle: str, map_png: bytes, geometry: dict, hex_names: list[str],
                units: list[dict], sides: list[dict], rows: list[dict], frames: list[dict],
                status_names: list[str], on_map: list[int], morale_names: list[str],
                objectives: list[str], footer: str = "") -> str:
    """The viewer page as HTML text.

    ``units``: per unit ``{"label", "side" (index into sides), "strength"}``; ``sides``:
    ``{"name", "colour"}``; ``rows``: per event ``{"turn", "text", "code", "marks"}`` with
    marks ``trail`` (hex indexes), ``fire`` ([firer hex, target hex, result]), ``cc`` (a
    hex), ``units`` (the units the event is about); ``frames`` (one per row):
    ``{"units": [[hex, status, damage, morale, cc, immobilised, facing], ...],
    "objectives": [holding side or -1, ...], "smoke": {hex: markers}}`` (damage: the
    strength lost; morale: an index of ``morale_names``, 0 none, else its first letter is
    drawn on the unit, the morale or condition marker); ``status_names`` name a unit's
    status code, ``on_map`` the codes drawn on the map; ``objectives``: the objectives'
    hex names."""
    if len(rows) != len(frames):
        raise ValueError(f"{len(rows)} rows but {len(frames)} frames")
    data = {"version": VIEWER_VERSION, "hexes": hex_names, "geometry": geometry, "units": units, "sides": sides,
            "rows": rows, "frames": frames, "status": status_names, "onMap": on_map, "morale": morale_names,
            "objectives": objectives}
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    img = "data:image/png;base64," + base64.b64encode(map_png).decode("ascii")
    legend = "".join(f'<span class="sw" style="background:{html.escape(s["colour"])}"></span>'
                     f'{html.escape(s["name"])} ' for s in sides)
    return (PAGE.replace("@TITLE@", html.escape(title)).replace("@SUBTITLE@", html.escape(subtitle))
            .replace("@LEGEND@", legend).replace("@FOOTER@", html.escape(footer))
            .replace("@W@", str(int(geometry["width"]))).replace("@H@", str(int(geometry["height"])))
            .replace("@IMG@", img).replace("@DATA@", blob).replace("@SCRIPT@", SCRIPT))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>@TITLE@</title>
<style>
body{font-family:system-ui,sans-serif;margin:12px;color:#222}
h1{font-size:18px;margin:0 0 2px}
.sub{color:#555;font-size:13px;margin-bottom:8px}
#bar{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:6px 0}
#bar button{font-size:14px;padding:2px 8px}
#slider{flex:1;min-width:200px}
#where{font-size:13px;min-width:260px}
#main{display:flex;gap:12px;align-items:flex-start}
#mapbox{position:relative;flex:none;overflow:auto;max-width:70vw;max-height:82vh;border:1px solid #ccc}
#mapbox img,#mapbox canvas{position:absolute;left:0;top:0}
#side{flex:1;min-width:280px;display:flex;flex-direction:column;gap:8px}
#log{height:52vh;overflow:auto;border:1px solid #ccc;font:12px/1.35 monospace;margin:0;padding:0;list-style:none}
#log li{padding:0 4px;white-space:pre-wrap;cursor:pointer}
#log li.turn{background:#eef;font-weight:bold}
#log li.cur{background:#ffe27a}
#now{font-size:13px;padding:4px;background:#f6f6f6;border:1px solid #ddd;min-height:2.6em}
#units{font-size:12px;border-collapse:collapse}
#units td,#units th{border-bottom:1px solid #eee;padding:1px 6px;text-align:left}
.sw{display:inline-block;width:10px;height:10px;margin:0 3px 0 8px;vertical-align:middle}
.keys{font-size:12px;color:#666}
footer{font:10px monospace;color:#666;white-space:pre-wrap;margin-top:8px}
</style></head><body>
<h1>@TITLE@</h1><div class="sub">@SUBTITLE@ @LEGEND@</div>
<div id="bar">
<button id="turn-prev" title="previous turn (PageUp, shift+left)">&laquo; turn</button>
<button id="prev" title="previous event (left arrow)">&#x25C0;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next event (right arrow)">&#x25B6;</button>
<button id="turn-next" title="next turn (PageDown, shift+right)">turn &raquo;</button>
<input id="slider" type="range" min="0" value="0">
<span id="where"></span></div>
<div class="keys">keys: &larr; &rarr; event, shift+&larr; &rarr; or PageUp/PageDown turn, Home/End, space play;
click a line of the log to go there; the address #event=N opens row N</div>
<div id="main">
<div id="mapbox" style="width:@W@px;height:@H@px"><img id="map" src="@IMG@" width="@W@" height="@H@" alt="map">
<canvas id="layer" width="@W@" height="@H@"></canvas></div>
<div id="side"><div id="now"></div><ol id="log" start="0"></ol>
<table id="units"><thead><tr><th>unit</th><th>hex</th><th>strength</th><th>state</th></tr></thead>
<tbody></tbody></table></div></div>
<pre id="viewer-state" hidden></pre>
<footer>@FOOTER@</footer>
<script type="application/json" id="replay-data">@DATA@</script>
<script>@SCRIPT@</script>
</body></html>
"""

SCRIPT = r"""
(function(){
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const G = D.geometry, R = G.radius, rows = D.rows, frames = D.frames, n = rows.length;
const cv = document.getElementById("layer"), cx = cv.getContext("2d");
const slider = document.getElementById("slider"), logEl = document.getElementById("log");
slider.max = Math.max(0, n - 1);
const turnStart = [];
rows.forEach((r, i) => { if (i === 0 || r.turn !== rows[i - 1].turn) turnStart.push(i); });
const lastTurn = n ? rows[n - 1].turn : 0;
const centre = h => G.centres[D.hexes[h]];
let cur = 0, timer = null;

const items = rows.map((r, i) => {
  const li = document.createElement("li");
  li.textContent = "#" + i + "  t" + r.turn + "  " + r.text;
  if (r.code === "turn") li.className = "turn";
  li.addEventListener("click", () => go(i));
  logEl.appendChild(li);
  return li;
});

function unitColour(u) { return D.sides[D.units[u].side].colour; }

function arrow(a, b, colour, label) {
  const [x0, y0] = a, [x1, y1] = b;
  cx.save(); cx.strokeStyle = colour; cx.fillStyle = colour; cx.lineWidth = 3;
  cx.setLineDash([8, 4]); cx.beginPath(); cx.moveTo(x0, y0); cx.lineTo(x1, y1); cx.stroke();
  cx.setLineDash([]);
  const ang = Math.atan2(y1 - y0, x1 - x0), s = 0.45 * R;
  cx.beginPath(); cx.moveTo(x1, y1);
  cx.lineTo(x1 - s * Math.cos(ang - 0.4), y1 - s * Math.sin(ang - 0.4));
  cx.lineTo(x1 - s * Math.cos(ang + 0.4), y1 - s * Math.sin(ang + 0.4)); cx.closePath(); cx.fill();
  if (label) {
    cx.font = "bold 12px sans-serif"; const w = cx.measureText(label).width;
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    cx.fillStyle = "rgba(255,255,255,0.9)"; cx.fillRect(mx - w / 2 - 3, my - 9, w + 6, 17);
    cx.fillStyle = colour; cx.fillText(label, mx - w / 2, my + 4);
  }
  cx.restore();
}

function resultColour(res) {
  if (!res) return "#555";
  if (/eliminat|destroyed/.test(res)) return "#d00000";
  if (/^\+|loses|light damage|heavy damage/.test(res)) return "#e06000";
  if (/suppressed|fallback|immobilised|pinned|disrupted/.test(res) && !/^no effect/.test(res)) return "#b08800";
  return "#666";
}

function drawMarks(r) {
  const m = r.marks || {};
  if (m.trail && m.trail.length > 1) {
    cx.save(); cx.strokeStyle = "rgba(20,20,20,0.75)"; cx.lineWidth = 4; cx.lineJoin = "round";
    cx.beginPath(); m.trail.forEach((h, k) => { const [x, y] = centre(h); k ? cx.lineTo(x, y) : cx.moveTo(x, y); });
    cx.stroke();
    m.trail.forEach(h => { const [x, y] = centre(h); cx.beginPath(); cx.arc(x, y, 4, 0, 7); cx.fill(); });
    cx.restore();
  }
  if (m.fire && m.fire[0] >= 0 && m.fire[1] >= 0) {
    arrow(centre(m.fire[0]), centre(m.fire[1]), resultColour(m.fire[2]), m.fire[2] || "fires");
  }
  if (m.cc !== undefined && m.cc >= 0) {
    const [x, y] = centre(m.cc);
    cx.save(); cx.strokeStyle = "#d00000"; cx.lineWidth = 3; cx.setLineDash([5, 3]);
    cx.beginPath(); cx.arc(x, y, 0.95 * R, 0, 7); cx.stroke();
    cx.font = "bold 14px sans-serif"; cx.fillStyle = "#d00000"; cx.fillText("\u2694", x + 0.55 * R, y - 0.55 * R);
    cx.restore();
  }
}

function drawUnits(f, focus) {
  const byHex = {};
  f.units.forEach((s, u) => { if (s[0] >= 0 && D.onMap.includes(s[1])) (byHex[s[0]] = byHex[s[0]] || []).push(u); });
  const w = 1.15 * R, h = 0.62 * R;
  for (const hx in byHex) {
    const list = byHex[hx], [x0, y0] = centre(+hx);
    list.forEach((u, k) => {
      const s = f.units[u], x = x0 - w / 2, y = y0 - h / 2 + (k - (list.length - 1) / 2) * (h + 2);
      cx.fillStyle = unitColour(u); cx.fillRect(x, y, w, h);
      cx.lineWidth = focus.includes(u) ? 3 : 1;
      cx.strokeStyle = focus.includes(u) ? "#ffd400" : (s[4] ? "#ff3030" : "#fff");
      cx.strokeRect(x, y, w, h);
      cx.fillStyle = "#fff"; cx.font = Math.max(8, Math.round(0.3 * R)) + "px sans-serif";
      const left = Math.max(0, D.units[u].strength - s[2]);
      let tag = D.units[u].short + " " + left;
      if (s[3] > 0 && D.morale[s[3]]) tag += " " + D.morale[s[3]][0].toUpperCase();
      if (s[5]) tag += " I";
      cx.fillText(tag, x + 2, y + h - 3, w - 4);
    });
  }
}

function render() {
  const r = rows[cur], f = frames[cur];
  cx.clearRect(0, 0, cv.width, cv.height);
  Object.entries(f.smoke || {}).forEach(([h, k]) => {
    const [x, y] = centre(+h); cx.fillStyle = "rgba(120,120,120,0.45)";
    cx.beginPath(); cx.arc(x, y, 0.8 * R, 0, 7); cx.fill();
    cx.fillStyle = "#333"; cx.font = "11px sans-serif"; cx.fillText("smoke " + k, x - 0.6 * R, y + 0.75 * R);
  });
  D.objectives.forEach((name, k) => {
    const held = f.objectives[k], c = G.centres[name];
    if (!c || held < 0) return;
    cx.save(); cx.strokeStyle = D.sides[held].colour; cx.lineWidth = 4;
    cx.beginPath(); cx.arc(c[0], c[1], 0.85 * R, 0, 7); cx.stroke(); cx.restore();
  });
  drawMarks(r);
  drawUnits(f, (r.marks && r.marks.units) || []);
  items.forEach((li, i) => li.classList.toggle("cur", i === cur));
  const li = items[cur];
  if (li) {
    const top = li.offsetTop - logEl.offsetTop;
    if (top < logEl.scrollTop || top > logEl.scrollTop + logEl.clientHeight - li.offsetHeight) logEl.scrollTop = top - logEl.clientHeight / 3;
  }
  slider.value = cur;
  document.getElementById("where").textContent = "turn " + r.turn + " of " + lastTurn + ", event " + cur + " of " + (n - 1);
  document.getElementById("now").textContent = r.text;
  const body = document.querySelector("#units tbody"); body.textContent = "";
  const state = [];
  f.units.forEach((s, u) => {
    const on = s[0] >= 0 && D.onMap.includes(s[1]);
    const hex = on ? D.hexes[s[0]] : null, status = D.status[s[1]];
    state.push({unit: u, label: D.units[u].label, hex: hex, status: status, damage: s[2], morale: D.morale[s[3]]});
    const tr = document.createElement("tr");
    const marks = [status].concat(s[3] ? [D.morale[s[3]]] : [], s[4] ? ["close combat"] : [], s[5] ? ["immobilised"] : []);
    const side = D.sides[D.units[u].side].name, label = D.units[u].label;
    [label.startsWith(side + " ") ? label : label + " (" + side + ")", hex || "-",
     Math.max(0, D.units[u].strength - s[2]) + "/" + D.units[u].strength, marks.join(", ")].forEach(t => {
      const td = document.createElement("td"); td.textContent = t; tr.appendChild(td); });
    body.appendChild(tr);
  });
  document.getElementById("viewer-state").textContent = JSON.stringify({row: cur, turn: r.turn, units: state});
}

function go(i) {
  if (!n) return;
  cur = Math.max(0, Math.min(n - 1, i));
  render();
  if (history.replaceState) history.replaceState(null, "", "#event=" + cur);
}
function turnStep(d) {
  const t = rows[cur].turn;
  if (d < 0) {
    const start = turnStart.filter(i => i <= cur).pop();
    if (start < cur) return go(start);
    const prev = turnStart.filter(i => i < cur).pop();
    return go(prev === undefined ? 0 : prev);
  }
  const next = turnStart.find(i => i > cur && rows[i].turn !== t);
  go(next === undefined ? n - 1 : next);
}
function play() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = "play"; return; }
  b.textContent = "pause";
  timer = setInterval(() => { if (cur >= n - 1) play(); else go(cur + 1); }, 350);
}

document.getElementById("prev").onclick = () => go(cur - 1);
document.getElementById("next").onclick = () => go(cur + 1);
document.getElementById("turn-prev").onclick = () => turnStep(-1);
document.getElementById("turn-next").onclick = () => turnStep(1);
document.getElementById("play").onclick = play;
slider.addEventListener("input", () => go(+slider.value));
document.addEventListener("keydown", e => {
  if (e.target === slider && !e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
  const k = e.key;
  if (k === "ArrowRight") e.shiftKey ? turnStep(1) : go(cur + 1);
  else if (k === "ArrowLeft") e.shiftKey ? turnStep(-1) : go(cur - 1);
  else if (k === "PageDown") turnStep(1);
  else if (k === "PageUp") turnStep(-1);
  else if (k === "Home") go(0);
  else if (k === "End") go(n - 1);
  else if (k === " ") play();
  else return;
  e.preventDefault();
});
function fromHash() {
  const m = /event=(\d+)/.exec(location.hash);
  return m ? +m[1] : 0;
}
window.addEventListener("hashchange", () => { const i = fromHash(); if (i !== cur) go(i); });
window.replayViewer = {go: go, turn: turnStep, current: () => cur};
if (n) { cur = Math.max(0, Math.min(n - 1, fromHash())); render(); }
})();
"""
