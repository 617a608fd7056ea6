/* app.js - the web page of nnperf (web/index.html): the WebAssembly build of libnnperf (nnperf.js, nnperf.wasm)
 * analyses a dropped .onnx file in the page and predicts it on every built-in platform. No framework, no request:
 * the model's bytes go from the File object into the module's memory and nowhere else.
 *
 * The numbers come from the library: the selected platform's prediction is its JSON report (nnperf_prediction_render,
 * the document `nnperf analyze MODEL --hw P --format json` prints), the compare table reads each preset's prediction
 * summary (nw_summary), the plots are the library's SVG (nnperf_plot_svg), the advice its JSON (nnperf_advice_render).
 * This file only lays them out. window.nnperfPage exposes the state for the browser test (tests/web/). */
(function () {
  'use strict';
  var FMT_JSON = 1, FMT_CSV = 2, FMT_HTML = 3, FMT_TRACE = 4; /* enum nnperf_format */
  /* the order of nw_summary's numbers (web/nnperf_web.c) */
  var SUMMARY = ['latency_s', 'fps', 'throughput_fps', 'fps_per_w', 'power_w', 'energy_j_per_frame',
                 'ddr_bytes_per_frame', 'avg_utilization', 'spilled_tensors', 'fallback_layers', 'layers',
                 'frames_per_run', 'warnings', 'power_static'];
  var M = null, ERR = 0, ERRLEN = 2048, SUMBUF = 0;
  var st = {name: '', buf: 0, len: 0, model: 0, analysis: 0, preset: '', sets: [], dims: {}, inputs: '',
            json: null, compare: [], timings: {}};
  var $ = function (id) { return document.getElementById(id); };
  var ready, readyResolve;
  ready = new Promise(function (r) { readyResolve = r; });

  /* ---- calling the module ---- */
  function cstr(s) {
    var n = M.lengthBytesUTF8(s) + 1, p = M._malloc(n);
    M.stringToUTF8(s, p, n);
    return p;
  }
  function withStrings(strs, f) {
    var ps = strs.map(cstr);
    try { return f.apply(null, ps); } finally { ps.forEach(function (p) { M._free(p); }); }
  }
  function lastError() { return M.UTF8ToString(ERR); }
  function take(p) { /* a malloc'd string from the library: copy it out and free it */
    if (!p) return null;
    var s = M.UTF8ToString(p);
    M._nnperf_free(p);
    return s;
  }
  function platform(name, sets) {
    var p = withStrings([name, sets.join('\n')], function (n, s) { return M._nw_platform(n, s, ERR, ERRLEN); });
    if (!p) throw new Error(lastError());
    return p;
  }
  /* the presets as shipped, loaded once (YAML parsed and checked by the library) and kept for the page's life */
  var shipped = {};
  function preset(name) {
    if (!shipped[name]) {
      var p = platform(name, []);
      shipped[name] = {handle: p, dtype: platformGet(p, 'compute.default_dtype')};
    }
    return shipped[name];
  }
  function platformGet(p, key) {
    return withStrings([key], function (k) {
      var out = M._malloc(256), r = M._nnperf_platform_get(p, k, out, 256), v = r === 0 ? M.UTF8ToString(out) : '';
      M._free(out);
      return v;
    });
  }
  function predict(plat) {
    var pr = M._nw_predict(st.analysis, plat, ERR, ERRLEN);
    if (!pr) throw new Error(lastError());
    return pr;
  }
  function summary(pr) {
    var n = M._nw_summary(pr, SUMBUF, SUMMARY.length), s = {};
    for (var i = 0; i < n; i++) s[SUMMARY[i]] = M.HEAPF64[(SUMBUF >> 3) + i];
    return s;
  }
  function lines(p) { return (take(p) || '').split('\n').filter(function (x) { return x; }); }

  /* ---- formatting (the raw value stays in data-v for the test) ---- */
  function num(x, digits) {
    if (x === null || x === undefined || (typeof x === 'number' && !isFinite(x))) return 'n/a';
    var a = Math.abs(x);
    if (a !== 0 && (a >= 1e6 || a < 1e-3)) return x.toExponential(2);
    return x.toFixed(digits === undefined ? (a >= 100 ? 1 : a >= 1 ? 2 : 4) : digits);
  }
  function si(x) {
    if (!isFinite(x)) return 'n/a';
    var u = ['', 'k', 'M', 'G', 'T', 'P'], i = 0;
    while (Math.abs(x) >= 1000 && i < u.length - 1) { x /= 1000; i++; }
    return x.toFixed(x >= 100 || i === 0 ? 0 : 1) + (u[i] ? ' ' + u[i] : '');
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cell(tr, v, text, cls) {
    var td = el('td', cls ? {'class': cls} : {}, text);
    if (v !== undefined) td.setAttribute('data-v', v === null ? 'null' : String(v));
    tr.appendChild(td);
    return td;
  }
  function shellQuote(s) { return /^[A-Za-z0-9_.,:=\/+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function showError(msg) { $('err').textContent = msg || ''; }

  /* ---- loading and analysing ---- */
  function freeAll() {
    if (st.analysis) M._nnperf_analysis_free(st.analysis);
    if (st.model) M._nnperf_model_free(st.model);
    if (st.buf) M._free(st.buf);
    st.analysis = st.model = st.buf = 0;
  }
  function loadBytes(bytes, name) {
    showError('');
    freeAll();
    var t0 = performance.now();
    st.name = name;
    st.json = st.jsonText = null;
    st.dims = {};
    st.inputs = '';
    $('inputs').value = '';
    st.len = bytes.length;
    st.buf = M._malloc(bytes.length || 1);
    M.HEAPU8.set(bytes, st.buf);
    st.model = withStrings([name], function (n) { return M._nw_load(st.buf, st.len, n, ERR, ERRLEN); });
    if (!st.model) {
      showError(lastError());
      M._free(st.buf);
      st.buf = 0;
      $('status').textContent = name + ': not loaded';
      return false;
    }
    st.timings.load_ms = performance.now() - t0;
    return analyse();
  }
  function analyse() {
    showError('');
    if (st.analysis) M._nnperf_analysis_free(st.analysis);
    st.analysis = 0;
    var t0 = performance.now();
    var dims = Object.keys(st.dims).filter(function (k) { return st.dims[k] !== ''; })
                 .map(function (k) { return k + '=' + st.dims[k]; });
    var inputs = st.inputs.split(/[;\n]/).map(function (s) { return s.trim(); }).filter(function (s) { return s; });
    st.analysis = withStrings([inputs.join('\n'), dims.join('\n')], function (i, d) {
      return M._nw_analyze(st.model, i, d, ERR, ERRLEN);
    });
    if (!st.analysis) { showError(lastError()); return false; }
    st.timings.analyse_ms = performance.now() - t0;
    var unbound = lines(M._nw_unbound_dims(st.analysis));
    drawDims(unbound);
    $('shape').hidden = false;
    $('platform-sec').hidden = false;
    if (unbound.length) {
      $('status').textContent = st.name + ': bind ' + unbound.join(', ') + ' to predict';
      ['results', 'layers-sec', 'plots', 'advice-sec', 'graph-sec'].forEach(function (id) { $(id).hidden = true; });
      drawCli();
      return true;
    }
    compareAll();
    return refresh();
  }
  function drawDims(unbound) {
    var box = $('dims');
    box.textContent = '';
    unbound.concat(Object.keys(st.dims).filter(function (k) { return unbound.indexOf(k) < 0; })).forEach(function (d) {
      var lab = el('label', {}, d + ' ');
      var inp = el('input', {type: 'number', min: '1', 'data-dim': d, value: st.dims[d] || ''});
      lab.appendChild(inp);
      box.appendChild(lab);
    });
  }

  /* every preset as shipped (and the edited platform when keys were changed) */
  function compareAll() {
    var t0 = performance.now();
    var names = lines(M._nw_presets()), rows = [];
    names.forEach(function (n) { rows.push(compareRow(n, [])); });
    st.compare = rows;
    st.timings.compare_ms = performance.now() - t0;
    drawCompare();
  }
  function compareRow(name, sets) {
    var row = {platform: name}, pr = 0;
    try {
      var pl = preset(name);
      row.dtype = pl.dtype;
      pr = predict(pl.handle);
      fillRow(row, summary(pr));
    } catch (e) {
      row.error = String(e.message || e);
    } finally {
      if (pr) M._nnperf_prediction_free(pr);
    }
    return row;
  }
  function fillRow(row, s) {
    row.s = s;
    row.fps = s.fps;
    row.latency_ms = s.latency_s * 1e3;
    row.fps_per_w = isFinite(s.fps_per_w) ? s.fps_per_w : null;
    row.throughput_fps = s.throughput_fps;
    row.fits = s.spilled_tensors === 0;
    return row;
  }
  function drawCompare() {
    var tb = $('compare').tBodies[0], rows = st.compare.slice();
    if (st.edited) rows.unshift(st.edited);
    tb.textContent = '';
    var best = Math.max.apply(null, rows.map(function (r) { return r.fps || 0; }));
    rows.forEach(function (r) {
      var tr = el('tr', {'data-platform': r.edited ? 'edited' : r.platform});
      if (r.platform === st.preset && !st.sets.length || r.edited) tr.className = 'sel';
      cell(tr, undefined, r.edited ? r.platform + ' (edited)' : r.platform, 'l');
      cell(tr, undefined, r.dtype || '', 'l');
      if (r.error) {
        var td = cell(tr, null, 'n/a: ' + r.error, 'l');
        td.colSpan = 5;
      } else {
        var f = cell(tr, r.fps, num(r.fps), 'heat');
        var t = Math.log(1 + r.fps) / Math.log(1 + best);
        f.style.background = 'hsl(' + Math.round(10 + 110 * t) + ',70%,' + Math.round(88 - 20 * t) + '%)';
        cell(tr, r.latency_ms, num(r.latency_ms));
        var dyn = r.fps_per_w !== null && r.s.power_static === 0;
        cell(tr, r.fps_per_w, r.fps_per_w === null ? 'n/a' : num(r.fps_per_w) + (dyn ? ' *' : '')).title =
          dyn ? 'dynamic power only: the platform gives no idle power, so its FPS/W is an upper bound' :
          r.fps_per_w === null ? 'the platform describes no power' : 'static (idle) and dynamic power';
        cell(tr, r.throughput_fps, num(r.throughput_fps));
        cell(tr, r.fits ? 1 : 0, r.fits ? 'yes' : 'no: ' + r.s.spilled_tensors + ' spill', 'l').title =
          'tensors the memory plan spills from on-chip SRAM to DDR: ' + r.s.spilled_tensors;
      }
      if (!r.edited) tr.addEventListener('click', function () { selectPreset(r.platform); });
      tb.appendChild(tr);
    });
    $('compare-time').textContent = '(' + st.compare.length + ' presets in ' + (st.timings.compare_ms || 0).toFixed(0) +
      ' ms)';
  }

  /* the selected platform, with the edited keys: its JSON report, the plots, the advice */
  function refresh() {
    showError('');
    var t0 = performance.now(), plat = 0, pr = 0;
    try {
      plat = platform(st.preset, st.sets.map(function (s) { return s.key + '=' + s.value; }));
      pr = predict(plat);
      st.edited = st.sets.length ? fillRow({platform: st.preset, edited: true, dtype: platformGet(plat, 'compute.default_dtype')},
                                           summary(pr)) : null;
      var text = take(M._nw_prediction_render(pr, FMT_JSON, ERR, ERRLEN));
      if (text === null) throw new Error(lastError());
      st.jsonText = text;
      st.json = JSON.parse(text);
      st.timeline = take(withStrings(['timeline'], function (k) { return M._nw_plot(pr, k, ERR, ERRLEN); }));
      st.roofline = take(withStrings(['roofline'], function (k) { return M._nw_plot(pr, k, ERR, ERRLEN); }));
      var adv = take(M._nw_advise(st.analysis, plat, FMT_JSON, ERR, ERRLEN));
      st.advice = adv ? JSON.parse(adv) : null;
      st.yaml = take(M._nw_platform_yaml(plat));
    } catch (e) {
      showError(String(e.message || e));
      return false;
    } finally {
      if (pr) M._nnperf_prediction_free(pr);
      if (plat) M._nnperf_platform_free(plat);
    }
    st.timings.predict_ms = performance.now() - t0;
    drawSummary();
    drawLayers();
    drawPlots();
    drawGraph();
    drawAdvice();
    drawCli();
    drawCompare();
    ['results', 'layers-sec', 'plots', 'advice-sec', 'graph-sec'].forEach(function (id) { $(id).hidden = false; });
    $('status').textContent = st.name + ' on ' + st.preset + (st.sets.length ? ' (edited)' : '') + ': load ' +
      (st.timings.load_ms || 0).toFixed(0) + ' ms, analysis ' + st.timings.analyse_ms.toFixed(0) + ' ms, every preset ' +
      (st.timings.compare_ms || 0).toFixed(0) + ' ms, this platform ' + st.timings.predict_ms.toFixed(0) + ' ms';
    return true;
  }

  function drawSummary() {
    var s = st.json.summary, box = $('summary');
    box.textContent = '';
    var rows = [
      ['platform', s.platform + (st.sets.length ? ' (edited)' : ''), null], ['dtype', s.dtype, null],
      ['latency', num(s.latency_ms) + ' ms', s.latency_ms], ['FPS', num(s.fps), s.fps],
      ['throughput (all cores)', num(s.throughput_fps) + ' FPS', s.throughput_fps],
      ['FPS/W', s.fps_per_w === null ? 'n/a (no power model)' : num(s.fps_per_w) +
        (s.power_basis === 'dynamic only' ? ' (dynamic only: no idle power given, an upper bound)' :
         ' (static and dynamic)'), s.fps_per_w],
      ['power', s.power_w === null ? 'n/a' : num(s.power_w) + ' W', s.power_w],
      ['ops per frame', si(s.ops_per_frame), s.ops_per_frame],
      ['DDR bytes per frame', si(s.ddr_bytes_per_frame) + 'B', s.ddr_bytes_per_frame],
      ['utilization', (100 * s.avg_utilization).toFixed(1) + ' %', s.avg_utilization],
      ['MACs', si(s.macs), s.macs], ['parameters', si(s.params), s.params],
      ['layers', s.layers + (s.fallback_layers ? ' (' + s.fallback_layers + ' on the fallback unit)' : ''), s.layers],
      ['memory model', s.memory_model + ', compute model ' + s.compute_model, null]];
    var x = s.expected_error;
    if (x && x.test_rows) {
      // the band the library's reports show (expected_error.shown; docs/prediction.md, "Expected error")
      var b = x.shown, of = b.rows_of === 'all' ? '' : b.rows_of + ' ';
      rows.push(['expected error', 'median ' + (100 * b.median).toFixed(0) + ' %, p90 ' + (100 * b.p90).toFixed(0) +
                 ' % (' + b.test_rows + ' measured ' + of + 'rows' +
                 (b.validated_for_model ? '' : '; none transformer-style: not validated for this one') + ')', null]);
    }
    if (s.overrides && s.overrides.length) rows.push(['changed keys', s.overrides.join(', '), null]);
    if (s.assumptions && s.assumptions.length) rows.push(['assumed keys', s.assumptions.join(', '), null]);
    rows.forEach(function (r) {
      box.appendChild(el('b', {}, r[0]));
      var v = el('span', {'data-key': r[0]}, r[1]);
      if (r[2] !== null) v.setAttribute('data-v', String(r[2]));
      box.appendChild(v);
    });
    var why = $('why'), w = s.why;
    why.textContent = '';
    var tb = el('table');
    tb.appendChild(el('tr')).appendChild(el('th', {'class': 'l'}, 'time by bound'));
    Object.keys(w.time_by_bound).forEach(function (k) {
      var b = w.time_by_bound[k];
      if (!b.time_us) return;
      var tr = el('tr', {'data-bound': k});
      cell(tr, undefined, k, 'l bound-' + k);
      cell(tr, b.time_us, num(b.time_us) + ' us');
      var td = cell(tr, b.share, (100 * b.share).toFixed(1) + ' %');
      td.appendChild(el('span', {'class': 'bar', style: 'width:' + Math.round(80 * b.share) + 'px;margin-left:6px'}));
      tb.appendChild(tr);
    });
    tb.appendChild(el('tr')).appendChild(el('th', {'class': 'l'}, 'heaviest layers'));
    w.top.forEach(function (t) {
      var tr = el('tr');
      cell(tr, undefined, t.layer, 'l name');
      cell(tr, undefined, t.bound, 'l bound-' + t.bound);
      cell(tr, t.time_us, num(t.time_us) + ' us');
      cell(tr, t.share, (100 * t.share).toFixed(1) + ' %');
      tb.appendChild(tr);
    });
    why.appendChild(tb);
    var warn = (st.json.warnings || []).concat(st.json.prediction_warnings || []);
    if (warn.length) {
      var ul = el('ul');
      warn.forEach(function (x) { ul.appendChild(el('li', {}, typeof x === 'string' ? x : x.message || JSON.stringify(x))); });
      why.appendChild(el('b', {}, 'warnings'));
      why.appendChild(ul);
    }
  }

  var layerSort = {k: 'i', dir: 1};
  function layerRows() {
    return st.json.layers.map(function (L, i) {
      return {i: i, name: L.name, op: L.op, bound: L.bound, time_us: L.time_us, share: L.share, ops: L.ops,
              ddr: L.weight_bytes + L.load_bytes + L.store_bytes + L.spill_load_bytes + L.spill_store_bytes,
              intensity: L.intensity};
    });
  }
  function drawLayers() {
    var f = $('filter').value.trim().toLowerCase(), rows = layerRows();
    if (f) rows = rows.filter(function (r) { return (r.name + ' ' + r.op + ' ' + r.bound).toLowerCase().indexOf(f) >= 0; });
    var k = layerSort.k, d = layerSort.dir;
    rows.sort(function (a, b) { return (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : a.i - b.i) * d; });
    var tb = $('layers').tBodies[0];
    tb.textContent = '';
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) {
      var tr = el('tr');
      cell(tr, r.i, String(r.i));
      cell(tr, undefined, r.name, 'l name').title = r.name;
      cell(tr, undefined, r.op, 'l');
      cell(tr, undefined, r.bound, 'l bound-' + r.bound);
      cell(tr, r.time_us, num(r.time_us));
      cell(tr, r.share, (100 * r.share).toFixed(2) + ' %');
      cell(tr, r.ops, si(r.ops));
      cell(tr, r.ddr, si(r.ddr));
      cell(tr, r.intensity, num(r.intensity));
      frag.appendChild(tr);
    });
    tb.appendChild(frag);
    $('layer-count').textContent = rows.length + ' of ' + st.json.layers.length + ' layers';
  }
  function drawPlots() {
    [['timeline', st.timeline], ['roofline', st.roofline]].forEach(function (p) {
      var box = $(p[0]);
      box.textContent = '';
      if (!p[1]) return;
      /* the library's standalone SVG (names escaped by it); parsed as XML, never as HTML */
      var doc = new DOMParser().parseFromString(p[1], 'image/svg+xml');
      var svg = doc.documentElement;
      if (svg && svg.nodeName === 'svg') box.appendChild(document.importNode(svg, true));
    });
  }
  /* the model's graph: each node a box in its rank (longest path from the graph's inputs), coloured by the time of
   * the layer it was fused into (from the prediction's layers), its cost on hover */
  var SVGNS = 'http://www.w3.org/2000/svg';
  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function drawGraph() {
    var box = $('graph'), nodes = st.json.nodes || [], layers = st.json.layers || [];
    box.textContent = '';
    var layerOf = {}, producer = {}, rank = [], maxT = 0;
    layers.forEach(function (L, i) {
      (L.nodes || []).forEach(function (n) { layerOf[n] = i; });
      if (L.time_us > maxT) maxT = L.time_us;
    });
    /* nodes computed from constants only (weights passed through Identity, shape arithmetic) are left out: they
     * run once at load time or fold away; what remains depends on the graph's inputs */
    var live = {};
    (st.json.tensors || []).forEach(function (t) { if (t.kind === 'input') live[t.name] = true; });
    nodes = nodes.filter(function (n) {
      var on = (n.inputs || []).some(function (v) { return live[v]; });
      if (on) (n.outputs || []).forEach(function (o) { live[o] = true; });
      return on;
    });
    nodes.forEach(function (n, i) { (n.outputs || []).forEach(function (o) { producer[o] = i; }); });
    var perRank = [], width = 0;
    nodes.forEach(function (n, i) { /* nodes come in topological order */
      var r = 0;
      (n.inputs || []).forEach(function (v) {
        if (producer[v] !== undefined && producer[v] < i) r = Math.max(r, rank[producer[v]] + 1);
      });
      rank[i] = r;
      perRank[r] = (perRank[r] || 0) + 1;
      if (perRank[r] > width) width = perRank[r];
    });
    var W = 150, H = 30, BW = 136, BH = 20, col = [], pos = [];
    var svg = svgEl('svg', {width: width * W + 10, height: perRank.length * H + 10, 'class': 'graph'});
    svg.appendChild(svgEl('title', {}, 'graph: ' + nodes.length + ' nodes coloured by their layer\'s predicted time'));
    $('graph-count').textContent = nodes.length + ' of ' + (st.json.nodes || []).length + ' nodes (those computed from ' +
      'constants only are left out)';
    nodes.forEach(function (n, i) {
      var r = rank[i], c = col[r] || 0;
      col[r] = c + 1;
      pos[i] = {x: 5 + c * W + (width - perRank[r]) * W / 2, y: 5 + r * H};
    });
    var edges = svgEl('g', {stroke: '#9ab', 'stroke-width': 1, fill: 'none'});
    nodes.forEach(function (n, i) {
      (n.inputs || []).forEach(function (v) {
        var p = producer[v];
        if (p === undefined || p >= i) return;
        edges.appendChild(svgEl('line', {x1: pos[p].x + BW / 2, y1: pos[p].y + BH, x2: pos[i].x + BW / 2, y2: pos[i].y}));
      });
    });
    svg.appendChild(edges);
    nodes.forEach(function (n, i) {
      var li = layerOf[n.name], L = li === undefined ? null : layers[li];
      var t = L && maxT > 0 ? L.time_us / maxT : 0;
      var fill = L ? 'hsl(' + Math.round(210 - 210 * Math.sqrt(t)) + ',75%,' + Math.round(85 - 30 * t) + '%)' : '#eee';
      var g = svgEl('g', {'data-node': n.name, 'data-layer': L ? L.name : ''});
      g.appendChild(svgEl('rect', {x: pos[i].x, y: pos[i].y, width: BW, height: BH, rx: 3, fill: fill, stroke: '#678'}));
      g.appendChild(svgEl('text', {x: pos[i].x + 4, y: pos[i].y + 14, 'font-size': 11}, n.op + ' ' + n.name.slice(-14)));
      g.appendChild(svgEl('title', {}, n.name + ' (' + n.op + '): ' + si(n.macs) + ' MACs, ' + si(n.bytes_read + n.bytes_written) +
        'B read+written' + (L ? '\nlayer ' + L.name + ': ' + num(L.time_us) + ' us (' + (100 * L.share).toFixed(2) + ' %), ' +
        L.bound + '-bound' : '\nno layer: folded or free')));
      svg.appendChild(g);
    });
    box.appendChild(svg);
  }
  function drawAdvice() {
    var box = $('advice');
    box.textContent = '';
    var f = st.advice ? st.advice.findings : [];
    if (!f.length) { box.appendChild(el('div', {'class': 'muted'}, 'no change predicted to gain at least ' +
                                          (st.advice ? st.advice.min_gain_percent : 0.5) + ' %')); return; }
    var ol = el('ol');
    f.forEach(function (x) {
      var li = el('li');
      li.appendChild(el('b', {}, x.rule + ' (' + num(x.gain_percent, 1) + ' % faster per frame)'));
      li.appendChild(el('div', {}, x.evidence));
      li.appendChild(el('div', {'class': 'muted'}, x.change));
      ol.appendChild(li);
    });
    box.appendChild(ol);
  }
  function cliCommand() {
    var c = ['nnperf', 'analyze', shellQuote(st.name), '--hw', shellQuote(st.preset)];
    st.inputs.split(/[;\n]/).map(function (s) { return s.trim(); }).filter(function (s) { return s; })
      .forEach(function (i) { c.push('--input', shellQuote(i)); });
    Object.keys(st.dims).forEach(function (d) { if (st.dims[d] !== '') c.push('--dim', shellQuote(d + '=' + st.dims[d])); });
    st.sets.forEach(function (s) { c.push('--set', shellQuote(s.key + '=' + s.value)); });
    return c.join(' ');
  }
  function drawCli() {
    $('cli').textContent = cliCommand();
    var ul = $('sets');
    ul.textContent = '';
    st.sets.forEach(function (s, i) {
      var li = el('li', {}, s.key + ' = ' + s.value + ' ');
      var b = el('button', {}, 'remove');
      b.addEventListener('click', function () { st.sets.splice(i, 1); refresh(); });
      li.appendChild(b);
      ul.appendChild(li);
    });
  }

  /* ---- the platform editor ---- */
  function selectPreset(name) {
    st.preset = name;
    st.sets = [];
    $('preset').value = name;
    return refresh();
  }
  function setKey(key, value) {
    /* checked by the library on a copy first: a bad key or value is refused with its message, the state kept */
    var sets = st.sets.filter(function (s) { return s.key !== key; }).concat([{key: key, value: value}]);
    try {
      var p = platform(st.preset, sets.map(function (s) { return s.key + '=' + s.value; }));
      M._nnperf_platform_free(p);
    } catch (e) {
      showError(String(e.message || e));
      return false;
    }
    st.sets = sets;
    return refresh();
  }
  function baseName() {
    return st.name.replace(/\.onnx$/i, '') + '-' + st.preset + (st.sets.length ? '-edited' : '');
  }
  /* the selected prediction rendered by the library in another format (the CLI's --format; the HTML page is the
   * report with its Advice tab, as `nnperf analyze --format html` writes it) */
  function report(fmt) {
    var plat = 0, pr = 0;
    try {
      plat = platform(st.preset, st.sets.map(function (s) { return s.key + '=' + s.value; }));
      pr = predict(plat);
      var text = fmt === FMT_HTML ? take(M._nw_advise(st.analysis, plat, fmt, ERR, ERRLEN)) : null;
      if (text === null) text = take(M._nw_prediction_render(pr, fmt, ERR, ERRLEN));
      if (text === null) throw new Error(lastError());
      return text;
    } finally {
      if (pr) M._nnperf_prediction_free(pr);
      if (plat) M._nnperf_platform_free(plat);
    }
  }
  function download(name, text, type) {
    var a = el('a', {download: name});
    a.href = URL.createObjectURL(new Blob([text || ''], {type: type}));
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }

  /* ---- wiring ---- */
  function readFile(file) {
    $('status').textContent = 'reading ' + file.name + '...';
    var r = new FileReader();
    r.onload = function () { loadBytes(new Uint8Array(r.result), file.name); };
    r.onerror = function () { showError(file.name + ': ' + r.error); };
    r.readAsArrayBuffer(file);
  }
  function wire() {
    var drop = $('drop');
    drop.addEventListener('dragover', function (e) { e.preventDefault(); drop.className = 'over'; });
    drop.addEventListener('dragleave', function () { drop.className = ''; });
    drop.addEventListener('drop', function (e) {
      e.preventDefault();
      drop.className = '';
      if (e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
    });
    $('file').addEventListener('change', function () { if (this.files.length) readFile(this.files[0]); });
    $('dims-form').addEventListener('submit', function (e) {
      e.preventDefault();
      Array.prototype.forEach.call(document.querySelectorAll('[data-dim]'), function (i) {
        st.dims[i.getAttribute('data-dim')] = i.value;
      });
      st.inputs = $('inputs').value;
      analyse();
    });
    $('preset').addEventListener('change', function () { selectPreset(this.value); });
    $('set').addEventListener('click', function () {
      var k = $('key').value.trim(), v = $('value').value.trim();
      if (k && v) setKey(k, v);
    });
    $('reset').addEventListener('click', function () { selectPreset(st.preset); });
    $('yaml').addEventListener('click', function () {
      download(st.preset + (st.sets.length ? '-edited' : '') + '.yaml', st.yaml, 'text/yaml');
    });
    [['dl-json', FMT_JSON, '.json', 'application/json'], ['dl-csv', FMT_CSV, '.csv', 'text/csv'],
     ['dl-html', FMT_HTML, '.html', 'text/html'], ['dl-trace', FMT_TRACE, '.trace.json', 'application/json']]
      .forEach(function (d) {
        $(d[0]).addEventListener('click', function () {
          try { download(baseName() + d[2], report(d[1]), d[3]); } catch (e) { showError(String(e.message || e)); }
        });
      });
    $('filter').addEventListener('input', drawLayers);
    Array.prototype.forEach.call($('layers').tHead.rows[0].cells, function (th) {
      th.addEventListener('click', function () {
        var k = th.getAttribute('data-k');
        layerSort = {k: k, dir: layerSort.k === k ? -layerSort.dir : (k === 'name' || k === 'op' || k === 'i' ? 1 : -1)};
        drawLayers();
      });
    });
  }
  function start(mod) {
    M = mod;
    ERR = M._malloc(ERRLEN);
    SUMBUF = M._malloc(8 * SUMMARY.length);
    $('version').textContent = 'libnnperf ' + M.UTF8ToString(M._nnperf_version()) + ' (WebAssembly)';
    var presets = lines(M._nw_presets()), sel = $('preset');
    presets.forEach(function (n) { sel.appendChild(el('option', {value: n}, n)); });
    st.preset = presets.indexOf('zcu102-dpu') >= 0 ? 'zcu102-dpu' : presets[0];
    sel.value = st.preset;
    var keys = $('keys');
    for (var i = 0; i < M._nnperf_platform_key_count(); i++)
      keys.appendChild(el('option', {value: M.UTF8ToString(M._nnperf_platform_key_name(i))}));
    wire();
    st.timings.ready_ms = performance.now();
    st.ready = true;
    $('status').textContent = 'ready: drop a model (' + presets.length + ' platforms built in)';
    readyResolve();
    /* the presets are parsed while the page waits for a model, one per task so that the page stays responsive */
    var todo = presets.slice();
    st.timings.presets_ms = 0;
    (function next() {
      if (!todo.length) { st.presetsLoaded = true; return; }
      var t0 = performance.now();
      try { preset(todo.shift()); } catch (e) { /* shown when the preset is used */ }
      st.timings.presets_ms += performance.now() - t0;
      setTimeout(next, 0);
    })();
  }
  function boot() {
    /* from a file:// URL the .wasm may not be fetched: nnperf-wasm.js carries it as base64, loaded as a script */
    if (location.protocol === 'file:') {
      var s = document.createElement('script');
      s.src = 'nnperf-wasm.js';
      s.onload = function () {
        var b = atob(window.NNPERF_WASM_BASE64), u = new Uint8Array(b.length);
        for (var i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
        window.NNPERF_WASM_BASE64 = null;
        nnperfModule({wasmBinary: u}).then(start);
      };
      s.onerror = function () { showError('nnperf-wasm.js is missing next to index.html'); };
      document.head.appendChild(s);
    } else {
      nnperfModule().then(start);
    }
  }

  window.nnperfPage = {
    ready: ready, state: st, loadBytes: loadBytes, selectPreset: selectPreset, setKey: setKey,
    cliCommand: cliCommand, report: report,
    setDim: function (d, v) { st.dims[d] = String(v); return analyse(); }
  };
  boot();
})();
