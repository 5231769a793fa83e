/**
 * The page shell shared by report.html and the compare page: inline CSS, an
 * optional inline script allowed by hash in a Content-Security-Policy that
 * forbids every network fetch, and small building blocks (status badges, the
 * legend). No external URL of any kind.
 */
import { createHash } from 'node:crypto';
import { STATUS_LABEL, STATUS_MEANING, STATUS_SEVERITY, escapeHtml } from './common.js';
import type { CheckStatus, Verdict } from './types.js';

export const esc = escapeHtml;

/** An escaped check id or key with break opportunities after its dots, so long ids wrap at segment boundaries. */
export function escId(id: string): string {
  return esc(id).replace(/\./g, '.<wbr>');
}

export const PAGE_CSS = `
:root{--fg:#1f2933;--muted:#5f6b7a;--line:#d9dee5;--bg:#ffffff;--soft:#f5f7fa;
--pass-bg:#dcfce7;--pass-fg:#14532d;--pass-bd:#16a34a;
--fail-bg:#fee2e2;--fail-fg:#7f1d1d;--fail-bd:#dc2626;
--err-bg:#ffedd5;--err-fg:#7c2d12;--err-bd:#ea580c;
--xf-bg:#fef9c3;--xf-fg:#713f12;--xf-bd:#ca8a04;
--up-bg:#ecfccb;--up-fg:#365314;--up-bd:#ca8a04;
--skip-bg:#f1f3f5;--skip-fg:#4b5563;--skip-bd:#9ca3af}
*{box-sizing:border-box}
html{font-size:15px}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg);line-height:1.45}
main{max-width:1240px;margin:0 auto;padding:0 20px 48px}
h1{font-size:1.5rem;margin:0}
h2{font-size:1.25rem;margin:36px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 6px}
h4{font-size:.9rem;margin:12px 0 4px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
p.help{color:var(--muted);margin:4px 0 12px;max-width:80ch}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.86rem}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:0;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word}
pre.copy{user-select:all;background:#0f172a;color:#e2e8f0;border-color:#0f172a}
.copyable{position:relative;margin:0 0 8px}
.copyable pre.copy{padding-right:76px}
.copy-btn{position:absolute;top:6px;right:6px;font:inherit;font-size:.8rem;padding:2px 10px;border:1px solid #94a3b8;border-radius:4px;background:#1e293b;color:#e2e8f0;cursor:pointer}
.copy-btn:hover,.copy-btn:focus-visible{background:#334155;outline:2px solid #93c5fd;outline-offset:1px}
.cut{background:#fde68a;color:#713f12;border-radius:3px;padding:0 2px}
.len{color:var(--muted)}
details.full{margin:4px 0 0}
details.full>summary{font-size:.85rem}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th{background:var(--soft);font-weight:600}
a{color:#1d4ed8}
.banner{margin:0 -20px 0;padding:22px 20px 18px;border-bottom:4px solid}
.banner.v-conformant{background:var(--pass-bg);border-color:var(--pass-bd)}
.banner.v-non-conformant{background:var(--fail-bg);border-color:var(--fail-bd)}
.banner.v-no-verdict{background:var(--xf-bg);border-color:var(--xf-bd)}
.verdict{font-size:2rem;font-weight:800;letter-spacing:.02em;margin:6px 0 2px}
.v-conformant .verdict{color:var(--pass-fg)}.v-non-conformant .verdict{color:var(--fail-fg)}.v-no-verdict .verdict{color:var(--xf-fg)}
.reason{font-size:1.05rem;margin:0 0 12px;word-break:break-word}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:4px 24px;margin:0}
.meta div{display:flex;gap:8px;min-width:0;align-items:baseline}.meta div.wide{grid-column:1/-1}.meta dt{color:var(--muted);min-width:72px}.meta dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin-top:14px}
.count{border:1px solid;border-radius:6px;padding:4px 10px;background:#fff;font-weight:600}
.count b{font-size:1.15rem;margin-right:4px}
.count.zero{color:var(--muted);border-color:var(--line);font-weight:400}
nav.toc{position:sticky;top:0;z-index:2;background:rgba(255,255,255,.96);border-bottom:1px solid var(--line);margin:0 -20px;padding:8px 20px;display:flex;flex-wrap:wrap;gap:4px 18px;font-size:.92rem}
.badge{display:inline-block;border:1px solid;border-radius:999px;padding:0 8px;font-size:.8rem;font-weight:600;white-space:nowrap}
.s-passed{background:var(--pass-bg);color:var(--pass-fg);border-color:var(--pass-bd)}
.s-failed{background:var(--fail-bg);color:var(--fail-fg);border-color:var(--fail-bd)}
.s-error{background:var(--err-bg);color:var(--err-fg);border-color:var(--err-bd)}
.s-expected-fail{background:var(--xf-bg);color:var(--xf-fg);border-color:var(--xf-bd)}
.s-unexpected-pass{background:var(--up-bg);color:var(--up-fg);border-color:var(--up-bd);border-style:dashed}
.s-skipped{background:var(--skip-bg);color:var(--skip-fg);border-color:var(--skip-bd)}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:6px 0 12px;padding:0;list-style:none;font-size:.88rem;color:var(--muted)}
.legend li{display:flex;align-items:center;gap:6px}
.matrix-box,.table-box{overflow-x:auto;max-width:100%;margin:0 0 8px}
.matrix-box:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}
table.matrix{width:auto;min-width:60%;font-size:.9rem}
table.matrix th.res{white-space:nowrap;vertical-align:middle;font-size:.85rem;position:sticky;left:0;z-index:1;background:var(--soft);box-shadow:2px 0 0 var(--line)}
table.matrix thead th{font-size:.78rem;padding:4px 5px;vertical-align:bottom}
table.matrix td{padding:0;min-width:44px;text-align:center;vertical-align:middle;border:2px solid #fff;border-radius:4px}
table.matrix th{border:2px solid #fff}
table.matrix td.empty{background:#f8f9fb;color:#c0c6cf}
table.matrix td a{display:block;padding:5px 3px;color:inherit;text-decoration:none}
table.matrix td a:hover,table.matrix td a:focus{outline:2px solid #1d4ed8;outline-offset:-2px}
table.matrix .w{display:block;font-weight:700;font-size:.78rem}
table.matrix .n{display:block;font-size:.75rem}
.card{border:1px solid var(--line);border-left:6px solid var(--fail-bd);border-radius:6px;padding:12px 14px;margin:14px 0;background:#fff;color:var(--fg)}
.card.s-error{border-left-color:var(--err-bd)}.card.s-passed{border-left-color:var(--pass-bd)}.card.s-expected-fail{border-left-color:var(--xf-bd)}
.card .where{color:var(--muted);font-size:.9rem;margin-bottom:6px}
.card .where .spec{color:var(--fg);font-weight:700;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 6px}
.card .msg{margin:6px 0;font-weight:600;word-break:break-word}
details.group{border:1px solid var(--line);border-left:6px solid var(--fail-bd);border-radius:6px;margin:10px 0;padding:0 12px;background:#fff}
details.group>summary{color:var(--fg);padding:10px 0;font-size:1.02rem;line-height:1.6}
details.group>summary code.rule{font-weight:700}
details.group>summary .n{color:var(--fail-fg);white-space:nowrap}
details.group>summary .spec{color:var(--muted);white-space:nowrap}
details.group>.where{color:var(--muted);font-size:.9rem;margin:0 0 4px}
details.group[open]{padding-bottom:4px}
.badge.new{background:#fff;color:var(--fail-fg);border-color:var(--fail-bd);border-style:dashed}
.side{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.side>div{min-width:0}
details{margin:8px 0}
summary{cursor:pointer;color:#1d4ed8}
.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;margin:8px 0 10px;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:6px}
.filters label{font-size:.88rem;color:var(--muted)}
.filters select,.filters input{font:inherit;font-size:.9rem;padding:2px 4px}
table.checks td.id,td.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.82rem;overflow-wrap:break-word}
table.checks td.id{width:26%}
table.checks td.st,table.checks th.st{width:1%;white-space:nowrap}
table.kv th{width:230px}
section>h3{margin-top:18px}
table.checks tr.hidden{display:none}
table.checks tr:target td{background:#fff7d6}
tr.differs td{background:#fffbeb}tr.differs td.mark{background:#fde68a;font-weight:700;text-align:center}
td.id div.muted{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:.85rem}
.muted{color:var(--muted)}
.ok{color:var(--pass-fg);font-weight:700}.bad{color:var(--fail-fg);font-weight:700}
footer{margin-top:40px;color:var(--muted);font-size:.85rem;border-top:1px solid var(--line);padding-top:10px}
@media (max-width:800px){.side{grid-template-columns:1fr}}
@media print{nav.toc,.filters,.copy-btn{display:none}.matrix-box,.table-box{overflow:visible}table.checks tr.hidden{display:table-row}pre{max-height:none}}
`;

/** The complete page. `script` runs under a CSP that allows it by hash only; nothing can be fetched. */
export function page(title: string, body: string, script?: string): string {
  const scriptHash = script ? createHash('sha256').update(script, 'utf8').digest('base64') : undefined;
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src data:",
    scriptHash ? `script-src 'sha256-${scriptHash}'` : "script-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    body,
    script ? `<script>${script}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function statusBadge(status: CheckStatus | undefined): string {
  if (!status) return '<span class="badge s-skipped">absent</span>';
  return `<span class="badge s-${esc(status)}">${esc(STATUS_LABEL[status] ?? status)}</span>`;
}

export function legend(): string {
  return `<ul class="legend" id="legend">${STATUS_SEVERITY.map((s) =>
    `<li>${statusBadge(s)} ${esc(STATUS_MEANING[s])}</li>`).join('')}</ul>`;
}

export const VERDICT_TEXT: Record<Verdict, string> = {
  conformant: 'Conformant',
  'non-conformant': 'Non-conformant',
  'no-verdict': 'No verdict',
};
