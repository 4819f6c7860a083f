/**
 * The browser code of `report.html`: reads the inline `#report-data` JSON and draws the equity,
 * drawdown and per-market position charts with uPlot (inlined before it). When the charts exist
 * it sets `document.body.dataset.chartsReady` to their count, which the browser test waits for.
 *
 * Plain ES2015 in a string rather than a TypeScript function's `toString()`: what the page runs
 * must not depend on how the TypeScript was transpiled, or reports would differ between runners.
 */
export const REPORT_PAGE_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var s = data.series;
  var palette = ['#2563eb', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be123c', '#4d7c0f', '#a16207'];
  var xs = s.t.map(function (t) { return t / 1000; });
  var charts = [];

  function num(v) { return Number(v); }
  function utc(ts) { return uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'); }
  function widthOf(el) { return Math.max(280, Math.floor(el.getBoundingClientRect().width)); }
  function money(u, v) { return v == null ? '' : v.toLocaleString('en-US', { maximumFractionDigits: 4 }); }

  function draw(el, height, series, ys) {
    if (!el) return;
    var opts = {
      width: widthOf(el),
      height: height,
      tzDate: utc,
      scales: { x: { time: true } },
      axes: [{}, { size: 80 }],
      series: [{ label: 'time (UTC)' }].concat(series)
    };
    var plot = new uPlot(opts, [xs].concat(ys), el);
    charts.push({ plot: plot, el: el, height: height });
  }

  if (xs.length > 0) {
    var equitySeries = [{ label: 'equity', stroke: '#111827', width: 2, value: money }];
    var equityYs = [s.equity.map(num)];
    s.strategyEquity.forEach(function (e, i) {
      equitySeries.push({ label: e.strategy, stroke: palette[i % palette.length], width: 1.25, value: money });
      equityYs.push(e.equity.map(num));
    });
    draw(document.getElementById('chart-equity'), 300, equitySeries, equityYs);
    draw(document.getElementById('chart-drawdown'), 200, [
      { label: 'drawdown', stroke: '#dc2626', fill: 'rgba(220, 38, 38, 0.15)', width: 1, value: money }
    ], [s.drawdown.map(function (v) { return -num(v); })]);
    s.positions.forEach(function (p, i) {
      draw(document.querySelector('[data-position-chart="' + p.marketId + '"]'), 140, [{
        label: p.symbol + ' position',
        stroke: palette[i % palette.length],
        width: 1.5,
        paths: uPlot.paths.stepped({ align: 1 }),
        value: money
      }], [p.position.map(num)]);
    });
  }

  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: widthOf(c.el), height: c.height }); });
  });
  document.body.dataset.chartsReady = String(charts.length);
})();
`;
