// No false findings on the correct reference fixture; the CLI's exit codes, report.json and replay;
// the sequence arbitrary draws only from what the target declared.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fuzz, fuzzSequenceArbitrary, ID_THEMES, idTheme, sequenceArbitrary, unusualId, type TargetProfile } from '../../../index.js';
import { splitOffsets, multiByteId } from '../../../arbitraries/transport-steps.js';
import { listedPrompts, templateVariables } from '../../../fuzz/run-sequence.js';
import { cli } from '../../helpers/cli.js';

const REF = join(process.cwd(), 'dist/fixtures/servers/reference/main.js');
const PLANTED = join(process.cwd(), 'dist/fixtures/servers/planted/main.js');
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-fuzz-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sequence arbitraries', () => {
  it('draw steps only from the declared methods and callable tools, with unique unusual ids', () => {
    const profile: TargetProfile = { version: '2025-11-25', era: 'legacy', methods: ['ping', 'resources/list'], tools: [{ name: 't', inputSchema: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer' } }, required: ['s'] } }], resources: true };
    const seqs = fc.sample(sequenceArbitrary(profile, { maxLength: 6 }), { seed: 3, numRuns: 200 });
    const kinds = new Set<string>();
    for (const seq of seqs) {
      expect(seq.length).toBeGreaterThanOrEqual(1);
      expect(seq.length).toBeLessThanOrEqual(6);
      for (const s of seq) {
        kinds.add(s.kind === 'call' ? `call:${s.variant}` : s.kind);
        if (s.kind === 'request' || s.kind === 'raw') expect(profile.methods).toContain(s.method);
        if (s.kind === 'call') expect(s.tool).toBe('t');
        if (s.kind === 'notify') expect(['notifications/cancelled', 'notifications/initialized', 'notifications/progress']).toContain(s.method);
      }
    }
    expect([...kinds].sort()).toEqual(['call:edge', 'call:near-valid', 'call:valid', 'notify', 'raw', 'read', 'request']);
    const ids = (['big', 'negative', 'spaces', 'unicode', 'numeric-string', 'long'] as const).flatMap((st) => [0, 1, 2].map((p) => unusualId(st, p)));
    expect(new Set(ids.map((i) => JSON.stringify(i))).size).toBe(ids.length);
  });

  it('draw prompts/get, completion/complete and subscriptions only where declared; notifications in odd places refer to answered requests', () => {
    const bare: TargetProfile = { version: '2026-07-28', era: 'modern', methods: ['server/discover'], tools: [], resources: false };
    const none = fc.sample(sequenceArbitrary(bare), { seed: 4, numRuns: 200 }).flat();
    expect(none.every((s) => ['request', 'raw', 'notify'].includes(s.kind))).toBe(true);
    expect(none.some((s) => s.kind === 'notify' && s.method === 'notifications/initialized')).toBe(false);
    const full: TargetProfile = { ...bare, version: '2025-11-25', era: 'legacy', methods: ['ping'], resources: true, prompts: true, completions: true, subscriptions: true };
    const steps = fc.sample(sequenceArbitrary(full), { seed: 4, numRuns: 300 }).flat();
    const kinds = new Set(steps.map((s) => s.kind));
    for (const k of ['prompt', 'complete', 'subscribe', 'unsubscribe', 'read']) expect(kinds).toContain(k);
    const prompts = new Set(steps.flatMap((s) => (s.kind === 'prompt' ? [s.args] : [])));
    expect([...prompts].sort()).toEqual(['all', 'missing-required', 'required', 'unknown-prompt']);
    const notes = steps.filter((s) => s.kind === 'notify');
    expect(notes.some((s) => s.kind === 'notify' && s.answered?.ref === 'answered')).toBe(true);
    expect(new Set(notes.map((s) => (s as { method: string }).method))).toEqual(new Set(['notifications/cancelled', 'notifications/progress', 'notifications/initialized']));
  });

  it('transport-layer steps are drawn only for the transport in use; split offsets fall inside the line and inside a multi-byte character', () => {
    const profile: TargetProfile = { version: '2026-07-28', era: 'modern', methods: ['server/discover', 'tools/list'], tools: [], resources: false };
    const kinds = (transport?: 'stdio' | 'http') => new Set(fc.sample(fuzzSequenceArbitrary({ ...profile, transport }), { seed: 9, numRuns: 300 }).flat().map((s) => s.kind));
    const stdio = kinds('stdio');
    expect(stdio).toContain('split');
    expect(stdio).toContain('joined');
    expect(stdio).not.toContain('headers');
    const http = kinds('http');
    expect(http).toContain('headers');
    expect(http).toContain('sse');
    expect(http).not.toContain('split');
    expect(kinds(undefined)).not.toContain('split');
    const variants = new Set(fc.sample(fuzzSequenceArbitrary({ ...profile, transport: 'http' }), { seed: 9, numRuns: 600 }).flat().flatMap((s) => (s.kind === 'headers' ? [s.variant] : [])));
    expect(variants).toContain('method-mismatch');
    expect(variants).toContain('bad-protocol-version');
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: multiByteId(0), method: 'tools/list' })}\n`, 'utf8');
    const offs = splitOffsets(line, [0, 0.5, 0.999], true);
    expect(offs.every((o) => o > 0 && o < line.length)).toBe(true);
    // One cut lands on a continuation byte: inside the character.
    expect(offs.some((o) => (line[o] & 0xc0) === 0x80)).toBe(true);
  });

  it('id themes cycle so every unusual id style shows up within the first seven sequences', () => {
    const first = new Set(Array.from({ length: ID_THEMES.length }, (_, i) => idTheme(i)));
    for (const st of ['big', 'negative', 'spaces', 'unicode', 'numeric-string', 'long', 'counter']) expect(first).toContain(st);
  });

  it('template variables and listed prompts are read the way the session model uses them', () => {
    expect(templateVariables('file:///{path}/{+rest}{?q,lang*}{#frag:3}')).toEqual(['path', 'rest', 'q', 'lang', 'frag']);
    expect(templateVariables('mcpspec://static')).toEqual([]);
    expect(listedPrompts([{ name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b' }] }, { title: 'no name' }])).toEqual([{ name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b', required: false }] }]);
  });
});

describe('fuzz on the correct reference fixture', () => {
  it('reports nothing for a fixed budget (2026-07-28, stdio)', async () => {
    const r = await fuzz({ kind: 'stdio', command: process.execPath, args: [REF] }, { specVersion: 'auto', seed: 5, runs: 25, timeoutMs: 5000, allowDestructive: false, allowOpenWorld: false });
    expect(r.era.version).toBe('2026-07-28');
    expect(r.runs).toBe(25);
    expect(r.startFailures).toBe(0);
    // prompts/get and completion/complete steps refer to the listed prompts and templates.
    expect(r.profile).toMatchObject({ prompts: true, completions: true, subscriptions: false });
    const sent = new Set(r.recording.events().flatMap((e) => (e.dir === 'out' && e.message && typeof (e.message as { method?: unknown }).method === 'string' ? [(e.message as { method: string }).method] : [])));
    for (const m of ['prompts/get', 'completion/complete']) expect(sent).toContain(m);
    expect([...sent].some((m) => m === 'notifications/progress' || m === 'notifications/cancelled')).toBe(true);
    expect(r.profile.tools.map((t) => t.name)).not.toContain('delete_everything');
    expect(r.profile.tools.map((t) => t.name)).not.toContain('fetch_weather');
    expect(r.findings).toEqual([]);
  });
});

describe('mcpspec fuzz / replay (built CLI)', () => {
  it('exit 1 with a finding, report.json with the repro path; replay exits 1 on the buggy target and 0 on the fixed one', async () => {
    const out = join(dir, 'crash');
    const r = await cli(['fuzz', '--seed', '1', '--runs', '30', '--timeout', '2s', '--spec-version', '2025-11-25', '--out', out, '--stdio', '--', 'node', PLANTED, '--bug', 'crash-after-list']);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/found: FAIL robustness\.stays-up \(crash\) at tools\/call lookup/);
    expect(r.out).toMatch(/FAIL robustness\.stays-up \(crash\) at tools\/call lookup/);
    expect(r.out).toMatch(/rule: robustness\.stays-up \[JR-04, JR-06\]/);
    expect(r.out).toMatch(/1\. resources\/list/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.reportVersion).toBe(2);
    const crash = report.findings.find((f: { kind: string }) => f.kind === 'crash');
    expect(crash.repro).toMatch(/repro-crash-tools-call-lookup\.json$/);
    expect(report.checks.find((c: { id: string }) => c.id === 'robustness.stays-up').status).toBe('fail');
    expect(report.summary.conformant).toBe(false);
    expect(readdirSync(out)).toContain('repro-crash-tools-call-lookup.json');
    const again = await cli(['replay', crash.repro]);
    expect(again.code, again.out + again.err).toBe(1);
    expect(again.out).toMatch(/still there/);
    const fixed = await cli(['replay', crash.repro, '--stdio', '--', 'node', PLANTED]);
    expect(fixed.code, fixed.out + fixed.err).toBe(0);
    expect(fixed.out).toMatch(/fixed/);
  });

  it('usage mistakes exit 2 with one stderr line', async () => {
    const a = await cli(['fuzz', '--runs', '5']);
    expect(a.code).toBe(2);
    expect(a.err.trim().split('\n')).toHaveLength(1);
    const b = await cli(['replay', join(dir, 'missing.json')]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/cannot read the repro/);
    const c = await cli(['fuzz', '--time', 'soon', '--stdio', '--', 'node', PLANTED]);
    expect(c.code).toBe(2);
  });
});
