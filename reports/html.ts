// HTML: one self-contained page (inline CSS and JS, no network: a Content-Security-Policy forbids
// any load) for a report, with filters by status and area and every check's evidence in <details>;
// and a matrix page (implementations x checks) from several reports. Every string taken from a
// report is escaped: servers choose their names, messages and payloads.

import type { CheckResult } from '../results/run.js';
import type { Status } from '../results/verdict.js';
import { STATUSES } from '../results/verdict.js';
import { traceabilityOf, type Report } from './report.js';
import { byArea, countStatuses, evidenceLines, implementationName, oneLine, targetLabel, verdictWord } from './shared.js';
import { areaKey, mustLine, percent, REQUIREMENT_RESULTS, RESULT_LABEL, type TraceCounts, type Traceability, type TracedRequirement } from './traceability.js';

/** Escape for HTML text and attribute values. */
export function esc(v: unknown): string {
  return String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function safeHref(u: string): string | undefined {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
:root { --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --skip:#6e7781; --untestable:#6e7781; --error:#8250df; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color:#1f2328; }
body { margin: 1.5rem auto; max-width: 72rem; padding: 0 1rem; line-height: 1.4; }
[hidden] { display: none !important; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
.meta { color:#57606a; margin: .2rem 0; word-break: break-all; }
.verdict { padding: .1rem .5rem; border-radius: .3rem; color: #fff; }
.v-CONFORMANT { background: var(--pass); } .v-NONCONFORMANT, .v-MCPSPEC-ERROR { background: var(--fail); } .v-NOTHING-JUDGED, .v-AUTHORIZATION-ONLY { background: var(--skip); }
.counts { display:flex; gap:.6rem; list-style:none; padding:0; flex-wrap: wrap; }
.counts li { border:1px solid #d0d7de; border-radius:.4rem; padding:.3rem .7rem; }
.counts .n { font-weight: 700; font-size: 1.2rem; margin-right: .3rem; }
.s-pass { color: var(--pass); } .s-fail { color: var(--fail); } .s-warn { color: var(--warn); } .s-skip, .s-untestable { color: var(--skip); } .s-error { color: var(--error); }
fieldset { border:1px solid #d0d7de; border-radius:.4rem; margin:.4rem 0; }
fieldset label { margin-right: .8rem; white-space: nowrap; }
details.check { border-bottom: 1px solid #eaeef2; padding: .25rem 0; }
details.check > summary { cursor: pointer; }
.tag { display:inline-block; min-width: 5.5rem; font-weight:700; font-family: ui-monospace, monospace; }
.level { color:#57606a; font-size:.85em; }
.area { color:#57606a; font-size:.85em; }
.body { margin: .4rem 0 .6rem 1.5rem; }
.req { font-family: ui-monospace, monospace; background:#f6f8fa; padding:0 .3rem; border-radius:.2rem; }
.evidence { border-left: 3px solid #d0d7de; padding-left: .7rem; margin: .5rem 0; }
.evidence dl { display:grid; grid-template-columns: 8rem 1fr; gap: .1rem .6rem; margin: .3rem 0; }
.evidence dt { color:#57606a; } .evidence dd { margin:0; }
pre { margin:0; white-space: pre-wrap; word-break: break-all; font-size:.85em; background:#f6f8fa; padding:.2rem .4rem; border-radius:.2rem; }
.scroll { overflow-x: auto; }
table.matrix { border-collapse: collapse; font-size: .85em; }
table.matrix th, table.matrix td { border:1px solid #d0d7de; padding:.2rem .35rem; text-align:center; }
table.matrix th.check { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: 500; font-family: ui-monospace, monospace; white-space: nowrap; }
table.matrix th.impl { text-align:left; }
table.trace { border-collapse: collapse; font-size: .85em; margin: .4rem 0 1rem; }
table.trace th, table.trace td { border:1px solid #d0d7de; padding:.2rem .4rem; }
table.trace td.n { text-align: right; }
table.trace tbody th { text-align: left; font-weight: 500; }
table.trace td.result { white-space: nowrap; }
table.trace tr.sum th, table.trace tr.sum td { font-weight: 700; }
table.trace tr.area-row th { text-align: left; background:#f6f8fa; }
.r-met { background:#dafbe1; } .r-broken { background:#ffebe9; } .r-warned { background:#fff8c5; } .r-error { background:#fbefff; } .r-not-applicable, .r-not-testable, .r-no-check { color:#6e7781; }
td.c-pass { background:#dafbe1; } td.c-fail { background:#ffebe9; } td.c-warn { background:#fff8c5; } td.c-error { background:#fbefff; } td.c-skip, td.c-untestable { background:#f6f8fa; color:#6e7781; }
`;

const SCRIPT = `
(function () {
  var checks = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var shown = document.getElementById('shown');
  function values(name) {
    return Array.prototype.slice.call(document.querySelectorAll('input[name="' + name + '"]:checked')).map(function (i) { return i.value; });
  }
  function apply() {
    var st = values('status'), ar = values('area'), n = 0;
    checks.forEach(function (d) {
      var show = st.indexOf(d.getAttribute('data-status')) >= 0 && ar.indexOf(d.getAttribute('data-area')) >= 0;
      d.hidden = !show;
      if (show) n += 1;
    });
    shown.textContent = n + ' of ' + checks.length + ' checks shown';
  }
  function set(name, pick) {
    Array.prototype.slice.call(document.querySelectorAll('input[name="' + name + '"]')).forEach(function (i) { i.checked = pick(i.value); });
    apply();
  }
  document.querySelectorAll('#filters input').forEach(function (i) { i.addEventListener('change', apply); });
  document.getElementById('show-all').addEventListener('click', function () { set('status', function () { return true; }); set('area', function () { return true; }); });
  document.getElementById('show-problems').addEventListener('click', function () { set('status', function (v) { return v === 'fail' || v === 'warn' || v === 'error'; }); });
  document.getElementById('expand').addEventListener('click', function () { checks.forEach(function (d) { if (!d.hidden) d.open = true; }); });
  document.getElementById('collapse').addEventListener('click', function () { checks.forEach(function (d) { d.open = false; }); });
  apply();
})();
`;

function page(title: string, body: string, script = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    script ? `<script>${script}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function verdictSpan(report: Report): string {
  const v = verdictWord(report);
  return `<span class="verdict v-${v.replace(/ /g, '-')}" id="verdict">${v}</span>`;
}

function evidenceHtml(c: CheckResult): string {
  const parts: string[] = [];
  if (c.case) {
    parts.push(`<div class="evidence case"><strong>generated case</strong> (seed ${esc(c.case.seed)}, path ${esc(c.case.path)}, ${esc(c.case.shrinks)} shrinks${c.case.shrinkBudgetReached ? ', shrink budget reached' : ''})<pre>${esc(oneLine(c.case.value, 4000))}</pre></div>`);
  }
  for (const e of c.evidence) {
    const rows = evidenceLines(e, 4000);
    const [, what] = rows[0];
    const dl = rows.slice(1).map(([label, text]) => `<dt>${esc(label)}</dt><dd><pre>${esc(text)}</pre></dd>`).join('');
    parts.push(`<div class="evidence"><strong>${esc(what)}</strong>${dl ? `<dl>${dl}</dl>` : ''}</div>`);
  }
  return parts.join('\n');
}

function checkHtml(c: CheckResult): string {
  const href = safeHref(c.spec);
  const spec = href ? `<a class="spec" href="${esc(href)}" rel="noopener noreferrer">${esc(c.spec)}</a>` : esc(c.spec);
  return [
    `<details class="check" data-status="${esc(c.status)}" data-area="${esc(c.area)}" data-id="${esc(c.id)}">`,
    `<summary><span class="tag s-${esc(c.status)}">${esc(c.status.toUpperCase())}</span> <code>${esc(c.id)}</code> <span class="level">[${esc(c.level)}]</span> <span class="message">${esc(oneLine(c.message, 1000))}</span></summary>`,
    '<div class="body">',
    `<p>${esc(c.title)}</p>`,
    `<p>requirements: ${c.requirements.map((r) => `<span class="req">${esc(r)}</span>`).join(' ')} · spec: ${spec} · ${esc(c.kind === 'oracle' ? 'oracle over the whole run' : `scenario ${c.scenario}`)} · versions ${esc(c.versions.join(', '))}</p>`,
    evidenceHtml(c),
    '</div>',
    '</details>',
  ].join('\n');
}

function findingsHtml(report: Report): string {
  if (!report.findings.length) return '';
  const items = report.findings.map((f) => {
    const extra = [f.scenario ? `scenario ${esc(f.scenario)}` : '', f.lastSent ? `last message sent: <pre>${esc(oneLine(f.lastSent, 2000))}</pre>` : '', f.stderrTail ? `stderr tail: <pre>${esc(f.stderrTail)}</pre>` : ''].filter(Boolean).join(' ');
    return `<li class="finding f-${esc(f.kind)}"><strong>${esc(f.kind)}</strong>: ${esc(f.message)}${extra ? `<div>${extra}</div>` : ''}</li>`;
  });
  return `<section id="findings"><h2>Findings (${report.findings.length})</h2><ul>${items.join('\n')}</ul></section>`;
}

/** The header every report page starts with: verdict, target, era, counts. */
function headerHtml(report: Report): string {
  const s = report.summary;
  const counts = STATUSES.map((k) => `<li class="s-${k}"><span class="n" data-count="${k}">${s[k]}</span>${k}</li>`).join('');
  const caps = Object.keys(report.peer.capabilities ?? {});
  return [
    '<header>',
    `<h1>mcpspec: ${verdictSpan(report)} ${esc(implementationName(report))}</h1>`,
    `<p class="meta" id="target">${esc(report.role)} under test over ${esc(report.target.transport)}: <code>${esc(targetLabel(report))}</code></p>`,
    `<p class="meta" id="era">era: <strong>${esc(report.era.era)} ${esc(report.era.version)}</strong> (judged by ${esc(report.era.judgedBy)}; ${esc(report.era.reason)})</p>`,
    `<p class="meta">capabilities: ${esc(caps.join(', ') || 'none')}</p>`,
    `<ul class="counts" id="counts">${counts}<li><span class="n" data-count="total">${s.total}</span>checks</li><li><span class="n" data-count="targetFailures">${s.targetFailures}</span>crash/hang</li></ul>`,
    `<p class="meta">mcpspec ${esc(report.tool.version)} · started ${esc(report.startedAt)} · ${esc((report.durationMs / 1000).toFixed(1))} s · seed ${esc(report.options.seed)}${report.options.strict ? ' · strict' : ''} · digest <code id="digest">${esc(report.digest)}</code></p>`,
    '</header>',
  ].join('\n');
}

function countsCells(c: TraceCounts): string {
  return `${REQUIREMENT_RESULTS.map((k) => `<td class="n" data-result="${k}">${c[k] || '·'}</td>`).join('')}<td class="n rate">${esc(percent(c))}</td>`;
}

function countsTable(id: string, label: string, rows: [string, TraceCounts][], sums: [string, TraceCounts][] = []): string {
  const head = `<tr><th>${esc(label)}</th>${REQUIREMENT_RESULTS.map((k) => `<th class="r-${k}">${esc(RESULT_LABEL[k])}</th>`).join('')}<th>pass rate</th></tr>`;
  const body = [...rows.map(([name, c]) => `<tr><th scope="row">${esc(name)}</th>${countsCells(c)}</tr>`), ...sums.map(([name, c]) => `<tr class="sum"><th scope="row">${esc(name)}</th>${countsCells(c)}</tr>`)];
  return `<table class="trace" id="${id}"><thead>${head}</thead><tbody>${body.join('')}</tbody></table>`;
}

function requirementRow(r: TracedRequirement): string {
  const checks = r.checks.map((c) => `<code class="s-${esc(c.status)}">${esc(c.id)}</code> ${esc(c.status)}`).join(', ');
  const reasons = (r.reasons ?? []).map((x) => esc(oneLine(x, 400))).join('<br>');
  return `<tr data-requirement="${esc(r.id)}" data-result="${esc(r.result)}"><td><code>${esc(r.id)}</code></td><td>${esc(r.level)}</td><td>${esc(areaKey(r.area))}</td><td>${esc(r.seps.join(', '))}</td><td class="result r-${esc(r.result)}">${esc(RESULT_LABEL[r.result])}</td><td>${[checks, reasons].filter(Boolean).join('<br>')}</td></tr>`;
}

/** The traceability section: the MUST rate, counts per digest section and per SEP, and every requirement. */
function traceabilityHtml(t: Traceability): string {
  return [
    '<section id="traceability">',
    `<h2>Requirements: <span id="must-rate">${esc(mustLine(t))}</span></h2>`,
    `<p class="meta">Each requirement of the ${esc(t.source)} with the checks of this run that cite it; ${t.total.judged} of ${t.total.total} judged, ${esc(percent(t.total))} of them met. Pass rate: met over judged (met, broken, warned); an mcpspec error never counts as broken.</p>`,
    countsTable('trace-areas', 'section', t.areas.map((a) => [a.area, a]), [['total', t.total], ['MUST', t.must]]),
    t.seps.length ? countsTable('trace-seps', 'SEP', t.seps.map((x) => [x.sep, x])) : '',
    `<details id="trace-requirements"><summary>every requirement (${t.requirements.length})</summary>`,
    '<table class="trace"><thead><tr><th>requirement</th><th>level</th><th>section</th><th>SEP</th><th>result</th><th>checks, reasons</th></tr></thead>',
    `<tbody>${t.requirements.map(requirementRow).join('\n')}</tbody></table>`,
    '</details>',
    '</section>',
  ].join('\n');
}

/** One report as a self-contained HTML page. */
export function renderHtml(report: Report): string {
  const areas = [...byArea(report.checks).keys()];
  const n = countStatuses(report.checks);
  const areaCount = (a: string) => report.checks.filter((c) => c.area === a).length;
  const filters = [
    '<section id="filters">',
    `<fieldset id="status-filter"><legend>status</legend>${STATUSES.map((s: Status) => `<label><input type="checkbox" name="status" value="${s}" checked> <span class="s-${s}">${s}</span> (${n[s]})</label>`).join('')}</fieldset>`,
    `<fieldset id="area-filter"><legend>area</legend>${areas.map((a) => `<label><input type="checkbox" name="area" value="${esc(a)}" checked> ${esc(a)} (${areaCount(a)})</label>`).join('')}</fieldset>`,
    '<p><button type="button" id="show-problems">failures, warnings and errors only</button> <button type="button" id="show-all">show all</button> <button type="button" id="expand">expand shown</button> <button type="button" id="collapse">collapse all</button> <span id="shown"></span></p>',
    '</section>',
  ].join('\n');
  const quiet = report.scenarios.filter((s) => s.status !== 'judged' && s.status !== 'not-applicable');
  const scenarios = quiet.length
    ? `<section id="scenarios"><h2>Scenarios without a judgement</h2><ul>${quiet.map((s) => `<li><code>${esc(s.id)}</code>: ${esc(s.status)}${s.message ? ` (${esc(s.message)})` : ''}</li>`).join('')}</ul></section>`
    : '';
  const body = [headerHtml(report), filters, `<section id="checks"><h2>Checks (${report.checks.length})</h2>`, ...report.checks.map(checkHtml), '</section>', traceabilityHtml(traceabilityOf(report)), scenarios, findingsHtml(report)].join('\n');
  return page(`mcpspec ${verdictWord(report)}: ${implementationName(report)}`, body, SCRIPT);
}

/** Several reports as one matrix page: a row per report (implementation), a column per check, each cell the status. */
export function renderHtmlMatrix(reports: Report[]): string {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const r of reports) {
    for (const c of r.checks) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      ids.push(c.id);
    }
  }
  const traces = reports.map(traceabilityOf);
  const head = `<tr><th class="impl">implementation</th><th>result</th><th>era</th><th>pass / fail / warn</th><th>MUST requirements met</th>${ids.map((id) => `<th class="check" scope="col">${esc(id)}</th>`).join('')}</tr>`;
  const rows = reports.map((r, k) => {
    const byId = new Map(r.checks.map((c) => [c.id, c]));
    const cells = ids.map((id) => {
      const c = byId.get(id);
      return c ? `<td class="c-${esc(c.status)}" data-check="${esc(id)}" title="${esc(`${id}: ${c.status}: ${oneLine(c.message, 300)}`)}">${esc(c.status)}</td>` : `<td class="c-none" data-check="${esc(id)}" title="${esc(`${id}: not in this run`)}">–</td>`;
    });
    const s = r.summary;
    return `<tr class="impl-row" data-digest="${esc(r.digest)}"><th class="impl" scope="row">${esc(implementationName(r))}<div class="meta"><code>${esc(targetLabel(r))}</code></div></th><td>${verdictSpan(r).replace(' id="verdict"', '')}</td><td>${esc(r.era.version)}</td><td>${s.pass} / ${s.fail} / ${s.warn}</td><td class="must-rate">${traces[k].must.met}/${traces[k].must.judged} (${esc(percent(traces[k].must))})</td>${cells.join('')}</tr>`;
  });
  const body = [
    `<h1>mcpspec matrix: ${reports.length} implementation${reports.length === 1 ? '' : 's'} × ${ids.length} checks</h1>`,
    '<div class="scroll"><table class="matrix" id="matrix">',
    `<thead>${head}</thead>`,
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table></div>',
    traceMatrixHtml(reports, traces),
  ].join('\n');
  return page(`mcpspec matrix (${reports.length} reports)`, body);
}

/** Requirements × implementations: per digest section the pass rate of each, then each requirement's result in each. */
function traceMatrixHtml(reports: Report[], traces: Traceability[]): string {
  const order: { id: string; level: string; area: string }[] = [];
  const seen = new Set<string>();
  for (const t of traces) {
    for (const r of t.requirements) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      order.push(r);
    }
  }
  const byId = traces.map((t) => new Map(t.requirements.map((r) => [r.id, r])));
  const areaCounts = traces.map((t) => new Map(t.areas.map((a) => [a.area, a])));
  const head = `<tr><th>requirement</th><th>level</th>${reports.map((r) => `<th class="impl" scope="col">${esc(implementationName(r))}</th>`).join('')}</tr>`;
  const rows: string[] = [
    `<tr class="sum"><th scope="row" colspan="2">MUST requirements met</th>${traces.map((t) => `<td class="n">${t.must.met}/${t.must.judged} (${esc(percent(t.must))})</td>`).join('')}</tr>`,
  ];
  let area: string | undefined;
  for (const req of order) {
    if (req.area !== area) {
      area = req.area;
      const a = area;
      rows.push(`<tr class="area-row"><th scope="rowgroup" colspan="2">${esc(a)}</th>${areaCounts.map((m) => {
        const c = m.get(a);
        return `<td class="n" title="${esc(c ? `${c.met} met of ${c.judged} judged` : 'not in this report')}">${c ? esc(percent(c)) : '–'}</td>`;
      }).join('')}</tr>`);
    }
    const cells = byId.map((m) => {
      const r = m.get(req.id);
      if (!r) return '<td>–</td>';
      const title = [...r.checks.map((c) => `${c.id}: ${c.status}`), ...(r.reasons ?? [])].map((x) => oneLine(x, 200)).join('\n');
      return `<td class="result r-${esc(r.result)}" data-requirement="${esc(req.id)}" title="${esc(title)}">${esc(RESULT_LABEL[r.result])}</td>`;
    });
    rows.push(`<tr><td><code>${esc(req.id)}</code></td><td>${esc(req.level)}</td>${cells.join('')}</tr>`);
  }
  return [
    `<h2>Requirements × implementations</h2>`,
    '<div class="scroll"><table class="trace" id="trace-matrix">',
    `<thead>${head}</thead>`,
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table></div>',
  ].join('\n');
}
