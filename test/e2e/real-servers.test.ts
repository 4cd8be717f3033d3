import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { runServerSuite } from '../../runner/run-server.js';
import { ENTRY, REPO_ROOT, SDK2_OAUTH_TOKEN, startHttpTarget, stdioTarget, type HttpTargetName, type StdioTargetName } from '../helpers/targets.js';

// Real servers have real bugs. Each expectation below was checked against the spec text; the
// closing note of the issue explains every one. Everything not listed must pass, skip or be
// untestable: a new failure here is either a server change or an mcpspec mistake to look at.
const OPTIONS = { specVersion: 'auto', allowDestructive: false, allowOpenWorld: false, timeoutMs: 5000, seed: 1, runs: 20, deadlineMs: 180_000, concurrency: 4 } as const;

async function runStdio(name: StdioTargetName): Promise<RunResult> {
  const t = stdioTarget(name);
  try {
    return await runServerSuite({ kind: 'stdio', command: t.command, args: t.args, cwd: t.cwd }, { ...OPTIONS, env: { set: t.env ?? {} } });
  } finally {
    await t.cleanup();
  }
}

const httpServers: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(httpServers.map((s) => s.stop()));
});

async function runHttp(name: HttpTargetName, headers?: Record<string, string>): Promise<RunResult> {
  const server = await startHttpTarget(name);
  httpServers.push(server);
  try {
    return await runServerSuite({ kind: 'http', url: server.url, ...(headers ? { headers } : {}) }, OPTIONS);
  } finally {
    await server.stop();
  }
}

function verdicts(run: RunResult) {
  // mcpspec's own failures first, with their messages: an `error` verdict or a `harness` finding is
  // never a server's doing and must not hide inside a verdict list.
  expect(run.checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  expect(run.findings.filter((f) => f.kind === 'harness').map((f) => f.message)).toEqual([]);
  const of = (s: string) => run.checks.filter((c) => c.status === s).map((c) => c.id).sort();
  return { fail: of('fail'), warn: of('warn'), untestable: of('untestable'), error: of('error') };
}

/** The statuses of the named checks (verdicts given by name where a pass is part of what is pinned). */
function statuses(run: RunResult, ids: string[]) {
  return Object.fromEntries(ids.map((id) => [id, run.checks.find((c) => c.id === id)?.status]));
}

// Issue 31: each listed template expanded reads back; completion of listed prompt arguments and
// template variables answers values.
const TEMPLATES_AND_COMPLETION = ['resources.template-read', 'completion.complete'];
// Issue 31 (2026-07-28): the removed methods and initialize, sent as 2026-07-28 requests, are unknown (-32601, HTTP 404).
const MODERN_REMOVED = ['version.removed-methods', 'version.initialize-modern'];
const passing = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 'pass']));

// Shared by the SDK 1.x servers over stdio: malformed input is dropped without an answer
// (JSON-RPC 2.0 and MCP require -32700 / -32600 error responses), and so are near-valid requests
// (a wrong-typed field the SDK's schema rejects): a request must get a response (JR-05).
const SDK1_STDIO_FAILS = ['jsonrpc.answers-requests', 'jsonrpc.invalid-request', 'jsonrpc.params-type', 'jsonrpc.parse-error', 'robustness.survives-near-valid'];

describe('real servers from npm', () => {
  it('server-everything over stdio (legacy 2025-11-25)', async () => {
    const run = await runStdio('everything');
    expect(run.era).toMatchObject({ era: 'legacy', version: '2025-11-25', detected: true });
    // Its roots/list 350 ms after initialization may land while one of the scenario's calls is in
    // flight, but that call does not ask again when repeated: no call asks anything (asks.answered untestable).
    expect(verdicts(run)).toEqual({
      // simulate-research-query (taskSupport required) called without params.task answers an isError
      // result wrapping "-32601" instead of the -32601 error (TA-03).
      fail: [...SDK1_STDIO_FAILS, 'tasks.required-without-task'].sort(),
      // batch dropped silently; invalid cursor served as page 1; unknown tool as an isError result;
      // unknown resource -32602 (2025-11-25 says -32002); resource-prompt answers -32603 to a value it dislikes;
      // echo (no taskSupport) called with params.task gets -32602 where TA-03 says -32601.
      warn: ['jsonrpc.batch', 'logging.set-level-invalid', 'pagination.invalid-cursor', 'prompts.get', 'resources.unknown-legacy', 'tasks.forbidden-with-task', 'tools.unknown-tool'],
      // It asks for roots/list right after initialization (asks.declared and asks.schema pass), never
      // during a call of a read-only tool; its progress-reporting tool is not read-only. Subscribed
      // resources send no update unless its (not read-only) toggle-subscriber-updates tool is called.
      // An unknown logging level gets -32603 (the SDK's params validation), not -32602; nothing it does
      // by default logs, and no tool known to change its tool list is listed.
      untestable: ['asks.answered', 'cancel.legacy-no-late-answer', 'cancel.server-references', 'cancel.silent-after', 'capabilities.undeclared-method', 'elicitation.form-no-secrets', 'lists.tools-changed-legacy', 'logging.set-level-filter', 'pagination.terminates', 'progress.notifications', 'subscriptions.unsubscribe-legacy', 'subscriptions.updated-legacy'],
      error: [],
    });
    expect(statuses(run, TEMPLATES_AND_COMPLETION)).toEqual(passing(TEMPLATES_AND_COMPLETION));
  });

  it('server-everything over Streamable HTTP (legacy 2025-11-25)', async () => {
    const run = await runHttp('everything');
    expect(run.era).toMatchObject({ era: 'legacy', version: '2025-11-25' });
    // Its roots/list goes on the standalone GET stream (which the capable-client session opens, and keeps
    // open at least 2 s) 350 ms after notifications/initialized: asks.declared and asks.schema judge it
    // (pass); it is never asked again for a repeated call, so it belongs to no call (asks.answered and
    // asks.on-request-stream untestable).
    expect(verdicts(run)).toEqual({
      // -32700 where -32600 is due; a foreign Origin is served (2025-11-25 requires 403), so is a
      // DNS-rebinding page (Host and Origin both foreign); a DELETEd session's id gets 400, not 404.
      fail: ['http.origin', 'http.origin-rebinding', 'http.unknown-session', 'jsonrpc.invalid-request', 'jsonrpc.params-type', 'tasks.required-without-task'],
      warn: ['jsonrpc.batch', 'logging.set-level-invalid', 'pagination.invalid-cursor', 'prompts.get', 'resources.unknown-legacy', 'tasks.forbidden-with-task', 'tools.unknown-tool'],
      // It never closes an answer's stream early (no polling), so http.sse-retry,
      // http.resume-own-stream and http.resume-delivers have nothing to judge.
      untestable: ['asks.answered', 'asks.on-request-stream', 'cancel.legacy-no-late-answer', 'cancel.server-references', 'cancel.silent-after', 'capabilities.undeclared-method', 'elicitation.form-no-secrets', 'http.resume-delivers', 'http.resume-own-stream', 'http.sse-retry', 'lists.tools-changed-legacy', 'logging.set-level-filter', 'pagination.terminates', 'progress.notifications'],
      error: [],
    });
    // Three pings posted at once, each answered with its own result.
    expect(run.checks.find((c) => c.id === 'http.concurrent-requests')).toMatchObject({ status: 'pass', message: expect.stringContaining('3 ping requests') });
    expect(statuses(run, TEMPLATES_AND_COMPLETION)).toEqual(passing(TEMPLATES_AND_COMPLETION));
  });

  it('server-filesystem over stdio (tools only)', async () => {
    const run = await runStdio('filesystem');
    expect(verdicts(run)).toEqual({
      fail: SDK1_STDIO_FAILS,
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'tools.unknown-tool'],
      // nothing near-valid was answered at all, so rejection cannot be judged; roots/list comes on
      // initialization (asks.declared and asks.schema pass), never during a call
      untestable: ['asks.answered', 'cancel.legacy-no-late-answer', 'cancel.server-references', 'cancel.silent-after', 'elicitation.form-no-secrets', 'lists.tools-changed-legacy', 'pagination.terminates', 'progress.notifications', 'robustness.rejects-near-valid'],
      error: [],
    });
    // A tools-only server is not failed on prompts or resources.
    expect(run.checks.filter((c) => c.area === 'prompts' || c.area === 'resources').every((c) => c.status === 'skip')).toBe(true);
    // write_file, edit_file, move_file say destructiveHint: true: never called without --allow-destructive;
    // create_directory says destructiveHint: false, so it may be.
    const called = run.recording.events().filter((e) => e.dir === 'out' && (e.message as any)?.method === 'tools/call').map((e) => (e.message as any).params.name);
    expect(called).toContain('read_text_file');
    for (const t of ['write_file', 'edit_file', 'move_file']) expect(called).not.toContain(t);
  });

  it('server-memory over stdio', async () => {
    const run = await runStdio('memory');
    expect(verdicts(run)).toEqual({
      fail: SDK1_STDIO_FAILS,
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'resources.unknown-legacy', 'tools.unknown-tool'],
      // Its one resource (the knowledge graph) sends no update while nothing writes to it; it lists no
      // resource template to expand.
      untestable: ['asks.answered', 'asks.declared', 'asks.schema', 'cancel.legacy-no-late-answer', 'cancel.server-references', 'cancel.silent-after', 'elicitation.form-no-secrets', 'lists.tools-changed-legacy', 'pagination.terminates', 'progress.notifications', 'resources.template-read', 'robustness.rejects-near-valid', 'subscriptions.unsubscribe-legacy', 'subscriptions.updated-legacy'],
      error: [],
    });
  });

  it('a server on @modelcontextprotocol/server 2.x over stdio (modern 2026-07-28)', async () => {
    const run = await runStdio('sdk2');
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28', detected: true });
    // The SDK pins a stdio process to legacy when its first message carries no version _meta, and then
    // answers 2026-07-28 requests by legacy rules (VN-08): version.not-pinned shows it in every run.
    // The same pin also shows in the oracles when a generated near-valid probe without _meta opens a
    // process (server/discover without params), which depends on the generated cases: a 2026-07-28
    // request answered there without resultType, and a server/discover whose _meta lacks
    // clientCapabilities answered -32601 (legacy rules), not -32602.
    const ORDER_DEPENDENT = ['meta.required-keys', 'robustness.rejects-near-valid', 'wire.result-type', 'wire.schema'];
    const v = verdicts(run);
    if (v.fail.includes('wire.schema')) expect(run.checks.find((c) => c.id === 'wire.schema')?.message).toContain('resultType');
    const steady = (ids: string[]) => ids.filter((id) => !ORDER_DEPENDENT.includes(id));
    expect({ ...v, fail: steady(v.fail), warn: steady(v.warn) }).toEqual({
      // stdio drops malformed input without an answer (JSON-RPC wants -32700/-32600); once a
      // connection has served 2026-07-28 it serves bogus versions too (VN-02/VN-08), and a first
      // message without version _meta pins it to legacy (VN-08).
      fail: [...SDK1_STDIO_FAILS, 'version.not-pinned', 'version.unsupported-every-request'].sort(),
      // A malformed inputResponses value is read as a missing one (a fresh input_required), not -32602 (IR-10).
      // Results to requests whose _meta it cannot parse are answered legacy-style, without serverInfo.
      warn: ['jsonrpc.batch', 'meta.server-info', 'mrtr.malformed-responses', 'pagination.invalid-cursor'],
      // confirm_echo keeps no requestState, so there is none to tamper with; no tool reports progress;
      // subscriptions/listen is acknowledged, but nothing changes while mcpspec listens (so nothing to
      // watch after mcpspec ends it, and no change notification anywhere), and the server ends no
      // subscription itself; no result carries a traceparent to judge, and no request got a log message.
      // It declares prompts.listChanged but lists no tool known to change its prompts.
      untestable: ['caching.scope-constant', 'cancel.modern-no-late-answer', 'cancel.modern-server-references', 'cancel.modern-silent', 'lists.prompts-changed', 'lists.tools-changed', 'logging.per-request', 'meta.trace-context', 'mrtr.tampered-state', 'pagination.terminates', 'progress.notifications', 'subscriptions.client-end', 'subscriptions.ids', 'subscriptions.only-on-listen', 'subscriptions.requested-only', 'subscriptions.server-end'],
      error: [],
    });
    expect(statuses(run, [...MODERN_REMOVED, ...TEMPLATES_AND_COMPLETION])).toEqual(passing([...MODERN_REMOVED, ...TEMPLATES_AND_COMPLETION]));
  });

  it('a server on @modelcontextprotocol/server 2.x over Streamable HTTP (modern 2026-07-28)', async () => {
    const run = await runHttp('sdk2');
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
    expect(verdicts(run)).toEqual({
      fail: [],
      warn: ['mrtr.malformed-responses', 'pagination.invalid-cursor'],
      untestable: ['caching.scope-constant', 'cancel.modern-disconnect', 'lists.prompts-changed', 'lists.tools-changed', 'logging.per-request', 'meta.trace-context', 'mrtr.sse-final', 'mrtr.tampered-state', 'pagination.terminates', 'progress.notifications', 'subscriptions.ids', 'subscriptions.only-on-listen', 'subscriptions.requested-only', 'subscriptions.server-end'],
      error: [],
    });
    expect(statuses(run, [...MODERN_REMOVED, ...TEMPLATES_AND_COMPLETION])).toEqual(passing([...MODERN_REMOVED, ...TEMPLATES_AND_COMPLETION]));
    // The input_required flow of confirm_echo was played to the end by mcpspec as a capable client.
    expect(run.checks.find((c) => c.id === 'mrtr.retry-served')?.message).toMatch(/1 completed/);
    // echo declares x-mcp-header "Text" and the SDK checks Mcp-Param-Text: mcpspec's calls carry it
    // (every tools/call check passed above), and the SDK refuses it missing, wrong or malformed.
    expect(run.checks.find((c) => c.id === 'http.param-headers')).toMatchObject({ status: 'pass' });
    expect(run.checks.find((c) => c.id === 'tools.x-mcp-header')).toMatchObject({ status: 'pass' });
    // Three server/discover requests posted at once, each answered with its own result (http.resume-delivers is
    // 2025-11-25's: 2026-07-28 streams are not resumed, and the check is not in this run).
    expect(run.checks.find((c) => c.id === 'http.concurrent-requests')).toMatchObject({ status: 'pass', message: expect.stringContaining('3 server/discover requests') });
    expect(run.checks.find((c) => c.id === 'http.resume-delivers')).toBeUndefined();
    // SEP-2243 standard headers sent wrong on purpose: missing, mismatched (TOOLS/LIST too) refused
    // with 400 and -32020, odd-cased names and spaces around a value served; on tools/list and on a
    // request that needs Mcp-Name alike.
    for (const id of ['http.standard-header-missing', 'http.standard-header-mismatch', 'http.standard-header-name-case', 'http.standard-header-ows']) {
      const c = run.checks.find((x) => x.id === id);
      expect(c?.status, id).toBe('pass');
      expect(c?.message, id).not.toMatch(/not probed/);
    }
  });

  it('the SDK 1.x example behind OAuth (simpleStreamableHttp --oauth), with no token: the authorization checks run, the rest is skipped', async () => {
    const run = await runHttp('sdk1-oauth');
    expect(run.limited).toContain('the server requires authorization (HTTP 401');
    expect(run.era).toMatchObject({ judgedBy: '2026-07-28', detected: false });
    // Its demo token check (introspection) answers an unknown token with 500, not 401; its challenge names no scope.
    // auth.invalid-token-error: the 500 is no 401 whose challenge could say invalid_token.
    // auth.server-iss: its demo authorization server's metadata does not say responses carry iss (RFC 9207).
    // The same 500 for every forged JWT and for a bearer "token" that is not one (the other malformed headers get 401).
    expect(verdicts(run)).toEqual({ fail: ['auth.forged-tokens', 'auth.invalid-token', 'auth.malformed-authorization'], warn: ['auth.challenge-scope', 'auth.server-iss'], untestable: ['auth.invalid-token-error'], error: [] });
    expect(run.checks.find((c) => c.id === 'auth.invalid-token')?.message).toBe('a made-up bearer token got HTTP 500, not 401');
    expect(run.checks.find((c) => c.id === 'auth.forged-tokens')?.message).toMatch(/^4 of 4 requests with a forged token were not refused as they must be; first: an unsigned JWT \(alg "none"\): HTTP 500, not 401/);
    expect(run.checks.find((c) => c.id === 'auth.malformed-authorization')?.message).toMatch(/^1 of 4 requests with a malformed Authorization header were not refused as they must be; first: a bearer "token" with spaces/);

    expect(run.checks.filter((c) => c.status === 'pass').map((c) => c.id).sort()).toEqual(['auth.challenge', 'auth.metadata-discovery', 'auth.metadata-resource', 'auth.metadata-servers', 'auth.offline-access', 'auth.server-metadata', 'auth.server-pkce']);
    expect(run.checks.filter((c) => !c.id.startsWith('auth.')).every((c) => c.status === 'skip')).toBe(true);
  });

  it('the 2.x server behind the SDK\'s own bearer gate (requireBearerAuth, oauthMetadataResponse): the authorization checks pass; with the token the rest is judged as without the gate', async () => {
    const guarded = await runHttp('sdk2-oauth');
    expect(guarded.limited).toContain('the server requires authorization (HTTP 401');
    expect(verdicts(guarded)).toEqual({ fail: [], warn: [], untestable: [], error: [] });
    // Its stand-in authorization server is on 127.0.0.1 in plain HTTP: not judged for HTTPS.
    expect(guarded.checks.filter((c) => c.id.startsWith('auth.') && c.status !== 'pass').map((c) => `${c.id}: ${c.status}`)).toEqual(['auth.server-https: skip']);
    expect(guarded.checks.find((c) => c.id === 'auth.invalid-token-error')?.message).toBe('the 401 challenge says error="invalid_token"');
    const open = await runHttp('sdk2');
    const withToken = await runHttp('sdk2-oauth', { Authorization: `Bearer ${SDK2_OAUTH_TOKEN}` });
    expect(withToken.limited).toBeUndefined();
    const statuses = (run: RunResult) => Object.fromEntries(run.checks.filter((c) => !c.id.startsWith('auth.')).map((c) => [c.id, c.status]));
    expect(statuses(withToken)).toEqual(statuses(open));
    expect(withToken.checks.filter((c) => c.id.startsWith('auth.') && c.status !== 'pass').map((c) => `${c.id}: ${c.status}`)).toEqual(['auth.server-https: skip']);
  });

  it('a server on @modelcontextprotocol/server 2.x over stdio, 2025-11-25: the SDK asks elicitation/create itself', async () => {
    const t = stdioTarget('sdk2');
    const run = await runServerSuite({ kind: 'stdio', command: t.command, args: t.args, cwd: t.cwd }, { ...OPTIONS, specVersion: '2025-11-25', only: ['asks.*', 'cancel.*'] });
    await t.cleanup();
    expect(verdicts(run)).toEqual({ fail: [], warn: [], untestable: [], error: [] });
    expect(run.checks.find((c) => c.id === 'asks.answered')?.message).toContain('tools/call confirm_echo');
  });
});

// The built CLI, as a user runs it: the written report.json and recording.json are what is checked.
const CLI = path.join(REPO_ROOT, 'dist', 'bin', 'mcpspec.js');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('secrets stay out of reach of a tool that prints its environment', () => {
  it('server-everything get-env: mcpspec\'s own secret never reaches the target; a passed one is redacted', async () => {
    // One secret lives only in mcpspec's own environment; the other is passed on purpose (--pass-env).
    const own = 'sk-live-4f7Qz9w2Lr8Xc3Vb6Nm1Tj5Y';
    const passed = 'sk-live-9Hd2Kq7Wp4Zx1Ty8Rb3Ue6G';
    const saved = { own: process.env.MCPSPEC_E2E_SECRET, passed: process.env.MCPSPEC_E2E_PASSED_SECRET };
    process.env.MCPSPEC_E2E_SECRET = own;
    process.env.MCPSPEC_E2E_PASSED_SECRET = passed;
    const out = mkdtempSync(path.join(tmpdir(), 'mcpspec-e2e-secret-'));
    try {
      const { code, stdout, stderr } = await runCli([
        'server', '--only', 'tools.*', '--seed', '1', '--timeout', '5s',
        '--pass-env', 'MCPSPEC_E2E_PASSED_SECRET', '--out', out,
        '--stdio', '--', process.execPath, ENTRY.everything(), 'stdio',
      ]);
      expect(code, stderr).not.toBe(2);
      const report = readFileSync(path.join(out, 'report.json'), 'utf8');
      const recording = readFileSync(path.join(out, 'recording.json'), 'utf8');
      for (const text of [report, recording, stdout, stderr]) {
        expect(text).not.toContain(own);
        expect(text).not.toContain(passed);
      }
      expect(JSON.parse(report).summary).toMatchObject({ error: 0, harnessErrors: 0 });

      // get-env was really called and answered, so the absence above means something: its answer
      // lists only the minimal environment (PATH, a temporary HOME, TMPDIR) and what was passed.
      const events = (JSON.parse(recording) as { events: { dir: string; message?: any }[] }).events;
      const dumps = events
        .filter((e) => e.dir === 'in' && typeof e.message?.result?.content?.[0]?.text === 'string')
        .map((e) => {
          try {
            return JSON.parse(e.message.result.content[0].text) as Record<string, string>;
          } catch {
            return undefined;
          }
        })
        .filter((env): env is Record<string, string> => !!env && typeof env === 'object' && 'PATH' in env && 'HOME' in env);
      expect(dumps.length).toBeGreaterThan(0);
      for (const env of dumps) {
        expect(Object.keys(env).sort()).toEqual(['HOME', 'MCPSPEC_E2E_PASSED_SECRET', 'PATH', 'TMPDIR']);
        expect(env.HOME).not.toBe(process.env.HOME);
        expect(env.MCPSPEC_E2E_PASSED_SECRET).toBe('<redacted>');
      }
    } finally {
      if (saved.own === undefined) delete process.env.MCPSPEC_E2E_SECRET;
      else process.env.MCPSPEC_E2E_SECRET = saved.own;
      if (saved.passed === undefined) delete process.env.MCPSPEC_E2E_PASSED_SECRET;
      else process.env.MCPSPEC_E2E_PASSED_SECRET = saved.passed;
      rmSync(out, { recursive: true, force: true });
    }
  });
});
