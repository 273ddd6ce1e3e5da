import { PAGE_DRAW } from './page-draw.js';

/**
 * The page's script, as plain browser JavaScript (no build step, no network). It draws the data in
 * `#skein-data`; on a live page it re-draws whenever the server sends new data over `/events`.
 * Every piece of stored text goes in through textContent, never as HTML.
 */
export const PAGE_CLIENT = String.raw`
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function ms(n) { return n === undefined || n === null ? '…' : n < 1000 ? Math.round(n) + ' ms' : (n / 1000).toFixed(2) + ' s'; }

  // The step slider: the step shown per run (absent: the last, i.e. the run as it stands).
  var selected = {};
  var current = null;
  function atStep(entry) {
    var steps = entry.steps || [];
    var index = selected[entry.run.id];
    if (index === undefined || index >= steps.length - 1) return null;
    var at = { step: steps[index], nodes: {}, agents: {}, results: {} };
    for (var i = 0; i <= index; i++) {
      var s = steps[i];
      for (var id in s.settled) at.nodes[id] = s.settled[id];
      for (var r in s.results || {}) at.results[r] = s.results[r];
      for (var a in s.agents) at.agents[a] = s.agents[a];
    }
    return at;
  }
  function shown(run, at) {
    return at ? run.transitions.filter(function (t) { return t.seq < at.step.transitionCount; }) : run.transitions;
  }
  function slider(entry) {
    var steps = entry.steps || [];
    var wrap = el('div', 'steps');
    if (steps.length < 2) return wrap;
    var index = selected[entry.run.id] === undefined ? steps.length - 1 : selected[entry.run.id];
    var input = el('input', 'step-slider');
    input.type = 'range'; input.min = '0'; input.max = String(steps.length - 1); input.value = String(index);
    input.setAttribute('aria-label', 'step');
    input.setAttribute('data-run', entry.run.id);
    var s = steps[index];
    var label = el('span', 'step-label', 'step ' + s.step + ' (' + (index + 1) + ' of ' + steps.length + ') · ' + s.status +
      (s.running.length ? ' · running ' + s.running.join(', ') : '') + (s.waiting.length ? ' · waiting ' + s.waiting.join(', ') : '') +
      (s.paused.length ? ' · paused ' + s.paused.join(', ') : ''));
    input.addEventListener('input', function () { selected[entry.run.id] = Number(input.value); render(current, entry.run.id); });
    wrap.appendChild(input);
    wrap.appendChild(label);
    return wrap;
  }

${PAGE_DRAW}
  function events(entry, at) {
    var run = entry.run;
    var list = el('ol', 'transitions');
    shown(run, at).forEach(function (t) {
      var li = el('li', 'kind-' + t.kind);
      li.appendChild(el('span', 'kind', t.kind));
      li.appendChild(el('span', '', ' ' + (t.from || '·') + ' → ' + (t.to || '·') + '  '));
      li.appendChild(el('span', 'reason', t.reason));
      // What the receiver of a handoff got after its input filter.
      if (entry.received && entry.received[t.seq]) li.appendChild(el('span', 'received', ' ' + entry.received[t.seq]));
      list.appendChild(li);
    });
    if (!at) run.waiting.forEach(function (w) { list.appendChild(el('li', 'waiting', 'waiting for an answer: ' + w.reason)); });
    return list;
  }

  // A conversation as it was at the selected step of its run: an agent's messages up to its count then; a swarm turn only once committed.
  function atConversation(c, ats) {
    if (c.turn) {
      var t = ats[c.turn.orchestrator];
      if (t && t.step.turns !== undefined && c.turn.seq >= t.step.turns) return null;
      return c.messages;
    }
    for (var id in ats) {
      var at = ats[id];
      if (at && c.agentId && at.agents[c.agentId] !== undefined)
        return c.messages.filter(function (m) { return m.id < at.agents[c.agentId]; });
    }
    return c.messages;
  }

  function conversation(c, messages) {
    var d = el('details', 'conversation');
    if (c.nodeId) d.setAttribute('data-node', c.nodeId);
    d.appendChild(el('summary', '', c.title + ' (' + messages.length + ' messages)'));
    messages.forEach(function (m) {
      var item = el('div', 'message ' + m.role);
      item.appendChild(el('span', 'role', m.role + (m.redacted ? ' (redacted)' : '')));
      if (m.problem) item.appendChild(el('span', 'problem', ' ! ' + m.problem));
      m.blocks.forEach(function (b) {
        if (b.short === b.full) { item.appendChild(el('div', 'block', b.short)); return; }
        var more = el('details', 'block');
        more.appendChild(el('summary', '', b.short));
        more.appendChild(el('pre', '', b.full));
        item.appendChild(more);
      });
      d.appendChild(item);
    });
    return d;
  }

  function render(data, focus) {
    current = data;
    var app = document.getElementById('app');
    var parts = [];
    var ats = {};
    var h = el('header');
    h.appendChild(el('h1', '', 'session ' + data.session.id));
    h.appendChild(el('p', 'meta', data.session.type + ' · updated ' + (data.session.updatedAt || '-') + ' · read ' + data.generatedAt));
    parts.push(h);
    data.runs.forEach(function (entry) {
      var run = entry.run;
      var at = atStep(entry);
      ats[run.id] = at;
      var s = el('section', 'run');
      s.appendChild(el('h2', '', run.type + ' ' + run.id));
      s.appendChild(slider(entry));
      s.appendChild(summaryLine(run, at));
      if (run.task) s.appendChild(el('p', 'task', run.task));
      var figure = el('div', 'graph-wrap');
      figure.appendChild(graph(entry, at));
      s.appendChild(figure);
      s.appendChild(el('h3', '', 'Timeline'));
      s.appendChild(timeline(run, at));
      s.appendChild(el('h3', '', 'Nodes'));
      s.appendChild(nodeTable(run, at));
      s.appendChild(el('h3', '', 'Transitions'));
      s.appendChild(events(entry, at));
      parts.push(s);
    });
    if (data.conversations.length > 0) {
      var convs = el('section', 'conversations');
      convs.appendChild(el('h2', '', 'Conversations'));
      data.conversations.forEach(function (c) {
        var messages = atConversation(c, ats);
        if (messages) convs.appendChild(conversation(c, messages));
      });
      parts.push(convs);
    }
    if (data.problems.length > 0) {
      var probs = el('section', 'problems');
      probs.appendChild(el('h2', '', 'Could not read'));
      data.problems.forEach(function (p) { probs.appendChild(el('p', 'problem', p.where + ': ' + p.message)); });
      parts.push(probs);
    }
    app.replaceChildren.apply(app, parts);
    document.title = 'skein · ' + data.session.id;
    if (focus) {
      var sliders = document.querySelectorAll('.step-slider');
      for (var i = 0; i < sliders.length; i++) if (sliders[i].getAttribute('data-run') === focus) sliders[i].focus();
    }
  }

  render(JSON.parse(document.getElementById('skein-data').textContent));
  if (document.body.getAttribute('data-live') === 'true' && typeof EventSource === 'function') {
    var source = new EventSource('events');
    source.onmessage = function (e) { render(JSON.parse(e.data)); document.body.setAttribute('data-updates', String(Number(document.body.getAttribute('data-updates') || '0') + 1)); };
  }
})();
`;
