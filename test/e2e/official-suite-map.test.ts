// The vendored map of the official conformance suite (reports/official-suite-map.ts) against the
// installed @modelcontextprotocol/conformance: the same version, the same scenario lists (its own
// `conformance list`, on Node 22 as it requires), and every check id the map names in its code.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { node22 } from '../../bench/node22.js';
import { CROSS_CUTTING, OFFICIAL_SCENARIOS, OFFICIAL_SUITE_VERSION } from '../../reports/official-suite-map.js';

const require = createRequire(import.meta.url);
const ROOT = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const BUNDLE = join(ROOT, 'dist', 'index.js');

/** The scenario names `conformance list` prints under a heading. */
function listed(out: string, heading: string): string[] {
  const section = out.split(/\n\s*\n/).find((s) => s.startsWith(heading));
  if (!section) throw new Error(`no "${heading}" in conformance list:\n${out}`);
  return section.split('\n').slice(1).map((l) => /^\s*- (\S+)/.exec(l)?.[1]).filter((n): n is string => n !== undefined);
}

describe('the map of the official suite', () => {
  it('is of the installed version', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version).toBe(OFFICIAL_SUITE_VERSION);
  });

  it('has exactly the server and client scenarios conformance list prints', () => {
    const out = execFileSync(node22(), [BUNDLE, 'list'], { encoding: 'utf8', timeout: 60_000 });
    expect(Object.keys(OFFICIAL_SCENARIOS.server).sort()).toEqual(listed(out, 'Server scenarios').sort());
    expect(Object.keys(OFFICIAL_SCENARIOS.client).sort()).toEqual(listed(out, 'Client scenarios').sort());
  });

  it('names only check ids the suite reports', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    const literal = (s: string) => [`\`${s}\``, `"${s}"`, `'${s}'`].some((q) => code.includes(q));
    // Two families are built from a template: the prefix is in the code, the rest from a list.
    const families: [string, string[]][] = [
      ['sep-2575-request-meta-invalid-', ['missing-meta', 'missing-protocol-version', 'missing-client-capabilities']],
      ['sep-2575-http-server-method-not-found-404-', ['initialize', 'ping', 'logging-setlevel', 'resources-subscribe', 'resources-unsubscribe']],
    ];
    const built = (id: string) => families.some(([prefix, rest]) => id.startsWith(prefix) && rest.includes(id.slice(prefix.length)) && code.includes(`\`${prefix}\${`));
    const unknown: string[] = [];
    for (const role of ['server', 'client'] as const) {
      for (const [name, s] of Object.entries(OFFICIAL_SCENARIOS[role])) for (const id of Object.keys(s.checks)) if (!literal(id) && !built(id)) unknown.push(`${name}:${id}`);
      for (const id of Object.keys(CROSS_CUTTING[role])) if (!literal(id)) unknown.push(`(every scenario):${id}`);
    }
    expect(unknown).toEqual([]);
  });
});
