/**
 * The page's drawing functions (plain browser JavaScript, part of the page's one inline script): the
 * graph, the timeline, the node table and the transitions of one run, each as the run stands or, with
 * `at` (the step slider's choice), as it stood at that step. The timeline keeps the whole run's axis,
 * and draws a long wait for an answer as a marked gap (a broken axis), so the work around it stays
 * visible. Uses `el`, `svg` and `ms` from the script around it.
 */
export const PAGE_DRAW = String.raw`
  var BOX_W = 140, BOX_H = 40;

  // Where the edge from box a to box b leaves a and meets b: on their borders, aimed at the centres.
  function edgeEnds(a, b) {
    var ax = a.x + BOX_W / 2, ay = a.y + BOX_H / 2, bx = b.x + BOX_W / 2, by = b.y + BOX_H / 2;
    function border(cx, cy, dx, dy, gap) {
      var sx = dx === 0 ? Infinity : (BOX_W / 2 + gap) / Math.abs(dx);
      var sy = dy === 0 ? Infinity : (BOX_H / 2 + gap) / Math.abs(dy);
      var s = Math.min(sx, sy);
      return { x: cx + dx * s, y: cy + dy * s };
    }
    var dx = bx - ax, dy = by - ay;
    // The head stops 2 px short of the box it enters, so it never covers the box's border or label.
    return { from: border(ax, ay, dx, dy, 0), to: border(bx, by, -dx, -dy, 2) };
  }

  function graph(entry, at) {
    var run = entry.run, layout = entry.layout;
    var box = svg('svg', { viewBox: '0 0 ' + layout.width + ' ' + layout.height, width: layout.width, height: layout.height, 'class': 'graph', role: 'img' });
    box.setAttribute('aria-label', 'graph of ' + run.id + ': ' + run.shape.nodes.join(', '));
    var defs = svg('defs', {});
    var marker = svg('marker', { id: 'arrow-' + run.id, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 9, markerHeight: 9, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' });
    marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }));
    defs.appendChild(marker);
    box.appendChild(defs);
    var taken = {}, ran = {};
    shown(run, at).forEach(function (t) {
      if (t.to) ran[t.to] = true;
      if (t.from && t.to) taken[t.from + '->' + t.to] = true;
      if (t.kind === 'join' && t.to) taken['join->' + t.to] = true;
    });
    // A join's transition names its last source; every source that ran took its edge.
    var isTaken = function (e) { return taken[e.from + '->' + e.to] || (e.join && taken['join->' + e.to] && ran[e.from]); };
    run.shape.edges.forEach(function (e) {
      var a = layout.nodes[e.from], b = layout.nodes[e.to];
      if (!a || !b) return;
      var ends = edgeEnds(a, b);
      box.appendChild(svg('line', { x1: ends.from.x, y1: ends.from.y, x2: ends.to.x, y2: ends.to.y, 'marker-end': 'url(#arrow-' + run.id + ')',
        'class': 'edge' + (isTaken(e) ? ' taken' : '') + (e.conditional ? ' conditional' : '') }));
    });
    run.shape.nodes.forEach(function (id) {
      var p = layout.nodes[id];
      if (!p) return;
      var g = svg('g', { 'class': 'node ' + nodeStatus(run, at, id), 'data-node': id });
      g.appendChild(svg('rect', { x: p.x, y: p.y, width: BOX_W, height: BOX_H, rx: 6 }));
      var label = svg('text', { x: p.x + BOX_W / 2, y: p.y + 25, 'text-anchor': 'middle' });
      label.textContent = id;
      g.appendChild(label);
      box.appendChild(g);
    });
    return box;
  }

  // A node's status as the run stands, or at the chosen step.
  function nodeStatus(run, at, id) {
    if (at) {
      var st = at.step;
      return st.running.indexOf(id) >= 0 ? 'running' : st.paused.indexOf(id) >= 0 ? 'interrupted' : st.waiting.indexOf(id) >= 0 ? 'waiting' : at.nodes[id] || 'pending';
    }
    var result = run.results[id];
    return result ? result.status : (run.executions.some(function (x) { return x.nodeId === id; }) ? 'running' : 'pending');
  }

  // The timeline's axis: ms on the run's clock -> % of the lane. Waits longer than a tenth of the run are cut to a short marked gap.
  function axis(run) {
    var span = Math.max(run.spanMs, 1);
    var cuts = (run.waits || []).filter(function (w) { return w.endMs - w.startMs > span / 10; });
    var cutMs = cuts.reduce(function (n, w) { return n + (w.endMs - w.startMs); }, 0);
    var gap = cuts.length ? Math.max((span - cutMs) * 0.05, 1) : 0;
    var total = Math.max(span - cutMs + gap * cuts.length, 1);
    function x(t) {
      var shown = t;
      cuts.forEach(function (w) {
        var len = w.endMs - w.startMs;
        if (t >= w.endMs) shown += gap - len;
        else if (t > w.startMs) shown += (gap - len) * (t - w.startMs) / len;
      });
      return Math.min(100, Math.max(0, 100 * shown / total));
    }
    return { x: x, cuts: cuts };
  }

  // The executions as they were at the step: those begun by then (by the transitions it had made);
  // a node running or paused then is open, cut at the step's time; one only routed to is not begun.
  function executionsAt(run, at) {
    if (!at) return run.executions;
    var st = at.step;
    var begun = run.executions.filter(function (x) { return x.via.seq < st.transitionCount; });
    var last = {};
    begun.forEach(function (x) { last[x.nodeId] = x; });
    return begun.flatMap(function (x) {
      if (last[x.nodeId] !== x) return [x];
      var running = st.running.indexOf(x.nodeId) >= 0, paused = st.paused.indexOf(x.nodeId) >= 0;
      if (!running && !paused) return st.waiting.indexOf(x.nodeId) >= 0 ? [] : [x];
      var open = Object.assign({}, x);
      open.durationMs = Math.max(0, st.atMs - x.startMs);
      open.status = paused ? 'interrupted' : 'running';
      return [open];
    });
  }

  function timeline(run, at) {
    var wrap = el('div', 'timeline');
    var scale = axis(run);
    var rows = {};
    var lanes = [];
    executionsAt(run, at).forEach(function (x) {
      var row = rows[x.nodeId];
      if (!row) {
        row = el('div', 'row');
        row.appendChild(el('span', 'row-label', x.nodeId));
        var lane = el('div', 'lane');
        row.appendChild(lane);
        lanes.push(lane);
        rows[x.nodeId] = row;
        wrap.appendChild(row);
      }
      var bar = el('div', 'bar ' + x.status);
      var end = x.durationMs === undefined || x.durationMs === null ? run.spanMs : x.startMs + x.durationMs;
      var left = scale.x(x.startMs);
      bar.style.left = left.toFixed(2) + '%';
      bar.style.width = Math.max(0.6, scale.x(end) - left).toFixed(2) + '%';
      bar.title = x.nodeId + ': ' + x.status + ', ' + ms(x.durationMs) + (x.tokens !== undefined && x.tokens !== null ? ', ' + x.tokens + ' tokens' : '') + ' (' + x.via.kind + ': ' + x.via.reason + ')';
      bar.setAttribute('data-node', x.nodeId);
      row.lastChild.appendChild(bar);
    });
    scale.cuts.forEach(function (w) {
      var left = scale.x(w.startMs), width = scale.x(w.endMs) - left;
      var said = (w.open ? 'waiting ' : 'waited ') + ms(w.endMs - w.startMs) + ' for an answer (' + w.reason + ')';
      lanes.forEach(function (lane) {
        var mark = el('div', 'wait');
        mark.style.left = left.toFixed(2) + '%';
        mark.style.width = width.toFixed(2) + '%';
        mark.title = said;
        lane.appendChild(mark);
      });
      wrap.appendChild(el('p', 'wait-note', 'Hatched: ' + said + ', drawn short.'));
    });
    return wrap;
  }

  // The node table as the run stands, or at the step: each node's latest result by then, and what was running or waiting.
  function nodeTable(run, at) {
    var results = run.results;
    if (at) {
      results = {};
      for (var id in at.results) results[id] = at.results[id];
      at.step.running.concat(at.step.paused, at.step.waiting).forEach(function (id) { if (!results[id]) results[id] = { status: nodeStatus(run, at, id), text: '' }; });
    }
    var wrap = el('div', 'table-wrap');
    var table = el('table', 'nodes');
    var head = el('tr');
    var heads = ['node', 'status', 'runs', 'time', 'tokens', 'model', 'output'];
    heads.forEach(function (h) { head.appendChild(el('th', '', h)); });
    table.appendChild(head);
    Object.keys(results).sort().forEach(function (id) {
      var r = results[id];
      var tr = el('tr');
      [id, r.status, r.executionCount === undefined || r.executionCount === null ? '' : String(r.executionCount), r.executionTimeMs === undefined ? '' : ms(r.executionTimeMs),
        r.tokens === undefined || r.tokens === null ? '' : String(r.tokens) + (r.cache ? ' (cache ' + r.cache.read + ' read, ' + r.cache.write + ' written)' : ''),
        Object.keys(r.models || {}).join(', '), r.error || r.text || ''].forEach(function (v, i) {
        var td = el('td', i === 1 ? 'status ' + v : i === 6 ? 'output' : '', v);
        td.setAttribute('data-label', heads[i]);
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    wrap.appendChild(table);
    return wrap;
  }

  // The run's line: status, node executions, tokens and time, as the run stands or at the step.
  function summaryLine(run, at) {
    var tokensTitle = run.tokensCounted === 'budget'
      ? 'every model call of this run (input + output), as its budget counted them, also calls before a pause or crash'
      : 'the nodes\u2019 stored results (a node resumed after a pause counts its calls since then)';
    var status = at ? at.step.status : run.status;
    var count = executionsAt(run, at).length;
    var tokens = at ? at.step.tokens : run.totalTokens;
    var line = el('p', 'status ' + status, status + ' · ' + count + ' node executions · ' + (tokens === undefined || tokens === null ? '-' : tokens) + ' tokens · ' + ms(at ? at.step.atMs : run.spanMs));
    line.title = 'tokens: ' + tokensTitle;
    return line;
  }
`;
