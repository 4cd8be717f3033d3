// Reports and recordings end up in CI logs and artifacts: credentials never go into them. Header
// values of auth headers are dropped at record time; secret values (from mcpspec's own environment
// and from what the user passed the target) are replaced wherever they appear in written output.

export const REDACTED = '<redacted>';

const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|password/i;
const SECRET_NAME = /token|secret|passw|pwd|key|auth|credential|cookie|session|private|cert/i;
/** Variables whose values are well-known paths or settings, never credentials. */
const PLAIN_NAMES = new Set(['PATH', 'HOME', 'PWD', 'OLDPWD', 'SHELL', 'TERM', 'LANG', 'USER', 'LOGNAME', 'HOSTNAME', 'TMPDIR', 'TEMP', 'TMP', 'EDITOR', 'PAGER', 'SHLVL', 'COLORTERM', 'TERM_PROGRAM', 'NODE_ENV', 'CI', '_']);

export function redactHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = SECRET_HEADERS.test(k) ? REDACTED : v;
  return out;
}

/** A value that looks like a generated credential: long, letters and digits mixed, no spaces or path separators. */
function looksRandom(v: string): boolean {
  return v.length >= 16 && /[A-Za-z]/.test(v) && /\d/.test(v) && !/[\s/\\]/.test(v);
}

/** The values of an environment that may be credentials. */
export function secretValues(env: Record<string, string | undefined>): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 8 || PLAIN_NAMES.has(name) || name.startsWith('LC_') || name.startsWith('npm_')) continue;
    if (SECRET_NAME.test(name) || looksRandom(value)) out.add(value);
  }
  return [...out];
}

/** Replaces every known secret value (also in its JSON-escaped form) in text. */
export class Redactor {
  private readonly needles: string[];
  constructor(secrets: string[]) {
    const all = new Set<string>();
    for (const s of secrets) {
      if (s.length < 8) continue; // too short to replace without mangling ordinary text
      all.add(s);
      all.add(JSON.stringify(s).slice(1, -1));
    }
    // Longest first, so a secret containing another is replaced whole.
    this.needles = [...all].sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s;
    for (const n of this.needles) if (out.includes(n)) out = out.split(n).join(REDACTED);
    return out;
  }

  /** A deep copy of a JSON value with secrets replaced in every string. */
  json<T>(v: T): T {
    if (this.needles.length === 0) return v;
    return JSON.parse(this.text(JSON.stringify(v))) as T;
  }
}
