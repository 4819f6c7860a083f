/** The report page's own style (the chart libraries bring theirs). */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 10px}
.muted,small{color:#6b7280}
.meta{color:#4b5563;margin:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin-top:16px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px 12px}
.card .label{font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:18px;font-variant-numeric:tabular-nums}
.neg{color:#b91c1c}
.chart{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:8px;min-height:120px;width:100%}
figure{margin:12px 0}
figcaption{font-weight:600;margin-bottom:4px}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #e5e7eb;font-variant-numeric:tabular-nums}
th,td{padding:4px 6px;border-bottom:1px solid #f1f5f9;text-align:left;white-space:nowrap;font-size:13px}
th{white-space:normal}
th{background:#f1f5f9;font-weight:600;position:sticky;top:0}
table.num td:not(:first-child){text-align:right}
table.narrow{width:auto;min-width:320px}
table.orders td,table.trades td{font-size:13px}
.warn{background:#fffbeb;border:1px solid #fcd34d;border-radius:8px;padding:8px 12px;margin-top:14px}
.warn ul{margin:4px 0 0;padding-left:20px}
pre.config{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px;font-size:12px;white-space:pre-wrap;word-break:break-all}
table.strategies td:nth-child(2),table.strategies td:nth-child(3){text-align:left}
code.params{font-size:12px;white-space:normal;word-break:break-all;display:inline-block;max-width:320px}
table.orders td:last-child{white-space:normal;color:#b91c1c}
.scroll{overflow:auto;max-height:600px;border-radius:8px}
.state{padding:1px 6px;border-radius:4px;background:#e5e7eb}
.state-filled{background:#dcfce7}
.state-rejected,.state-unknown{background:#fee2e2}
.state-cancelled{background:#fef9c3}
footer{margin:32px 0 8px;color:#9ca3af;font-size:12px}
`;
