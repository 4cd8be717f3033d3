import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv4Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { badgeFacts, renderBadge, renderShields } from '../../reports/badge.js';
import { renderHtml, renderHtmlMatrix } from '../../reports/html.js';
import { FINDINGS_SUITE, renderJunit } from '../../reports/junit.js';
import { renderMarkdown } from '../../reports/markdown.js';
import type { Report } from '../../reports/report.js';
import { renderSarif } from '../../reports/sarif.js';
import { renderTap } from '../../reports/tap.js';
import { idsOfRun } from '../helpers/catalogue-counts.js';
import { cli, realReports, type RealReport } from './real-reports.js';

let everything: RealReport;
let faulted: RealReport;
beforeAll(async () => {
  ({ everything, faulted } = await realReports());
}, 180_000);

const reports = () => [
  ['server-everything', everything.report],
  ['reference --fault tools.unknown-tool', faulted.report],
] as const;

const asArray = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name), parseAttributeValue: false });

/** A report whose strings are hostile: markup and script in everything a server controls. */
function hostile(r: Report): Report {
  const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&|\`*_ ]]> \u0001`;
  const copy = structuredClone(r);
  copy.peer.info = { name: `evil${evil}`, version: evil };
  copy.era.reason = evil;
  copy.checks = copy.checks.map((c, i) => (i === 0 ? { ...c, status: 'fail', message: evil, evidence: [{ what: evil, request: { x: evil }, response: evil, actual: evil }] } : c));
  copy.findings = [...copy.findings, { kind: 'crash', message: evil, lastSent: evil, stderrTail: evil }];
  return copy;
}

describe('the real reports', () => {
  it('server-everything: a nonconformant run; the faulted reference fixture: conformant with the tools.unknown-tool warning', () => {
    expect(everything.report.summary.conformant).toBe(false);
    // Every check of a stdio server run of its version, whatever the catalogue holds today.
    expect(everything.report.checks.map((c) => c.id).sort()).toEqual(idsOfRun('server', everything.report.era.judgedBy, 'stdio').sort());
    expect(faulted.report.summary.conformant).toBe(true);
    expect(faulted.report.checks.find((c) => c.id === 'tools.unknown-tool')?.status).toBe('warn');
  });
});

describe('JUnit XML', () => {
  it.each([0, 1])('parses and has the JUnit shape with the report counts (report %i)', (i) => {
    const [, report] = reports()[i];
    const text = renderJunit(report);
    expect(XMLValidator.validate(text)).toBe(true);
    const root = xml.parse(text).testsuites;
    const s = report.summary;
    const crashes = report.findings.filter((f) => f.kind === 'crash' || f.kind === 'hang').length;
    const harness = report.findings.filter((f) => f.kind === 'harness').length;
    expect(root['@_name']).toContain('mcpspec');
    expect(Number(root['@_tests'])).toBe(s.total + crashes + harness);
    expect(Number(root['@_failures'])).toBe(s.fail + (report.options.strict ? s.warn : 0) + crashes);
    expect(Number(root['@_errors'])).toBe(s.error + harness);
    expect(Number(root['@_skipped'])).toBe(s.skip + s.untestable);
    expect(Number(root['@_time'])).toBeCloseTo(report.durationMs / 1000, 2);
    const suites = asArray(root.testsuite);
    const areas = [...new Set(report.checks.map((c) => c.area))];
    expect(suites.map((x) => x['@_name'])).toEqual(crashes + harness ? [...areas, FINDINGS_SUITE] : areas);
    for (const suite of suites) {
      const cases = asArray(suite.testcase);
      expect(Number(suite['@_tests'])).toBe(cases.length);
      expect(Number(suite['@_failures'])).toBe(cases.filter((c) => c.failure !== undefined).length);
      expect(Number(suite['@_skipped'])).toBe(cases.filter((c) => c.skipped !== undefined).length);
      if (suite['@_name'] === FINDINGS_SUITE) continue;
      expect(cases.map((c) => c['@_name'])).toEqual(report.checks.filter((c) => c.area === suite['@_name']).map((c) => c.id));
      for (const c of cases) expect(c['@_classname']).toBe(suite['@_name']);
    }
    // Every failure carries its evidence and spec link; every skip its reason.
    const allCases = suites.flatMap((x) => asArray(x.testcase));
    for (const check of report.checks.filter((c) => c.status === 'fail')) {
      const tc = allCases.find((c) => c['@_name'] === check.id);
      const body = String(tc.failure['#text']);
      expect(check.message.replace(/\s+/g, ' ')).toContain(String(tc.failure['@_message']).replace(/…$/, '').slice(0, 200));
      expect(body).toContain(check.spec);
      expect(body).toContain(`what: ${check.evidence[0].what}`);
    }
    for (const check of report.checks.filter((c) => c.status === 'untestable' || c.status === 'skip')) {
      expect(allCases.find((c) => c['@_name'] === check.id).skipped['@_message']).toContain(check.status);
    }
  });

  it('a warning is a <failure> only under --strict', () => {
    const warn = (r: Report) => asArray(xml.parse(renderJunit(r)).testsuites.testsuite).flatMap((x) => asArray(x.testcase)).find((c) => c['@_name'] === 'tools.unknown-tool');
    expect(warn(faulted.report).failure).toBeUndefined();
    expect(warn(faulted.report)['system-out']).toContain('warning');
    const strict = structuredClone(faulted.report);
    strict.options.strict = true;
    expect(warn(strict).failure['@_message']).toContain('got a result');
    expect(Number(xml.parse(renderJunit(strict)).testsuites['@_failures'])).toBe(1);
  });

  it('hostile strings stay text: the XML still parses, characters XML cannot hold are escaped', () => {
    const r = hostile(everything.report);
    const text = renderJunit(r);
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).not.toContain('<script>');
    expect(text).toContain('\\u0001');
    const suites = asArray(xml.parse(text).testsuites.testsuite);
    expect(suites.at(-1)['@_name']).toBe(FINDINGS_SUITE);
  });
});

describe('SARIF 2.1.0', () => {
  // The SARIF 2.1.0 schema as @microsoft/jest-sarif ships it (draft-04). Its language-tag pattern is
  // not a valid unicode regular expression, hence unicodeRegExp: false.
  const schema = JSON.parse(readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8'));
  const Ajv4 = ((Ajv4Module as any).default ?? Ajv4Module) as typeof import('ajv-draft-04').default;
  const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
  ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
  const validate = ajv.compile(schema);

  it('the validator rejects a broken log (so a pass below means something)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [{ level: 'loud' }] }] })).toBe(false);
  });

  it.each([0, 1])('validates against the SARIF 2.1.0 schema; a rule per check, a result per fail or warn (report %i)', (i) => {
    const [, report] = reports()[i];
    const log = JSON.parse(renderSarif(report));
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('mcpspec');
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([...new Set(report.checks.map((c) => c.id))]);
    for (const rule of run.tool.driver.rules) {
      const check = report.checks.find((c) => c.id === rule.id)!;
      expect(rule).toMatchObject({ shortDescription: { text: check.title }, helpUri: check.spec, defaultConfiguration: { level: { MUST: 'error', SHOULD: 'warning', MAY: 'note' }[check.level] }, properties: { requirements: check.requirements, versions: check.versions } });
      for (const req of check.requirements) expect(rule.fullDescription.text).toContain(req);
    }
    const judged = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
    expect(run.results.map((r: { ruleId: string }) => r.ruleId)).toEqual(judged.map((c) => c.id));
    for (const [k, result] of run.results.entries()) {
      const check = judged[k];
      expect(result.level).toBe(check.status === 'warn' ? 'warning' : 'error');
      expect(result.message.text).toContain(check.message);
      expect(result.message.text).toContain(check.evidence[0]?.what ?? '');
      const target = result.locations[0].logicalLocations[0];
      expect(target.name).toBe('url' in report.target ? report.target.url : [report.target.command, ...report.target.args].join(' '));
      const seqs = check.evidence.flatMap((e) => e.seq ?? []);
      if (seqs.length) expect(result.locations[0].logicalLocations.map((l: { name: string }) => l.name)).toContain(`message ${seqs[0]}`);
    }
    expect(run.invocations[0].executionSuccessful).toBe(report.summary.error === 0 && report.summary.harnessErrors === 0);
    expect(run.properties.digest).toBe(report.digest);
  });

  it('a report with hostile strings still validates', () => {
    expect(validate(JSON.parse(renderSarif(hostile(everything.report))))).toBe(true);
  });
});

describe('Markdown', () => {
  it('a summary line, the table per area, every failure and warning with its evidence in <details>', () => {
    const report = everything.report;
    const md = renderMarkdown(report);
    const s = report.summary;
    const lines = md.split('\n');
    expect(lines.find((l) => l.startsWith('**'))).toContain(`**${s.conformant ? 'CONFORMANT' : 'NONCONFORMANT'}**: ${s.pass} passed, ${s.fail} failed, ${s.warn} warnings`);
    expect(md).toContain(`MCP ${report.era.version}`);
    expect(md).toContain('| area | pass | fail | warn | skip | untestable | error |');
    for (const area of new Set(report.checks.map((c) => c.area))) expect(lines.some((l) => l.startsWith(`| ${area} | `))).toBe(true);
    expect(md).toContain(`| **total** | **${s.pass}** | **${s.fail}** | **${s.warn}** | **${s.skip}** | **${s.untestable}** | **${s.error}** |`);
    const notable = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
    // One <details> per failure and warning; one more holds every requirement (the traceability view).
    expect(md.match(/<details><summary>\S+ (FAIL|WARN) <code>/g)?.length).toBe(notable.length);
    expect(md.match(/<details>/g)?.length).toBe(notable.length + 1);
    expect(md).toContain(`<details><summary>Every requirement (${report.traceability!.requirements.length})</summary>`);
    for (const c of notable) {
      expect(md).toContain(`<code>${c.id}</code> [${c.level}]`);
      if (c.evidence[0]) expect(md).toContain(`what      ${c.evidence[0].what}`);
    }
    expect(md).toContain(report.digest);
  });

  it('the warning of the faulted fixture, with what was sent and received', () => {
    const md = renderMarkdown(faulted.report);
    expect(md).toContain('**CONFORMANT**');
    expect(md).toMatch(/<details><summary>⚠️ WARN <code>tools\.unknown-tool<\/code> \[SHOULD\]/);
    expect(md).toMatch(/sent +\{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call"/);
    expect(md).toMatch(/received +\{"jsonrpc":"2\.0"/);
  });

  it('hostile strings are escaped', () => {
    const md = renderMarkdown(hostile(everything.report));
    // Code blocks and code spans show their content literally; everywhere else markup must be escaped.
    const prose = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
    expect(md).toContain('&lt;script&gt;');
    expect(prose).not.toMatch(/<script>|<img /);
  });
});

describe('HTML', () => {
  it('self-contained: no external loads, counts, filters, details with spec links', () => {
    const html = renderHtml(everything.report);
    expect(html).not.toMatch(/<(link|img|iframe)\b|<[^>]*\bsrc=|@import|url\(http/i);
    expect(html).toContain("default-src 'none'");
    for (const [k, v] of Object.entries(everything.report.summary)) if (typeof v === 'number' && k !== 'harnessErrors') expect(html).toContain(`data-count="${k}">${v}<`);
    expect(html.match(/<details class="check"/g)?.length).toBe(everything.report.checks.length);
    expect(html).toContain('name="status" value="fail"');
  });

  it('hostile strings are escaped: the only script is the page\'s own', () => {
    const html = renderHtml(hostile(everything.report));
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html).not.toContain('<img src=x');
    expect(renderHtmlMatrix([hostile(everything.report), faulted.report])).not.toMatch(/<script|<img src=x/);
  });
});

describe('TAP 14', () => {
  /** The test points of a TAP text: number, ok, the check id (or finding), directive. */
  const points = (text: string) =>
    text.split('\n').flatMap((l) => {
      const m = /^(not ok|ok) (\d+) - (\S+)(.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(l);
      return m ? [{ ok: m[1] === 'ok', n: Number(m[2]), name: m[3], directive: m[5] }] : [];
    });

  it.each([0, 1])('the plan, one point per check in order and one per crash/hang/harness finding, statuses as TAP reads them (report %i)', (i) => {
    const [, report] = reports()[i];
    const text = renderTap(report);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('TAP version 14');
    const findings = report.findings.filter((f) => ['crash', 'hang', 'harness'].includes(f.kind));
    expect(lines[1]).toBe(`1..${report.checks.length + findings.length}`);
    const ps = points(text);
    expect(ps.map((p) => p.n)).toEqual(ps.map((_, k) => k + 1));
    expect(ps.slice(0, report.checks.length).map((p) => p.name)).toEqual(report.checks.map((c) => c.id));
    report.checks.forEach((c, k) => {
      const p = ps[k];
      if (c.status === 'pass') expect(p).toMatchObject({ ok: true, directive: undefined });
      else if (c.status === 'skip' || c.status === 'untestable') expect(p).toMatchObject({ ok: true, directive: 'SKIP' });
      else if (c.status === 'warn') expect(p).toMatchObject({ ok: false, directive: report.options.strict ? undefined : 'TODO' });
      else expect(p).toMatchObject({ ok: false, directive: undefined });
    });
    // What a TAP consumer counts as failed: not ok without a TODO.
    const failed = ps.filter((p) => !p.ok && p.directive !== 'TODO').length;
    expect(failed).toBe(report.summary.fail + report.summary.error + findings.length + (report.options.strict ? report.summary.warn : 0));
    // Every line is TAP: a version, a plan, a point, a comment, or the YAML block under a point.
    for (const l of lines) expect(l).toMatch(/^(TAP version 14|1\.\.\d+|(not )?ok \d+ - |# |  )/);
  });

  it('a warning fails only under --strict; hostile strings stay on their line', () => {
    const strict = structuredClone(faulted.report);
    strict.options.strict = true;
    const warned = (r: Report) => points(renderTap(r)).find((p) => p.name === 'tools.unknown-tool');
    expect(warned(faulted.report)).toMatchObject({ ok: false, directive: 'TODO' });
    expect(warned(strict)).toMatchObject({ ok: false, directive: undefined });
    const text = renderTap(hostile(everything.report));
    for (const l of text.trimEnd().split('\n')) expect(l).toMatch(/^(TAP version 14|1\.\.\d+|(not )?ok \d+ - |# |  )/);
    expect(points(text)[0]).toMatchObject({ ok: false, directive: undefined });
  });
});

describe('badges', () => {
  it.each([0, 1])('the SVG parses as XML, names the result and carries the digest (report %i)', (i) => {
    const [, report] = reports()[i];
    const svg = renderBadge(report);
    expect(XMLValidator.validate(svg)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg).svg;
    const must = report.checks.filter((c) => c.level === 'MUST');
    const judged = must.filter((c) => c.status !== 'skip' && c.status !== 'untestable' && c.status !== 'warn');
    expect(parsed.title).toContain(`MCP ${report.era.version}: ${must.filter((c) => c.status === 'pass').length}/${judged.length} MUST`);
    if (report.summary.untestable) expect(parsed.title).toContain(`${report.summary.untestable} untestable`);
    expect(parsed.desc).toContain(report.summary.conformant ? 'CONFORMANT' : 'NONCONFORMANT');
    expect(parsed.desc).toContain(report.digest);
    expect(badgeFacts(report).color).toBe(!report.summary.conformant ? 'red' : report.summary.warn ? 'yellow' : 'brightgreen');
  });

  it('a server that declares nothing does not look perfect', () => {
    const r = structuredClone(faulted.report);
    r.checks = r.checks.map((c, i) => (i < 3 ? c : { ...c, status: 'skip' }));
    Object.assign(r.summary, { pass: 3, fail: 0, warn: 0, skip: r.checks.length - 3, untestable: 0, conformant: true });
    const f = badgeFacts(r);
    expect(f.message).toContain(`${r.checks.length - 3} skipped`);
    expect(f.color).toBe('yellow');
  });

  it('the shields endpoint JSON has the fields shields reads, and the digest', () => {
    const j = JSON.parse(renderShields(everything.report));
    expect(j).toMatchObject({ schemaVersion: 1, label: `MCP ${everything.report.era.version}`, color: 'red', mcpspecDigest: everything.report.digest });
    expect(typeof j.message).toBe('string');
  });
});

describe('mcpspec report (built CLI)', () => {
  it('prints a single format to stdout, writes several reports as one matrix page, appends Markdown to $GITHUB_STEP_SUMMARY', async () => {
    const junit = await cli(['report', everything.file, '--format', 'junit']);
    expect(junit.code, junit.err).toBe(0);
    expect(junit.out).toBe(`${renderJunit(everything.report)}\n`);

    const out = mkdtempSync(join(tmpdir(), 'mcpspec-report-'));
    const matrix = await cli(['report', everything.dir, faulted.file, '--format', 'html', '--out', join(out, 'matrix.html')]);
    expect(matrix.code, matrix.err).toBe(0);
    const page = readFileSync(join(out, 'matrix.html'), 'utf8');
    expect(page.match(/<tr class="impl-row"/g)?.length).toBe(2);

    const summary = join(out, 'summary.md');
    writeFileSync(summary, '# before\n');
    const md = await cli(['report', faulted.file, '--format', 'markdown'], { env: { ...process.env, GITHUB_STEP_SUMMARY: summary } });
    expect(md.code, md.err).toBe(0);
    expect(md.out).toContain('WARN <code>tools.unknown-tool</code>');
    expect(readFileSync(summary, 'utf8')).toBe(`# before\n${md.out}`);

    const badges = await cli(['report', everything.file, faulted.file, '--format', 'badge', '--out', join(out, 'badges')]);
    expect(badges.code, badges.err).toBe(0);
    expect(badges.err).toMatch(/wrote .*badges\/mcpspec-everything-\w+\.svg/);
  });

  it('refuses what is not a report, and several single-file outputs without --out (exit 2, one line)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpspec-report-bad-'));
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ reportVersion: 1 }));
    for (const [args, message] of [
      [[join(dir, 'old.json'), '--format', 'junit'], /not a reportVersion 2 report\.json/],
      [[join(dir, 'missing.json'), '--format', 'junit'], /no such report/],
      [[everything.file, faulted.file, '--format', 'sarif'], /give --out DIR/],
      [[everything.file, '--format', 'pdf'], /(unknown --format pdf|Argument: format, Given: "pdf")/],
    ] as const) {
      const r = await cli(['report', ...args]);
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
