/** The live page's and the sign-in form's styles (served as a file: the CSP allows no inline style). */
export const PAGE_STYLE = `
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; background: #f8fafc; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 10px 16px; background: #0f172a; color: #f8fafc; }
header h1 { margin: 0 12px 0 0; font-size: 18px; }
nav { margin-left: auto; display: flex; gap: 6px; flex-wrap: wrap; }
button { font: inherit; padding: 4px 10px; border: 1px solid #94a3b8; border-radius: 4px; background: #fff; color: #111827; cursor: pointer; }
button:hover { background: #e2e8f0; }
.badge { padding: 2px 8px; border-radius: 10px; background: #475569; font-size: 12px; }
.badge.good { background: #15803d; }
.badge.bad { background: #b91c1c; }
.badge.off { background: #a16207; }
#message { margin: 8px 16px 0; min-height: 1.4em; }
#message.error { color: #b91c1c; }
#message.ok { color: #15803d; }
#reasons { margin: 4px 16px; color: #b91c1c; }
main { padding: 0 16px 16px; }
section { margin-top: 14px; overflow-x: auto; }
h2 { font-size: 13px; margin: 0 0 6px; color: #334155; text-transform: uppercase; letter-spacing: .03em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 10px; }
.card { background: #fff; border: 1px solid #e2e8f0; border-radius: 6px; padding: 8px 12px; }
.card p { margin: 0; font-size: 18px; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 16px; }
table { border-collapse: collapse; width: 100%; background: #fff; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #e2e8f0; padding: 3px 8px; text-align: left; white-space: nowrap; }
th { background: #f1f5f9; font-weight: 600; }
td.none { color: #64748b; }
svg { width: 100%; height: 160px; background: #fff; border: 1px solid #e2e8f0; }
svg .pnl { fill: none; stroke: #2563eb; stroke-width: 2; vector-effect: non-scaling-stroke; }
svg .zero { stroke: #94a3b8; stroke-dasharray: 4 4; vector-effect: non-scaling-stroke; }
#params-form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
#params-form input, #params-form select { font: inherit; padding: 2px 4px; }
#params-error { color: #b91c1c; white-space: pre-line; margin: 0 0 6px; min-height: 1.4em; }
td.json { white-space: normal; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: 12px; }
svg .up { fill: #16a34a; stroke: #16a34a; vector-effect: non-scaling-stroke; }
svg .down { fill: #dc2626; stroke: #dc2626; vector-effect: non-scaling-stroke; }
footer { padding: 8px 16px 16px; color: #64748b; font-size: 12px; }
body.login { display: grid; place-items: center; min-height: 100vh; }
#login { display: grid; gap: 8px; width: 300px; padding: 20px; background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; }
#login h1 { margin: 0; font-size: 20px; }
#login input { font: inherit; padding: 6px; }
#login-error { color: #b91c1c; min-height: 1.4em; margin: 0; }
`;
