// Layout check for the HTML report, injected by tests/ci.d/charts.sh into a copy of a report
// (the page's Content-Security-Policy allows inline scripts). Runs after the page's own script
// and reports its findings, one "key: value" line each, to the page that holds it in a frame of
// the width under test (postMessage; charts.sh's wrapper writes them where `chromium --dump-dom`
// shows them):
//   overlaps     pairs of visible labels (or a label and a point marker) whose boxes intersect,
//                from the browser's own text boxes (getBBox, mapped by getScreenCTM, so a
//                label turned with a 45° roof is checked as the turned rectangle it is);
//   clipped      visible labels drawn in the plot (points, levels, headroom, ridges, workload)
//                whose box runs past the plot's clip rectangle, so part of the text is cut off;
//   hscroll      the page is wider than the window (it would scroll sideways);
//   wide_tables  tables wider than the page's column;
//   not_drawn    the line that says the points the chart leaves out (.not-drawn, under the
//                subtitle): how many were checked, then each of its faults: its box against every
//                other visible text of the chart (title, subtitle, ticks, roof labels, legend),
//                and past the chart's own edges (the 960 px canvas, however wide it is shown);
//   warning_lines, warning_faults  the same for the lines of the chart's warnings
//                (.chart-warning: an LLM model that does not fit in memory);
//   off_canvas   visible texts of the chart (a roof label in the column, the legend) whose box
//                runs past the chart's left or right edge;
//   labels, markers, roofs_visible  how much was checked, in the default view and with every
//                roof shown ("all" in the roofs toggles).
// With location.hash "#all" it leaves the page showing every roof (for the screenshot).
(function () {
  'use strict';
  var LABELS = '.roof-label,.ridge-label,.headroom-label,.point-label,.level-label,.workload-label';
  var svg = document.querySelector('#chart svg');
  function shown(el) {
    for (var e = el; e && e !== document; e = e.parentNode) {
      if (e.getAttribute && e.getAttribute('display') === 'none') return false;
      if (window.getComputedStyle(e).display === 'none') return false;
    }
    return true;
  }
  function quad(el) {
    var b = el.getBBox(), m = el.getScreenCTM();
    if (!m || (b.width === 0 && b.height === 0)) return null;
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(function (p) { return [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f]; });
  }
  // Separating-axis test; boxes that overlap by less than `slack` px are apart (rounding).
  function intersect(a, b, slack) {
    var polys = [a, b];
    for (var k = 0; k < 2; ++k) {
      var q = polys[k];
      for (var i = 0; i < 4; ++i) {
        var p0 = q[i], p1 = q[(i + 1) % 4];
        var nx = p0[1] - p1[1], ny = p1[0] - p0[0], len = Math.hypot(nx, ny);
        if (!len) continue;
        nx /= len; ny /= len;
        var pa = a.map(function (p) { return p[0] * nx + p[1] * ny; });
        var pb = b.map(function (p) { return p[0] * nx + p[1] * ny; });
        var lo = Math.max(Math.min.apply(null, pa), Math.min.apply(null, pb));
        var hi = Math.min(Math.max.apply(null, pa), Math.max.apply(null, pb));
        if (hi - lo <= slack) return false;
      }
    }
    return true;
  }
  var INSIDE = '.ridge-label,.headroom-label,.point-label,.level-label,.workload-label';
  var clipRect = svg.querySelector('#roofline-plot-clip rect');
  function check(view) {
    var labels = [], markers = [], overlaps = [], clipped = [];
    var plot = clipRect && quad(clipRect);
    if (plot) {
      var left = plot[0][0], top = plot[0][1], right = plot[2][0], bottom = plot[2][1];
      svg.querySelectorAll(INSIDE).forEach(function (t) {
        if (!shown(t) || !t.textContent.trim()) return;
        var q = quad(t);
        if (!q) return;
        var xs = q.map(function (p) { return p[0]; }), ys = q.map(function (p) { return p[1]; });
        if (Math.min.apply(null, xs) < left - 0.5 || Math.max.apply(null, xs) > right + 0.5 ||
            Math.min.apply(null, ys) < top - 0.5 || Math.max.apply(null, ys) > bottom + 0.5)
          clipped.push(view + ': "' + t.textContent + '"');
      });
    }
    svg.querySelectorAll(LABELS).forEach(function (t) {
      if (!shown(t) || !t.textContent.trim()) return;
      var q = quad(t);
      if (q) labels.push({el: t, q: q});
    });
    svg.querySelectorAll('g.point .marker').forEach(function (m) {
      if (!shown(m)) return;
      var q = quad(m);
      if (q) markers.push({el: m, q: q});
    });
    // The browser's text box includes the font's ascent and descent; 0.5 px of slack absorbs
    // rounding, nothing more.
    for (var i = 0; i < labels.length; ++i) {
      for (var j = i + 1; j < labels.length; ++j)
        if (intersect(labels[i].q, labels[j].q, 0.5))
          overlaps.push(view + ': "' + labels[i].el.textContent + '" / "' + labels[j].el.textContent + '"');
      for (var k = 0; k < markers.length; ++k)
        if (intersect(labels[i].q, markers[k].q, 0.5))
          overlaps.push(view + ': "' + labels[i].el.textContent + '" on the marker of ' +
                        markers[k].el.closest('g.point').getAttribute('data-name'));
    }
    var roofs = 0;
    svg.querySelectorAll('line.roof[data-id]').forEach(function (l) { if (shown(l)) ++roofs; });
    // The line of points not drawn and the lines of the chart's warnings lie outside the plot:
    // checked against every other text of the chart, and against the chart's edges (the SVG's
    // own box on the screen).
    var edge = svg.getBoundingClientRect();
    function past(q) {
      var xs = q.map(function (p) { return p[0]; }), ys = q.map(function (p) { return p[1]; });
      return Math.min.apply(null, xs) < edge.left - 0.5 || Math.max.apply(null, xs) > edge.right + 0.5 ||
        Math.min.apply(null, ys) < edge.top - 0.5 || Math.max.apply(null, ys) > edge.bottom + 0.5;
    }
    function bandLines(selector) {
      var count = 0, faults = [];
      svg.querySelectorAll(selector).forEach(function (line) {
        if (!shown(line)) return;
        var q = quad(line);
        if (!q) return;
        ++count;
        if (past(q)) faults.push(view + ': "' + line.textContent + '" runs past the chart\'s edge');
        svg.querySelectorAll('text').forEach(function (t) {
          if (t === line || !shown(t) || !t.textContent.trim()) return;
          var o = quad(t);
          if (o && intersect(q, o, 0.5))
            faults.push(view + ': "' + line.textContent + '" / "' + t.textContent + '"');
        });
        markers.forEach(function (m) {
          if (intersect(q, m.q, 0.5))
            faults.push(view + ': "' + line.textContent + '" on a point marker');
        });
      });
      return {count: count, faults: faults};
    }
    var notDrawnLines = bandLines('.not-drawn'), warningLines = bandLines('.chart-warning');
    var notDrawn = notDrawnLines.count, notDrawnFaults = notDrawnLines.faults;
    // Every text of the chart (a roof label in the column, the legend) within the canvas's
    // left and right edges. (Its bottom is not checked: with every roof of three machines shown,
    // the column of roof labels runs below the chart, a known fault of the "all" view.)
    var offCanvas = [];
    svg.querySelectorAll('text').forEach(function (t) {
      if (!shown(t) || !t.textContent.trim()) return;
      var q = quad(t);
      if (!q) return;
      var xs = q.map(function (p) { return p[0]; });
      if (Math.min.apply(null, xs) < edge.left - 0.5 || Math.max.apply(null, xs) > edge.right + 0.5)
        offCanvas.push(view + ': "' + t.textContent + '"');
    });
    return {labels: labels.length, markers: markers.length, roofs: roofs, overlaps: overlaps,
            clipped: clipped, notDrawn: notDrawn, notDrawnFaults: notDrawnFaults,
            warnings: warningLines.count, warningFaults: warningLines.faults, offCanvas: offCanvas};
  }
  var out = {};
  var byDefault = check('default view');
  var all = document.querySelector('input[name="roof-view"][value="all"]');
  var deflt = document.querySelector('input[name="roof-view"][value="default"]');
  var everything = byDefault;
  if (all) {
    all.click();
    everything = check('all roofs');
    if (location.hash !== '#all') deflt.click();
  }
  out.labels = [byDefault.labels, everything.labels];
  out.markers = byDefault.markers;
  out.roofs_visible = [byDefault.roofs, everything.roofs];
  out.overlaps = byDefault.overlaps.concat(everything.overlaps);
  out.clipped = byDefault.clipped.concat(everything.clipped);
  out.not_drawn = [byDefault.notDrawn, everything.notDrawn];
  out.not_drawn_faults = byDefault.notDrawnFaults.concat(everything.notDrawnFaults);
  out.warning_lines = [byDefault.warnings, everything.warnings];
  out.warning_faults = byDefault.warningFaults.concat(everything.warningFaults);
  out.off_canvas = byDefault.offCanvas.concat(everything.offCanvas);
  var doc = document.documentElement;
  out.page_width = doc.scrollWidth;
  out.window_width = window.innerWidth;
  out.hscroll = doc.scrollWidth > window.innerWidth;
  out.wide_tables = [];
  document.querySelectorAll('table').forEach(function (t) {
    var room = t.parentElement.clientWidth;
    if (t.getBoundingClientRect().width > room + 1)
      out.wide_tables.push((t.id || t.previousElementSibling && t.previousElementSibling.textContent) +
                           ' ' + Math.round(t.getBoundingClientRect().width) + ' > ' + room);
  });
  var lines = ['labels: ' + out.labels.join(' '), 'markers: ' + out.markers,
               'roofs_visible: ' + out.roofs_visible.join(' '), 'overlaps: ' + out.overlaps.length,
               'clipped: ' + out.clipped.length,
               'hscroll: ' + (out.hscroll ? 1 : 0) + ' (' + out.page_width + ' px in ' + out.window_width + ')',
               'wide_tables: ' + out.wide_tables.length,
               'not_drawn: ' + out.not_drawn.join(' '),
               'not_drawn_faults: ' + out.not_drawn_faults.length,
               'warning_lines: ' + out.warning_lines.join(' '),
               'warning_faults: ' + out.warning_faults.length,
               'off_canvas: ' + out.off_canvas.length];
  out.overlaps.forEach(function (o) { lines.push('overlap: ' + o); });
  out.wide_tables.forEach(function (o) { lines.push('wide table: ' + o); });
  out.clipped.forEach(function (o) { lines.push('clipped: ' + o); });
  out.not_drawn_faults.forEach(function (o) { lines.push('not drawn line: ' + o); });
  out.warning_faults.forEach(function (o) { lines.push('warning line: ' + o); });
  out.off_canvas.forEach(function (o) { lines.push('off canvas: ' + o); });
  if (window.parent !== window) window.parent.postMessage(lines.join('\n'), '*');
})();
