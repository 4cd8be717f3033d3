// Real MCP clients judged by `mcpspec client`, verdicts pinned. docs/real-clients.md explains every
// verdict that is not a pass. Everything not listed must pass: a new failure here is either a client
// change or an mcpspec mistake to look at.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspector2Cli, mcpRemoteClient, mcpRemoteProxy } from '../../bench/real-clients.js';
import type { RunResult } from '../../results/run.js';
import { ClientDriver } from '../../runner/client-driver.js';
import { runSuite } from '../../runner/engine.js';
import { liveCount } from '../../runner/reaper.js';
import type { SpecVersion } from '../../protocol/versions.js';
import { countOfRun } from '../helpers/catalogue-counts.js';

const INSPECTOR = resolve('node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const SDK2 = resolve('test/e2e/clients/sdk2-client.mjs');
const SDK1 = resolve('test/e2e/clients/sdk1-client.mjs');

async function judge(transport: 'http' | 'stdio', argv: string[], cwd?: string, command = process.execPath): Promise<RunResult> {
  const driver = new ClientDriver({ command, args: argv, transport }, { specVersion: 'auto', cwd, timing: { timeoutMs: 20_000 }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: 1, runs: 1 } });
  return runSuite(driver, { schedule: { deadlineMs: 240_000, concurrency: 4 }, seed: 1 });
}

/** Every verdict that is not a pass, plus mcpspec's own failures. */
function notPassed(run: RunResult): Record<string, string> {
  return Object.fromEntries(run.checks.filter((c) => c.status !== 'pass').map((c) => [c.id, c.status]));
}

// The example 2.x client does not declare the tasks extension (it has no @modelcontextprotocol/ext-tasks).
const NO_TASKS = { 'client.task-polls': 'skip', 'client.task-poll-interval': 'skip', 'client.task-input': 'skip' };
// It lists tools once: whether it caches cannot show.
const LISTS_ONCE = { 'client.cache-fresh': 'untestable' };
// None of them task-augments a tool call when a 2025-11-25 server offers tasks; the inspector (tools/list only) calls no tool at all.
const NO_LEGACY_TASKS = { 'client.legacy-task-polls': 'untestable' };
const NO_TOOL_CALL = { ...NO_LEGACY_TASKS, 'client.legacy-task-unasked': 'untestable' };
// None of them cancels anything in these runs (no request is abandoned): client.cancellations has nothing to judge.
const NOTHING_CANCELLED = { 'client.cancellations': 'untestable' };
// HM-05: the 2.x SDK client (2.4.0, also inside the inspector 2.x) waits on a 2026-07-28 answer stream
// that closed before its answer (until its own 60 s timeout) instead of sending the request again.
const NO_REISSUE = { 'client.reissues-broken-request': 'fail' };
// The example 2.x client calls the first listed tool with { text: 'hi' } only: no integer or boolean
// argument declared x-mcp-header to judge (its harness, test/e2e/official-harness.test.ts, sends them).
const TEXT_ONLY = { 'client.http-param-encoding': 'untestable' };
// The inspector's tools/call calls the tool it is told (echo) whatever is listed: it never calls the typed tool,
// nor chooses among the tools listed beside invalid ones.
const NAMED_TOOL = { 'client.http-param-encoding': 'untestable', 'client.http-param-unannotated': 'untestable', 'client.http-invalid-tool-unused': 'untestable' };
// Behind OAuth (client-authorization*): these clients make no OAuth request at all after the 401
// (authorization is optional for a client), so there is nothing to judge.
const NO_OAUTH = Object.fromEntries(['auth.client-bearer', 'auth.client-discovery', 'auth.client-issuer', 'auth.client-pkce', 'auth.client-resource', 'auth.client-scope', 'auth.client-step-up', 'auth.client-prm-well-known', 'auth.client-as-well-known', 'auth.client-scope-supported', 'auth.client-scope-omitted', 'auth.client-prm-resource', 'auth.client-token-auth', 'auth.client-cimd', 'auth.client-redirect-registered', 'auth.client-state', 'auth.client-state-mismatch', 'auth.client-state-missing', 'auth.client-refresh-resource', 'auth.client-scope-authoritative', 'auth.client-pkce-required', 'auth.client-redirect-https', 'auth.client-as-oidc', 'auth.client-token-auth-post', 'auth.client-token-auth-none', 'auth.client-pre-registered', 'auth.client-step-up-limit', 'auth.client-resource-exact'].map((id) => [id, 'untestable']));
// In a 2026-07-28 run the authorization response's iss is judged too (RFC 9207, one scenario per row of its
// table), and so are the server binding, the registration's application_type and grant_types.
const NO_OAUTH_26 = { ...NO_OAUTH, ...Object.fromEntries(['auth.client-iss', 'auth.client-iss-absent', 'auth.client-iss-unadvertised', 'auth.client-iss-exact', 'auth.client-iss-optional', 'auth.client-as-binding', 'auth.client-application-type', 'auth.client-application-type-fit', 'auth.client-refresh-grant', 'auth.client-offline-access', 'auth.client-iss-match'].map((id) => [id, 'untestable'])) };
// AZ-15: the 1.x SDK (1.32.2) registers, authorizes and asks for a token at an authorization server
// whose metadata names another issuer (its auth.js says it does not check the issuer); 2.x refuses.
const ANY_ISSUER = { 'auth.client-issuer': 'fail' };
// AZ-17: after a 403 insufficient_scope the 1.x SDK only refreshes its token (a refresh cannot add
// scope), so the call is refused again; it never asks for a new authorization (so where the upgrade never
// succeeds there is no step-up to bound either).
const REFRESH_ONLY = { 'auth.client-step-up': 'warn', 'auth.client-step-up-limit': 'untestable' };
// AZ-20: when no challenge or document names a scope, mcp-remote asks for its own default, "openid email profile".
const OWN_SCOPE = { 'auth.client-scope-omitted': 'warn' };
// AZ-24: none of these applications names a client ID metadata document, so each registers dynamically where
// the authorization server takes one (with MCP_CLIENT_METADATA_URL, or mcp-remote's --client-metadata-url, they pass).
const NO_CIMD = { 'auth.client-cimd': 'warn' };
// AZ-29: both SDKs send a state only when the application's provider has state(); the wrappers, like the
// 1.x SDK's own simpleOAuthClient example, have none, so there is no state to verify either.
const NO_STATE = { 'auth.client-state': 'warn', 'auth.client-state-mismatch': 'untestable', 'auth.client-state-missing': 'untestable' };
// AZ-29: mcp-remote sends a state and refuses another, but exchanges the code of a response without one.
const STATE_OPTIONAL = { 'auth.client-state-missing': 'warn' };
// AZ-34: all four go on (register, authorize, exchange) with an authorization server whose metadata has no
// code_challenge_methods_supported; the SDKs (and mcp-remote's copy) refuse only a list without S256.
const PKCE_ASSUMED = { 'auth.client-pkce-required': 'fail' };
// mcp-remote's client calls no tool: the call that needs more scope never comes.
const NO_STEP_UP_CALL = { 'auth.client-step-up': 'untestable', 'auth.client-step-up-limit': 'untestable' };
// AZ-37: mcp-remote takes static client credentials only on its command line (--static-oauth-client-info), for
// every server it reaches; it does not read the ones mcpspec gives where its authorization server has no registration.
const NO_STATIC = { 'auth.client-pre-registered': 'untestable' };
// AZ-39: where the resource metadata publishes the origin (http://127.0.0.1:PORT, no path), mcp-remote sends
// resource=http://127.0.0.1:PORT/ (its URL's href) on its authorization and token requests.
const SLASHED_RESOURCE = { 'auth.client-resource-exact': 'warn' };
// IO-06: neither 2026-07-28 stdio client starts its server again when the process exits.
const NO_RESTART = { 'client.restarts-dead-server': 'warn' };
// None of them supports the skills extension (SEP-2640): offered skills, it never calls skills/list (nor loads one).
const NO_SKILLS = { 'client.skills-no-prefetch': 'untestable', 'client.skills-verified': 'untestable' };

// None of them passes a tool's schema back through the echo tool (schema_echo): what it keeps of a schema cannot show.
const NO_ECHO = { 'client.schema-keywords-kept': 'untestable' };
// Declaring no elicitation capability, they are never asked a form (client-elicitation-forms).
const NO_FORMS = { 'client.elicitation-defaults': 'skip', 'client.elicitation-enum-values': 'skip' };
// EL26/SEP-1034: the example wrappers (clients/sdk*-client.mjs) accept every form with a fixed { name } and do not
// ask their SDK to fill in defaults (elicitation.form.applyDefaults, which the official harnesses set): the defaulted
// fields are left out (a verdict on the wrapper, not the SDK), and no enum field is answered.
const FIXED_FORM = { 'client.elicitation-defaults': 'warn', 'client.elicitation-enum-values': 'untestable' };

// The inspector reads ../package.json relative to its working directory: run it from test/ (the repository's package.json is above).
const CASES: { name: string; transport: 'http' | 'stdio'; argv: string[]; cwd?: string; era: string; notPassed: Record<string, string>; findings?: string[] }[] = [
  { name: 'inspector-cli 1.0.3', transport: 'http', argv: [INSPECTOR, '{url}', '--transport', 'http', '--method', 'tools/list'], cwd: resolve('test'), era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, 'client.session-delete': 'warn', ...NO_TOOL_CALL, ...NO_OAUTH } },
  { name: 'inspector-cli 1.0.3', transport: 'stdio', argv: [INSPECTOR, '--method', 'tools/list', '{server}'], cwd: resolve('test'), era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, ...NO_TOOL_CALL } },
  { name: '@modelcontextprotocol/client 2.4.0', transport: 'http', argv: [SDK2, '--http', '{url}'], era: '2026-07-28', notPassed: { ...NOTHING_CANCELLED, ...NO_SKILLS, ...FIXED_FORM, ...NO_ECHO, 'client.session-delete': 'warn', ...NO_TASKS, ...LISTS_ONCE, ...NO_LEGACY_TASKS, ...NO_REISSUE, ...NO_CIMD, ...NO_STATE, ...PKCE_ASSUMED, ...TEXT_ONLY }, findings: ['hang client-broken-stream'] },
  { name: '@modelcontextprotocol/client 2.4.0', transport: 'stdio', argv: [SDK2, '--stdio', '{server}'], era: '2026-07-28', notPassed: { ...NOTHING_CANCELLED, ...NO_SKILLS, ...FIXED_FORM, ...NO_ECHO, ...NO_TASKS, ...LISTS_ONCE, ...NO_LEGACY_TASKS, ...NO_RESTART } },
  { name: '@modelcontextprotocol/sdk 1.32.2', transport: 'http', argv: [SDK1, '--http', '{url}'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...FIXED_FORM, ...NO_ECHO, ...NO_LEGACY_TASKS, ...ANY_ISSUER, ...REFRESH_ONLY, ...NO_CIMD, ...NO_STATE, ...PKCE_ASSUMED } },
  { name: '@modelcontextprotocol/sdk 1.32.2', transport: 'stdio', argv: [SDK1, '--stdio', '{server}'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...FIXED_FORM, ...NO_ECHO, ...NO_LEGACY_TASKS } },
];

// Clients installed on first use into .cache/ (bench/real-clients.ts): mcp-remote's client, and the
// Inspector 2.x CLI on a Node 22 binary. `client` gives the command and the words before the rest of argv.
const LATER: (typeof CASES[number] & { client: () => { command: string; args: string[] }; otherwise?: { findings: string[]; notPassed: Record<string, string> }[] })[] = [
  // mcp-remote-client connects (after OAuth discovery: mcpspec answers 404 to /.well-known/*, 405 to its GET probe), lists tools and resources, exits.
  // Behind OAuth it does the whole flow, "opening" the authorization URL in mcpspec's headless browser (both mcp-remote cases pass every auth.client-* check).
  { name: 'mcp-remote 0.15.1 (mcp-remote-client)', client: mcpRemoteClient, transport: 'http', argv: ['{url}'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, 'client.session-delete': 'warn', ...NO_TOOL_CALL, ...NO_STEP_UP_CALL, ...OWN_SCOPE, ...NO_CIMD, ...STATE_OPTIONAL, ...PKCE_ASSUMED, ...NO_STATIC, ...SLASHED_RESOURCE } },
  // mcp-remote's proxy (its main use: a stdio client reaches an HTTP server through it), driven by the 1.x SDK client over stdio.
  // It opens a test session first (clientInfo mcp-remote-fallback-test), then a second one for the client it serves.
  // It starts its OAuth callback server for a step-up only after opening the browser; mcpspec's browser tries a refused
  // callback again for a few seconds (as a person signing in would be slower still), so the code arrives, the proxy
  // exchanges it and the call goes through; in the scope-retry scenario (every tools/call 403 whatever the scope) it
  // authorizes once more, gets 403 again and exits (auth.client-step-up-limit passes, two authorizations).
  { name: 'mcp-remote 0.15.1 proxy (mcp-remote {url}) under the 1.x SDK client', client: () => ({ command: process.execPath, args: [SDK1, '--stdio', process.execPath, mcpRemoteProxy()] }), transport: 'http', argv: ['{url}'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, 'client.session-delete': 'warn', ...NO_LEGACY_TASKS, ...OWN_SCOPE, ...NO_CIMD, ...STATE_OPTIONAL, ...PKCE_ASSUMED, ...NO_STATIC, ...SLASHED_RESOURCE } },
  { name: 'inspector 2.12.0 --cli, tools/list', client: inspector2Cli, transport: 'http', argv: ['{url}', '--transport', 'http', '--method', 'tools/list'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, 'client.session-delete': 'warn', ...NO_TOOL_CALL, ...NO_OAUTH } },
  // Over stdio it never exits after a tools/list result that is not an object (client-near-valid): stopped at the timeout.
  { name: 'inspector 2.12.0 --cli, tools/list', client: inspector2Cli, transport: 'stdio', argv: ['--method', 'tools/list', '{server}'], era: '2025-11-25', notPassed: { ...NOTHING_CANCELLED, ...NO_FORMS, ...NO_ECHO, 'client.near-valid-survives': 'fail', ...NO_TOOL_CALL }, findings: ['hang client-near-valid'] },
  // --protocol-era auto: 2026-07-28 first, MRTR, and the tasks extension (ext-tasks 0.2.2 with the inspector's own dispatch).
  { name: 'inspector 2.12.0 --cli --protocol-era auto, tools/call', client: inspector2Cli, transport: 'http', argv: ['{url}', '--transport', 'http', '--protocol-era', 'auto', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=hi'], era: '2026-07-28', notPassed: { ...NOTHING_CANCELLED, ...NO_SKILLS, ...NO_FORMS, ...NO_ECHO, 'client.session-delete': 'warn', 'client.cache-fresh': 'warn', 'client.mrtr-scoped': 'untestable', ...NO_LEGACY_TASKS, ...NO_REISSUE, ...NO_OAUTH_26, ...NAMED_TOOL }, findings: ['hang client-broken-stream'] },
  // (--tool-arg takes every word up to the next option: it must not come right before {server}.)
  { name: 'inspector 2.12.0 --cli --protocol-era auto, tools/call', client: inspector2Cli, transport: 'stdio', argv: ['--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=hi', '--protocol-era', 'auto', '{server}'], era: '2026-07-28', notPassed: { ...NOTHING_CANCELLED, ...NO_SKILLS, ...NO_FORMS, ...NO_ECHO, 'client.mrtr-scoped': 'untestable', ...LISTS_ONCE, ...NO_LEGACY_TASKS, ...NO_RESTART } },
];

// How many client checks a run of this era and transport holds, from the catalogue (never typed in).
const expectedCount = (era: string, transport: 'http' | 'stdio') => countOfRun('client', era as SpecVersion, transport);

describe('real clients, judged by mcpspec client', () => {
  for (const c of CASES) {
    it(`${c.name} over ${c.transport}`, async () => {
      const run = await judge(c.transport, c.argv, c.cwd);
      expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
      expect(run.findings.map((f) => `${f.kind} ${f.scenario}`)).toEqual(c.findings ?? []);
      expect(run.era.version).toBe(c.era);
      expect(notPassed(run)).toEqual(c.notPassed);
      expect(run.checks.length).toBe(expectedCount(c.era, c.transport));
      expect(liveCount()).toBe(0);
    });
  }
  for (const c of LATER) {
    it(`${c.name} over ${c.transport}`, async () => {
      const { command, args } = c.client();
      const run = await judge(c.transport, [...args, ...c.argv], c.cwd, command);
      expect(run.findings.filter((f) => f.kind === 'harness')).toEqual([]);
      const findings = run.findings.map((f) => `${f.kind} ${f.scenario}`);
      // A client whose behaviour depends on timing has a second outcome, as conformant-or-not as the first.
      const outcome = (c.otherwise ?? []).find((o) => JSON.stringify([...findings].sort()) === JSON.stringify([...o.findings].sort())) ?? c;
      expect([...findings].sort()).toEqual([...(outcome.findings ?? [])].sort());
      expect(run.era.version).toBe(c.era);
      expect(notPassed(run)).toEqual(outcome.notPassed);
      expect(run.checks.length).toBe(expectedCount(c.era, c.transport));
      expect(liveCount()).toBe(0);
    });
  }
});
