// Malformed invocations: exit 2 with exactly one line on stderr and no stack trace, before any target
// is started; signals end a run promptly and reap the target; --version and help.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpspec-usage-'));
const aFile = join(dir, 'a-file');
writeFileSync(aFile, 'x');
const badJson = join(dir, 'bad.json');
writeFileSync(badJson, '[{"id": ');
const notList = join(dir, 'not-list.json');
writeFileSync(notList, '{"id": "x"}');
const REF = ['node', 'dist/fixtures/servers/reference/main.js'];
// A target that would hang if it were ever started: the mistakes must be caught before that.
const NEVER = ['--stdio', '--', 'node', '-e', 'setInterval(() => {}, 1000)'];

describe('malformed invocations: exit 2, one stderr line, no stack trace', () => {
  it.each([
    [['server', '--frobnicate', ...NEVER], /Unknown argument: frobnicate/],
    [['frobnicate'], /Unknown argument: frobnicate/],
    [[], /say which command to run/],
    [['server', '--timeout', 'abc', ...NEVER], /--timeout must be a duration/],
    [['server', '--deadline', 'soon', ...NEVER], /--deadline must be a duration/],
    [['server', '--tool-timeout', '0', ...NEVER], /--tool-timeout must be a duration/],
    [['server', '--runs', '0', ...NEVER], /--runs must be a positive integer/],
    [['server', '--runs', 'many', ...NEVER], /--runs must be a positive integer/],
    [['server', '--concurrency', '0', ...NEVER], /--concurrency must be a positive integer/],
    [['server', '--seed', '1.5', ...NEVER], /--seed must be an integer/],
    [['server', '--shard', '3/2', ...NEVER], /--shard must look like i\/n/],
    [['server', '--shard', 'x', ...NEVER], /--shard must look like i\/n/],
    [['server', '--shard', '0/2', ...NEVER], /--shard must look like i\/n/],
    [['server'], /say which server to test/],
    [['server', '--stdio'], /--stdio needs the server command after --/],
    [['server', '--stdio', '--url', 'http://127.0.0.1:9/mcp', '--', 'node'], /either --stdio -- <command> or --url, not both/],
    [['server', '--url', 'http://127.0.0.1:9/mcp', '--', 'node'], /a command after -- needs --stdio/],
    [['server', '--only', 'no-such-area.*', ...NEVER], /--only no-such-area\.\* matches no check/],
    [['server', '--only', 'tools.names', '--skip', 'tools.*', ...NEVER], /leaves no check to run/],
    [['server', '--out', '/proc/mcpspec-cannot-write-here', ...NEVER], /cannot write the report to \/proc\/mcpspec-cannot-write-here/],
    [['server', '--out', join(aFile, 'sub'), ...NEVER], /cannot write the report to .*a-file\/sub: (ENOTDIR|EEXIST)/],
    [['server', '--baseline', join(dir, 'missing.json'), ...NEVER], /cannot read --baseline .*missing\.json: ENOENT/],
    [['server', '--baseline', badJson, ...NEVER], /--baseline .*bad\.json is not JSON/],
    [['server', '--baseline', notList, ...NEVER], /must be a JSON list/],
    [['server', '--env', 'NOEQUALS', ...NEVER], /--env must look like NAME=value/],
    [['server', '--header', 'nocolon', '--url', 'http://127.0.0.1:9/mcp'], /--header must look like "Name: value"/],
    [['server', '--header', 'Authorization: x', ...NEVER], /--header is for --url targets/],
    [['fuzz', '--header', 'Authorization: x', ...NEVER], /--header is for --url targets/],
    [['server', '--only', ...NEVER], /--only needs a check id or glob/],
    [['server', '--skip', '', ...NEVER], /--skip needs a check id or glob/],
    [['server', '--spec-version', '1999-01-01', ...NEVER], /Invalid values|unknown --spec-version/],
    [['verify'], /name the report to verify/],
    [['baseline'], /name the report/],
    [['verify', join(dir, 'missing.json'), '--', 'node'], /cannot read .*missing\.json: ENOENT/],
    [['verify', badJson, '--', 'node'], /is not JSON/],
    [['baseline', join(dir, 'missing.json')], /cannot read .*missing\.json: ENOENT/],
    [['merge', join(dir, 'missing.json')], /cannot read .*missing\.json: ENOENT/],
    [['merge'], /name the report\.json of every shard/],
    [['list', '--spec-version', 'nope'], /unknown --spec-version nope/],
  ])('%j', async (args, message) => {
    const r = await cli(args as string[], 30_000);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err).toMatch(message as RegExp);
    expect(r.err.trim().split('\n'), r.err).toHaveLength(1);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('verify without a target (the report is fine)', async () => {
    const report = join(dir, 'report');
    const run = await cli(['server', '--seed', '1', '--only', 'lifecycle.ping', '--only', 'tools.names', '--out', report, '--stdio', '--', ...REF]);
    expect(run.code, run.out + run.err).toBe(0);
    const r = await cli(['verify', join(report, 'report.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^mcpspec: say which server to verify against/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    // The target is named as mcpspec server names it (--stdio -- cmd), over the report's transport.
    const http = await cli(['verify', join(report, 'report.json'), '--http', '--', 'node', 'client.js', '{url}']);
    expect(http.code).toBe(2);
    expect(http.err).toMatch(/^mcpspec: .*was recorded over stdio; verify it over the same transport \(not --http\)$/m);
    const bare = await cli(['verify', join(report, 'report.json'), '--stdio']);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/^mcpspec: --stdio needs the command after --/);
  });
});

describe('version and help', () => {
  it('--version prints the package version', async () => {
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('help text breaks no word or URL across lines, and the fast top-level help lists every command yargs does', async () => {
    const fast = await cli(['--help']);
    expect(fast.code).toBe(0);
    const viaYargs = await cli(['help-please', '--help']); // not the fast path: yargs prints its own
    for (const name of ['server', 'verify', 'baseline', 'merge', 'list', 'schema', 'demo']) {
      expect(fast.out).toContain(`mcpspec ${name}`);
      expect(viaYargs.out + viaYargs.err).toContain(`mcpspec ${name}`);
    }
    const server = await cli(['server', '--help']);
    expect(server.code).toBe(0);
    expect(server.out).toContain('mcpspec server --url http://127.0.0.1:3000/mcp\n');
    expect(server.out).toContain("run shard i of n of the scenarios (1/4); merge the reports with mcpspec merge");
    // every option's description sits on its own line with its flag
    expect(server.out).toMatch(/^ +--baseline .*expected to fail.*\[string\]$/m);
  });
});

describe('signals', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s during a run: exits promptly, non-zero, the target reaped, the report kept', async (sig, expected) => {
    const marker = `mcpspec-${sig}-marker-${process.pid}-${Date.now()}`;
    const out = join(dir, `interrupted-${sig}`);
    const main = resolve('dist/fixtures/servers/reference/main.js');
    const child = spawn('node', ['dist/bin/mcpspec.js', 'server', '--json', '--deadline', '10m', '--out', out, '--stdio', '--', 'node', '-e', `import(${JSON.stringify(main)})`, marker], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let stdout = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('close', (code, signal) => res({ code, signal })));
    // the target's own command line starts with `node -e`; mcpspec's (which also names the marker) does not
    const running = () => spawnSync('pgrep', ['-f', `^node -e .*${marker}`], { encoding: 'utf8' }).stdout.trim();
    // wait until the run has started (the handshake answered: a busy machine can take seconds), then a moment more
    for (let i = 0; i < 300 && !stdout.includes('"type":"run-start"'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(stdout).toContain('"type":"run-start"');
    // run-start comes once the era is known; the scenarios' own processes start a moment later
    for (let i = 0; i < 100 && running() === ''; i++) await new Promise((r) => setTimeout(r, 50));
    expect(running()).not.toBe('');
    await new Promise((r) => setTimeout(r, 500));
    const sent = Date.now();
    child.kill(sig);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const { code, signal } = await exited;
    clearTimeout(timer);
    const took = Date.now() - sent;
    expect(signal, err).toBeNull();
    expect(took, err).toBeLessThan(5000);
    expect(code).not.toBe(0);
    expect(code).toBe(expected);
    expect(err).toContain(`interrupted (${sig})`);
    await new Promise((r) => setTimeout(r, 300));
    expect(running()).toBe('');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.checks.some((c: { message: string }) => /interrupted/.test(c.message))).toBe(true);
  });
});
