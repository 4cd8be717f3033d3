// The traceability view on the command line (built CLI): `mcpspec list --traceability`.
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../protocol/requirements.js';
import type { SuiteTraceability } from '../reports/suite-traceability.js';
import { CHECKS } from '../suites/catalogue.js';
import { cli } from './helpers/cli.js';

describe('mcpspec list --traceability', () => {
  it('text: every requirement under its section with the checks citing it, NO CHECK where none does, counts per section and per SEP', async () => {
    const r = await cli(['list', '--traceability']);
    expect(r.code, r.err).toBe(0);
    const cited = new Set(CHECKS.flatMap((c) => c.requirements));
    for (const req of REQUIREMENTS) {
      const line = r.out.split('\n').find((l) => l.startsWith(`  ${req.id} `));
      expect(line, req.id).toBeDefined();
      if (cited.has(req.id)) expect(line).toContain(CHECKS.find((c) => c.requirements.includes(req.id))!.id);
      else expect(line).toContain('NO CHECK: mcpspec has no check for it');
    }
    expect(r.out).toContain('per section:');
    expect(r.out).toMatch(/^ {2}SEP-2322 +\d+ +\d+ +\d+ +\d+ +\d+%$/m);
    const without = REQUIREMENTS.filter((q) => !cited.has(q.id)).length;
    expect(r.out).toContain(`${REQUIREMENTS.length} requirements: ${REQUIREMENTS.length - without} with checks, ${without} without, 0 not applicable`);
  });

  it('--json, narrowed to client checks of 2025-11-25: modern-only requirements are not applicable, server-only ones say where they are checked', async () => {
    const r = await cli(['list', '--traceability', '--json', '--role', 'client', '--spec-version', '2025-11-25']);
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as SuiteTraceability;
    expect(v.scope).toEqual({ role: 'client', version: '2025-11-25' });
    const byId = new Map(v.requirements.map((q) => [q.id, q]));
    expect(byId.get('RT-01')).toMatchObject({ result: 'not-applicable', reasons: ['a modern requirement'] });
    expect(byId.get('LC-05')).toMatchObject({ result: 'checked', checks: ['client.initialized'] });
    expect(byId.get('LC-10')!.checks).toEqual(['client.server-requests']);
    expect(byId.get('HL-02')).toMatchObject({ result: 'not-applicable', reasons: [expect.stringMatching(/^checked on servers only \(http\./)] });
    expect(v.total.checked + v.total['not-applicable'] + v.total['no-check']).toBe(REQUIREMENTS.length);
    expect(v.areas.reduce((n, a) => n + a.total, 0)).toBe(REQUIREMENTS.length);
  });

  it('--requirement narrows it; --only, --format md and an unknown ID are refused (exit 2, one line)', async () => {
    const one = await cli(['list', '--traceability', '--json', '--requirement', 'ca-02']);
    expect(one.code, one.err).toBe(0);
    expect((JSON.parse(one.out) as SuiteTraceability).requirements.map((q) => q.id)).toEqual(['CA-02']);
    for (const [args, message] of [
      [['--only', 'tools.*'], /not --only/],
      [['--format', 'md'], /text or json, not --format md/],
      [['--requirement', 'XX-99'], /unknown --requirement XX-99/],
    ] as const) {
      const r = await cli(['list', '--traceability', ...args]);
      expect(r.code, r.out).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
  });
});
