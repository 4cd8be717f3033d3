// The traceability view on the command line (built CLI): `mcpspec list --traceability`, the report
// folder's MUST-rate badges, and `mcpspec verify --badge` refusing a badge that is not the report's.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../protocol/requirements.js';
import { verdictDigest, type Report } from '../../reports/report.js';
import type { SuiteTraceability } from '../../reports/suite-traceability.js';
import { CHECKS } from '../../suites/catalogue.js';
import { cli } from '../helpers/cli.js';

const REF = ['node', 'dist/fixtures/servers/reference/main.js'];

describe('mcpspec list --traceability', () => {
  it('text: every requirement under its section with the checks citing it, NO CHECK where none does, counts per section and per SEP', async () => {
    const r = await cli(['list', '--traceability']);
    expect(r.code, r.err).toBe(0);
    const cited = new Set(CHECKS.flatMap((c) => c.requirements));
    for (const req of REQUIREMENTS) {
      const line = r.out.split('\n').find((l) => l.startsWith(`  ${req.id} `));
      expect(line, req.id).toBeDefined();
      if (cited.has(req.id)) expect(line).toContain(CHECKS.find((c) => c.requirements.includes(req.id))!.id);
      else expect(line).toContain('NO CHECK: mcpspec has no check for it');
    }
    expect(r.out).toContain('per section:');
    expect(r.out).toMatch(/^ {2}SEP-2322 +\d+ +\d+ +\d+ +\d+ +\d+%$/m);
    const without = REQUIREMENTS.filter((q) => !cited.has(q.id)).length;
    expect(r.out).toContain(`${REQUIREMENTS.length} requirements: ${REQUIREMENTS.length - without} with checks, ${without} without, 0 not applicable`);
  });

  it('--json, narrowed to client checks of 2025-11-25: modern-only requirements are not applicable, server-only ones say where they are checked', async () => {
    const r = await cli(['list', '--traceability', '--json', '--role', 'client', '--spec-version', '2025-11-25']);
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as SuiteTraceability;
    expect(v.scope).toEqual({ role: 'client', version: '2025-11-25' });
    const byId = new Map(v.requirements.map((q) => [q.id, q]));
    expect(byId.get('RT-01')).toMatchObject({ result: 'not-applicable', reasons: ['a modern requirement'] });
    expect(byId.get('LC-05')).toMatchObject({ result: 'checked', checks: ['client.initialized'] });
    expect(byId.get('LC-10')!.checks).toEqual(['client.server-requests']);
    expect(byId.get('HL-02')).toMatchObject({ result: 'not-applicable', reasons: [expect.stringMatching(/^checked on servers only \(http\./)] });
    expect(v.total.checked + v.total['not-applicable'] + v.total['no-check']).toBe(REQUIREMENTS.length);
    expect(v.areas.reduce((n, a) => n + a.total, 0)).toBe(REQUIREMENTS.length);
  });

  it('--requirement narrows it; --only, --format md and an unknown ID are refused (exit 2, one line)', async () => {
    const one = await cli(['list', '--traceability', '--json', '--requirement', 'ca-02']);
    expect(one.code, one.err).toBe(0);
    expect((JSON.parse(one.out) as SuiteTraceability).requirements.map((q) => q.id)).toEqual(['CA-02']);
    for (const [args, message] of [
      [['--only', 'tools.*'], /not --only/],
      [['--format', 'md'], /text or json, not --format md/],
      [['--requirement', 'XX-99'], /unknown --requirement XX-99/],
    ] as const) {
      const r = await cli(['list', '--traceability', ...args]);
      expect(r.code, r.out).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
  });
});

describe('MUST-rate badges and verify --badge, on the reference fixture', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-trace-'));
  const out = join(dir, 'run');
  let report: Report;
  beforeAll(async () => {
    const r = await cli(['server', '--seed', '7', '--only', 'discover.result', '--only', 'tools.unknown-tool', '--out', out, '--format', 'must-badge,must-shields,badge', '--stdio', '--', ...REF]);
    expect(r.code, r.out + r.err).toBe(0);
    report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  }, 120_000);

  it('the run writes the badges beside report.json; the report carries its traceability', () => {
    expect(report.traceability!.must).toMatchObject({ met: 1, judged: 1 });
    expect(readFileSync(join(out, 'must-badge.svg'), 'utf8')).toContain(`<!-- mcpspec-digest: ${report.digest} -->`);
    expect(JSON.parse(readFileSync(join(out, 'must-shields.json'), 'utf8'))).toMatchObject({ message: '100% (1/1)', mcpspecDigest: report.digest });
    const caching = report.traceability!.requirements.find((q) => q.id === 'CA-01')!;
    expect(caching).toMatchObject({ result: 'no-check', reasons: [expect.stringMatching(/were not part of this run \(--only, --skip\)$/)] });
  });

  it('genuine badges are verified with the report, the MUST rate recomputed from the re-run', async () => {
    const r = await cli(['verify', join(out, 'report.json'), '--badge', join(out, 'must-badge.svg'), '--badge', join(out, 'must-shields.json'), '--badge', join(out, 'badge.svg'), '--stdio', '--', ...REF]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain(`badge ${join(out, 'must-badge.svg')}: matches the report; 1/1 MUST requirements met, as in the re-run`);
    expect(r.out).toContain(`badge ${join(out, 'badge.svg')}: matches the report`);
  });

  it('a tampered badge, or one of another report, is refused before any run (exit 2, one line)', async () => {
    const svg = readFileSync(join(out, 'must-badge.svg'), 'utf8');
    const shields = JSON.parse(readFileSync(join(out, 'must-shields.json'), 'utf8')) as Record<string, unknown>;
    const cases: [string, string, RegExp][] = [
      ['edited.svg', svg.replace(/(<text[^>]*>)100% \(1\/1\)(<\/text>)/g, '$1100% (9/9)$2'), /edited\.svg has been altered: it shows "text 100% \(9\/9\)"/],
      ['counts.json', JSON.stringify({ ...shields, mcpspecMustMet: 9, mcpspecMustJudged: 9, message: '100% (9/9)' }), /counts\.json has been altered: it counts 9\/9 MUST requirements met, the report gives 1\/1/],
      ['other.json', JSON.stringify({ ...shields, mcpspecDigest: `sha256:${'0'.repeat(64)}` }), /other\.json was not made from .*report\.json: it names digest sha256:0+, the report has sha256:/],
      ['plain.svg', '<svg xmlns="http://www.w3.org/2000/svg"><title>build: passing</title></svg>', /plain\.svg is not an mcpspec badge/],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(join(dir, name), text);
      const r = await cli(['verify', join(out, 'report.json'), '--badge', join(dir, name), '--', 'mcpspec-never-started']);
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
  });

  it('a badge whose rate the re-run does not give is refused (exit 1), though the verdicts only differ in coverage', async () => {
    // An honest-looking report (digest recomputed) in which discover.result could not be judged, and its badge.
    const edited = structuredClone(report);
    delete edited.traceability;
    edited.checks.find((c) => c.id === 'discover.result')!.status = 'untestable';
    edited.digest = verdictDigest(edited.checks, edited.era.judgedBy);
    const file = join(dir, 'untestable.json');
    writeFileSync(file, JSON.stringify(edited));
    const badge = await cli(['report', file, '--format', 'must-badge', '--out', join(dir, 'untestable.svg')]);
    expect(badge.code, badge.err).toBe(0);
    const r = await cli(['verify', file, '--badge', join(dir, 'untestable.svg'), '--', ...REF]);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/^NOT VERIFIED: the MUST rate of the re-run differs from the badge's/m);
    expect(r.out).toContain(`${join(dir, 'untestable.svg')} says 0/0 MUST requirements met; the re-run gives 1/1`);
    expect(r.out).toContain('discover.result: was untestable, now pass');
  });
});
