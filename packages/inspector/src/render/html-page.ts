import { PAGE_CLIENT } from './page-client.js';
import type { PageData } from './page-data.js';

const STYLE = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f7f8fa; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px; overflow-wrap: anywhere; }
h1 { font-size: 20px; margin: 0; } h2 { font-size: 17px; margin: 24px 0 6px; } h3 { font-size: 14px; margin: 14px 0 6px; color: #4a5468; }
.meta, .task { color: #5b6476; margin: 2px 0; }
section.run { background: #fff; border: 1px solid #dde1e8; border-radius: 8px; padding: 8px 16px 16px; margin-top: 16px; }
svg.graph { display: block; max-width: 100%; height: auto; } .graph-wrap { overflow-x: auto; }
.edge { stroke: #b7bfcc; stroke-width: 1.5; } .edge.taken { stroke: #2f6fde; stroke-width: 2.5; } .edge.conditional { stroke-dasharray: 5 4; }
marker path { fill: #7d8799; }
.node rect { fill: #eef1f6; stroke: #9aa4b5; } .node text { font-size: 13px; fill: #1d2330; }
.node.completed rect, .bar.completed { fill: #d8f0dc; background: #4caf62; stroke: #4caf62; }
.node.failed rect, .bar.failed, .bar.stopped { fill: #fbdcdc; background: #d9534f; stroke: #d9534f; }
.node.running rect, .node.executing rect, .node.interrupted rect, .bar.running, .bar.interrupted { fill: #fff1cc; background: #e6a700; stroke: #e6a700; }
.timeline { border-left: 1px solid #ccd2dc; }
.row { display: flex; align-items: center; height: 22px; } .row-label { width: 130px; flex: none; font-size: 12px; overflow: hidden; text-overflow: ellipsis; }
.lane { position: relative; flex: 1; height: 14px; background: #f0f2f6; }
.bar { position: absolute; top: 0; height: 14px; border-radius: 3px; min-width: 3px; }
table.nodes { border-collapse: collapse; width: 100%; font-size: 13px; } th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #e6e9ef; vertical-align: top; }
td.status.completed, p.status.completed { color: #2e7d3e; } td.status.failed, p.status.failed { color: #b3261e; } p.status.interrupted, p.status.executing { color: #9a6b00; }
ol.transitions { font-size: 13px; padding-left: 28px; } .kind { font-weight: 600; } .reason { color: #5b6476; } .waiting { color: #9a6b00; font-weight: 600; }
details.conversation { background: #fff; border: 1px solid #dde1e8; border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
.message { border-top: 1px solid #eef0f4; padding: 4px 0; } .role { font-weight: 600; font-size: 12px; color: #4a5468; }
.message.assistant .role { color: #2f6fde; } .block { margin-left: 12px; white-space: pre-wrap; word-break: break-word; }
pre { white-space: pre-wrap; margin: 4px 0 4px 12px; font-size: 12px; }
.problem { color: #b3261e; }
.steps { display: flex; align-items: center; gap: 10px; margin: 4px 0 8px; font-size: 13px; color: #4a5468; } .step-slider { flex: 1; max-width: 520px; }
.node.waiting rect { fill: #e8efff; stroke: #2f6fde; stroke-dasharray: 4 3; }
.wait { position: absolute; top: -2px; height: 18px; background: repeating-linear-gradient(135deg, #fff 0 3px, #c9d1dc 3px 5px); border-left: 1px solid #7d8799; border-right: 1px solid #7d8799; }
.wait-note { font-size: 12px; color: #5b6476; margin: 4px 0 0; }
.table-wrap { overflow-x: auto; } td.output { min-width: 12em; }
@media (max-width: 600px) {
  body { padding: 10px 10px; }
  section.run { padding: 6px 10px 12px; }
  .graph-wrap svg.graph { max-width: none; }
  .row-label { width: 72px; }
  .steps { flex-wrap: wrap; } .step-slider { flex-basis: 100%; }
  table.nodes, table.nodes tbody, table.nodes tr, table.nodes td { display: block; width: auto; }
  table.nodes tr:first-child { display: none; }
  table.nodes tr { border-bottom: 1px solid #dde1e8; padding: 4px 0; }
  table.nodes td { border: 0; padding: 1px 4px; min-width: 0; }
  table.nodes td[data-label]:not(:first-child)::before { content: attr(data-label) ": "; color: #5b6476; }
  table.nodes td:first-child { font-weight: 600; }
  ol.transitions { padding-left: 22px; }
}
`;

/** JSON that is safe inside a <script> element. */
function scriptJson(data: PageData): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The page's Content-Security-Policy: its own inline style and script, no other network than its
 * server's events. A server that serves the page sends it as a header too, with `frame-ancestors`.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:";

/**
 * The inspector's page: one self-contained HTML document (styles, script and data inline; no network
 * when opened). `live` makes it follow the server's `/events` stream.
 */
export function renderHtmlPage(data: PageData, options: { live?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<title>skein · ${data.session.id.replace(/[<&"]/g, '')}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body data-live="${options.live === true}">
<main id="app"></main>
<script type="application/json" id="skein-data">${scriptJson(data)}</script>
<script>${PAGE_CLIENT}</script>
</body>
</html>
`;
}
