/**
 * The browser code of `report.html`: reads the inline `#report-data` JSON and draws the equity
 * (with buy-and-hold and one line per strategy instance), drawdown, margin use and leverage (runs on
 * perpetuals), per-market position, per-market
 * price (bid/ask band, fills, strategy plots) and returns-histogram charts with uPlot, and one
 * candlestick chart per market (the mid's candles, fills, protective exits and liquidations marked) with
 * Lightweight Charts (both inlined before it). Values under the cursor read as the tables do: money to the cent, prices (and the
 * strategy plots drawn on a market's price chart) to the market's tick, positions to its quantum
 * (data.markets); a market without known precision shows its values as they are. When the charts exist
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

  function num(v) { return v == null ? null : Number(v); }
  function utc(ts) { return uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'); }
  function widthOf(el) { return Math.max(280, Math.floor(el.getBoundingClientRect().width) - 18); }
  function digits(min, max) {
    return function (u, v) {
      return v == null ? '' : v.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
    };
  }
  var money = digits(2, 2);
  // A market whose precision the trace did not carry: the value as it is, no made-up places.
  function exact(u, v) { return v == null ? '' : String(v); }
  var precision = {};
  (data.markets || []).forEach(function (m) { precision[m.marketId] = m; });
  function priceOf(id) { return precision[id] ? digits(0, precision[id].priceExpo) : exact; }
  function amountOf(id) { return precision[id] ? digits(0, precision[id].amountExpo) : exact; }
  function noPath() { return null; }

  function plotIn(el, height, opts, data) {
    if (!el) return;
    opts.width = widthOf(el);
    opts.height = height;
    var plot = new uPlot(opts, data, el);
    charts.push({ plot: plot, el: el, height: height });
  }

  function draw(el, height, series, ys, x) {
    plotIn(el, height, {
      tzDate: utc,
      scales: { x: { time: true } },
      axes: [{}, { size: 80 }],
      series: [{ label: 'time (UTC)' }].concat(series)
    }, [x || xs].concat(ys));
  }

  function marker(label, color, value) {
    return {
      label: label, stroke: color, fill: color, width: 0, paths: noPath, value: value,
      points: { show: true, size: 10, width: 1, fill: color, stroke: color, space: 0 }
    };
  }

  if (xs.length > 0) {
    var equitySeries = [
      { label: 'equity', stroke: '#111827', width: 2, value: money },
      { label: 'buy and hold', stroke: '#9ca3af', width: 1.25, dash: [6, 4], value: money }
    ];
    var equityYs = [s.equity.map(num), s.benchmark.map(num)];
    s.strategyEquity.forEach(function (e, i) {
      equitySeries.push({ label: e.strategy, stroke: palette[i % palette.length], width: 1.25, value: money });
      equityYs.push(e.equity.map(num));
    });
    draw(document.getElementById('chart-equity'), 300, equitySeries, equityYs);
    draw(document.getElementById('chart-drawdown'), 200, [
      { label: 'drawdown', stroke: '#dc2626', fill: 'rgba(220, 38, 38, 0.15)', width: 1, value: money }
    ], [s.drawdown.map(function (v) { return -num(v); })]);
    if (s.marginUse) {
      // Margin use in percent on the left axis, leverage on the right (docs/margin.md).
      var percent = function (u, v) { return v == null ? '' : v.toFixed(2) + '%'; };
      var times = function (u, v) { return v == null ? '' : v.toFixed(2) + 'x'; };
      plotIn(document.getElementById('chart-margin'), 220, {
        tzDate: utc,
        scales: { x: { time: true }, lev: {} },
        axes: [{}, { size: 80, values: function (u, vs) { return vs.map(function (v) { return v + '%'; }); } },
          { side: 1, scale: 'lev', size: 60, grid: { show: false }, values: function (u, vs) { return vs.map(function (v) { return v + 'x'; }); } }],
        series: [{ label: 'time (UTC)' },
          { label: 'margin use', stroke: '#ea580c', width: 1.5, value: percent },
          { label: 'leverage', stroke: '#2563eb', width: 1.25, scale: 'lev', value: times }]
      }, [xs, s.marginUse.map(function (v) { return v == null ? null : Number(v) * 100; }), s.leverage.map(num)]);
    }
    s.positions.forEach(function (p, i) {
      draw(document.querySelector('[data-position-chart="' + p.marketId + '"]'), 140, [{
        label: p.symbol + ' position',
        stroke: palette[i % palette.length],
        width: 1.5,
        paths: uPlot.paths.stepped({ align: 1 }),
        value: amountOf(p.marketId)
      }], [p.position.map(num)]);
    });
  }

  data.priceCharts.forEach(function (c) {
    if (c.t.length === 0) return;
    var price = priceOf(c.marketId);
    var series = [
      { label: 'ask', stroke: 'rgba(220, 38, 38, 0.5)', width: 1, value: price },
      { label: 'bid', stroke: 'rgba(22, 163, 74, 0.5)', width: 1, value: price },
      { label: 'mid', stroke: '#111827', width: 1.25, value: price },
      marker('buy', '#16a34a', price),
      marker('sell', '#dc2626', price)
    ];
    var ys = [c.ask.map(num), c.bid.map(num), c.mid.map(num), c.buys.map(num), c.sells.map(num)];
    c.plots.forEach(function (p, i) {
      // Drawn on the market's price axis, so read to its tick like the bid, ask and mid.
      series.push({ label: p.strategy + ': ' + p.name, stroke: palette[(i + 2) % palette.length], width: 1.25, spanGaps: true, value: price });
      ys.push(p.values.map(num));
    });
    plotIn(document.querySelector('[data-price-chart="' + c.marketId + '"]'), 260, {
      tzDate: utc,
      scales: { x: { time: true } },
      axes: [{}, { size: 80 }],
      bands: [{ series: [1, 2], fill: 'rgba(37, 99, 235, 0.10)' }],
      series: [{ label: 'time (UTC)' }].concat(series)
    }, [c.t.map(function (t) { return t / 1000; })].concat(ys));
  });

  // Candles with Lightweight Charts (inlined before this script as the global LightweightCharts).
  var candleCharts = [];
  var candleCount = 0;
  var liquidationMarkers = 0;
  var INDICATOR_COLORS = ['#2563eb', '#f59e0b', '#9333ea', '#0891b2', '#db2777', '#65a30d'];
  // A strategy's indicators over its own bars: those on the price scale (chart-placement.ts) over the
  // candles, each other one in a pane of its own; every series' pane is read back from the chart
  // into data-indicator-panes, so the page says where each one really went.
  function drawIndicators(chart, k, el) {
    var panes = {};
    var nextPane = 1;
    var colorAt = 0;
    (k.indicators || []).forEach(function (ind) {
      var pane = ind.placement.pane === 'price' ? 0 : nextPane++;
      var histogram = ind.placement.histogram || [];
      var first;
      ind.fields.forEach(function (field, f) {
        var isHistogram = histogram.indexOf(field) >= 0;
        var series = chart.addSeries(isHistogram ? LightweightCharts.HistogramSeries : LightweightCharts.LineSeries, {
          color: INDICATOR_COLORS[colorAt++ % INDICATOR_COLORS.length],
          lineWidth: 1,
          priceLineVisible: false,
          lastValueVisible: false,
          title: ind.fields.length === 1 ? ind.name : ind.name + ' ' + field
        }, pane);
        var points = [];
        ind.values[f].forEach(function (v, i) { if (v !== null) points.push({ time: k.t[i] / 1000, value: v }); });
        series.setData(points);
        if (!first) first = series;
        panes[ind.name + (ind.fields.length === 1 ? '' : '.' + field)] = series.getPane().paneIndex();
      });
      (ind.placement.levels || []).forEach(function (level) {
        if (first) first.createPriceLine({ price: level, color: '#9ca3af', lineWidth: 1, lineStyle: 2, axisLabelVisible: true, title: '' });
      });
    });
    chart.panes().forEach(function (p, i) { if (i > 0) p.setHeight(110); });
    el.dataset.indicatorPanes = JSON.stringify(panes);
    return nextPane - 1;
  }

  data.priceCharts.forEach(function (c) {
    var el = document.querySelector('[data-candle-chart="' + c.marketId + '"]');
    // The strategy's own bars when one declares them, else the mid's candles.
    var k = c.bars || c.candles;
    if (!el || k.t.length === 0) return;
    var m = precision[c.marketId];
    var decimals = m ? Math.max(0, m.priceExpo) : 4;
    var chart = LightweightCharts.createChart(el, {
      width: widthOf(el),
      height: 320 + 110 * ((c.bars && c.bars.indicators || []).filter(function (i) { return i.placement.pane !== 'price'; }).length),
      layout: { background: { color: '#ffffff' }, textColor: '#1f2937' },
      timeScale: { timeVisible: true, secondsVisible: k.ms < 60000 },
      localization: { locale: 'en-US' }
    });
    var candles = chart.addSeries(LightweightCharts.CandlestickSeries, {
      priceFormat: { type: 'price', precision: decimals, minMove: Math.pow(10, -decimals) }
    });
    candles.setData(k.t.map(function (t, i) {
      return { time: t / 1000, open: num(k.open[i]), high: num(k.high[i]), low: num(k.low[i]), close: num(k.close[i]) };
    }));
    LightweightCharts.createSeriesMarkers(candles, c.fills.map(function (f) {
      var buy = f.side === 'BUY';
      return {
        time: Math.floor(f.t / k.ms) * k.ms / 1000,
        position: buy ? 'belowBar' : 'aboveBar',
        shape: buy ? 'arrowUp' : 'arrowDown',
        color: f.exit === 'liquidation' ? '#000000' : f.exit ? '#9333ea' : buy ? '#16a34a' : '#dc2626',
        // What closed it (a protective exit, a liquidation), else the order's tag.
        text: f.exit || f.tag || ''
      };
    }));
    var ownPanes = c.bars ? drawIndicators(chart, c.bars, el) : 0;
    liquidationMarkers += c.fills.filter(function (f) { return f.exit === 'liquidation'; }).length;
    chart.timeScale().fitContent();
    candleCharts.push({ chart: chart, el: el, height: 320 + 110 * ownPanes });
    candleCount += k.t.length;
  });

  var h = data.histogram;
  if (h.counts.length > 0) {
    var centers = h.counts.map(function (_, i) { return (Number(h.edgesBps[i]) + Number(h.edgesBps[i + 1])) / 2; });
    plotIn(document.getElementById('chart-returns'), 200, {
      scales: { x: { time: false, range: [Number(h.edgesBps[0]), Number(h.edgesBps[h.edgesBps.length - 1])] } },
      axes: [{ label: 'return (bps)' }, { size: 60 }],
      series: [{ label: 'bps' }, {
        label: 'snapshots', stroke: '#2563eb', fill: 'rgba(37, 99, 235, 0.35)', width: 1,
        paths: uPlot.paths.bars({ size: [0.9, 100] }), points: { show: false }
      }]
    }, [centers, h.counts]);
  }

  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: widthOf(c.el), height: c.height }); });
    candleCharts.forEach(function (c) { c.chart.resize(widthOf(c.el), c.height); });
  });
  document.body.dataset.candles = String(candleCount);
  document.body.dataset.liquidationMarkers = String(liquidationMarkers);
  document.body.dataset.chartsReady = String(charts.length + candleCharts.length);
})();
`;
