import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_A, DIFF_B } from '../helpers/diff-schemas.js';

const CLI = ['dist/bin/mcpspec.js'];
function run(args: string[], input?: string) {
  const r = spawnSync('node', [...CLI, ...args], { encoding: 'utf8', input, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('mcpspec schema (built CLI)', () => {
  it('prints N NDJSON values; the same seed prints the same values', () => {
    const a = run(['schema', 'gen', 'CallToolRequest', '-n', '5', '--seed', '9']);
    const b = run(['schema', 'gen', 'CallToolRequest', '-n', '5', '--seed', '9']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const lines = a.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l.method).toBe('tools/call');
  });

  it('prints near-valid values with labels, and validate agrees line by line', () => {
    const gen = run(['schema', 'gen', 'ListToolsRequest', '--spec-version', '2025-11-25', '--invalid', '-n', '8', '--seed', '3']);
    expect(gen.code).toBe(0);
    const rows = gen.out.trim().split('\n').map((l) => JSON.parse(l));
    for (const r of rows) expect(r.label).toMatchObject({ path: expect.any(String), keyword: expect.any(String), mutation: expect.any(String) });
    const values = rows.map((r) => JSON.stringify(r.value)).join('\n');
    const v = run(['schema', 'validate', '--spec-version', '2025-11-25', '--def', 'ListToolsRequest', '-'], values);
    expect(v.code).toBe(1);
    expect(v.out).toContain('0 valid, 8 invalid');
  });

  it('validates valid lines with exit 0', () => {
    const gen = execFileSync('node', [...CLI, 'schema', 'gen', 'JSONRPCMessage', '-n', '20', '--seed', '1'], { encoding: 'utf8' });
    const v = run(['schema', 'validate', '-'], gen);
    expect(v.code).toBe(0);
    expect(v.out).toContain('20 valid, 0 invalid');
  });

  it('accepts a schema file and a pointer, or the root (#)', () => {
    expect(run(['schema', 'gen', '#', '--schema', 'fixtures/schemas/rmcp-client-message-2026-07-28.schema.json', '-n', '2', '--seed', '1']).code).toBe(0);
    const r = run(['schema', 'gen', '#/definitions/JsonRpcRequest', '--schema', 'fixtures/schemas/rmcp-client-message-2026-07-28.schema.json', '-n', '3', '--seed', '1']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(3);
  });

  it.each([
    [['schema', 'gen', 'NoSuchDefinition'], /unknown definition "NoSuchDefinition"/],
    [['schema', 'gen', 'CallToolRequest', '--spec-version', '1999-01-01'], /unknown schema "1999-01-01"/],
    [['schema', 'gen', 'X', '--schema', '/no/such/file.json'], /cannot read schema file/],
    [['schema', 'validate', '/no/such/file.ndjson'], /cannot read/],
    [['schema', 'gen', 'CustomResult', '--spec-version', 'rmcp-server-2026-07-28', '--invalid'], /accepts every JSON value/],
  ])('%j gives one clear line and exit 2', (args, message) => {
    const r = run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('mcpspec schema diff (built CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-diff-'));
  const file = (name: string, schema: object) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(schema));
    return path;
  };
  const a = file('a.json', DIFF_A);
  const b = file('b.json', DIFF_B);
  const unrelated = file('unrelated.json', { $defs: { Other: { type: 'string' } } });

  it('lists each disagreeing definition with its shrunk witness, then the counts; exit 1', () => {
    const r = run(['schema', 'diff', a, b, '--seed', '1', '--n', '40']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Max: \d+ of 80 values disagree \(1 cause\)$/m);
    expect(r.out).toContain('A accepts, B refuses');
    expect(r.out).toMatch(/^ {4}witness: 11$/m);
    expect(r.out).toMatch(/^ {2}Never: A's generator: .*schema admits no value$/m);
    expect(r.out.trim().split('\n').at(-1)).toBe('4 definitions compared, 3 disagree, 1 skipped');
    expect(r.err).toBe(''); // the seed is printed only when not given
  });

  it('exits 0 when the schemas agree, and prints the seed it chose', () => {
    const r = run(['schema', 'diff', a, a, '--n', '20']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe('4 definitions compared, 0 disagree, 1 skipped');
    expect(r.err).toMatch(/^seed: \d+\n$/);
  });

  it('--json prints one line per disagreement, then a summary; the same seed prints the same lines', () => {
    const args = ['schema', 'diff', a, b, '--seed', '4', '--n', '30', '--json', '--defs', 'Max,En', '--defs', 'Req=Loose'];
    const r = run(args);
    expect(r.code).toBe(1);
    expect(run(args).out).toBe(r.out);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    const summary = lines.pop();
    expect(summary).toMatchObject({ type: 'summary', a, b, seed: 4, n: 30, compared: 3, disagree: 3, skipped: [] });
    expect(summary.definitions.map((d: { definition: string }) => d.definition)).toEqual(['Max', 'En', 'Req=Loose']);
    for (const l of lines) {
      expect(l).toMatchObject({ type: 'disagreement', accepts: expect.any(String), refuses: expect.any(String), count: expect.any(Number) });
      expect(l.error).toMatchObject({ instancePath: expect.any(String), keyword: expect.any(String), message: expect.any(String) });
      expect(l).toHaveProperty('witness');
    }
    expect(lines.find((l) => l.definition === 'En')).toMatchObject({ accepts: 'A', refuses: 'B', witness: 'c', error: { keyword: 'enum' } });
  });

  it.each([
    [['schema', 'diff', '1999-01-01', '2026-07-28'], /"1999-01-01" is neither a vendored schema/],
    [['schema', 'diff', '2026-07-28', '/no/such/file.json'], /"\/no\/such\/file.json" is neither a vendored schema/],
    [['schema', 'diff', a, unrelated], /share no definition name/],
    [['schema', 'diff', a, b, '--defs', 'NoSuch'], /--defs NoSuch: unknown definition "NoSuch"/],
    [['schema', 'diff', a, b, '--n', '0'], /--n must be an integer of at least 1/],
  ])('%j gives one clear line and exit 2', (args, message) => {
    const r = run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('compares the Rust SDK server schema with the official 2026-07-28 schema in bounded time', () => {
    const started = Date.now();
    const r = run(['schema', 'diff', 'fixtures/schemas/rmcp-server-message-2026-07-28.schema.json', '2026-07-28', '--n', '4', '--seed', '1', '--max-shrinks', '100', '--json']);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.out.trim().split('\n').at(-1)!);
    expect(summary).toMatchObject({ type: 'summary', compared: 63, skipped: [] });
    expect(summary.disagree).toBeGreaterThan(0);
  });
});
