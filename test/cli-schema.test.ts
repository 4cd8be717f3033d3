import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

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
