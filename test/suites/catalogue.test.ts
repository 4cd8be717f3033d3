import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, CHECKS, folderOf } from '../../suites/catalogue.js';

describe('the check catalogue', () => {
  const checks = catalogue();

  it('has unique ids of the form area.rule, each with a level, versions, role, requirement IDs and a spec URL', () => {
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    for (const c of checks) {
      expect(c.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(['MUST', 'SHOULD', 'MAY']).toContain(c.level);
      expect(['server', 'client']).toContain(c.role);
      expect(c.versions.length).toBeGreaterThan(0);
      expect(c.requirements.length).toBeGreaterThan(0);
      // A dated spec page, an official extension's page (the tasks extension, SEP-2663), or an
      // extension's own SEP page where it has no other (the skills extension, SEP-2640).
      expect(c.spec).toMatch(/^https:\/\/modelcontextprotocol\.io\/(specification\/\d{4}-\d{2}-\d{2}\/|extensions\/[a-z-]+\/|seps\/\d+-[a-z-]+(#|$))/);
    }
  });

  it('keeps each spec area in one folder: a check is defined once, in a file of its area\'s folder of suites/', () => {
    const filesUnder = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
    // The files that define checks (export a list of them); scenario ids may equal check ids.
    const everywhere = filesUnder('suites').filter((f) => /export const \w+Checks\b/.test(readFileSync(f, 'utf8')));
    for (const c of CHECKS) {
      const folder = folderOf(c.id);
      expect(folder, `${c.id} is in no spec area`).toBeDefined();
      const defining = everywhere.filter((f) => readFileSync(f, 'utf8').includes(`id: '${c.id}'`));
      expect(defining, `${c.id} is defined once, under suites/${folder}/`).toEqual([expect.stringMatching(new RegExp(`^suites/${folder}/[^/]+\\.ts$`))]);
    }
    // Only the catalogue lives at the top: everything else is in an area folder, the kit, the ports or client/ (the scripted server).
    expect(readdirSync('suites').filter((f) => f.endsWith('.ts'))).toEqual(['catalogue.ts']);
  });

  it('docs/checks.md is exactly what `mcpspec list --format md` prints (regenerate it when this fails)', () => {
    const generated = execFileSync(process.execPath, ['dist/bin/mcpspec.js', 'list', '--format', 'md'], { encoding: 'utf8' });
    expect(readFileSync('docs/checks.md', 'utf8')).toBe(generated);
  });

  // The requirements digest lives beside the project (../shared), not in the package: checked when present.
  const digest = '../shared/spec/requirements.md';
  // Authorization and the skills extension are not in the digest: their IDs (AZ-nn, SK-nn) are
  // defined in the project's own supplements.
  const supplement = 'docs/requirements-authorization.md';
  const skills = 'docs/requirements-skills.md';
  it.skipIf(!existsSync(digest))('cites only requirement IDs (or source keys) that the requirements digest or a supplement defines', () => {
    const text = readFileSync(digest, 'utf8') + readFileSync(supplement, 'utf8') + readFileSync(skills, 'utf8');
    for (const c of checks) {
      for (const r of c.requirements) expect(text, `${c.id} cites ${r}`).toMatch(new RegExp(`\\| (${r}) \\||\`${r}\``));
    }
  });

  it.each([[supplement, 'AZ'], [skills, 'SK']])('%s defines each %s ID once, and every one is cited by a check', (file, prefix) => {
    const ids = [...readFileSync(file, 'utf8').matchAll(new RegExp(`^\\| (${prefix}-\\d\\d) \\|`, 'gm'))].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const cited = new Set(checks.flatMap((c) => c.requirements));
    expect(ids.filter((id) => !cited.has(id))).toEqual([]);
  });
});
