// The official suite beside mcpspec, as a page and totals: the page is generated, the totals add up,
// every rule mcpspec judges only in part or not at all says why, and every difference quotes a reason.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FITS, officialDifferences, officialMapRows, officialMapTotals, officialRules } from '../../reports/official-map-view.js';
import { catalogue } from '../../suites/catalogue.js';

const roles = ['server', 'client'] as const;

describe('the official suite map view', () => {
  it('docs/official-suite-map.md is exactly what `mcpspec list --official --format md` prints (regenerate it when this fails)', () => {
    const generated = execFileSync(process.execPath, ['dist/bin/mcpspec.js', 'list', '--official', '--format', 'md'], { encoding: 'utf8' });
    expect(readFileSync('docs/official-suite-map.md', 'utf8')).toBe(generated);
  });

  it('counts every row and every distinct rule once, and names only mcpspec checks that exist', () => {
    const ids = new Set(catalogue().map((c) => c.id));
    for (const role of roles) {
      const rows = officialMapRows(role);
      const t = officialMapTotals(role, catalogue().filter((c) => c.role === role).map((c) => c.id));
      expect(FITS.reduce((n, f) => n + t.rows[f], 0)).toBe(rows.length);
      expect(FITS.reduce((n, f) => n + t.rules[f], 0)).toBe(officialRules(role).size);
      for (const r of rows) for (const c of r.checks) expect(ids.has(c), `${r.scenario}:${r.check} -> ${c}`).toBe(true);
      for (const id of t.mcpspecOnly) expect(rows.some((r) => r.checks.includes(id))).toBe(false);
    }
  });

  it('a rule reported by several scenarios counts at its best fit', () => {
    // The OAuth flow steps are reported by every auth scenario; the PKCE ones are covered everywhere.
    expect(officialRules('client').get('pkce-code-challenge-sent')).toBe('covered');
    const fits = new Set(officialMapRows('client').filter((r) => r.check === 'token-endpoint-auth-method').map((r) => r.fit));
    expect(officialRules('client').get('token-endpoint-auth-method')).toBe(fits.has('covered') ? 'covered' : fits.has('partial') ? 'partial' : 'none');
  });

  it('every official rule mcpspec judges only in part, or not at all, says why', () => {
    for (const role of roles) {
      const silent = officialMapRows(role).filter((r) => (r.fit === 'partial' || r.fit === 'none') && !r.why && !r.differs);
      expect(silent.map((r) => `${r.scenario}:${r.check ?? '(whole)'}`)).toEqual([]);
    }
  });

  it('every difference names mcpspec checks and quotes the specification', () => {
    const diffs = officialDifferences();
    expect(diffs.length).toBeGreaterThan(0);
    for (const d of diffs) {
      expect(d.checks.length, d.how).toBeGreaterThan(0);
      expect(d.how, d.checks.join()).toMatch(/"[^"]+"/);
    }
  });
});
