// The CI-facing CLI: verify, baselines, sharding and merge, against the reference fixture (built CLI).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictDigest, type Report } from '../../reports/report.js';
import { cli } from '../helpers/cli.js';
import { startHttpTarget, type HttpTarget } from '../helpers/targets.js';

const REF = ['node', 'dist/fixtures/servers/reference/main.js'];
const tmp = () => mkdtempSync(join(tmpdir(), 'mcpspec-ci-'));
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;

/** A copy of a report with one check's status changed and the digest recomputed (an honest-looking edit), written to `file`. */
function editVerdict(report: Report, status: Report['checks'][number]['status'], file: string): { id: string; was: string } {
  const edited = structuredClone(report);
  const c = edited.checks.find((x) => x.id === 'tools.unknown-tool') ?? edited.checks[0];
  const was = c.status;
  c.status = status;
  edited.digest = verdictDigest(edited.checks, edited.era.judgedBy);
  writeFileSync(file, JSON.stringify(edited));
  return { id: c.id, was };
}

// Over HTTP (one fixture process serves every run; over stdio each scenario starts its own): sharding,
// merging and verify judge reports, whatever the transport they were made over.
describe('sharding, merge and verify on the reference fixture', () => {
  const dir = tmp();
  let full: Report;
  let small: Report;
  let target: HttpTarget;
  let url: string;
  beforeAll(async () => {
    target = await startHttpTarget('reference', { env: { MCPSPEC_REFERENCE_TASK_MS: '1000', MCPSPEC_REFERENCE_SLOW_MS: '1000' } });
    url = target.url;
    const runs = await Promise.all([
      cli(['server', '--seed', '7', '--out', join(dir, 'full'), '--url', url]),
      cli(['server', '--seed', '7', '--shard', '1/2', '--out', join(dir, 's1'), '--url', url]),
      cli(['server', '--seed', '7', '--shard', '2/2', '--out', join(dir, 's2'), '--url', url]),
      // A small run of its own (no oracle: its checks' scenarios only) for the verify cases that re-run what the report ran.
      cli(['server', '--seed', '7', '--only', 'tools.unknown-tool', '--only', 'lifecycle.ping', '--out', join(dir, 'small'), '--url', url]),
    ]);
    for (const r of runs) expect(r.code, r.out + r.err).toBe(0);
    full = readReport(join(dir, 'full', 'report.json'));
    small = readReport(join(dir, 'small', 'report.json'));
  }, 300_000);
  afterAll(() => target?.stop());

  it('shards carry shard {index, count}; merged they give the unsharded totals and verdicts', async () => {
    const s1 = readReport(join(dir, 's1', 'report.json'));
    const s2 = readReport(join(dir, 's2', 'report.json'));
    expect(s1.shard).toEqual({ index: 1, count: 2 });
    expect(s2.shard).toEqual({ index: 2, count: 2 });
    expect(s1.checks.length).toBeLessThan(full.checks.length);
    const r = await cli(['merge', join(dir, 's2', 'report.json'), join(dir, 's1', 'report.json'), '--out', join(dir, 'merged.json')]);
    expect(r.code, r.err).toBe(0);
    const merged = readReport(join(dir, 'merged.json'));
    expect(merged.shard).toBeUndefined();
    const counts = (s: Report['summary']) => ({ ...s });
    expect(counts(merged.summary)).toEqual(counts(full.summary));
    const statuses = (rep: Report) => Object.fromEntries(rep.checks.filter((c) => c.scenario !== 'run').map((c) => [c.id, c.status]));
    expect(statuses(merged)).toEqual(statuses(full));
    expect(merged.checks.map((c) => c.id)).toEqual(full.checks.map((c) => c.id));
    expect(merged.digest).toBe(verdictDigest(merged.checks, merged.era.judgedBy));
  });

  it('merge refuses a missing or duplicate shard, and an unsharded report (exit 2, one line)', async () => {
    for (const args of [
      [join(dir, 's1', 'report.json')],
      [join(dir, 's1', 'report.json'), join(dir, 's1', 'report.json')],
      [join(dir, 's1', 'report.json'), join(dir, 'full', 'report.json')],
    ]) {
      const r = await cli(['merge', ...args]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/^mcpspec: cannot merge: (missing shard 2\/2|shard 1\/2 is given twice|report 2 is not a shard)/);
    }
  });

  it('verify: an honest report re-runs to the same verdicts, what could be judged included (--strict: exit 0, digest printed)', async () => {
    const r = await cli(['verify', join(dir, 'full', 'report.json'), '--strict', '--url', url]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain(`digest ${full.digest}`);
  });

  it('verify: a report with an edited verdict (digest recomputed) fails naming the check', async () => {
    const file = join(dir, 'edited.json');
    const c = editVerdict(small, 'fail', file);
    const r = await cli(['verify', file, '--url', url]);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain(`${c.id}: was fail, now pass`);
    expect(r.out.match(/: was /g)).toHaveLength(1);
  });

  it('verify: a check judged in one run only is a coverage difference, not a contradiction: noted (exit 0), refused with --strict (exit 1)', async () => {
    const file = join(dir, 'coverage.json');
    const { was, ...c } = editVerdict(small, 'untestable', file);
    const r = await cli(['verify', file, '--url', url]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/^verified: \d+ verdicts match; recorded sha256:/m);
    expect(r.out).toContain('1 check was judged in one run only');
    expect(r.out).toContain(`${c.id}: was untestable, now ${was}`);
    const strict = await cli(['verify', file, '--strict', '--url', url]);
    expect(strict.code, strict.out + strict.err).toBe(1);
    expect(strict.out).toMatch(/^NOT VERIFIED: what could be judged differs \(--strict\)/m);
    expect(strict.out).toContain(`${c.id}: was untestable, now ${was}`);
  });

  it('verify: a tampered report (digest not matching its verdicts) is refused before any run', async () => {
    const tampered = structuredClone(full);
    tampered.checks[0].status = 'fail';
    const file = join(dir, 'tampered.json');
    writeFileSync(file, JSON.stringify(tampered));
    const r = await cli(['verify', file, '--', 'mcpspec-never-started']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/has been altered: its digest sha256:[0-9a-f]+ does not match its verdicts/);
  });
});

describe('baselines with the reference fixture faults', () => {
  const dir = tmp();
  const only = ['--seed', '3', '--only', 'resources.*'];
  const FAULT = ['--fault', 'resources.unknown-modern'];

  it('mcpspec baseline writes the failures; a run with only those exits 0, a new failure 1, a fixed one is listed as stale', async () => {
    const first = await cli(['server', ...only, '--out', dir, '--stdio', '--', ...REF, ...FAULT]);
    expect(first.code).toBe(1);
    const b = await cli(['baseline', join(dir, 'report.json')]);
    expect(b.code).toBe(0);
    const baseline = JSON.parse(b.out) as { id: string; reason: string }[];
    expect(baseline).toEqual([{ id: 'resources.unknown-modern', reason: expect.stringMatching(/^fail: .+/) }]);
    const file = join(dir, 'expected.json');
    writeFileSync(file, b.out);

    const [same, fresh, fixed] = await Promise.all([
      cli(['server', ...only, '--baseline', file, '--stdio', '--', ...REF, ...FAULT]),
      cli(['server', '--seed', '3', '--only', 'resources.*', '--only', 'prompts.*', '--strict', '--baseline', file, '--stdio', '--', ...REF, ...FAULT, '--fault', 'prompts.unknown']),
      cli(['server', ...only, '--baseline', file, '--stdio', '--', ...REF]),
    ]);
    expect(same.code, same.out + same.err).toBe(0);
    expect(same.out).toContain('1 expected failure, 0 new');
    expect(fresh.code, fresh.out + fresh.err).toBe(1);
    expect(fresh.out).toMatch(/NEW prompts\.unknown: warn:/);
    expect(fixed.code, fixed.out + fixed.err).toBe(0);
    expect(fixed.out).toContain('STALE resources.unknown-modern: expected to fail but now passes');
  });
});
