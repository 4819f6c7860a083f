/**
 * The live page's script: listens to `GET /events` (server-sent events; the browser sends the
 * session cookie, and reconnects by itself) and redraws every section from each `status` event;
 * draws the PnL curve (the realized history from the journal, then the net PnL of each push) as
 * SVG; sends the controls, each after a confirmation, as JSON with the `x-quanta-request`
 * header. Text only ever goes in through `textContent`: nothing the bot reports is parsed as
 * HTML. When a status has been drawn it sets `document.body.dataset.updates` to their count,
 * which the browser test waits on.
 *
 * Plain ES2015 in a string, as the report page's script (src/backtest/report-page-script.ts):
 * what the page runs must not depend on how the TypeScript was transpiled.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var updates = 0;
  var history = [];
  var live = [];
  var last = null;

  function text(id, value) { $(id).textContent = value == null ? '—' : String(value); }
  function money(v) {
    if (v == null) return '—';
    var n = Number(v);
    return (n < 0 ? '−' : '') + Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function ago(iso) {
    if (!iso || !last) return 'never';
    var ms = Date.parse(last.at) - Date.parse(iso);
    return ms < 1000 ? 'just now' : Math.round(ms / 1000) + ' s ago';
  }
  function table(id, head, rows) {
    var el = $(id);
    while (el.firstChild) el.removeChild(el.firstChild);
    var tr = document.createElement('tr');
    head.forEach(function (h) { var th = document.createElement('th'); th.textContent = h; tr.appendChild(th); });
    el.appendChild(tr);
    if (rows.length === 0) {
      var empty = document.createElement('tr');
      var td = document.createElement('td');
      td.colSpan = head.length;
      td.className = 'none';
      td.textContent = 'none';
      empty.appendChild(td);
      el.appendChild(empty);
    }
    rows.forEach(function (row) {
      var r = document.createElement('tr');
      row.forEach(function (cell) {
        var c = document.createElement('td');
        if (cell && cell.nodeType === 1) c.appendChild(cell); else c.textContent = cell == null ? '—' : String(cell);
        r.appendChild(c);
      });
      el.appendChild(r);
    });
  }

  function post(path, body, what) {
    if (!window.confirm(what + '?')) return;
    fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-quanta-request': '1' },
      body: JSON.stringify(body),
      credentials: 'same-origin'
    }).then(function (res) {
      return res.json().then(function (answer) {
        text('message', res.ok ? what + ': done' : what + ' refused: ' + (answer.error || 'HTTP ' + res.status));
        $('message').className = res.ok ? 'ok' : 'error';
      });
    }, function (e) { text('message', what + ' failed: ' + e.message); $('message').className = 'error'; });
  }

  function changeParams(event) {
    event.preventDefault();
    var name = $('params-strategy').value, key = $('params-key').value, value = $('params-value').value;
    if (!window.confirm('Change ' + name + ' ' + key + ' to ' + value + '?')) return;
    var change = {};
    change[key] = value;
    fetch('/strategies/' + encodeURIComponent(name) + '/params', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-quanta-request': '1', 'x-quanta-client': 'page' },
      body: JSON.stringify({ params: change }),
      credentials: 'same-origin'
    }).then(function (res) {
      return res.json().then(function (answer) {
        if (res.ok) {
          $('params-error').textContent = '';
          text('message', 'Params of ' + name + ' changed (change ' + answer.change.seq + ')');
          $('message').className = 'ok';
          return;
        }
        $('params-error').textContent = [answer.error || 'HTTP ' + res.status].concat(answer.details || []).join('\\n');
      });
    }, function (e) { $('params-error').textContent = 'change failed: ' + e.message; });
  }

  function json(value) {
    var cell = document.createElement('span');
    cell.textContent = JSON.stringify(value);
    return cell;
  }

  function drawParams(s) {
    var params = s.params || {};
    var names = Object.keys(params);
    table('params', ['Strategy', 'Params in effect'], names.map(function (name) { return [name, json(params[name])]; }));
    var select = $('params-strategy');
    if (select.options.length !== names.length) {
      while (select.firstChild) select.removeChild(select.firstChild);
      names.forEach(function (name) { var o = document.createElement('option'); o.value = name; o.textContent = name; select.appendChild(o); });
    }
    table('param-changes', ['#', 'At', 'Strategy', 'By', 'Before', 'After'], (s.paramChanges || []).map(function (c) {
      return [c.seq, c.at, c.strategy, c.by, json(c.previous), json(c.params)];
    }));
  }

  // Candles of the first strategy with bars (its first timeframe and market), oldest first.
  function drawBars(s) {
    var all = s.bars || {};
    var name = Object.keys(all)[0];
    var section = $('bars-section');
    if (name === undefined) { section.hidden = true; return; }
    var bars = all[name];
    section.hidden = false;
    text('bars-title', 'Bars: ' + name + ', ' + bars[0].symbol + ' ' + bars[0].timeframe + ' (last ' + bars.length + ')');
    var svg = $('bars-chart');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var lo = Math.min.apply(null, bars.map(function (b) { return Number(b.low); }));
    var hi = Math.max.apply(null, bars.map(function (b) { return Number(b.high); }));
    var dy = hi - lo || 1, w = 800 / Math.max(bars.length, 20);
    var y = function (v) { return (158 - (Number(v) - lo) / dy * 156).toFixed(1); };
    var ns = 'http://www.w3.org/2000/svg';
    bars.forEach(function (b, i) {
      var cls = Number(b.close) >= Number(b.open) ? 'up' : 'down';
      var x = (i * w + w / 2).toFixed(1);
      var wick = document.createElementNS(ns, 'line');
      wick.setAttribute('x1', x); wick.setAttribute('x2', x); wick.setAttribute('y1', y(b.high)); wick.setAttribute('y2', y(b.low));
      wick.setAttribute('class', cls);
      svg.appendChild(wick);
      var body = document.createElementNS(ns, 'rect');
      var top = Math.min(Number(y(b.open)), Number(y(b.close)));
      body.setAttribute('x', (i * w + w * 0.2).toFixed(1)); body.setAttribute('width', (w * 0.6).toFixed(1));
      body.setAttribute('y', top.toFixed(1)); body.setAttribute('height', Math.max(1, Math.abs(Number(y(b.open)) - Number(y(b.close)))).toFixed(1));
      body.setAttribute('class', cls);
      svg.appendChild(body);
    });
    document.body.dataset.bars = String(bars.length);
  }

  function drawChart() {
    var svg = $('pnl-chart');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var points = history.map(function (p) { return [p.at, Number(p.realizedNet)]; }).concat(live);
    if (points.length < 2) return;
    var t0 = points[0][0], t1 = points[points.length - 1][0];
    var lo = Math.min.apply(null, points.map(function (p) { return p[1]; }).concat([0]));
    var hi = Math.max.apply(null, points.map(function (p) { return p[1]; }).concat([0]));
    var dx = t1 - t0 || 1, dy = hi - lo || 1;
    var xy = function (p) { return ((p[0] - t0) / dx * 796 + 2).toFixed(1) + ',' + (158 - (p[1] - lo) / dy * 156).toFixed(1); };
    var ns = 'http://www.w3.org/2000/svg';
    var zero = document.createElementNS(ns, 'line');
    var zy = (158 - (0 - lo) / dy * 156).toFixed(1);
    zero.setAttribute('x1', '0'); zero.setAttribute('x2', '800'); zero.setAttribute('y1', zy); zero.setAttribute('y2', zy);
    zero.setAttribute('class', 'zero');
    svg.appendChild(zero);
    var line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', points.map(xy).join(' '));
    line.setAttribute('class', 'pnl');
    svg.appendChild(line);
  }

  function draw(s) {
    last = s;
    var mode = $('mode');
    mode.textContent = 'mode: ' + s.mode;
    mode.className = 'badge ' + (s.mode === 'trading' ? 'good' : 'bad');
    var ready = $('ready');
    ready.textContent = s.ready ? 'ready' : 'not ready';
    ready.className = 'badge ' + (s.ready ? 'good' : 'bad');
    var reasons = $('reasons');
    while (reasons.firstChild) reasons.removeChild(reasons.firstChild);
    (s.notReadyReasons || []).forEach(function (r) { var li = document.createElement('li'); li.textContent = r; reasons.appendChild(li); });
    text('net-pnl', money(s.netPnl));
    text('realized', money(s.realizedNet));
    text('unrealized', money(s.unrealized));
    text('freshness', (s.stale ? 'STALE, ' : '') + 'last good poll ' + ago(s.lastGoodPollAt) + (s.pollFailures > 0 ? ', ' + s.pollFailures + ' failing' : ''));
    text('in-flight', s.inFlight + ' in flight, ' + s.unresolvedOrders + ' unresolved');
    text('credentials', s.credentials.canSign ? 'expire ' + s.credentials.expiresAt : 'CANNOT SIGN: ' + s.credentials.refusal);
    text('snapshots', s.snapshots);
    text('updated', s.at);
    table('positions', ['Market', 'Amount', 'Avg entry', 'Mark', 'Unrealized PnL', 'Realized PnL', 'Fees'],
      (s.positions || []).map(function (p) { return [p.symbol, p.amount, p.avgEntryPrice, p.mark, money(p.unrealizedPnl), money(p.realizedPnl), money(p.fees)]; }));
    table('strategies', ['Strategy', 'State', 'Errors', 'Timeouts', ''],
      (s.strategies || []).map(function (name) {
        var paused = (s.paused || []).indexOf(name) >= 0;
        var cell = '';
        if (paused) {
          cell = document.createElement('button');
          cell.textContent = 'Resume ' + name;
          cell.addEventListener('click', function () { post('/strategies/' + encodeURIComponent(name) + '/resume', {}, 'Resume strategy ' + name); });
        }
        return [name, paused ? 'paused' : 'running', (s.strategyErrors || {})[name] || 0, (s.strategyTimeouts || {})[name] || 0, cell];
      }));
    drawParams(s);
    drawBars(s);
    var orderRow = function (o) { return [o.id, o.strategy, o.symbol, o.side, o.type, o.amount, o.type === 'MARKET' ? 'market' : o.price, o.state, o.filled, o.avgFillPrice, o.updatedAt, o.error]; };
    var orderHead = ['Id', 'Strategy', 'Market', 'Side', 'Type', 'Amount', 'Price', 'State', 'Filled', 'Fill price', 'Updated', 'Error'];
    table('open-orders', orderHead, (s.openOrders || []).map(orderRow));
    table('last-orders', orderHead, (s.lastOrders || []).map(orderRow));
    table('refusals', ['Reason', 'Count'], Object.keys(s.refused || {}).map(function (k) { return [k, s.refused[k]]; }));
    var rb = s.rateBudget || {};
    table('rate-budget', ['', ''], Object.keys(rb).map(function (k) { return [k, rb[k]]; }));
    live.push([Date.parse(s.at), Number(s.netPnl)]);
    if (live.length > 2000) live.splice(0, live.length - 2000);
    drawChart();
    updates += 1;
    document.body.dataset.updates = String(updates);
    document.body.dataset.mode = s.mode;
  }

  document.querySelectorAll('button[data-mode]').forEach(function (button) {
    button.addEventListener('click', function () { post('/halt', { mode: button.dataset.mode }, button.textContent); });
  });
  $('resume').addEventListener('click', function () { post('/resume', {}, 'Resume trading'); });
  $('params-form').addEventListener('submit', changeParams);

  var feed = new EventSource('/events');
  feed.addEventListener('open', function () { text('feed', 'live'); $('feed').className = 'badge good'; });
  feed.addEventListener('error', function () { text('feed', 'reconnecting'); $('feed').className = 'badge off'; });
  feed.addEventListener('history', function (e) { history = JSON.parse(e.data); drawChart(); });
  feed.addEventListener('status', function (e) { draw(JSON.parse(e.data)); });
})();
`;
