/** `--only`/`--skip` by id glob: `*` matches within and across dots (`tools.*`, `*.unknown-*`). */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export function matchesGlobs(id: string, only: string[] | undefined, skip: string[] | undefined): boolean {
  if (only && only.length > 0 && !only.some((g) => globToRegExp(g).test(id))) return false;
  if (skip && skip.some((g) => globToRegExp(g).test(id))) return false;
  return true;
}
