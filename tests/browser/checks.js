/* checks.js - what the browser test (run.sh) asserts on an nnperf HTML report, in the page as Chromium lays it out.
 * run.sh inserts this file as an inline script at the end of a copy of the report (the report itself carries no test
 * code beyond its #selftest); the result goes into a pre element (id checks-result) for --dump-dom:
 *   ticks    every axis' tick labels (numbers with SI prefixes) increase evenly: equal steps on a linear axis, equal
 *            ratios on a log one, at evenly spaced pixels;
 *   inside   every element of a plot's data groups lies inside its plot area, every element of an SVG inside the SVG;
 *   counts   the layer counts agree across tabs: the summary's total and shown layers, the rows of the layer table,
 *            and in every plot the layers it says it drew are the layers it drew;
 *   screen   the timeline is at most one screen high (the window's height) whatever the number of layers;
 *   table    no table overflows its box (no horizontal scrolling) at the window's width, nor does the page, and
 *            no plot is wider than the page;
 *   zoom     zooming the timeline widens it, keeps its ticks even and its data inside the plot areas;
 *   why      a prediction's summary has the why block (time by bound, the heaviest layers) in view on opening;
 *   roofline at most half of a roofline's points sit at its right edge (no bytes through any memory), and the
 *            memory of every memory-bound point (data-mem: ddr, sram, link) has its ceiling drawn. */
(function () {
  'use strict';
  var out = [], notes = [], n_svg = 0, n_axes = 0;
  function fail(what) { out.push(what); }
  var PREFIX = {'': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, m: 1e-3, u: 1e-6, n: 1e-9};
  function parse(label) {
    var m = /^(-?[0-9]+(?:\.[0-9]+)?)(?: ([kMGTPEmun]))?$/.exec(label.trim());
    return m ? parseFloat(m[1]) * PREFIX[m[2] || ''] : NaN;
  }
  function rect(el) { return el.getBoundingClientRect(); }
  function where(el) {
    var svg = el.ownerSVGElement || el, t = svg.querySelector('title');
    return (t ? t.textContent : svg.getAttribute('class')) + ': ';
  }

  function checkTicks(axis) {
    var vertical = axis.classList.contains('y'), log = axis.getAttribute('data-scale') === 'log';
    var ticks = Array.prototype.map.call(axis.querySelectorAll('text.tick'), function (t) {
      var r = rect(t);
      return {v: parse(t.textContent), p: vertical ? -(r.top + r.bottom) / 2 : (r.left + r.right) / 2,
              s: t.textContent};
    });
    if (ticks.length < 2) { fail(where(axis) + 'an axis with ' + ticks.length + ' tick label(s)'); return; }
    ticks.sort(function (a, b) { return a.p - b.p; });
    for (var i = 0; i < ticks.length; i++)
      if (isNaN(ticks[i].v) || (log && !(ticks[i].v > 0))) {
        fail(where(axis) + 'tick label "' + ticks[i].s + '" is not a number');
        return;
      }
    var step = log ? ticks[1].v / ticks[0].v : ticks[1].v - ticks[0].v, px = ticks[1].p - ticks[0].p;
    if (!(step > (log ? 1 : 0))) {
      fail(where(axis) + 'tick labels do not increase: ' + ticks.map(function (t) { return t.s; }).join(', '));
      return;
    }
    for (var k = 2; k < ticks.length; k++) {
      var d = log ? ticks[k].v / ticks[k - 1].v : ticks[k].v - ticks[k - 1].v;
      if (Math.abs(d - step) > 1e-6 * Math.max(Math.abs(step), 1e-300)) {
        fail(where(axis) + 'uneven tick labels: ' + ticks.map(function (t) { return t.s; }).join(', '));
        return;
      }
      if (Math.abs(ticks[k].p - ticks[k - 1].p - px) > 1.5) {
        fail(where(axis) + 'tick labels at uneven distances (' + px.toFixed(1) + ' then ' +
             (ticks[k].p - ticks[k - 1].p).toFixed(1) + ' px)');
        return;
      }
    }
  }

  function inside(r, a, tol) {
    return r.left >= a.left - tol && r.right <= a.right + tol && r.top >= a.top - tol && r.bottom <= a.bottom + tol;
  }

  /* the plot area of a data group: the last plot-area rectangle before it in the SVG */
  function areaOf(g) {
    var areas = g.ownerSVGElement.querySelectorAll('rect.plot-area'), found = null;
    for (var i = 0; i < areas.length; i++)
      if (areas[i].compareDocumentPosition(g) & Node.DOCUMENT_POSITION_FOLLOWING) found = areas[i];
    return found;
  }

  function checkInside(svg) {
    var bad = 0, sr = rect(svg);
    Array.prototype.forEach.call(svg.querySelectorAll('g.data'), function (g) {
      var area = areaOf(g);
      if (!area) { fail(where(svg) + 'a data group without a plot area'); return; }
      var a = rect(area);
      Array.prototype.forEach.call(g.querySelectorAll('rect,circle,line,polyline,polygon,path'), function (el) {
        var r = rect(el);
        if (r.width === 0 && r.height === 0) return;
        if (!inside(r, a, 1) && bad++ < 3)
          fail(where(svg) + el.tagName + ' ' + (el.querySelector('title') || el.parentNode.querySelector('title') ||
               {textContent: ''}).textContent.split('\n')[0] + ' outside its plot area (' +
               [r.left, r.top, r.right, r.bottom].map(Math.round) + ' vs ' + [a.left, a.top, a.right, a.bottom].map(Math.round) + ')');
      });
    });
    Array.prototype.forEach.call(svg.querySelectorAll('text,rect,circle,line,polyline,polygon'), function (el) {
      var r = rect(el);
      if (r.width === 0 && r.height === 0) return;
      if (!inside(r, sr, 1) && bad++ < 3)
        fail(where(svg) + el.tagName + ' "' + el.textContent.slice(0, 40) + '" outside the SVG');
    });
    return bad;
  }

  function num(el, k) { return parseInt(el.getAttribute('data-layers-' + k), 10); }

  function checkCounts() {
    var sum = document.querySelector('td.layer-counts');
    if (!sum) return;
    var total = num(sum, 'total'), shown = num(sum, 'shown');
    var table = document.querySelector('p.layer-counts'), rows = document.querySelectorAll('#layer-table tbody tr');
    if (!table || num(table, 'total') !== total || num(table, 'shown') !== shown)
      fail('counts: the layer table says ' + (table ? num(table, 'total') + '/' + num(table, 'shown') : 'nothing') +
           ', the summary ' + total + '/' + shown);
    if (rows.length !== shown) fail('counts: the layer table has ' + rows.length + ' rows, the summary shows ' + shown);
    Array.prototype.forEach.call(document.querySelectorAll('g.layer-counts'), function (g) {
      var svg = g.ownerSVGElement, drawn = num(g, 'drawn'), seen = {}, n = 0;
      if (num(g, 'total') !== total || num(g, 'shown') !== shown)
        fail('counts: ' + where(svg) + num(g, 'total') + '/' + num(g, 'shown') + ' layers, the summary ' + total +
             '/' + shown);
      Array.prototype.forEach.call(svg.querySelectorAll('[data-l]'), function (el) {
        var l = el.getAttribute('data-l');
        if (!seen[l]) seen[l] = 1, n++;
      });
      if (n !== drawn || drawn > shown)
        fail('counts: ' + where(svg) + 'says it drew ' + drawn + ' of ' + shown + ' layers and drew ' + n);
      notes.push(svg.getAttribute('class').replace('plot ', '') + ' ' + n + '/' + shown + '/' + total);
    });
  }

  var buttons = document.querySelectorAll('nav.tabs button');
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].click();
    var sec = document.getElementById('tab-' + buttons[i].getAttribute('data-tab'));
    Array.prototype.forEach.call(sec.querySelectorAll('svg.plot'), function (svg) {
      n_svg++;
      n_axes += svg.querySelectorAll('g.axis').length;
      Array.prototype.forEach.call(svg.querySelectorAll('g.axis'), checkTicks);
      checkInside(svg);
    });
    Array.prototype.forEach.call(sec.querySelectorAll('table'), function (t) {
      var wrap = t.parentNode;
      if (wrap.scrollWidth > wrap.clientWidth + 1)
        fail('table: the ' + (t.id || t.className || 'table') + ' in tab ' + buttons[i].getAttribute('data-tab') +
             ' is ' + wrap.scrollWidth + ' px wide in a ' + wrap.clientWidth + ' px box');
    });
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      fail('table: tab ' + buttons[i].getAttribute('data-tab') + ' makes the page ' +
           document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
    Array.prototype.forEach.call(sec.querySelectorAll('svg'), function (svg) {
      if (rect(svg).right > window.innerWidth + 1 && !svg.closest('.tl'))
        fail('table: a plot (' + where(svg).slice(0, -2) + ') reaches ' + Math.round(rect(svg).right) + ' px in a ' +
             window.innerWidth + ' px window');
    });
    Array.prototype.forEach.call(sec.querySelectorAll('.tl'), function (w) {
      var svg = w.querySelector('svg.timeline'), h = rect(svg).height;
      if (h > window.innerHeight) fail('screen: the timeline is ' + Math.round(h) + ' px high, the window ' + window.innerHeight);
      notes.push('timeline ' + Math.round(h) + ' px high');
      var w0 = rect(svg).width;
      w.querySelector('button[data-zoom="2"]').click();
      w.querySelector('button[data-zoom="2"]').click();
      /* the report caps the zoom where the shortest layer is 6 px wide (data-zmax): widen by 1.5, or most of the cap */
      var g = svg.querySelector('[data-zmax]'), zm = g ? +g.getAttribute('data-zmax') : 4;
      var lim = Math.min(1.5, 1 + (zm - 1) * 0.8);
      if (zm > 1.05 && !(rect(svg).width > w0 * lim))
        fail('zoom: the timeline did not widen (' + w0 + ' -> ' + rect(svg).width + ', zoom cap ' + zm + ')');
      Array.prototype.forEach.call(svg.querySelectorAll('g.axis'), checkTicks);
      checkInside(svg);
      w.querySelector('button[data-zoom="0"]').click();
    });
  }
  if (buttons.length) buttons[0].click();
  checkCounts();
  if (document.querySelector('td.layer-counts')) {
    var keys = {};
    Array.prototype.forEach.call(document.querySelectorAll('td'), function (t) { keys[t.textContent] = t; });
    ['time by bound', 'heaviest layers'].forEach(function (k) {
      if (!keys[k]) fail('why: the summary has no "' + k + '" row');
      else if (rect(keys[k]).bottom > window.innerHeight * 1.5)
        fail('why: "' + k + '" is ' + Math.round(rect(keys[k]).bottom) + ' px down, not near the top');
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll('svg.roofline'), function (svg) {
    var pts = svg.querySelectorAll('circle[data-mem]'), xs = [], mems = {};
    Array.prototype.forEach.call(pts, function (c) { xs.push(+c.getAttribute('cx')); mems[c.getAttribute('data-mem')] = 1; });
    if (!xs.length) return;
    var right = Math.max.apply(null, xs), at = xs.filter(function (x) { return x > right - 0.5; }).length;
    var distinct = {};
    xs.forEach(function (x) { distinct[Math.round(x)] = 1; });
    if (xs.length > 4 && at * 2 > xs.length) fail('roofline: ' + at + ' of ' + xs.length + ' points at the right edge');
    var ceil = {};
    Array.prototype.forEach.call(svg.querySelectorAll('polyline title'), function (t) { ceil[t.textContent.split(' ')[0].toLowerCase()] = 1; });
    Array.prototype.forEach.call(svg.querySelectorAll('circle[data-bound="memory"]'), function (c) {
      if (!ceil[c.getAttribute('data-mem')] && !ceil['miss-' + c.getAttribute('data-mem')])
        fail('roofline: a point bound by ' + c.getAttribute('data-mem') + ' without its ceiling'), ceil['miss-' + c.getAttribute('data-mem')] = 1;
    });
    notes.push('roofline ' + xs.length + ' points at ' + Object.keys(distinct).length + ' x positions (' +
               Object.keys(mems).sort().join('+') + ')');
  });
  var p = document.createElement('pre');
  p.id = 'checks-result';
  notes.unshift(n_svg + ' plots, ' + n_axes + ' axes');
  p.textContent = (out.length ? 'FAIL\n' + out.join('\n') : 'PASS') + '\n' + notes.join(', ');
  document.body.appendChild(p);
})();
