// How a mutant run is judged against its baseline, and the catalogue's records.
import { describe, expect, it } from 'vitest';
import { IDENTITY, mutationArea, mutationById, MUTATIONS } from '../../mutation/catalogue.js';
import { wouldApply } from '../../mutation/dry-run.js';
import { judgeMutant, parseEquivalent, tally, worsened, type RunFacts, type VerdictLine } from '../../mutation/score.js';
import type { WireEvent } from '../../results/wire.js';
import { readFileSync } from 'node:fs';

const line = (id: string, status: string, requirements: string[], message = ''): VerdictLine => ({ id, status, requirements, message });
const facts = (checks: VerdictLine[] | null, exitCode: number | null = 1, applied = 1): RunFacts => ({ checks, exitCode, applied, targetFindings: 0 });
const m = { id: 'caching.ttl-negative', requirements: ['CA-02'], related: ['CA-01'], role: 'server', eras: ['modern'], transports: ['stdio'], description: '' } as const;

describe('judging a mutant', () => {
  const baseline = facts([line('caching.ttl', 'pass', ['CA-02']), line('wire.schema', 'pass', ['JR-01']), line('tools.names', 'fail', ['TE-05'], '2 bad names')], 1, 0);

  it('is killed by a worse verdict citing a broken or related requirement', () => {
    const r = judgeMutant(m, 't', baseline, facts([line('caching.ttl', 'fail', ['CA-02']), line('wire.schema', 'pass', ['JR-01']), line('tools.names', 'fail', ['TE-05'], '2 bad names')]), false);
    expect(r.outcome).toBe('killed');
    expect(r.by).toEqual(['caching.ttl: pass -> fail']);
  });

  it('counts a worse verdict on another rule apart, never as killed', () => {
    const r = judgeMutant(m, 't', baseline, facts([line('caching.ttl', 'pass', ['CA-02']), line('wire.schema', 'fail', ['JR-01']), line('tools.names', 'fail', ['TE-05'], '2 bad names')]), false);
    expect(r.outcome).toBe('unrelated');
  });

  it('survives when nothing got worse; not applicable when the traffic never changed', () => {
    expect(judgeMutant(m, 't', baseline, facts(baseline.checks), false).outcome).toBe('survived');
    expect(judgeMutant(m, 't', baseline, facts(baseline.checks), true).outcome).toBe('equivalent');
    expect(judgeMutant(m, 't', baseline, facts([line('caching.ttl', 'fail', ['CA-02'])], 1, 0), false).outcome).toBe('not-applicable');
  });

  it('takes a failure with new evidence as a kill only where it cites the rule (numbers aside)', () => {
    const failing = facts([line('caching.ttl', 'fail', ['CA-02'], 'ttlMs -1 on 3 results')], 1, 0);
    expect(judgeMutant(m, 't', failing, facts([line('caching.ttl', 'fail', ['CA-02'], 'ttlMs -1 on 4 results')]), false).outcome).toBe('survived');
    expect(judgeMutant(m, 't', failing, facts([line('caching.ttl', 'fail', ['CA-02'], 'cacheScope "x" on 4 results')]), false).outcome).toBe('killed');
    expect(worsened([line('a', 'warn', ['X'], 'took 12 ms')], [line('a', 'warn', ['X'], 'took 40 ms')])).toEqual([]);
  });

  it('is no kill when mcpspec did not exit 1, and no report is an error unless mcpspec refused the target (exit 2)', () => {
    expect(judgeMutant(m, 't', baseline, facts([line('caching.ttl', 'warn', ['CA-02'])], 0), false).outcome).toBe('unrelated');
    expect(judgeMutant(m, 't', baseline, facts(null, null), false).outcome).toBe('error');
    expect(judgeMutant(m, 't', baseline, facts(null, 2), false).outcome).toBe('unrelated');
  });

  it('tallies per area, the rate over killed, unrelated and survived', () => {
    const t = tally(
      [
        { mutation: 'a.x', target: 't', outcome: 'killed', by: [], applied: 1, exitCode: 1 },
        { mutation: 'a.y', target: 't', outcome: 'survived', by: [], applied: 1, exitCode: 0 },
        { mutation: 'b.z', target: 't', outcome: 'not-applicable', by: [], applied: 0, exitCode: null },
      ],
      mutationArea,
    );
    expect(t.rows.map((r) => [r.area, r.counts.killed, r.counts.survived, r.counts['not-applicable']])).toEqual([
      ['a', 1, 1, 0],
      ['b', 0, 0, 1],
    ]);
  });
});

describe('the equivalent list', () => {
  it('parses ids, optional targets and reasons', () => {
    const parsed = parseEquivalent('# x\n- `a.b`: cannot be seen\n- `c.d` [t1, t2]: only there\n');
    expect(parsed.get('a.b')).toEqual({ targets: '*', reason: 'cannot be seen' });
    expect(parsed.get('c.d')).toEqual({ targets: ['t1', 't2'], reason: 'only there' });
  });

  it('names only mutations of the catalogue, each with a reason', () => {
    const parsed = parseEquivalent(readFileSync('mutation/equivalent.md', 'utf8'));
    for (const [id, e] of parsed) {
      expect(mutationById(id), id).toBeDefined();
      expect(e.reason.length).toBeGreaterThan(10);
    }
  });
});

describe('the mutation catalogue', () => {
  const digest = readFileSync('../shared/spec/requirements.md', 'utf8');
  const known = new Set([...digest.matchAll(/^\| ([A-Z]+[0-9]*-[0-9]+[a-z]?) \|/gm)].map((x) => x[1]));
  // The digest's citation keys (R26: the resources page): checks cite them where the digest has no row.
  const sources = new Set([...digest.matchAll(/^\| (`[A-Z0-9]+`(?: \/ `[A-Z0-9]+`)*) \|/gm)].flatMap((x) => [...x[1].matchAll(/`([A-Z0-9]+)`/g)].map((k) => k[1])));

  it('leaves out exactly the requirement IDs mutation/uncovered.md lists, each with a reason', () => {
    const cited = new Set(MUTATIONS.flatMap((x) => [...x.requirements, ...(x.related ?? [])]));
    // Every `ID` (level) in the file, several to a line where they share a reason.
    const listed = [...readFileSync('mutation/uncovered.md', 'utf8').matchAll(/`([A-Z]+[0-9]*-[0-9]+[a-z]?)` \(/g)].map((x) => x[1]);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...known].filter((r) => !cited.has(r)).sort());
  });

  it('has unique ids, each area.kebab-case, each citing requirements of the digest', () => {
    expect(new Set(MUTATIONS.map((x) => x.id)).size).toBe(MUTATIONS.length);
    for (const x of MUTATIONS) {
      expect(x.id, x.id).toMatch(/^[a-z0-9-]+\.[a-z0-9-]+$/);
      expect(x.requirements.length, x.id).toBeGreaterThan(0);
      for (const r of x.requirements) expect(known.has(r) || r.startsWith('AZ-'), `${x.id}: ${r}`).toBe(true);
      for (const r of x.related ?? []) expect(known.has(r) || sources.has(r) || r.startsWith('AZ-'), `${x.id}: ${r}`).toBe(true);
      expect(x.eras.length && x.transports.length, x.id).toBeTruthy();
      expect(x.description.length, x.id).toBeGreaterThan(10);
      expect(Boolean(x.toClient || x.toServer || x.httpAnswer || x.httpAsk || x.stdoutLine || x.stdinEnd), `${x.id} has a hook`).toBe(true);
    }
    expect(mutationById('identity')).toBe(IDENTITY);
    expect(MUTATIONS).not.toContain(IDENTITY);
  });

  it('decides applicability from a recording: a mutation of tools/list answers applies where one was recorded', () => {
    const ev = (seq: number, dir: 'in' | 'out', message: unknown): WireEvent => ({ seq, t: seq, dir, channel: 'stdio', raw: JSON.stringify(message), kind: 'message', message, source: 'tools' });
    const events = [ev(1, 'out', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), ev(2, 'in', { jsonrpc: '2.0', id: 1, result: { tools: [] } })];
    expect(wouldApply(mutationById('jsonrpc.answer-wrong-id')!, events, 'server', 'stdio')).toBe(true);
    expect(wouldApply(mutationById('jsonrpc.parse-error-code')!, events, 'server', 'stdio')).toBe(false);
  });
});
