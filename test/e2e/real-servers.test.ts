import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { runServerSuite } from '../../runner/run-server.js';
import { startHttpTarget, stdioTarget, type HttpTargetName, type StdioTargetName } from '../helpers/targets.js';

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

async function runHttp(name: HttpTargetName): Promise<RunResult> {
  const server = await startHttpTarget(name);
  httpServers.push(server);
  try {
    return await runServerSuite({ kind: 'http', url: server.url }, OPTIONS);
  } finally {
    await server.stop();
  }
}

function verdicts(run: RunResult) {
  const of = (s: string) => run.checks.filter((c) => c.status === s).map((c) => c.id).sort();
  return { fail: of('fail'), warn: of('warn'), untestable: of('untestable'), error: of('error') };
}

// Shared by the SDK 1.x servers over stdio: malformed input is dropped without an answer
// (JSON-RPC 2.0 and MCP require -32700 / -32600 error responses).
const SDK1_STDIO_FAILS = ['jsonrpc.invalid-request', 'jsonrpc.params-type', 'jsonrpc.parse-error', 'robustness.survives-near-valid'];

describe('real servers from npm', () => {
  it('server-everything over stdio (legacy 2025-11-25)', async () => {
    const run = await runStdio('everything');
    expect(run.era).toMatchObject({ era: 'legacy', version: '2025-11-25', detected: true });
    expect(verdicts(run)).toEqual({
      fail: SDK1_STDIO_FAILS,
      // batch dropped silently; invalid cursor served as page 1; unknown tool as an isError result;
      // unknown resource -32602 (2025-11-25 says -32002); resource-prompt answers -32603 to a value it dislikes.
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'prompts.get', 'resources.unknown-legacy', 'tools.unknown-tool'],
      untestable: ['capabilities.undeclared-method', 'pagination.terminates'],
      error: [],
    });
  });

  it('server-everything over Streamable HTTP (legacy 2025-11-25)', async () => {
    const run = await runHttp('everything');
    expect(run.era).toMatchObject({ era: 'legacy', version: '2025-11-25' });
    expect(verdicts(run)).toEqual({
      // -32700 where -32600 is due; a foreign Origin is served (2025-11-25 requires 403); a
      // DELETEd session's id gets 400, not 404.
      fail: ['http.origin', 'http.unknown-session', 'jsonrpc.invalid-request', 'jsonrpc.params-type'],
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'prompts.get', 'resources.unknown-legacy', 'tools.unknown-tool'],
      untestable: ['capabilities.undeclared-method', 'pagination.terminates'],
      error: [],
    });
  });

  it('server-filesystem over stdio (tools only)', async () => {
    const run = await runStdio('filesystem');
    expect(verdicts(run)).toEqual({
      fail: SDK1_STDIO_FAILS,
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'tools.unknown-tool'],
      // nothing near-valid was answered at all, so rejection cannot be judged
      untestable: ['pagination.terminates', 'robustness.rejects-near-valid'],
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
      untestable: ['pagination.terminates', 'robustness.rejects-near-valid'],
      error: [],
    });
  });

  it('a server on @modelcontextprotocol/server 2.x over stdio (modern 2026-07-28)', async () => {
    const run = await runStdio('sdk2');
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28', detected: true });
    expect(verdicts(run)).toEqual({
      // stdio drops malformed input; once a connection has served 2026-07-28 it serves bogus versions
      // too (VN-02/VN-08); with a malformed clientCapabilities it answers without resultType (RT-01).
      fail: [...SDK1_STDIO_FAILS, 'version.unsupported-every-request', 'wire.schema'].sort(),
      warn: ['jsonrpc.batch', 'pagination.invalid-cursor', 'robustness.rejects-near-valid'],
      untestable: ['caching.scope-constant', 'pagination.terminates'],
      error: [],
    });
  });

  it('a server on @modelcontextprotocol/server 2.x over Streamable HTTP (modern 2026-07-28)', async () => {
    const run = await runHttp('sdk2');
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
    expect(verdicts(run)).toEqual({
      fail: [],
      warn: ['pagination.invalid-cursor'],
      untestable: ['caching.scope-constant', 'pagination.terminates'],
      error: [],
    });
  });
});
