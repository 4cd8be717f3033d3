import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { runServerSuite } from '../../runner/run-server.js';
import { CHECKS } from '../../suites/catalogue.js';
import { REPO_ROOT } from '../helpers/targets.js';

// Caching (2026-07-28 §7, CA-01..CA-03, CA-11, PG-05) on 2026-07-28 servers from npm, installed on
// first use into a cache folder (exact versions; only the npm registry is reached). The caching
// checks are oracles: the pagination, tools.names and resources.read scenarios make the traffic they
// judge (every list, its pages, a read of each listed resource). docs/real-servers.md explains each pin.
const CACHING = CHECKS.filter((c) => c.id.startsWith('caching.') || c.id.startsWith('pagination.') || c.id === 'resources.read' || c.id === 'tools.names');
const OPTIONS = { specVersion: '2026-07-28', allowDestructive: false, allowOpenWorld: false, timeoutMs: 10_000, seed: 1, runs: 4, deadlineMs: 240_000, concurrency: 2, checks: CACHING } as const;

/** The entry file of an npm package installed (once) into .cache/e2e-<name>-<version>. */
function cachedEntry(pkg: string, version: string, dirName: string, entry: string): string {
  const dir = path.join(REPO_ROOT, '.cache', `e2e-${dirName}-${version}`);
  const file = path.join(dir, 'node_modules', ...pkg.split('/'), ...entry.split('/'));
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `${pkg}@${version}`], { stdio: 'pipe', timeout: 300_000 });
  }
  return file;
}

function caching(run: RunResult) {
  expect(run.findings.filter((f) => f.kind === 'harness').map((f) => f.message)).toEqual([]);
  expect(run.era).toMatchObject({ era: 'modern', version: '2026-07-28' });
  const of = (id: string) => run.checks.find((c) => c.id === id);
  return { fields: of('caching.fields')?.status, scope: of('caching.scope-constant')?.status, order: of('caching.tools-order')?.status, errors: run.checks.filter((c) => c.status === 'error').map((c) => c.id), message: (id: string) => of(id)?.message ?? '' };
}

describe('caching on real 2026-07-28 servers', () => {
  it('@upstash/context7-mcp 4.1.1 over stdio: every cacheable result carries ttlMs and cacheScope; nothing paginates', async () => {
    const entry = cachedEntry('@upstash/context7-mcp', '4.1.1', 'context7', 'dist/index.js');
    const run = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [entry] }, OPTIONS);
    const v = caching(run);
    expect({ fields: v.fields, scope: v.scope, order: v.order, errors: v.errors }).toEqual({ fields: 'pass', scope: 'untestable', order: 'pass', errors: [] });
    expect(v.message('caching.fields')).toMatch(/server\/discover.*tools\/list|tools\/list.*server\/discover/);
    expect(v.message('caching.scope-constant')).toContain('no list paginates');
  }, 400_000);

  it('mongodb-mcp-server 3.0.4 --readOnly over stdio (no database, MDB_MCP_TELEMETRY=disabled): the same, resources/read included', async () => {
    const entry = cachedEntry('mongodb-mcp-server', '3.0.4', 'mongodb-mcp-server', 'dist/esm/index.js');
    const run = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [entry, '--readOnly'] }, { ...OPTIONS, env: { set: { MDB_MCP_TELEMETRY: 'disabled' } } });
    const v = caching(run);
    expect({ fields: v.fields, scope: v.scope, order: v.order, errors: v.errors }).toEqual({ fields: 'pass', scope: 'untestable', order: 'pass', errors: [] });
    expect(v.message('caching.fields')).toContain('resources/read');
    expect(v.message('caching.scope-constant')).toContain('no list paginates');
  }, 400_000);
});
