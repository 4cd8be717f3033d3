// The package as users get it: npm pack, install the tarball into an empty project, run the
// installed CLI on Node 20 (this Node) and on a Node 22 binary (bench/node22.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { node22 } from '../../bench/node22.js';

const ROOT = resolve('.');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });

describe('the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpspec-pack-'));
  const project = join(dir, 'project');
  let files: string[] = [];
  let installed: string;
  let main: string;

  beforeAll(() => {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], ROOT)) as { filename: string; files: { path: string }[] }[];
    files = packed[0].files.map((f) => f.path);
    const tgz = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'mcpspec-user', version: '1.0.0', private: true }));
    npm(['install', '--no-audit', '--no-fund', tgz], project);
    installed = join(project, 'node_modules', 'mcpspec');
    main = join(installed, 'dist', 'fixtures', 'servers', 'reference', 'main.js');
  }, 600_000);

  it('ships what the CLI needs and nothing of the workspace', () => {
    for (const f of ['dist/cli/mcpspec.js', 'dist/bin/mcpspec.js', 'dist/bin/cli.js', 'dist/bin/action.js', 'dist/fixtures/servers/reference/main.js', 'fixtures/schemas/mcp-2026-07-28.schema.json', 'reports/report.schema.json', 'docs/report-format.md', 'README.md', 'package.json']) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => /^(test|node_modules|\.cache)\//.test(f) || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('npx mcpspec --version (Node 20)', () => {
    const r = spawnSync('npx', ['--no-install', 'mcpspec', '--version'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it('mcpspec server on the installed reference fixture (Node 20): exit 0', () => {
    const r = spawnSync('npx', ['--no-install', 'mcpspec', 'server', '--seed', '3', '--stdio', '--', 'node', main], { cwd: project, encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('CONFORMANT: ');
  });

  it('the same on Node 22', () => {
    const node = node22();
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
    const cli = join('node_modules', 'mcpspec', 'dist', 'bin', 'mcpspec.js');
    const v = spawnSync(node, [cli, '--version'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(VERSION);
    const r = spawnSync(node, [cli, 'server', '--seed', '3', '--stdio', '--', node, main], { cwd: project, encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('CONFORMANT: ');
  });

  it('the GitHub Action run step from the installed package: outputs, step summary, rendered reports', () => {
    // As the runner would: GITHUB_ACTION_PATH is the action's files (here the installed tarball,
    // whose dist/ the build step would have produced), inputs as INPUT_* variables.
    const work = mkdtempSync(join(tmpdir(), 'mcpspec-action-packed-'));
    const output = join(work, 'github_output');
    const summary = join(work, 'step_summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: work, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTION_PATH: installed,
      'INPUT_TARGET-COMMAND': `node ${main}`, 'INPUT_OUT-DIR': 'out', INPUT_FORMATS: 'junit,sarif,markdown', INPUT_ARGS: "--seed 3 --only 'tools.*'",
    };
    const r = spawnSync(process.execPath, [join(installed, 'dist', 'bin', 'action.js')], { cwd: work, env, encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const outputs = readFileSync(output, 'utf8');
    expect(outputs).toContain('conformant=true');
    expect(readFileSync(summary, 'utf8')).toContain('mcpspec: conformant');
    const written = readdirSync(join(work, 'out'));
    expect(written).toEqual(expect.arrayContaining(['report.json']));
    expect(written.some((f) => f.endsWith('.xml')), written.join(', ')).toBe(true);
    expect(written.some((f) => f.includes('sarif')), written.join(', ')).toBe(true);
  });
});
