// What a badge file claims, read back from it: what a reader sees (label, message, colours), the
// report digest it names and, for a MUST-rate badge, the counts. `mcpspec verify --badge` compares
// these claims with the ones mcpspec renders from the report, so an edited number or colour is seen.

import { renderBadge, renderMustBadge, renderMustShields, renderShields } from './badge.js';
import type { Report } from './report.js';

export type BadgeKind = 'compliance' | 'must-rate';

export interface BadgeClaims {
  kind: BadgeKind;
  form: 'svg' | 'shields';
  /** Everything a reader sees, in a comparable form (texts, title, colours). */
  shown: string[];
  digest?: string;
  /** The MUST-rate badge's counts: MUST requirements met of those judged. */
  must?: { met: number; judged: number };
}

function xmlDecode(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;|&#39;/g, "'").replace(/&amp;/g, '&');
}

function counts(text: string | undefined): BadgeClaims['must'] {
  const m = /^(\d+)\/(\d+)$/.exec(text?.trim() ?? '');
  return m ? { met: Number(m[1]), judged: Number(m[2]) } : undefined;
}

function fromSvg(svg: string): BadgeClaims | undefined {
  const comment = (name: string) => new RegExp(`<!--\\s*${name}:\\s*([^<>]*?)\\s*-->`).exec(svg)?.[1];
  const digest = comment('mcpspec-digest');
  const must = counts(comment('mcpspec-must-met'));
  if (!digest && !must) return undefined;
  const all = (re: RegExp) => [...svg.matchAll(re)].map((m) => xmlDecode(m[1]));
  const shown = [
    ...all(/<title>([^<]*)<\/title>/g).map((t) => `title ${t}`),
    ...all(/aria-label="([^"]*)"/g).map((t) => `aria-label ${t}`),
    ...[...new Set(all(/<text\b[^>]*>([^<]*)<\/text>/g))].sort().map((t) => `text ${t}`),
    ...[...new Set(all(/\bfill="([^"]*)"/g))].sort().map((t) => `fill ${t}`),
  ];
  return { kind: must ? 'must-rate' : 'compliance', form: 'svg', shown, ...(digest ? { digest: xmlDecode(digest) } : {}), ...(must ? { must } : {}) };
}

function fromShields(json: unknown): BadgeClaims | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const j = json as Record<string, unknown>;
  if (typeof j.mcpspecDigest !== 'string') return undefined;
  const shown = ['label', 'message', 'color', 'labelColor', 'logoSvg', 'namedLogo', 'style'].filter((k) => j[k] !== undefined).map((k) => `${k} ${JSON.stringify(j[k])}`);
  const must = typeof j.mcpspecMustMet === 'number' && typeof j.mcpspecMustJudged === 'number' ? { met: j.mcpspecMustMet, judged: j.mcpspecMustJudged } : undefined;
  return { kind: must || 'mcpspecMustMet' in j ? 'must-rate' : 'compliance', form: 'shields', shown, digest: j.mcpspecDigest, ...(must ? { must } : {}) };
}

/** The claims of an mcpspec badge (SVG or shields.io endpoint JSON), or undefined when the text is not one. */
export function readBadge(text: string): BadgeClaims | undefined {
  const t = text.trim();
  if (t.startsWith('<')) return fromSvg(t);
  try {
    return fromShields(JSON.parse(t));
  } catch {
    return undefined;
  }
}

/** The claims the same kind of badge rendered from this report makes. */
export function claimsOf(report: Report, kind: BadgeKind, form: BadgeClaims['form']): BadgeClaims {
  const render = kind === 'must-rate' ? (form === 'svg' ? renderMustBadge : renderMustShields) : form === 'svg' ? renderBadge : renderShields;
  return readBadge(render(report))!;
}

/** What differs between a badge's claims and the report's (one line each); empty when they agree. */
export function claimDifferences(badge: BadgeClaims, expected: BadgeClaims): string[] {
  const out: string[] = [];
  if (badge.digest !== expected.digest) out.push(`it names digest ${badge.digest ?? '(none)'}, the report has ${expected.digest}`);
  if (badge.must && expected.must && (badge.must.met !== expected.must.met || badge.must.judged !== expected.must.judged)) {
    out.push(`it counts ${badge.must.met}/${badge.must.judged} MUST requirements met, the report gives ${expected.must.met}/${expected.must.judged}`);
  }
  const shownOnly = badge.shown.filter((s) => !expected.shown.includes(s));
  const missing = expected.shown.filter((s) => !badge.shown.includes(s));
  if (shownOnly.length || missing.length) out.push(`it shows ${shownOnly.map((s) => JSON.stringify(s)).join(', ') || 'less'} where the report gives ${missing.map((s) => JSON.stringify(s)).join(', ') || 'nothing more'}`);
  return out;
}
