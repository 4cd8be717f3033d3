// The ids of every check, for validating --only and --skip before the target is started. The
// bundled program reads them from check-ids.json, written beside it by the build (bin/build-bundle.ts)
// from the same catalogue, so that it need not load the suite (generators, validators) first: the
// suite then loads while the target answers its first requests. Elsewhere the catalogue is loaded.

import { readFile } from 'node:fs/promises';

export const CHECK_IDS_FILE = 'check-ids.json';

export async function checkIds(): Promise<string[]> {
  try {
    const ids: unknown = JSON.parse(await readFile(new URL(`./${CHECK_IDS_FILE}`, import.meta.url), 'utf8'));
    if (Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === 'string')) return ids;
  } catch {
    // not bundled (or the file is unreadable): the catalogue says it
  }
  const { CHECKS } = await import('../suites/catalogue.js');
  return CHECKS.map((c) => c.id);
}
