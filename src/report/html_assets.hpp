#pragma once
// Inline style sheet and script of the HTML report (no network: everything is in the page).
namespace roofline::report {

inline constexpr const char* kHtmlStyle = R"CSS(
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--line:#d0d7de;
--panel:#f6f8fa;--accent:#0072B2;--tip:#ffffff;--shadow:rgba(31,35,40,.18)}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9ea7b3;
--line:#30363d;--panel:#161b22;--accent:#56B4E9;--tip:#161b22;--shadow:rgba(0,0,0,.6)}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);
font:14px/1.45 system-ui,-apple-system,"Segoe UI","DejaVu Sans",Helvetica,Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:20px 24px 48px}
h1{font-size:22px;margin:4px 0 2px}h2{font-size:17px;margin:28px 0 8px}
h1,h2,.sub{overflow-wrap:anywhere}
h3{font-size:14px;margin:16px 0 6px}
ul.not-drawn{margin:0;padding-left:22px;overflow-wrap:anywhere}
ul.not-drawn .name{font-weight:600}
.sub{color:var(--muted);margin:0 0 12px}
.toolbar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;padding:8px 10px;
background:var(--panel);border:1px solid var(--line);border-radius:8px 8px 0 0}
.toolbar label{white-space:nowrap;cursor:pointer;user-select:none}
.toolbar button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:6px;
background:var(--bg);color:var(--fg);cursor:pointer}
.toolbar .hint{color:var(--muted);font-size:12px;margin-left:auto}
.chart{position:relative;border:1px solid var(--line);border-top:0;border-radius:0 0 8px 8px;
overflow:hidden;touch-action:none;cursor:grab}
.chart.dragging{cursor:grabbing}
.chart svg{display:block;width:100%;height:auto}
.chart g.point{cursor:pointer;outline:none}
.chart g.point:hover .marker,.chart g.point:focus .marker,.chart g.point.hot .marker{stroke-width:2.5;stroke:var(--fg)}
.tooltip{position:absolute;z-index:5;max-width:380px;padding:10px 12px;background:var(--tip);
color:var(--fg);border:1px solid var(--line);border-radius:8px;box-shadow:0 6px 20px var(--shadow);
font-size:12.5px;pointer-events:none}
.tooltip[hidden]{display:none}
.tooltip h4{margin:0 0 6px;font-size:13.5px}
.tooltip table{border-collapse:collapse;margin:0 0 6px}
.tooltip td{padding:1px 8px 1px 0;vertical-align:top}
.tooltip td:first-child{color:var(--muted)}
.tooltip .verdict{font-weight:600}
.tooltip p{margin:4px 0}
.roof-controls{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline;padding:6px 10px;
background:var(--panel);border:1px solid var(--line);border-top:0;font-size:13px}
.roof-controls .group-name{font-weight:600}
.roof-controls label{white-space:nowrap;cursor:pointer;user-select:none}
.roof-controls fieldset{display:flex;flex-wrap:wrap;gap:2px 10px;border:0;margin:0;padding:0}
.roof-controls legend{float:left;color:var(--muted);margin-right:6px;padding:0}
table.data{border-collapse:collapse;width:100%;font-size:13px}
table.data th,table.data td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;
vertical-align:top;overflow-wrap:break-word}
table.data td.num{text-align:right;font-variant-numeric:tabular-nums}
table.data td.num:not(.wrap){white-space:nowrap}
table.data td.source{min-width:14em;overflow-wrap:anywhere}
table.data td.name{min-width:8em;overflow-wrap:anywhere}
table.data th{background:var(--panel);position:sticky;top:0}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th[aria-sort=ascending]::after{content:" ▲"}
table.sortable th[aria-sort=descending]::after{content:" ▼"}
table.data tr.hot td{background:var(--panel)}
.muted{color:var(--muted);font-size:12px}
.why{color:var(--accent);font-size:12px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px;vertical-align:0}
dl.info{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 16px;margin:0}
dl.info dt{color:var(--muted)}dl.info dd{margin:0;min-width:0;overflow-wrap:anywhere}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;
font-size:12px;max-width:100%}
/* A phone: each table row becomes a card of "column: value" lines, so no table is wider than the
   screen; the column names come from each cell's data-label. */
@media (max-width: 720px){
main{padding:12px 10px 32px}
.toolbar .hint{margin-left:0}
table.data thead{display:none}
table.data,table.data tbody,table.data tr,table.data td{display:block;width:100%}
table.data tr{border:1px solid var(--line);border-radius:6px;margin:0 0 8px;padding:4px 0}
table.data td{border:0;padding:2px 10px;display:grid;grid-template-columns:8.5em minmax(0,1fr);
gap:8px;text-align:left}
table.data td.num,table.data td.num:not(.wrap){text-align:left;white-space:normal}
table.data td::before{content:attr(data-label);color:var(--muted);font-size:12px}
table.data td.empty{display:none}
table.data td.source,table.data td.name{min-width:0}
dl.info{grid-template-columns:minmax(0,1fr)}
dl.info dd{margin:0 0 6px}
}
footer{color:var(--muted);font-size:12px;margin-top:32px}
)CSS";

inline constexpr const char* kHtmlScript = R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('roofline-data').textContent);
  var chart = document.getElementById('chart');
  var svg = chart.querySelector('svg');
  var tip = document.getElementById('tooltip');
  var pinned = null;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function row(k, v) { return '<tr><td>' + esc(k) + '</td><td>' + esc(v) + '</td></tr>'; }
  function tooltipHtml(p) {
    var h = '<h4><span class="swatch" style="background:' + p.colour + '"></span>' + esc(p.name) + '</h4><table>';
    h += row('W (work)', p.work);
    p.levels.forEach(function (l) { h += row('Q at ' + l.level, l.traffic); });
    h += row('T (time)', p.time);
    p.levels.forEach(function (l) { h += row('I at ' + l.level, l.intensity); });
    h += row('P = W/T', p.performance);
    h += row('attainable', p.attainable);
    h += row('attainment', p.attainment);
    h += row('bound', p.bound);
    h += '</table>';
    h += '<p><b>Step 1</b> — ' + esc(p.step1) + '</p>';
    h += '<p><b>Step 2</b> — ' + esc(p.step2) + '</p>';
    h += '<p class="verdict verdict-text-' + esc(p.verdict) + '">' + esc(p.title) + '</p>';
    h += '<p>' + esc(p.prescription) + '</p>';
    p.causes.forEach(function (c) { h += '<p>• likely cause: ' + esc(c) + '</p>'; });
    p.notes.forEach(function (n) { h += '<p>Note: ' + esc(n) + '</p>'; });
    return h;
  }
  function place(evt, el) {
    var box = chart.getBoundingClientRect();
    var x, y;
    if (evt && evt.clientX !== undefined && evt.type !== 'focus') {
      x = evt.clientX - box.left; y = evt.clientY - box.top;
    } else {
      var r = el.getBoundingClientRect();
      x = r.left + r.width / 2 - box.left; y = r.top + r.height / 2 - box.top;
    }
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var left = x + 16, top = y + 16;
    if (left + w > box.width - 4) left = Math.max(4, x - w - 16);
    if (top + h > box.height - 4) top = Math.max(4, y - h - 16);
    tip.style.left = left + 'px'; tip.style.top = top + 'px';
  }
  function hot(i, on) {
    document.querySelectorAll('[data-index="' + i + '"]').forEach(function (e) {
      e.classList.toggle('hot', on);
    });
  }
  function show(el, evt) {
    var i = +el.getAttribute('data-index');
    tip.innerHTML = tooltipHtml(data.points[i]);
    tip.hidden = false;
    place(evt, el);
    hot(i, true);
  }
  function hide(el) {
    if (pinned) return;
    tip.hidden = true;
    if (el) hot(+el.getAttribute('data-index'), false);
  }
  svg.querySelectorAll('g.point').forEach(function (g) {
    var t = g.querySelector('title');
    if (t) t.remove();  // the rich tooltip replaces the native one
    g.addEventListener('pointerenter', function (e) { if (!pinned) show(g, e); });
    g.addEventListener('pointermove', function (e) { if (!pinned) place(e, g); });
    g.addEventListener('pointerleave', function () { hide(g); });
    g.addEventListener('focus', function (e) { show(g, e); });
    g.addEventListener('blur', function () { hide(g); });
    g.addEventListener('click', function (e) {
      e.stopPropagation();
      if (pinned === g) { pinned = null; hide(g); return; }
      if (pinned) hot(+pinned.getAttribute('data-index'), false);
      pinned = g; show(g, e);
    });
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { var p = pinned; pinned = null; hide(p); }
  });
  chart.addEventListener('click', function () { if (pinned) { var p = pinned; pinned = null; hide(p); } });

  // Layer toggles.
  document.querySelectorAll('input[data-layer]').forEach(function (box) {
    box.addEventListener('change', function () {
      svg.querySelectorAll('.' + box.getAttribute('data-layer')).forEach(function (g) {
        g.style.display = box.checked ? '' : 'none';
      });
    });
  });

  // Roofs: the view (the few that matter, or all), narrowed by the precision, vector width and
  // instruction class boxes. Every element of a roof names it (data-id on its line, data-ids on
  // its label and theoretical line, data-pairs on ridge marks). Labels were placed for the view
  // and for every roof at once, so any subset shown keeps them apart.
  var roofView = 'default';
  function filtered(line, key) {
    var v = line.getAttribute('data-' + key);
    if (!v) return false;
    var box = document.querySelector('input[data-filter="' + key + '"][value="' + CSS.escape(v) + '"]');
    return box && !box.checked;
  }
  function roofLines() { return svg.querySelectorAll('line.roof[data-id]'); }
  function applyRoofs() {
    var on = {};
    roofLines().forEach(function (l) {
      var id = l.getAttribute('data-id');
      var v = (roofView === 'all' || !l.classList.contains('optional')) &&
              !filtered(l, 'precision') && !filtered(l, 'width') && !filtered(l, 'class');
      on[id] = v;
      l.setAttribute('display', v ? 'inline' : 'none');
    });
    svg.querySelectorAll('[data-ids]').forEach(function (e) {
      var ids = e.getAttribute('data-ids').split(' ').filter(function (i) { return on[i]; });
      e.setAttribute('display', ids.length ? 'inline' : 'none');
    });
    // The roof-label column has a layout for the view and one for every roof.
    var layout = roofView === 'all' ? 'all' : 'view';
    svg.querySelectorAll('[data-y-all]').forEach(function (e) {
      var v = e.getAttribute('data-y-' + layout);
      if (v !== null) e.setAttribute('y', v);
    });
    svg.querySelectorAll('[data-y2-all]').forEach(function (e) {
      var v = e.getAttribute('data-y2-' + layout);
      if (v !== null) e.setAttribute('y2', v);
    });
    svg.querySelectorAll('[data-pairs]').forEach(function (e) {
      var any = e.getAttribute('data-pairs').split(' ').some(function (p) {
        var q = p.split(':'); return on[q[0]] && on[q[1]];
      });
      e.setAttribute('display', any ? 'inline' : 'none');
    });
  }
  document.querySelectorAll('input[name="roof-view"]').forEach(function (r) {
    r.addEventListener('change', function () { if (r.checked) { roofView = r.value; applyRoofs(); } });
  });
  document.querySelectorAll('input[data-filter]').forEach(function (b) {
    b.addEventListener('change', applyRoofs);
  });

  // Zoom (wheel, buttons) and pan (drag) on the viewBox; reset restores the whole chart.
  var base = svg.getAttribute('viewBox').split(/\s+/).map(Number);
  var view = base.slice();
  function apply() { svg.setAttribute('viewBox', view.join(' ')); }
  function zoomAt(f, cx, cy) {
    var nw = Math.min(base[2], Math.max(base[2] / 20, view[2] * f));
    var k = nw / view[2];
    view = [cx - (cx - view[0]) * k, cy - (cy - view[1]) * k, nw, view[3] * k];
    apply();
  }
  function toSvg(evt) {
    var r = svg.getBoundingClientRect();
    return [view[0] + (evt.clientX - r.left) / r.width * view[2],
            view[1] + (evt.clientY - r.top) / r.height * view[3]];
  }
  chart.addEventListener('wheel', function (e) {
    e.preventDefault();
    var p = toSvg(e);
    zoomAt(e.deltaY < 0 ? 0.85 : 1 / 0.85, p[0], p[1]);
  }, {passive: false});
  var drag = null;
  chart.addEventListener('pointerdown', function (e) {
    if (e.target.closest && e.target.closest('g.point')) return;
    drag = {x: e.clientX, y: e.clientY, v: view.slice()};
    chart.classList.add('dragging');
  });
  window.addEventListener('pointermove', function (e) {
    if (!drag) return;
    var r = svg.getBoundingClientRect();
    view[0] = drag.v[0] - (e.clientX - drag.x) / r.width * view[2];
    view[1] = drag.v[1] - (e.clientY - drag.y) / r.height * view[3];
    apply();
  });
  window.addEventListener('pointerup', function () { drag = null; chart.classList.remove('dragging'); });
  function reset() { view = base.slice(); apply(); }
  document.getElementById('reset-view').addEventListener('click', reset);
  document.getElementById('zoom-in').addEventListener('click', function () {
    zoomAt(0.7, view[0] + view[2] / 2, view[1] + view[3] / 2);
  });
  document.getElementById('zoom-out').addEventListener('click', function () {
    zoomAt(1 / 0.7, view[0] + view[2] / 2, view[1] + view[3] / 2);
  });
  chart.addEventListener('dblclick', reset);

  // Sortable tables: click a header; numbers sort by their data-sort value.
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.querySelectorAll('th');
    heads.forEach(function (th, col) {
      th.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col], y = b.cells[col];
          var xs = x.getAttribute('data-sort'), ys = y.getAttribute('data-sort');
          var c = (xs !== null && ys !== null) ? (+xs) - (+ys)
                                               : x.textContent.localeCompare(y.textContent);
          return dir === 'ascending' ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // Table rows highlight their point.
  document.querySelectorAll('#points-table tbody tr').forEach(function (tr) {
    var i = tr.getAttribute('data-index');
    tr.addEventListener('pointerenter', function () { hot(i, true); });
    tr.addEventListener('pointerleave', function () { hot(i, false); });
  });
  document.documentElement.setAttribute('data-ready', 'true');
})();
)JS";

}  // namespace roofline::report
