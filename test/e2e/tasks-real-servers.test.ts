import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { runServerSuite } from '../../runner/run-server.js';
import { CHECKS } from '../../suites/catalogue.js';
import { REPO_ROOT, freePort, killProcessTree, startHttpTarget, stdioTarget } from '../helpers/targets.js';

// Tasks (2025-11-25 flavour) and subscriptions/listen (2026-07-28) on real servers. Each pinned verdict was checked against the tasks page
// of 2025-11-25 (TA-xx in the requirements digest); docs/real-servers.md explains each one.
const TASKS = CHECKS.filter((c) => c.id.startsWith('tasks.'));
const OPTIONS = { specVersion: '2025-11-25', allowOpenWorld: false, timeoutMs: 10_000, seed: 1, runs: 4, deadlineMs: 120_000, concurrency: 4, checks: TASKS } as const;
const LOOPBACK = path.join(REPO_ROOT, 'test', 'helpers', 'loopback-only.mjs');
const EXAMPLES = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'examples', 'server');

const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => killProcessTree(c)));
});

/** Starts an SDK 1.x example server on a free loopback port (its port comes from `portVar`), resolving once it says it listens. */
async function startExample(file: string, portVar: string, ready: RegExp): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', LOOPBACK, path.join(EXAMPLES, file)], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', [portVar]: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start: ${seen.slice(-500)}`)), 20_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}): ${seen.slice(-500)}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

function verdicts(run: RunResult) {
  expect(run.findings.filter((f) => f.kind === 'harness').map((f) => f.message)).toEqual([]);
  const of = (s: string) => run.checks.filter((c) => c.status === s).map((c) => c.id).sort();
  return { pass: of('pass'), fail: of('fail'), warn: of('warn'), skip: of('skip'), untestable: of('untestable'), error: of('error') };
}

describe('tasks on real servers (2025-11-25)', () => {
  it('server-everything: simulate-research-query (taskSupport required, destructiveHint false) runs as a ~4 s task', async () => {
    const t = stdioTarget('everything');
    const started = Date.now();
    let run: RunResult;
    try {
      run = await runServerSuite({ kind: 'stdio', command: t.command, args: t.args, cwd: t.cwd }, { ...OPTIONS, allowDestructive: false, env: { set: t.env ?? {} } });
    } finally {
      await t.cleanup();
    }
    const v = verdicts(run);
    // The plain call of the required tool answers an isError result wrapping "-32601" (TA-03 wants the
    // -32601 error); echo with params.task gets -32602 where TA-03 says the server should use -32601.
    expect({ fail: v.fail, warn: v.warn, untestable: v.untestable, error: v.error }).toEqual({ fail: ['tasks.required-without-task'], warn: ['tasks.forbidden-with-task'], untestable: [], error: [] });
    expect(v.pass).toEqual(expect.arrayContaining(['tasks.create', 'tasks.result', 'tasks.list', 'tasks.cancel', 'tasks.cancel-terminal', 'tasks.transitions']));
    // The time goes to the server's own 4 s task (4 stages of 1 s), polled at its pollInterval (1 s).
    const polls = run.recording.events().filter((e) => e.dir === 'out' && (e.message as { method?: string } | undefined)?.method === 'tasks/get').length;
    expect(polls).toBeLessThan(20);
    expect(Date.now() - started).toBeGreaterThan(4000);
  });

  it('SDK 1.x example simpleTaskInteractive (HTTP): tools that only run as tasks and ask the client for input', async () => {
    const { url } = await startExample('simpleTaskInteractive.js', 'PORT', /Starting server on/);
    // Its tools carry no annotations: they are called only with --allow-destructive (they are demos).
    const run = await runServerSuite({ kind: 'http', url }, { ...OPTIONS, allowDestructive: true });
    const v = verdicts(run);
    expect(v.error).toEqual([]);
    // An unknown taskId gets -32603 (TA-14: -32602); a required-task tool called plainly throws, so
    // -32603 (TA-03: -32601). A task's CreateTaskResult already says input_required (TA-06: working).
    expect(v.fail).toEqual(['tasks.initial-working', 'tasks.required-without-task', 'tasks.unknown-id']);
    expect(v.skip).toEqual(['tasks.cancel', 'tasks.cancel-terminal', 'tasks.list', 'tasks.list-bad-cursor']);
    expect(v.pass).toEqual(expect.arrayContaining(['tasks.create', 'tasks.result', 'tasks.related-task', 'tasks.schema']));
  });

  it('SDK 1.x example simpleStreamableHttp (HTTP): collect-user-info-task', async () => {
    const { url } = await startExample('simpleStreamableHttp.js', 'MCP_PORT', /listening on port/);
    const run = await runServerSuite({ kind: 'http', url }, { ...OPTIONS, allowDestructive: true });
    const v = verdicts(run);
    // collect-user-info-task (taskSupport required) called plainly is served (TA-03: -32601);
    // greet with params.task gets -32602 (TA-03: should be -32601). The task elicits at once, so its
    // CreateTaskResult already says input_required (TA-06: working).
    expect({ fail: v.fail, warn: v.warn, error: v.error }).toEqual({ fail: ['tasks.initial-working', 'tasks.required-without-task'], warn: ['tasks.forbidden-with-task'], error: [] });
    expect(v.skip).toEqual(['tasks.cancel', 'tasks.cancel-terminal', 'tasks.list', 'tasks.list-bad-cursor']);
  });
});

// The 2026-07-28 tasks extension on the 2.x SDK: the sdk2 fixture's --tasks (its wire vocabulary,
// validators and guards are @modelcontextprotocol/ext-tasks'; the task store is the fixture's own).
describe('the tasks extension on the 2.x SDK with @modelcontextprotocol/ext-tasks (2026-07-28)', () => {
  it('sdk2 --tasks over stdio: the removed methods are unknown, the task methods refuse non-declaring requests, params.task is ignored', async () => {
    const t = stdioTarget('sdk2', { args: ['--tasks'] });
    const run = await runServerSuite({ kind: 'stdio', command: t.command, args: t.args, cwd: t.cwd }, { ...OPTIONS, specVersion: '2026-07-28', allowDestructive: false, env: { set: t.env ?? {} } });
    const v = verdicts(run);
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
    // broken_report's isError call (near-valid arguments) is answered directly, not as a task; the
    // listen acknowledgement accepts no task ids (task notifications are optional); confirm_report's
    // task asks for one input only, so no partial tasks/update can be sent.
    expect({ fail: v.fail, warn: v.warn, error: v.error, untestable: v.untestable }).toEqual({ fail: [], warn: [], error: [], untestable: ['tasks.modern-is-error', 'tasks.modern-notify', 'tasks.modern-partial-update'] });
    expect(run.checks.find((c) => c.id === 'tasks.modern-partial-update')?.message).toContain('confirm_report: input_required with 1 request(s)');
    // Its one input request is read on a second poll before it is answered: its key names the same request on both (TB-11).
    expect(v.pass).toEqual(expect.arrayContaining(['tasks.modern-input-keys-stable', 'tasks.modern-no-tasks-result', 'tasks.modern-no-tasks-list', 'tasks.modern-update-cancel-undeclared', 'tasks.modern-get-undeclared', 'tasks.modern-no-related-task-meta', 'tasks.modern-legacy-task-param', 'tasks.modern-undeclared']));
  }, 120_000);

  it('sdk2 --tasks over Streamable HTTP: task requests carrying Mcp-Method and Mcp-Name (the taskId) are served', async () => {
    const target = await startHttpTarget('sdk2', { args: ['--tasks'] });
    try {
      const run = await runServerSuite({ kind: 'http', url: target.url }, { ...OPTIONS, specVersion: '2026-07-28', allowDestructive: false });
      const v = verdicts(run);
      expect({ fail: v.fail, warn: v.warn, error: v.error, untestable: v.untestable }).toEqual({ fail: [], warn: [], error: [], untestable: ['tasks.modern-is-error', 'tasks.modern-notify', 'tasks.modern-partial-update'] });
      expect(v.pass).toEqual(expect.arrayContaining(['tasks.modern-input-keys-stable', 'tasks.modern-routing-headers', 'tasks.modern-no-tasks-result', 'tasks.modern-no-tasks-list', 'tasks.modern-update-cancel-undeclared', 'tasks.modern-legacy-task-param', 'tasks.modern-no-related-task-meta']));
    } finally {
      await target.stop();
    }
  }, 120_000);
});

// A 2026-07-28 server from npm (SDK @modelcontextprotocol/server 2.0.0), installed on first use into
// a cache folder (exact version; only the npm registry is reached).
const CONTEXT7 = '4.1.1';
function context7Entry(): string {
  const dir = path.join(REPO_ROOT, '.cache', `e2e-context7-${CONTEXT7}`);
  const entry = path.join(dir, 'node_modules', '@upstash', 'context7-mcp', 'dist', 'index.js');
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `@upstash/context7-mcp@${CONTEXT7}`], { stdio: 'pipe', timeout: 300_000 });
  }
  return entry;
}

const MONGODB = '3.0.4';
function mongodbEntry(): string {
  const dir = path.join(REPO_ROOT, '.cache', `e2e-mongodb-mcp-server-${MONGODB}`);
  const entry = path.join(dir, 'node_modules', 'mongodb-mcp-server', 'dist', 'esm', 'index.js');
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `mongodb-mcp-server@${MONGODB}`], { stdio: 'pipe', timeout: 300_000 });
  }
  return entry;
}

describe('subscriptions/listen on real servers (2026-07-28)', () => {
  it(`mongodb-mcp-server ${MONGODB} --readOnly over stdio (no database): the listen is acknowledged first; nothing changes while listening`, async () => {
    const entry = mongodbEntry();
    const checks = CHECKS.filter((c) => c.id.startsWith('subscriptions.') || c.id.startsWith('tasks.'));
    const run = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [entry, '--readOnly'] }, { ...OPTIONS, specVersion: '2026-07-28', allowDestructive: false, checks, env: { set: { MDB_MCP_TELEMETRY: 'disabled' } } });
    const v = verdicts(run);
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
    expect({ pass: v.pass, fail: v.fail, warn: v.warn, error: v.error, untestable: v.untestable }).toEqual({ pass: ['subscriptions.ack'], fail: [], warn: [], error: [], untestable: ['subscriptions.client-end', 'subscriptions.ids', 'subscriptions.only-on-listen', 'subscriptions.requested-only', 'subscriptions.server-end'] });
  }, 400_000);

  it(`@upstash/context7-mcp ${CONTEXT7} over stdio: the first listen is refused (-32603 "Subscription limit reached"), so nothing can be judged`, async () => {
    const entry = context7Entry();
    const checks = CHECKS.filter((c) => c.id.startsWith('subscriptions.') || c.id.startsWith('tasks.'));
    const run = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [entry] }, { ...OPTIONS, specVersion: '2026-07-28', allowDestructive: false, checks });
    const v = verdicts(run);
    expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
    expect({ fail: v.fail, warn: v.warn, error: v.error, untestable: v.untestable }).toEqual({ fail: [], warn: [], error: [], untestable: ['subscriptions.ack', 'subscriptions.client-end', 'subscriptions.ids', 'subscriptions.only-on-listen', 'subscriptions.requested-only', 'subscriptions.server-end'] });
    expect(run.checks.find((c) => c.id === 'subscriptions.ack')?.message).toContain('Subscription limit reached');
    // No tasks extension declared: every tasks check that belongs to a 2026-07-28 stdio run is a skip.
    expect(v.skip).toEqual(checks.filter((c) => c.id.startsWith('tasks.') && c.versions.includes('2026-07-28') && (!c.requires.transports || c.requires.transports.includes('stdio'))).map((c) => c.id).sort());
  }, 400_000);
});
