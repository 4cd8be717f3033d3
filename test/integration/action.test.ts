// The GitHub Action's run step (dist/bin/action.js), run locally with the inputs and files the
// runner provides (INPUT_*, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH = this repository).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitWords } from '../../bin/action.js';
import { countOfRun, inArea } from '../helpers/catalogue-counts.js';

const ACTION_PATH = resolve('.');
const MAIN = resolve('dist/fixtures/servers/reference/main.js');

function runAction(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-action-'));
  const output = join(dir, 'github_output');
  const summary = join(dir, 'step_summary');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTION_PATH: ACTION_PATH };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const r = spawnSync('node', [join(ACTION_PATH, 'dist/bin/action.js')], { cwd: dir, env, encoding: 'utf8', timeout: 180_000 });
  const outputs = Object.fromEntries(readFileSync(output, 'utf8').trim().split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs, summary: readFileSync(summary, 'utf8'), dir };
}

describe('the GitHub Action run step', () => {
  it('a conformant reference server: outputs, summary, report.json; exit 0', () => {
    const r = runAction({ 'target-command': `node "${MAIN}"`, 'out-dir': 'out', args: "--seed 3 --only 'tools.*' --only 'jsonrpc.*'" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.conformant).toBe('true');
    // Every tools.* and jsonrpc.* check of a 2026-07-28 stdio run passes on the fixture.
    expect(Number(r.outputs.passed)).toBe(countOfRun('server', '2026-07-28', 'stdio', (c) => inArea('tools')(c) || inArea('jsonrpc')(c)));
    expect(r.outputs.failed).toBe('0');
    expect(r.outputs['report-path']).toBe(join(r.dir, 'out', 'report.json'));
    expect(JSON.parse(readFileSync(r.outputs['report-path'], 'utf8')).summary.conformant).toBe(true);
    expect(r.summary).toContain('## ✅ mcpspec: conformant');
    expect(r.summary).toMatch(/\| pass \| fail \|/);
  });

  it('a broken server: exit 1, the failure in the summary; with a baseline naming it, exit 0', () => {
    const inputs = { 'target-command': `node ${MAIN} --fault resources.unknown-modern`, 'out-dir': 'out', args: "--seed 3 --only 'resources.*'" };
    const r = runAction(inputs);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.outputs).toMatchObject({ conformant: 'false', failed: '1' });
    expect(r.summary).toContain('## ❌ mcpspec: not conformant');
    expect(r.summary).toMatch(/\| \[resources\.unknown-modern\]\(https:\/\/modelcontextprotocol\.io\/[^)]+\) \| fail \|/);
    const baseline = join(r.dir, 'expected.json');
    writeFileSync(baseline, JSON.stringify([{ id: 'resources.unknown-modern', reason: 'known' }]));
    const b = runAction({ ...inputs, baseline });
    expect(b.code, b.stdout + b.stderr).toBe(0);
    expect(b.outputs.conformant).toBe('false');
    expect(b.summary).toContain('only expected failures');
    // The official suite's YAML does the same; a stale entry fails the step only with strict-baseline.
    const yaml = join(r.dir, 'expected.yml');
    writeFileSync(yaml, 'server:\n  - sep-2164-resource-not-found\n  - resources-read-text\n');
    const x = runAction({ ...inputs, 'expected-failures': yaml });
    expect(x.code, x.stdout + x.stderr).toBe(0);
    expect(x.stdout).toContain('--expected-failures');
    const s = runAction({ ...inputs, 'expected-failures': yaml, 'strict-baseline': 'true' });
    expect(s.code, s.stdout + s.stderr).toBe(1);
    expect(s.stdout).toMatch(/STALE resources-read-text/);
  });

  it('target-start: mcpspec starts the HTTP server on a free {port}, keeps its log beside the reports, stops it', () => {
    const r = runAction({ 'target-url': 'http://127.0.0.1:{port}/mcp', 'target-start': `node "${MAIN}" --http --port {port}`, 'out-dir': 'out', args: "--seed 3 --only 'jsonrpc.*' --skip 'cancel.*'" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`--url http://127.0.0.1:{port}/mcp --start -- node ${MAIN} --http --port {port}`);
    expect(r.outputs.conformant).toBe('true');
    expect(JSON.parse(readFileSync(r.outputs['report-path'], 'utf8')).target.start).toEqual({ command: 'node', args: [MAIN, '--http', '--port', '{port}'] });
    expect(readFileSync(join(r.dir, 'out', 'server.log'), 'utf8')).toMatch(/listening http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const alone = runAction({ 'target-command': `node "${MAIN}"`, 'target-start': `node "${MAIN}" --http --port {port}` });
    expect(alone.code).toBe(2);
    expect(alone.stdout).toContain('::error::mcpspec action: target-start goes with target-url');
  });

  it('no target: exit 2 with an error annotation', () => {
    const r = runAction({});
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('::error::mcpspec action: set target-command or target-url');
  });

  it('splits a target command like a shell', () => {
    expect(splitWords(`node "my server.js" --name 'a b' c\\ d`)).toEqual(['node', 'my server.js', '--name', 'a b', 'c d']);
    expect(splitWords('  ')).toEqual([]);
    expect(() => splitWords('node "x')).toThrow(/unterminated/);
  });
});
