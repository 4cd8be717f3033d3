import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';

describe('the check catalogue', () => {
  const checks = catalogue();

  it('has unique ids of the form area.rule, each with a level, versions, requirement IDs and a spec URL', () => {
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    for (const c of checks) {
      expect(c.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(['MUST', 'SHOULD', 'MAY']).toContain(c.level);
      expect(c.versions.length).toBeGreaterThan(0);
      expect(c.requirements.length).toBeGreaterThan(0);
      expect(c.spec).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/\d{4}-\d{2}-\d{2}\//);
    }
  });

  it('matches docs/checks.md row by row (id, level, requirements)', () => {
    const rows = readFileSync('docs/checks.md', 'utf8').split('\n').filter((l) => /^\| [a-z]+\.[a-z0-9-]+ \|/.test(l));
    const documented = rows.map((l) => l.split('|').map((x) => x.trim())).map((cols) => ({ id: cols[1], level: cols[2], requirements: cols[4] }));
    expect(documented).toEqual(
      expect.arrayContaining(checks.map((c) => ({ id: c.id, level: c.level, requirements: c.requirements.join(', ') }))),
    );
    expect(documented).toHaveLength(checks.length);
  });

  // The requirements digest lives beside the project (../shared), not in the package: checked when present.
  const digest = '../shared/spec/requirements.md';
  it.skipIf(!existsSync(digest))('cites only requirement IDs (or source keys) that the requirements digest defines', () => {
    const text = readFileSync(digest, 'utf8');
    for (const c of checks) {
      for (const r of c.requirements) expect(text, `${c.id} cites ${r}`).toMatch(new RegExp(`\\| (${r}) \\||\`${r}\``));
    }
  });
});
