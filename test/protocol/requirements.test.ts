// The vendored requirement rows (protocol/requirements-table.ts): read from the digest's tables the
// way bin/requirements-digest.ts reads them, equal to what the digest says today, and their levels
// and eras read the way the traceability view counts them.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRequirementRows, digestSource, parseRequirementTables, requirementsModule, SUPPLEMENTS } from '../../bin/requirements-digest.js';
import { REQUIREMENTS, REQUIREMENTS_SOURCE, strengthOf, versionsOfEra } from '../../protocol/requirements.js';

describe('reading a digest-style table', () => {
  const text = [
    '## 4. Per-request `_meta` [26] (B26, SEP-2575)',
    '',
    '| ID | Req | Requirement |',
    '|---|---|---|',
    '| QQ-01 | M | a rule with `a \\| b` in it |',
    '| QQ-02 | S / MAY | another |',
    '',
    '## 11. Mixed eras',
    '',
    '| ID | Req | Era | Requirement | Source |',
    '|---|---|---|---|---|',
    '| QQ-03 | MN | 25 | legacy only | B25, SEP-1303 |',
    '| QQ-04 | - | both | informative | B26 |',
    '',
    '| Code | Name |',
    '|---|---|',
    '| -32002 | not a requirement |',
  ].join('\n');

  it('takes the ID, the Req column as written, the era from the Era column or the heading, the SEPs from the Source column or the heading', () => {
    expect(parseRequirementTables(text)).toEqual([
      { id: 'QQ-01', level: 'M', era: '26', area: '4. Per-request _meta', seps: ['SEP-2575'] },
      { id: 'QQ-02', level: 'S / MAY', era: '26', area: '4. Per-request _meta', seps: ['SEP-2575'] },
      { id: 'QQ-03', level: 'MN', era: '25', area: '11. Mixed eras', seps: ['SEP-1303'] },
      { id: 'QQ-04', level: '-', era: 'both', area: '11. Mixed eras', seps: [] },
    ]);
    expect(parseRequirementTables(text, 'Elsewhere').map((r) => r.area)).toEqual(['Elsewhere', 'Elsewhere', 'Elsewhere', 'Elsewhere']);
  });

  it('refuses a row it cannot place (no era) and an ID given twice, rather than half reading a changed digest', () => {
    expect(() => parseRequirementTables('## 2. No era\n\n| ID | Req | Requirement |\n|---|---|---|\n| QQ-09 | M | x |\n')).toThrow(/QQ-09: unknown era/);
    expect(() => parseRequirementTables(`${text}\n\n## 5. Again [both]\n\n| ID | Req | Requirement |\n|---|---|---|\n| QQ-01 | M | x |\n`)).toThrow(/QQ-01 is defined twice/);
  });
});

describe('levels and eras', () => {
  it('a level with any MUST or MUST NOT part is a MUST requirement; then SHOULD, MAY; "-" is informative', () => {
    expect(['M', 'MN', 'M (26)', 'MUST (client)', 'MN (SEP)', 'MAY / MN', 'SN / M', 'S / MAY / M'].map(strengthOf)).toEqual(Array(8).fill('MUST'));
    expect(['S', 'SN', 'S (RECOMMENDED)', 'MAY/S', 'SN / S'].map(strengthOf)).toEqual(Array(5).fill('SHOULD'));
    expect(['MAY', '- / MAY'].map(strengthOf)).toEqual(['MAY', 'MAY']);
    expect(strengthOf('-')).toBe('informative');
  });

  it('eras map onto the versions mcpspec judges', () => {
    expect(versionsOfEra('both')).toEqual(['2025-06-18', '2025-11-25', '2026-07-28']);
    expect(versionsOfEra('25')).toEqual(['2025-06-18', '2025-11-25']);
    expect(versionsOfEra('26')).toEqual(['2026-07-28']);
    expect(versionsOfEra('25-11, 26')).toEqual(['2025-11-25', '2026-07-28']);
  });
});

describe('the vendored table', () => {
  const read = (path: string) => readFileSync(path, 'utf8');

  it('has each ID once, and each supplement\'s rows (authorization, skills) as the supplement has them', () => {
    expect(new Set(REQUIREMENTS.map((r) => r.id)).size).toBe(REQUIREMENTS.length);
    expect(SUPPLEMENTS.map((s) => s.area)).toEqual(['Authorization', 'Skills extension']);
    for (const s of SUPPLEMENTS) {
      const rows = parseRequirementTables(read(s.path), s.area);
      expect(rows.length, s.path).toBeGreaterThan(0);
      expect(REQUIREMENTS.filter((r) => r.area === s.area)).toEqual(rows);
    }
    expect(REQUIREMENTS.filter((r) => r.area === 'Skills extension').every((r) => r.era === '26' && r.seps.join() === 'SEP-2640')).toBe(true);
  });

  // The digest lives beside the project (../shared), not in it: checked when present. Elsewhere,
  // MCPSPEC_REQUIREMENTS_DIGEST names it.
  const digestPath = process.env.MCPSPEC_REQUIREMENTS_DIGEST ?? '../shared/spec/requirements.md';
  it.skipIf(!existsSync(digestPath))('equals what bin/vendor-requirements.ts makes of the digest today (regenerate it when this fails)', () => {
    const digest = readFileSync(digestPath, 'utf8');
    const rows = allRequirementRows(digest, read);
    expect(REQUIREMENTS).toEqual(rows);
    expect(REQUIREMENTS_SOURCE).toBe(digestSource(digest));
    expect(readFileSync('protocol/requirements-table.ts', 'utf8')).toBe(requirementsModule(rows, digestSource(digest)));
  });
});
