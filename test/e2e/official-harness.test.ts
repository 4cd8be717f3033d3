// Client harnesses written to the official conformance suite's contract (test/e2e/clients/
// official-harness-sdk1.mjs on @modelcontextprotocol/sdk 1.x, official-harness-sdk2.mjs on
// @modelcontextprotocol/client 2.x), run unchanged by both suites: first by the official suite
// (@modelcontextprotocol/conformance, a devDependency; it needs Node 22, bench/node22.ts), where each
// passes the scenarios listed; then by `mcpspec client --http --official-harness`, where the same
// files run the same handlers (the scenario name mcpspec gives them, exit 0) and get mcpspec's
// verdicts, pinned here. Every verdict that is not a pass is explained beside it; none is an error,
// and a name a harness refuses is never counted against it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { node22 } from '../../bench/node22.js';
import type { SpecVersion } from '../../protocol/versions.js';
import { cli } from '../helpers/cli.js';
import { countOfRun } from '../helpers/catalogue-counts.js';

const SDK1 = resolve('test/e2e/clients/official-harness-sdk1.mjs');
const SDK2 = resolve('test/e2e/clients/official-harness-sdk2.mjs');
const OFFICIAL_CLI = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

/** Official scenarios and the mcpspec scenario that gives a harness the same name, its server playing the same part. */
const LEGACY_PAIRS: Record<string, string> = {
  'elicitation-sep1034-client-defaults': 'client-legacy',
  'json-schema-2020-12-preservation': 'client-tool-schemas',
  'sse-retry': 'client-sse-polling',
  'auth/metadata-default': 'client-authorization',
  'auth/scope-step-up': 'client-authorization-step-up',
  'auth/token-endpoint-auth-basic': 'client-authorization-confidential',
  'auth/scope-from-scopes-supported': 'client-authorization-scope-from-metadata',
  'auth/token-endpoint-auth-post': 'client-authorization-secret-post',
  'auth/pre-registration': 'client-authorization-pre-registered',
};
const MODERN_PAIRS: Record<string, string> = {
  'request-metadata': 'client-modern',
  'json-schema-2020-12-preservation': 'client-tool-schemas',
  'http-custom-headers': 'client-caching',
  'sep-2322-client-request-state': 'client-input-required',
  'auth/metadata-default': 'client-authorization',
  'auth/scope-step-up': 'client-authorization-step-up',
  'auth/token-endpoint-auth-basic': 'client-authorization-confidential',
  'auth/scope-from-scopes-supported': 'client-authorization-scope-from-metadata',
  'auth/token-endpoint-auth-post': 'client-authorization-secret-post',
  'auth/pre-registration': 'client-authorization-pre-registered',
};

// What the official suite passes each harness on (run there below). tools_call is also mcpspec's first run.
const PASSES_THERE: Record<string, string[]> = {
  [SDK1]: ['initialize', 'tools_call', ...Object.keys(LEGACY_PAIRS)],
  [SDK2]: ['initialize', 'tools_call', ...new Set([...Object.keys(LEGACY_PAIRS), ...Object.keys(MODERN_PAIRS)])],
};

// Verdicts that are not a pass, and why. The harnesses (like the SDKs' own) never end their session:
const NO_DELETE = { 'client.session-delete': 'warn' };
// Nothing is abandoned, nothing task-augmented (no harness asks for either).
const NOTHING_CANCELLED = { 'client.cancellations': 'untestable' };
const NO_LEGACY_TASKS = { 'client.legacy-task-polls': 'untestable' };
// The OAuth provider (test/e2e/clients/headless-oauth.mjs) has no state() and no client ID metadata document
// URL; the official suite's basic-cimd warns of the latter too (so it is not among the passes above).
const NO_STATE_NO_CIMD = { 'auth.client-state': 'warn', 'auth.client-state-mismatch': 'untestable', 'auth.client-state-missing': 'untestable', 'auth.client-cimd': 'warn' };
// Both SDKs go on with an authorization server whose metadata lacks code_challenge_methods_supported (no official scenario has that).
const PKCE_ASSUMED = { 'auth.client-pkce-required': 'fail' };
// The 1.x SDK uses authorization server metadata naming another issuer (the official metadata-issuer-mismatch, a
// 2026-07-28 scenario, fails it too), and after a 403 insufficient_scope it only refreshes its token: the official
// authorization server lets a refresh widen the scope, so scope-step-up passes there; mcpspec's refuses (RFC 6749 §6).
// Never authorizing again, it has no step-up to bound where the upgrade never succeeds (scope-retry-limit passes
// there: it counts two authorization requests).
const SDK1_OAUTH = { 'auth.client-issuer': 'fail', 'auth.client-step-up': 'warn', 'auth.client-step-up-limit': 'untestable' };
// 2026-07-28: the harness lists tools once (http-custom-headers), so caching cannot show; no harness declares the tasks
// extension; the 2.x SDK waits on an answer stream that closed before its answer instead of sending the request again (HM-05).
// client-elicitation-forms at 2026-07-28: no official scenario with a form runs there, so the harness gets tools_call,
// whose client declares no elicitation: no form is asked. client-skills and client-skills-tampered: the 2.x harness
// refuses the sep-2640 names (a note each), so it gets the plain flow, which never lists skills.
const MODERN_2X = { 'client.skills-no-prefetch': 'untestable', 'client.skills-verified': 'untestable', 'client.elicitation-defaults': 'untestable', 'client.elicitation-enum-values': 'untestable', 'client.cache-fresh': 'untestable', 'client.task-polls': 'untestable', 'client.task-poll-interval': 'untestable', 'client.task-input': 'untestable', 'client.reissues-broken-request': 'fail' };

const without = (pairs: Record<string, string>, name: string) => Object.fromEntries(Object.entries(pairs).filter(([n]) => n !== name));

interface Case {
  name: string;
  harness: string;
  specVersion?: SpecVersion;
  era: SpecVersion;
  notPassed: Record<string, string>;
  findings: string[];
  pairs: Record<string, string>;
}

const CASES: Case[] = [
  // Its step-up call is refused again after the refresh (SDK1_OAUTH), so that handler ends with exit 1 here.
  { name: '1.x SDK harness, auto', harness: SDK1, era: '2025-11-25', pairs: without(LEGACY_PAIRS, 'auth/scope-step-up'), findings: [], notPassed: { ...NO_DELETE, ...NOTHING_CANCELLED, ...NO_LEGACY_TASKS, ...NO_STATE_NO_CIMD, ...PKCE_ASSUMED, ...SDK1_OAUTH } },
  { name: '2.x SDK harness, auto', harness: SDK2, era: '2025-11-25', pairs: LEGACY_PAIRS, findings: [], notPassed: { ...NO_DELETE, ...NOTHING_CANCELLED, ...NO_LEGACY_TASKS, ...NO_STATE_NO_CIMD, ...PKCE_ASSUMED } },
  // At 2026-07-28 it is told the version (MCP_CONFORMANCE_PROTOCOL_VERSION) and negotiates; mcpspec stops it in client-broken-stream.
  // client-param-types gives it http-custom-headers with a call of the typed tool: the SDK mirrors 42 and true, and not the
  // undeclared text (client.http-param-encoding, client.http-param-unannotated pass); its http-invalid-tool-headers handler
  // calls every tool the SDK lists, which leaves the ten invalid ones out (client.http-invalid-tool-unused passes).
  { name: '2.x SDK harness, --spec-version 2026-07-28', harness: SDK2, specVersion: '2026-07-28', era: '2026-07-28', pairs: MODERN_PAIRS, findings: ['hang client-broken-stream', 'note client-skills', 'note client-skills-tampered'], notPassed: { ...NO_DELETE, ...NOTHING_CANCELLED, ...NO_LEGACY_TASKS, ...NO_STATE_NO_CIMD, ...PKCE_ASSUMED, ...MODERN_2X } },
];

interface Event {
  type: string;
  result?: { id: string; status: string; scenario: string };
  finding?: { kind: string; scenario?: string; message: string };
  peer?: { info?: { name?: string } };
  summary?: { error: number; harnessErrors: number };
}

async function judge(harness: string, specVersion?: SpecVersion): Promise<{ code: number | null; events: Event[]; exits: { scenario: string; officialScenario: string; exitCode: number | null }[] }> {
  const out = join(mkdtempSync(join(tmpdir(), 'mcpspec-official-harness-')), 'r');
  const r = await cli(['client', '--http', '--official-harness', '--json', '--timeout', '20s', '--seed', '1', '--out', out, ...(specVersion ? ['--spec-version', specVersion] : []), '--', process.execPath, harness], 400_000);
  const events = r.out.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Event);
  const recording = JSON.parse(readFileSync(join(out, 'recording.json'), 'utf8')) as { events: { note?: string; source?: string; data?: { exitCode: number | null; officialScenario?: string } }[] };
  const exits = recording.events.filter((e) => e.note === 'client-exit').map((e) => ({ scenario: e.source!, officialScenario: e.data!.officialScenario!, exitCode: e.data!.exitCode }));
  return { code: r.code, events, exits };
}

describe('harnesses written to the official contract: the official suite passes them', () => {
  const node = node22();
  for (const harness of [SDK1, SDK2]) {
    for (const scenario of PASSES_THERE[harness]) {
      it(`${harness.split('/').at(-1)}: ${scenario}`, () => {
        const out = mkdtempSync(join(tmpdir(), 'mcpspec-official-'));
        const r = spawnSync(node, [OFFICIAL_CLI, 'client', '--command', `${process.execPath} ${harness}`, '--scenario', scenario, '-o', out], { encoding: 'utf8', timeout: 120_000 });
        expect(r.status, r.stdout + r.stderr).toBe(0);
        expect(r.stdout + r.stderr).toContain('OVERALL: PASSED');
      });
    }
  }
});

describe('the same harnesses, unchanged, judged by mcpspec client --official-harness', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { code, events, exits } = await judge(c.harness, c.specVersion);
      const checks = events.filter((e) => e.type === 'check').map((e) => e.result!);
      const notPassed = Object.fromEntries(checks.filter((x) => x.status !== 'pass').map((x) => [x.id, x.status]));
      expect(notPassed).toEqual(c.notPassed);
      expect(code).toBe(Object.values(c.notPassed).includes('fail') ? 1 : 0);
      expect(checks).toHaveLength(countOfRun('client', c.era, 'http'));
      const end = events.at(-1)!;
      expect(end.summary).toMatchObject({ error: 0, harnessErrors: 0 });
      expect(events.filter((e) => e.type === 'finding').map((e) => `${e.finding!.kind} ${e.finding!.scenario}`).sort()).toEqual([...c.findings].sort());
      // Its first run was its tools_call handler (the client it declared there is named after the harness).
      expect(events.find((e) => e.type === 'run-start')?.peer?.info?.name).toBe(c.harness === SDK1 ? 'official-harness-sdk1' : 'official-harness-sdk2');
      // Where mcpspec plays the official scenario's part, it gave the harness that scenario's name, and the harness's handler for it ran through (exit 0), as it does there.
      for (const [official, scenario] of Object.entries(c.pairs)) {
        const runs = exits.filter((e) => e.scenario === scenario);
        expect(runs.length, scenario).toBeGreaterThan(0);
        for (const run of runs) expect(run, scenario).toEqual({ scenario, officialScenario: official, exitCode: 0 });
      }
    });
  }

  it('the 1.x SDK harness at 2026-07-28: the names it has no handler for are refused, each scenario given the plain flow instead (a note), no error, no crash', async () => {
    const { events, exits } = await judge(SDK1, '2026-07-28');
    const notes = events.filter((e) => e.type === 'finding').map((e) => e.finding!);
    expect(notes.every((f) => f.kind === 'note')).toBe(true);
    expect(notes.map((f) => f.scenario).sort()).toEqual(['client-caching', 'client-counteroffer', 'client-input-required', 'client-input-required-stateless', 'client-invalid-tools', 'client-modern', 'client-param-types', 'client-result-type', 'client-skills', 'client-skills-tampered']);
    for (const f of notes) expect(f.message).toMatch(/^the harness refused MCP_CONFORMANCE_SCENARIO=(request-metadata|http-custom-headers|http-invalid-tool-headers|sep-2322-client-request-state|sep-2640-client-no-prefetch|sep-2640-client-verify-digest) \(it ended before sending anything: exited with code 1; stderr: Unknown scenario: .*\): mcpspec ran client-[a-z-]+ as tools_call$/);
    // Each refused run, then the plain flow: the 1.x SDK's initialize, refused by the 2026-07-28-only server (it ends with exit 1 there, having sent it).
    expect(exits.filter((e) => e.scenario === 'client-modern').map((e) => [e.officialScenario, e.exitCode])).toEqual([['request-metadata', 1], ['tools_call', 1]]);
    expect(exits.filter((e) => e.scenario === 'client-caching').map((e) => e.officialScenario)).toEqual(['http-custom-headers', 'tools_call']);
    expect(events.at(-1)!.summary).toMatchObject({ error: 0, harnessErrors: 0 });
    const checks = events.filter((e) => e.type === 'check').map((e) => e.result!);
    expect(checks.filter((x) => x.status === 'error')).toEqual([]);
    // The requests it sent instead were its own (a 2025 client judged by 2026-07-28 rules, as asked): nothing counted for the refused names.
    expect(checks.find((x) => x.id === 'client.counteroffer')).toMatchObject({ status: 'untestable' });
  });
});
