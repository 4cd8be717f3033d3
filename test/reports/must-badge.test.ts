// The MUST-rate badges (SVG and shields.io JSON): the rate of MUST requirements met, from the verdicts,
// tied to the report by its digest; and reading a badge's claims back, as `mcpspec verify --badge` does.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { claimDifferences, claimsOf, readBadge } from '../../reports/badge-claims.js';
import { mustRateFacts, renderBadge, renderMustBadge, renderMustShields, renderShields } from '../../reports/badge.js';
import { buildReport, type Report, type ReportOptions } from '../../reports/report.js';
import type { CheckResult, RunResult } from '../../results/run.js';
import type { Status } from '../../results/verdict.js';
import { CHECKS } from '../../suites/catalogue.js';

const options: ReportOptions = { specVersion: 'auto', strict: false, allowDestructive: false, allowOpenWorld: false, timeoutMs: 1, deadlineMs: 1, seed: 1, runs: 1 };

function result(id: string, status: Status): CheckResult {
  const c = CHECKS.find((x) => x.id === id)!;
  return { id, title: c.title, requirements: c.requirements, level: c.level, versions: c.versions, role: c.role, requires: c.requires, spec: c.spec, kind: c.kind, status, message: 'm', evidence: [], area: id.split('.')[0], scenario: c.scenario?.id ?? 'run' };
}

/** A report of a 2026-07-28 stdio server whose checks have these statuses. */
function reportOf(statuses: Record<string, Status>, limited?: string): Report {
  const run: RunResult = {
    role: 'server',
    target: { role: 'server', transport: 'stdio', command: 'node', args: ['s.js'] },
    era: { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: true, reason: '' },
    peer: { capabilities: {} },
    seed: 1,
    scenarios: [],
    checks: Object.entries(statuses).map(([id, s]) => result(id, s)),
    findings: [],
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    recording: {} as RunResult['recording'],
    ...(limited ? { limited } : {}),
  };
  return buildReport(run, options, '9.9.9', CHECKS);
}

// discover.result: VN-04 (M); caching.fields: CA-01, CA-02 (M); tools.input-schema: TE-04 (M); tools.unknown-tool: TE-01 (informative).
const good = reportOf({ 'discover.result': 'pass', 'caching.fields': 'pass', 'tools.input-schema': 'pass', 'tools.unknown-tool': 'warn' });
const broken = reportOf({ 'discover.result': 'pass', 'caching.fields': 'fail', 'tools.input-schema': 'pass' });

describe('the MUST-rate badge', () => {
  it('counts MUST requirements met of those judged, floored; the colour follows the rate', () => {
    expect(mustRateFacts(good)).toMatchObject({ label: 'MUST requirements met', message: '100% (4/4)', color: 'brightgreen', met: 4, judged: 4, digest: good.digest });
    expect(mustRateFacts(broken)).toMatchObject({ message: '50% (2/4)', color: 'red', met: 2, judged: 4 });
    expect(mustRateFacts(reportOf({ 'tools.unknown-tool': 'pass' }))).toMatchObject({ message: 'none judged', color: 'lightgrey', judged: 0 });
    // Only the authorization checks could run: the rate is shown, grey and qualified.
    expect(mustRateFacts(reportOf({ 'discover.result': 'pass' }, 'the server requires authorization'))).toMatchObject({ message: '100% (1/1) · authorization only', color: 'lightgrey' });
  });

  it('comes from the verdicts, not from the report\'s stored traceability section', () => {
    const edited = structuredClone(broken);
    edited.traceability!.must.met = edited.traceability!.must.judged;
    expect(mustRateFacts(edited)).toMatchObject({ met: 2, judged: 4 });
  });

  it('the SVG parses, shows the rate, and names the digest and the counts for a script', () => {
    const svg = renderMustBadge(broken);
    expect(XMLValidator.validate(svg)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg).svg;
    expect(parsed.title).toBe('MUST requirements met: 50% (2/4)');
    expect(parsed.desc).toBe(`mcpspec 9.9.9: 2 of 4 judged MUST requirements met, MCP 2026-07-28; report digest ${broken.digest}`);
    expect(svg).toContain(`<!-- mcpspec-digest: ${broken.digest} -->`);
    expect(svg).toContain('<!-- mcpspec-must-met: 2/4 -->');
  });

  it('the shields endpoint JSON has what shields reads, and the digest and counts', () => {
    expect(JSON.parse(renderMustShields(good))).toEqual({ schemaVersion: 1, label: 'MUST requirements met', message: '100% (4/4)', color: 'brightgreen', mcpspecDigest: good.digest, mcpspecMustMet: 4, mcpspecMustJudged: 4, mcpspecProtocolVersion: '2026-07-28', mcpspecVersion: '9.9.9' });
  });
});

describe('reading a badge back', () => {
  it('tells the kinds and forms apart, and a badge agrees with the report it was made from', () => {
    for (const [render, kind, form] of [[renderMustBadge, 'must-rate', 'svg'], [renderMustShields, 'must-rate', 'shields'], [renderBadge, 'compliance', 'svg'], [renderShields, 'compliance', 'shields']] as const) {
      const claims = readBadge(render(broken))!;
      expect(claims).toMatchObject({ kind, form, digest: broken.digest });
      expect(claimDifferences(claims, claimsOf(broken, kind, form))).toEqual([]);
    }
    expect(readBadge(renderMustBadge(broken))!.must).toEqual({ met: 2, judged: 4 });
    expect(readBadge('<svg xmlns="http://www.w3.org/2000/svg"><title>x</title></svg>')).toBeUndefined();
    expect(readBadge('{"schemaVersion":1,"label":"x","message":"y"}')).toBeUndefined();
    expect(readBadge('not a badge')).toBeUndefined();
  });

  it('sees an edited number, colour or digest, and a badge of another report', () => {
    const svg = renderMustBadge(broken);
    const claims = claimsOf(broken, 'must-rate', 'svg');
    // What a reader sees (the <text> elements), edited; the title and comments left alone.
    const shown = svg.replace(/(<text[^>]*>)50% \(2\/4\)(<\/text>)/g, '$1100% (4/4)$2');
    expect(shown).not.toBe(svg);
    expect(claimDifferences(readBadge(shown)!, claims).join()).toMatch(/it shows "text 100% \(4\/4\)" where the report gives "text 50% \(2\/4\)"/);
    expect(claimDifferences(readBadge(svg.replace('mcpspec-must-met: 2/4', 'mcpspec-must-met: 4/4'))!, claims).join()).toMatch(/it counts 4\/4 MUST requirements met, the report gives 2\/4/);
    const colour = /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]+)"/.exec(svg)![1];
    expect(claimDifferences(readBadge(svg.replaceAll(`fill="${colour}"`, 'fill="#4c1"'))!, claims).join()).toMatch(/fill #4c1/);
    const json = JSON.parse(renderMustShields(broken));
    expect(claimDifferences(readBadge(JSON.stringify({ ...json, color: 'brightgreen' }))!, claimsOf(broken, 'must-rate', 'shields')).join()).toMatch(/color/);
    expect(claimDifferences(readBadge(renderMustShields(good))!, claimsOf(broken, 'must-rate', 'shields'))[0]).toBe(`it names digest ${good.digest}, the report has ${broken.digest}`);
  });
});
