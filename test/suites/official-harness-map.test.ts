// The official-suite harness contract as data (suites/client/official-*.ts): every row names a real
// mcpspec client scenario and real official scenario names, the vendored spec versions agree with the
// official suite installed in node_modules, and the choice of name, context and listed tools per run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../protocol/schema-registry.js';
import { refusedScenario, harnessEnv } from '../../runner/official-harness.js';
import { SCENARIOS } from '../../suites/catalogue.js';
import { PRE_REGISTERED_CLIENT } from '../../suites/authorization/authorization-server.js';
import { HARNESS_MAP, officialContext, officialNamesFor, START_RUN } from '../../suites/client/official-harness-map.js';
import { OFFICIAL_CLIENT_SCENARIOS, OFFICIAL_FIXTURE_TOOLS, officialDefaultVersion, type OfficialClientScenario } from '../../suites/client/official-scenario-names.js';
import { TOOL, TYPED_TOOL } from '../../suites/client/scripted-server.js';
import { OFFICIAL_SCENARIOS, OFFICIAL_SUITE_VERSION } from '../../reports/official-suite-map.js';

const official = Object.keys(OFFICIAL_CLIENT_SCENARIOS) as OfficialClientScenario[];
const overHttp = SCENARIOS.filter((s) => s.role === 'client' && (!s.transports || s.transports.includes('http'))).map((s) => s.id);

/** The client scenarios a requirement set of the installed official suite lists (its `client:` list). */
function requiredClientScenarios(revision: string): string[] {
  const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
  const text = readFileSync(join(dirname(pkg), 'requirements', `${revision}.yaml`), 'utf8');
  const block = text.slice(text.indexOf('\nclient:\n') + 9);
  return block.slice(0, block.search(/\n\S/)).split('\n').map((l) => /^ {2}- (\S+)$/.exec(l)?.[1]).filter((n): n is string => n !== undefined);
}

describe('the official harness map', () => {
  it('has one row per mcpspec client scenario that runs over HTTP, plus the first run, and no other', () => {
    const rows = HARNESS_MAP.map((r) => r.scenario);
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual([START_RUN, ...overHttp].sort());
    expect(overHttp.length).toBeGreaterThan(30); // the auth scenarios among them
  });

  it('names only client scenarios the expected-failures map knows too (the same official release)', () => {
    expect(OFFICIAL_SUITE_VERSION).toBe('0.2.0-alpha.12');
    for (const n of official) expect(Object.keys(OFFICIAL_SCENARIOS.client), n).toContain(n);
  });

  it('names only official client scenarios, each row with a reason', () => {
    for (const r of HARNESS_MAP) {
      expect(r.names.length, r.scenario).toBeGreaterThan(0);
      for (const n of r.names) expect(official, `${r.scenario}: ${n}`).toContain(n);
      expect(r.why.length, r.scenario).toBeGreaterThan(10);
    }
    for (const n of Object.keys(OFFICIAL_FIXTURE_TOOLS)) expect(official).toContain(n);
    // Every vendored name is used by some row (none kept for nothing).
    expect(new Set(HARNESS_MAP.flatMap((r) => r.names))).toEqual(new Set(official));
  });

  it('agrees with the official suite in node_modules: a name is in a revision\'s requirement set exactly when it is vendored for that version', () => {
    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      const required = requiredClientScenarios(revision);
      expect(required.length, revision).toBeGreaterThan(10);
      for (const n of official) expect(required.includes(n), `${n} at ${revision}`).toBe((OFFICIAL_CLIENT_SCENARIOS[n] as string[]).includes(revision));
    }
  });

  it('gives the row\'s first name the official suite runs at the version, then (after a refusal) the rest, the plain OAuth flow for OAuth rows, and the plain flow', () => {
    expect(officialNamesFor(START_RUN, '2025-11-25')).toEqual(['tools_call', 'initialize']);
    expect(officialNamesFor('client-legacy', '2025-11-25')).toEqual(['elicitation-sep1034-client-defaults', 'initialize', 'tools_call']);
    expect(officialNamesFor('client-legacy', '2025-06-18')).toEqual(['initialize', 'tools_call']);
    expect(officialNamesFor('client-legacy', '2026-07-28')).toEqual(['tools_call', 'initialize']);
    expect(officialNamesFor('client-sse-polling', '2025-11-25')).toEqual(['sse-retry', 'tools_call', 'initialize']);
    expect(officialNamesFor('client-authorization', '2025-06-18')).toEqual(['auth/token-endpoint-auth-none', 'auth/metadata-default', 'tools_call', 'initialize']);
    // A name the official suite runs only at 2026-07-28 is still the best for an mcpspec scenario run at 2025-11-25.
    expect(officialNamesFor('client-authorization-wrong-resource', '2025-11-25')).toEqual(['auth/resource-mismatch', 'auth/metadata-default', 'tools_call', 'initialize']);
    // Every run can end in the plain flow, and no name is given twice.
    for (const r of HARNESS_MAP) {
      for (const v of ['2025-06-18', '2025-11-25', '2026-07-28'] as const) {
        const names = officialNamesFor(r.scenario, v);
        expect(names, `${r.scenario} at ${v}`).toEqual(expect.arrayContaining(['tools_call', 'initialize']));
        expect(new Set(names).size).toBe(names.length);
      }
    }
  });

  it('docs/official-harness.md shows every row with its names, in order', () => {
    const lines = readFileSync('docs/official-harness.md', 'utf8').split('\n');
    for (const r of HARNESS_MAP) {
      const line = lines.find((l) => l.startsWith(`| \`${r.scenario}\` |`));
      expect(line, r.scenario).toBeDefined();
      expect(line!.split(' | ')[1], r.scenario).toBe(r.names.map((n) => `\`${n}\``).join(', '));
    }
  });

  it('tells a harness the version the official suite would when it is told none', () => {
    expect(officialDefaultVersion('tools_call')).toBe('2025-11-25');
    expect(officialDefaultVersion('initialize')).toBe('2025-11-25');
    expect(officialDefaultVersion('request-metadata')).toBe('2026-07-28');
    expect(officialDefaultVersion('auth/metadata-default')).toBe('2025-11-25');
    expect(officialDefaultVersion('sep-2640-client-no-prefetch')).toBe('2026-07-28');
  });

  it('passes a context only with http-custom-headers and auth/pre-registration: the official shapes, calling mcpspec\'s echo tool (one value needing Base64 in its header), and the credentials mcpspec\'s authorization server knows', () => {
    expect(harnessEnv('tools_call', '2025-11-25')).toEqual({ MCP_CONFORMANCE_SCENARIO: 'tools_call', MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' });
    for (const n of official.filter((n) => n !== 'http-custom-headers' && n !== 'auth/pre-registration')) expect(officialContext(n), n).toBeUndefined();
    expect(JSON.parse(harnessEnv('auth/pre-registration', '2025-11-25').MCP_CONFORMANCE_CONTEXT)).toEqual({ name: 'auth/pre-registration', client_id: PRE_REGISTERED_CLIENT.clientId, client_secret: PRE_REGISTERED_CLIENT.secret });
    const env = harnessEnv('http-custom-headers', '2026-07-28');
    const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT) as { name: string; toolCalls: { name: string; arguments: Record<string, unknown> }[] };
    expect(context.name).toBe('http-custom-headers');
    expect(context.toolCalls.map((c) => c.name)).toEqual([TOOL.name, TOOL.name]);
    expect(TOOL.inputSchema.properties.text['x-mcp-header']).toBe('Text');
    expect(context.toolCalls.some((c) => /[^\x20-\x7e]|^\s|\s$/.test(String(c.arguments.text)))).toBe(true);
    // For client-param-types: one call of the typed tool, with an integer and a boolean argument declared x-mcp-header and a text one not.
    const typed = JSON.parse(harnessEnv('http-custom-headers', '2026-07-28', 'client-param-types').MCP_CONFORMANCE_CONTEXT) as typeof context;
    expect(typed.toolCalls).toEqual([{ name: TYPED_TOOL.name, arguments: { text: 'mcpspec', count: 42, enabled: true } }]);
    expect(TYPED_TOOL.inputSchema.properties.count['x-mcp-header']).toBe('Count');
    expect(TYPED_TOOL.inputSchema.properties.enabled['x-mcp-header']).toBe('Enabled');
    expect(TYPED_TOOL.inputSchema.properties.text).not.toHaveProperty('x-mcp-header');
  });

  it('lists valid tools for the harnesses that look theirs up', () => {
    for (const [name, tools] of Object.entries(OFFICIAL_FIXTURE_TOOLS)) {
      for (const v of OFFICIAL_CLIENT_SCENARIOS[name as OfficialClientScenario]) {
        const valid = loadSchema(v).validator('Tool');
        for (const t of tools) expect(valid(t), `${name}: ${String(t.name)} at ${v}`).toBe(true);
      }
    }
    expect(OFFICIAL_FIXTURE_TOOLS['sse-retry']?.map((t) => t.name)).toEqual(['test_reconnection']);
  });

  it('a refusal is an exit on its own before anything was sent, whatever the exit code; a signal, a timeout or traffic is not', () => {
    const exit = { exitCode: 1, signal: null, timedOut: false, stderrTail: 'Unknown scenario: x', stdoutTail: '' };
    expect(refusedScenario(exit, false)).toBe(true);
    expect(refusedScenario({ ...exit, exitCode: 0 }, false)).toBe(true);
    expect(refusedScenario(exit, true)).toBe(false);
    expect(refusedScenario({ ...exit, exitCode: null, signal: 'SIGSEGV' }, false)).toBe(false);
    expect(refusedScenario({ ...exit, exitCode: null, timedOut: true }, false)).toBe(false);
  });
});
