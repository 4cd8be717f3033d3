// `--expected-failures` (the official suite's YAML) and `--strict-baseline`, end to end on the built
// CLI: the reference server and client with a fault planted, judged with and without a file naming
// the official scenario that fault breaks.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { OFFICIAL_SCENARIOS } from '../../reports/official-suite-map.js';

const REF = ['node', 'dist/fixtures/servers/reference/main.js'];
const REF_CLIENT = ['node', 'dist/fixtures/clients/reference/main.js'];
// A server scenario none of whose rules mcpspec judges, taken from the map (a rule gaining a check must not break this test).
const UNJUDGED = Object.entries(OFFICIAL_SCENARIOS.server).find(([, s]) => !s.whole && Object.values(s.checks).every((c) => c.fit === 'none'))![0];
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-xfail-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// The modern reference server with resources.unknown-modern broken: official sep-2164-resource-not-found fails.
const server = (...extra: string[]) => cli(['server', '--seed', '3', '--only', 'resources.*', ...extra, '--stdio', '--', ...REF, '--fault', 'resources.unknown-modern']);

describe('mcpspec server --expected-failures', () => {
  it('a file naming the failing official scenario: exit 0; without it exit 1; a passing entry listed as stale, failing the run only with --strict-baseline', async () => {
    const expected = file('expected.yml', '# from the official suite\nserver:\n  - sep-2164-resource-not-found\nclient:\n  - sse-retry\n');
    const withStale = file('stale.yml', `server:\n  - sep-2164-resource-not-found:sep-2164-error-code\n  - resources-read-text   # passes: stale\n  - ${UNJUDGED}\n`);
    const [plain, excused, stale, strict] = await Promise.all([server(), server('--expected-failures', expected), server('--expected-failures', withStale), server('--expected-failures', withStale, '--strict-baseline')]);

    expect(plain.code, plain.out + plain.err).toBe(1);
    expect(plain.out).toContain('FAIL resources.unknown-modern');

    expect(excused.code, excused.out + excused.err).toBe(0);
    expect(excused.out).toContain('sep-2164-resource-not-found -> resources.unknown-modern, resources.unknown-data-uri');
    expect(excused.out).toContain(`baseline ${expected}: 1 expected failure, 0 new`);
    expect(excused.out).not.toContain('sse-retry'); // the client section is for mcpspec client

    expect(stale.code, stale.out + stale.err).toBe(0);
    expect(stale.out).toContain('sep-2164-resource-not-found:sep-2164-error-code -> resources.unknown-modern\n');
    expect(stale.out).toContain(`maps to nothing: ${UNJUDGED} (no mcpspec check judges any rule of this scenario)`);
    expect(stale.out).toContain('1 expected failure, 0 new');
    expect(stale.out).toMatch(/STALE resources-read-text: expected to fail but every check it maps to that was judged passes \(resources\.read, wire\.schema\); remove it from the baseline\n/);

    expect(strict.code, strict.out + strict.err).toBe(1);
    expect(strict.out).toContain('STALE resources-read-text: ');
    expect(strict.out).toContain('(--strict-baseline: this fails the run)');
  });

  it('--json: the run-end event carries the verdict on the baseline, the mapping and what maps to nothing', async () => {
    const f = file('json.yml', 'server:\n  - sep-2164-resource-not-found\n  - no-such-scenario\n');
    const r = await server('--json', '--expected-failures', f);
    expect(r.code, r.err).toBe(0);
    const end = JSON.parse(r.out.trim().split('\n').at(-1)!);
    expect(end).toMatchObject({ type: 'run-end', summary: { fail: 1 } });
    expect(end.baseline).toEqual({
      expected: ['resources.unknown-modern'],
      new: [],
      stale: [],
      notRun: [],
      mapped: { 'sep-2164-resource-not-found': ['resources.unknown-modern', 'resources.unknown-data-uri'] },
      unmapped: [{ entry: 'no-such-scenario', why: 'not a server scenario of the official suite 0.2.0-alpha.12' }],
    });
  });

  it('--strict-baseline with a JSON --baseline: a fixed check fails the run', async () => {
    const json = file('expected.json', JSON.stringify([{ id: 'resources.unknown-modern', reason: 'known' }, { id: 'resources.read', reason: 'fixed since' }]));
    const [lenient, strict] = await Promise.all([server('--baseline', json), server('--baseline', json, '--strict-baseline')]);
    expect(lenient.code, lenient.out + lenient.err).toBe(0);
    expect(lenient.out).toContain('STALE resources.read: expected to fail but now passes; remove it from the baseline\n');
    expect(strict.code, strict.out + strict.err).toBe(1);
  });

  it('a file that cannot be used is one line on stderr and exit 2, before any target is started', async () => {
    const cases: [string, RegExp][] = [
      [file('space.yml', 'server:\n  - server-stateless: sep-2575-server-implements-discover\n'), /write 'server-stateless:sep-2575-server-implements-discover' with no space after the colon$/],
      [file('broken.yml', 'server: [unclosed\n'), /is not YAML: /],
      [file('list.yml', '- tools-list\n'), /must be a mapping with server and\/or client lists$/],
      [join(dir, 'missing.yml'), /^mcpspec: cannot read --expected-failures .*missing\.yml: ENOENT$/],
    ];
    const runs = await Promise.all(cases.map(([f]) => cli(['server', '--expected-failures', f, '--stdio', '--', 'mcpspec-never-started'])));
    runs.forEach((r, i) => {
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err.trim()).toMatch(cases[i][1]);
      expect(r.out).toBe('');
    });
    const lone = await cli(['server', '--strict-baseline', '--stdio', '--', 'mcpspec-never-started']);
    expect([lone.code, lone.err.trim()]).toEqual([2, 'mcpspec: --strict-baseline needs --baseline FILE or --expected-failures FILE']);
  });
});

describe('mcpspec client --expected-failures and --baseline', () => {
  // The reference client with Mcp-Method left off: official http-standard-headers fails.
  const client = (...extra: string[]) => cli(['client', '--http', '--seed', '1', '--only', 'client.http-*', ...extra, '--', ...REF_CLIENT, '--fault', 'client.http-method-header', '--http', '{url}']);

  it('the client section excuses the failure of the official client scenario; a JSON baseline works as for a server', async () => {
    const yaml = file('client.yml', 'server:\n  - ping\nclient:\n  - http-standard-headers\n  - request-metadata:sep-2575-http-client-sends-version-header\n');
    const json = file('client.json', JSON.stringify([{ id: 'client.http-method-header', reason: 'known' }]));
    const [plain, excused, strict, byJson] = await Promise.all([client(), client('--expected-failures', yaml), client('--expected-failures', yaml, '--strict-baseline', '--json'), client('--baseline', json)]);
    expect(plain.code, plain.out + plain.err).toBe(1);

    expect(excused.code, excused.out + excused.err).toBe(0);
    expect(excused.out).toContain('http-standard-headers -> client.http-method-header, client.http-name-header');
    expect(excused.out).toContain('1 expected failure, 0 new');
    expect(excused.out).toContain('STALE request-metadata:sep-2575-http-client-sends-version-header: expected to fail but now passes');
    expect(excused.out).not.toContain('ping');

    expect(strict.code, strict.out + strict.err).toBe(1);
    const end = JSON.parse(strict.out.trim().split('\n').at(-1)!);
    expect(end.baseline).toMatchObject({ expected: ['client.http-method-header'], new: [], stale: ['request-metadata:sep-2575-http-client-sends-version-header'], strictBaseline: true });

    expect(byJson.code, byJson.out + byJson.err).toBe(0);
    expect(byJson.out).toContain(`baseline ${json}: 1 expected failure, 0 new`);
  });
});
