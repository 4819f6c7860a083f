/**
 * The live page (`GET /`): sections the script fills from the server-sent events. No inline
 * script or style (the CSP forbids them); nothing loaded from elsewhere.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>quanta bot</title>
<link rel="stylesheet" href="/assets/page.css">
<script src="/assets/page.js" defer></script>
</head>
<body>
<header>
  <h1>quanta</h1>
  <span id="mode" class="badge">…</span>
  <span id="ready" class="badge">…</span>
  <span id="feed" class="badge off">connecting</span>
  <nav id="controls">
    <button data-mode="halt-entries">Halt entries</button>
    <button data-mode="halt">Halt</button>
    <button data-mode="flatten">Flatten</button>
    <button id="resume">Resume</button>
  </nav>
</header>
<p id="message" role="status"></p>
<ul id="reasons"></ul>
<main>
  <section class="cards">
    <div class="card"><h2>Net PnL</h2><p id="net-pnl">…</p></div>
    <div class="card"><h2>Realized (net of fees)</h2><p id="realized">…</p></div>
    <div class="card"><h2>Unrealized</h2><p id="unrealized">…</p></div>
    <div class="card"><h2>Data</h2><p id="freshness">…</p></div>
    <div class="card"><h2>Orders in flight</h2><p id="in-flight">…</p></div>
    <div class="card"><h2>Credentials</h2><p id="credentials">…</p></div>
  </section>
  <section><h2>PnL over time (realized from the journal, net live)</h2><svg id="pnl-chart" viewBox="0 0 800 160" preserveAspectRatio="none"></svg></section>
  <section id="bars-section" hidden><h2 id="bars-title">Bars</h2><svg id="bars-chart" viewBox="0 0 800 160" preserveAspectRatio="none"></svg></section>
  <section><h2>Positions</h2><table id="positions"></table></section>
  <section><h2>Strategies</h2><table id="strategies"></table></section>
  <section>
    <h2>Params (changed live: checked by the strategy's schema, kept over a restart)</h2>
    <table id="params"></table>
    <form id="params-form">
      <label>Strategy <select id="params-strategy"></select></label>
      <label>Param <input id="params-key" required size="16"></label>
      <label>Value <input id="params-value" required size="16"></label>
      <button type="submit">Change</button>
    </form>
    <p id="params-error" role="alert"></p>
    <table id="param-changes"></table>
  </section>
  <section><h2>Open orders</h2><table id="open-orders"></table></section>
  <section><h2>Latest orders and fills</h2><table id="last-orders"></table></section>
  <section class="pair">
    <div><h2>Refusals by reason</h2><table id="refusals"></table></div>
    <div><h2>Rate budget</h2><table id="rate-budget"></table></div>
  </section>
</main>
<footer>Updated <span id="updated">never</span>. Snapshots: <span id="snapshots">0</span>.</footer>
</body>
</html>
`;

/** The sign-in form, answered (401) in place of the page to a browser without a session. */
export const LOGIN_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>quanta bot: sign in</title>
<link rel="stylesheet" href="/assets/page.css">
<script src="/assets/login.js" defer></script>
</head>
<body class="login">
<form id="login">
  <h1>quanta</h1>
  <label for="token">Control token</label>
  <input id="token" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
  <p id="login-error" role="alert"></p>
</form>
</body>
</html>
`;
