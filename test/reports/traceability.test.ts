// The traceability view: how each requirement's result is derived from the checks citing it, the
// counts per section and per SEP, its place in report.json (schema, merge), and the Markdown and
// HTML renderings. Pure: synthetic reports, no target.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../protocol/requirements.js';
import { REQUIREMENTS } from '../../protocol/requirements.js';
import { renderHtml, renderHtmlMatrix } from '../../reports/html.js';
import { mdText, renderMarkdown } from '../../reports/markdown.js';
import { mergeShards } from '../../reports/merge.js';
import { buildReport, traceReport, verdictDigest, type Report, type ReportOptions } from '../../reports/report.js';
import { countResults, percent, traceRequirements, type CatalogueCheck, type TracedRun } from '../../reports/traceability.js';
import type { CheckResult, RunResult } from '../../results/run.js';
import type { Status } from '../../results/verdict.js';
import { CHECKS } from '../../suites/catalogue.js';

const REQS: Requirement[] = [
  { id: 'XA-01', level: 'M', era: 'both', area: '1. Alpha', seps: ['SEP-100'] },
  { id: 'XA-02', level: 'S', era: 'both', area: '1. Alpha', seps: ['SEP-100', 'SEP-20'] },
  { id: 'XA-03', level: 'M / S', era: '26', area: '1. Alpha', seps: [] },
  { id: 'XB-01', level: 'MN', era: '25', area: '2. Beta', seps: [] },
  { id: 'XB-02', level: '-', era: 'both', area: '2. Beta', seps: ['SEP-20'] },
];

const checkOf = (id: string, requirements: string[], status: Status, message = `${id} said so`) => ({ id, requirements, status, message });
const run = (checks: TracedRun['checks'], over: Partial<TracedRun> = {}): TracedRun => ({ role: 'server', judgedBy: '2026-07-28', transport: 'stdio', checks, ...over });
const resultOf = (t: ReturnType<typeof traceRequirements>, id: string) => t.requirements.find((r) => r.id === id)!;

describe('a requirement\'s result, from the checks of the run citing it', () => {
  it('broken when any citing check failed, whatever the others said; warned when one warned and none failed; met when judged and all passed', () => {
    const t = traceRequirements(run([checkOf('a.fail', ['XA-01'], 'fail'), checkOf('a.pass', ['XA-01', 'XA-02', 'XA-03'], 'pass'), checkOf('a.warn', ['XA-02'], 'warn')]), undefined, REQS);
    expect(resultOf(t, 'XA-01')).toMatchObject({ result: 'broken', checks: [{ id: 'a.fail', status: 'fail' }, { id: 'a.pass', status: 'pass' }] });
    expect(resultOf(t, 'XA-02').result).toBe('warned');
    expect(resultOf(t, 'XA-03')).toMatchObject({ result: 'met', strength: 'MUST' });
    expect(resultOf(t, 'XA-03').reasons).toBeUndefined();
  });

  it('not applicable when every citing check was skipped, not testable when one was untestable: with their reasons', () => {
    const t = traceRequirements(run([checkOf('a.skip', ['XA-01', 'XA-02'], 'skip', 'no tools capability'), checkOf('a.untestable', ['XA-02'], 'untestable', 'no tool to call')]), undefined, REQS);
    expect(resultOf(t, 'XA-01')).toMatchObject({ result: 'not-applicable', reasons: ['a.skip: no tools capability'] });
    expect(resultOf(t, 'XA-02')).toMatchObject({ result: 'not-testable', reasons: ['a.untestable: no tool to call', 'a.skip: no tools capability'] });
  });

  it('an error is mcpspec\'s own failure: never broken; alone it makes the result "error", beside a pass a note on a met requirement', () => {
    const t = traceRequirements(run([checkOf('a.error', ['XA-01', 'XA-02', 'XA-03'], 'error'), checkOf('a.pass', ['XA-02'], 'pass'), checkOf('a.skip', ['XA-03'], 'skip')]), undefined, REQS);
    expect(resultOf(t, 'XA-01')).toMatchObject({ result: 'error', reasons: [expect.stringContaining("a.error failed on mcpspec's side")] });
    expect(resultOf(t, 'XA-02')).toMatchObject({ result: 'met', reasons: [expect.stringContaining('never counted as broken')] });
    expect(resultOf(t, 'XA-03').result).toBe('error');
    const c = countResults(t.requirements);
    expect(c).toMatchObject({ error: 2, broken: 0, met: 1, judged: 1, passRate: 1 });
  });

  it('without a citing check: not applicable outside its era; else no check, the catalogue telling why', () => {
    const alone = traceRequirements(run([]), undefined, REQS);
    expect(resultOf(alone, 'XB-01')).toMatchObject({ result: 'not-applicable', reasons: ['a legacy requirement; this run was judged by 2026-07-28'] });
    expect(resultOf(alone, 'XA-01')).toMatchObject({ result: 'no-check', reasons: ['no check of this run cites it'] });
    // The same run on a 2025-11-25 server: XA-03 (modern only) is out of its era, XB-01 is not.
    const legacy = traceRequirements(run([], { judgedBy: '2025-11-25' }), undefined, REQS);
    expect(resultOf(legacy, 'XA-03').result).toBe('not-applicable');
    expect(resultOf(legacy, 'XB-01').result).toBe('no-check');

    const suite: CatalogueCheck[] = [
      { id: 'client.x', requirements: ['XA-01'], role: 'client', versions: ['2026-07-28'], requires: {} },
      { id: 'b.old', requirements: ['XA-02'], role: 'server', versions: ['2025-11-25'], requires: {} },
      { id: 'http.y', requirements: ['XA-03'], role: 'server', versions: ['2026-07-28'], requires: { transports: ['http'] } },
      { id: 'b.unselected', requirements: ['XB-02'], role: 'server', versions: ['2026-07-28'], requires: {} },
    ];
    const t = traceRequirements(run([]), suite, [...REQS, { id: 'XC-01', level: 'M', era: 'both', area: '3. Gamma', seps: [] }]);
    expect(resultOf(t, 'XA-01')).toMatchObject({ result: 'not-applicable', reasons: ['judged on clients only (client.x)'] });
    expect(resultOf(t, 'XA-02')).toMatchObject({ result: 'not-applicable', reasons: ['its checks (b.old) judge 2025-11-25 only'] });
    expect(resultOf(t, 'XA-03')).toMatchObject({ result: 'not-applicable', reasons: ['its checks (http.y) need the http transport'] });
    expect(resultOf(t, 'XB-02')).toMatchObject({ result: 'no-check', reasons: ['its checks (b.unselected) were not part of this run (--only, --skip)'] });
    expect(resultOf(t, 'XC-01')).toMatchObject({ result: 'no-check', reasons: ['mcpspec has no check for it'] });
  });
});

describe('counts per section, per SEP, in total and for MUST', () => {
  const t = traceRequirements(run([checkOf('a.pass', ['XA-01', 'XB-02'], 'pass'), checkOf('a.warn', ['XA-02'], 'warn'), checkOf('a.fail', ['XA-03'], 'fail')]), undefined, REQS);

  it('each section and each SEP counts its requirements by result; a requirement with two SEPs counts under both', () => {
    expect(t.areas.map((a) => [a.area, a.met, a.warned, a.broken, a['not-applicable'], a.total, a.judged, a.passRate])).toEqual([
      ['1. Alpha', 1, 1, 1, 0, 3, 3, 0.3333],
      ['2. Beta', 1, 0, 0, 1, 2, 1, 1],
    ]);
    expect(t.seps.map((s) => [s.sep, s.total, s.met, s.warned])).toEqual([
      ['SEP-20', 2, 1, 1],
      ['SEP-100', 2, 1, 1],
    ]);
    expect(t.total).toMatchObject({ total: 5, met: 2, judged: 4, passRate: 0.5 });
    // MUST: XA-01 (M), XA-03 (M / S), XB-01 (MN); XB-01 is out of its era, so 1 met of 2 judged.
    expect(t.must).toMatchObject({ total: 3, met: 1, broken: 1, 'not-applicable': 1, judged: 2, passRate: 0.5 });
  });

  it('the pass rate is floored when shown, so a broken requirement never reads 100%', () => {
    expect(percent({ met: 199, judged: 200 })).toBe('99%');
    expect(percent({ met: 2, judged: 3 })).toBe('66%');
    expect(percent({ met: 0, judged: 0 })).toBe('–');
  });
});

describe('the vendored requirements cover what the checks cite', () => {
  it('every requirement ID a check cites is a vendored row (the others cited are source keys such as R26)', () => {
    const ids = new Set(REQUIREMENTS.map((r) => r.id));
    const cited = [...new Set(CHECKS.flatMap((c) => c.requirements))];
    expect(cited.filter((id) => !ids.has(id) && !/^[A-Z]+\d+$/.test(id))).toEqual([]);
    expect(cited.filter((id) => ids.has(id)).length).toBeGreaterThan(150);
  });
});

const options: ReportOptions = { specVersion: 'auto', strict: false, allowDestructive: false, allowOpenWorld: false, timeoutMs: 1, deadlineMs: 1, seed: 1, runs: 1 };

function result(id: string, status: Status, message = ''): CheckResult {
  const c = CHECKS.find((x) => x.id === id)!;
  return { id, title: c.title, requirements: c.requirements, level: c.level, versions: c.versions, role: c.role, requires: c.requires, spec: c.spec, kind: c.kind, status, message, evidence: [], area: id.split('.')[0], scenario: c.scenario?.id ?? 'run' };
}

function runResult(checks: CheckResult[]): RunResult {
  return {
    role: 'server',
    target: { role: 'server', transport: 'stdio', command: 'node', args: ['server.js'] },
    era: { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: true, reason: 'server/discover answered' },
    peer: { info: { name: 'toy', version: '1' }, capabilities: { tools: {} } },
    seed: 1,
    scenarios: [],
    checks,
    findings: [],
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5,
    recording: { toJSON: () => ({}) } as unknown as RunResult['recording'],
  };
}

const evil = `<script>alert(1)</script>|*_[x](y)`;
const report = buildReport(runResult([result('discover.result', 'pass'), result('tools.unknown-tool', 'warn', 'got a result'), result('caching.fields', 'fail', 'no ttlMs'), result('tools.structured-output', 'untestable', evil)]), options, 'test', CHECKS);

describe('report.json', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ((addFormatsModule as unknown as { default?: (a: Ajv2020) => void }).default ?? (addFormatsModule as unknown as (a: Ajv2020) => void))(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync('reports/report.schema.json', 'utf8')) as object);

  it('carries the traceability section: every vendored requirement once, and validates against the schema', () => {
    expect(report.traceability!.requirements.map((r) => r.id)).toEqual(REQUIREMENTS.map((r) => r.id));
    expect(report.traceability!.source).toMatch(/requirements digest/);
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const vn04 = report.traceability!.requirements.find((r) => r.id === 'VN-04')!;
    expect(vn04).toMatchObject({ result: 'met', checks: [{ id: 'discover.result', status: 'pass' }] });
  });

  it('a report without it (written before it existed) still validates; a section with an unknown result does not', () => {
    const old: Partial<Report> = structuredClone(report);
    delete old.traceability;
    expect(validate(old)).toBe(true);
    const bad = structuredClone(report);
    (bad.traceability!.requirements[0] as { result: string }).result = 'fine';
    expect(validate(bad)).toBe(false);
    const noCounts = structuredClone(report) as unknown as { traceability: { must: Record<string, unknown> } };
    delete noCounts.traceability.must.judged;
    expect(validate(noCounts)).toBe(false);
  });

  it('the digest stays what it was, over the verdicts only: the section is derived from them', () => {
    expect(report.digest).toBe(verdictDigest(report.checks, '2026-07-28'));
  });

  it('merged shards get a traceability section recomputed from the merged verdicts', () => {
    const [a, b] = [report.checks.slice(0, 2), report.checks.slice(2)];
    const shard = (checks: CheckResult[], index: number) => ({ ...buildReport(runResult(checks), options, 'test', CHECKS), shard: { index, count: 2 } });
    const merged = mergeShards([shard(a, 1), shard(b, 2)], {}, CHECKS);
    expect(merged.traceability).toEqual(traceReport(report, CHECKS));
    expect(merged.traceability).toEqual(report.traceability);
  });
});

describe('Markdown and HTML', () => {
  const t = report.traceability!;

  it('Markdown: the MUST line, a row per section and per SEP with counts and pass rate, the broken and warned requirements, every requirement in <details>', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(`#### Requirements: ${t.must.met}/${t.must.judged} MUST requirements met (${percent(t.must)})`);
    expect(md).toContain('| area | met | broken | warned | not applicable | not testable | no check | mcpspec error | pass rate |');
    const lines = md.split('\n');
    for (const a of t.areas) {
      const row = lines.find((l) => l.startsWith(`| ${mdText(a.area)} | `));
      expect(row, a.area).toBeDefined();
      expect(row!.endsWith(`| ${percent(a)} |`)).toBe(true);
      if (a.met) expect(row!.split(' | ')[1]).toBe(String(a.met));
    }
    for (const s of t.seps) expect(md).toContain(`| ${s.sep} |`);
    expect(md).toMatch(/^- ❌ \*\*broken\*\* `CA-01` \[M\] \(7\): `caching\.fields` fail$/m);
    expect(md).toContain(`<details><summary>Every requirement (${REQUIREMENTS.length})</summary>`);
    for (const r of REQUIREMENTS) expect(md).toContain(`| \`${r.id}\` |`);
    // The untestable check's message (a server's words) is escaped like every other string.
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;');
  });

  it('HTML: the traceability section with both tables and a row per requirement; the matrix a column per implementation', () => {
    const html = renderHtml(report);
    expect(html).toContain(`<span id="must-rate">${t.must.met}/${t.must.judged} MUST requirements met (${percent(t.must)})</span>`);
    expect(html.match(/<tr data-requirement="/g)).toHaveLength(REQUIREMENTS.length);
    expect(html).toMatch(/<tr data-requirement="CA-01" data-result="broken">/);
    expect(html).toContain('id="trace-areas"');
    expect(html).toContain('id="trace-seps"');
    expect(html.match(/<script/g)).toHaveLength(1);

    const other = structuredClone(report);
    other.peer.info = { name: 'second', version: '2' };
    other.traceability = traceReport({ ...other, checks: other.checks.map((c) => ({ ...c, status: 'pass' as Status })) }, CHECKS);
    const matrix = renderHtmlMatrix([report, other]);
    expect(matrix).toContain('id="trace-matrix"');
    expect(matrix).toMatch(/<th class="impl" scope="col">toy 1<\/th><th class="impl" scope="col">second 2<\/th>/);
    expect(matrix).toMatch(/<td class="result r-broken" data-requirement="CA-01"[^>]*>broken<\/td><td class="result r-met" data-requirement="CA-01"[^>]*>met<\/td>/);
    expect(matrix).toContain(`<td class="must-rate">${t.must.met}/${t.must.judged} (${percent(t.must)})</td>`);
  });

  it('a report written before the view gets one derived from its verdicts', () => {
    const old = structuredClone(report);
    delete old.traceability;
    expect(renderMarkdown(old)).toContain(`#### Requirements: ${t.must.met}/${t.must.judged} MUST requirements met`);
  });
});
