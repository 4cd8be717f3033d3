// Compliance badges: an SVG (badge-maker, the shields.io renderer) and a shields.io endpoint JSON.
// The message counts passed MUST checks of those judged, and says how many checks were skipped or
// untestable, so a server that declares nothing does not look perfect. Both carry the report digest,
// so a badge can be re-verified against a fresh run (equal verdicts give an equal digest).
// The MUST-rate badges (`must-badge`, `must-shields`) show the share of MUST requirements met (the
// traceability view) and also name the counts, which `mcpspec verify --badge` recomputes.

import { makeBadge } from 'badge-maker';
import { traceReport, type Report } from './report.js';
import { verdictWord } from './shared.js';
import { percent } from './traceability.js';

export interface BadgeFacts {
  label: string;
  message: string;
  /** A shields.io colour name. */
  color: 'brightgreen' | 'yellow' | 'red' | 'lightgrey';
  digest: string;
  verdict: ReturnType<typeof verdictWord>;
}

/** Untested checks (skip + untestable) at or above this share of all checks make a conformant badge yellow. */
export const MANY_UNTESTED = 0.25;

export function badgeFacts(report: Report): BadgeFacts {
  const must = report.checks.filter((c) => c.level === 'MUST');
  const judgedMust = must.filter((c) => c.status === 'pass' || c.status === 'fail' || c.status === 'error');
  const passedMust = judgedMust.filter((c) => c.status === 'pass').length;
  const s = report.summary;
  const parts = [`${passedMust}/${judgedMust.length} MUST`];
  if (s.warn) parts.push(`${s.warn} SHOULD missed`);
  if (s.untestable) parts.push(`${s.untestable} untestable`);
  if (s.skip) parts.push(`${s.skip} skipped`);
  if (s.targetFailures) parts.push(`${s.targetFailures} crash/hang`);
  const verdict = verdictWord(report);
  const untested = s.total ? (s.skip + s.untestable) / s.total : 1;
  const color: BadgeFacts['color'] =
    verdict === 'NOTHING JUDGED' || verdict === 'AUTHORIZATION ONLY' ? 'lightgrey' : verdict !== 'CONFORMANT' ? 'red' : s.warn > 0 || untested >= MANY_UNTESTED ? 'yellow' : 'brightgreen';
  const message = verdict === 'CONFORMANT' || verdict === 'NONCONFORMANT' ? parts.join(' · ') : verdict.toLowerCase();
  return { label: `MCP ${report.era.version}`, message, color, digest: report.digest, verdict };
}

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A comment a script can grep (a comment may not hold `--`). */
function comment(name: string, value: string): string {
  return `<!-- ${name}: ${xmlText(value).replace(/--/g, '- -')} -->`;
}

/** The badge as SVG; its <desc> and a comment name the verdict and the report digest. */
export function renderBadge(report: Report): string {
  const f = badgeFacts(report);
  const svg = makeBadge({ label: f.label, message: f.message, color: f.color });
  const desc = `mcpspec ${xmlText(report.tool.version)}: ${f.verdict}; report digest ${xmlText(f.digest)}`;
  // After the badge's own <title>: a <desc> a reader can see, and a comment a script can grep.
  return svg.replace(/<\/title>/, `</title><desc>${desc}</desc>${comment('mcpspec-digest', f.digest)}`);
}

/** A shields.io endpoint (https://shields.io/badges/endpoint-badge) JSON; shields ignores the extra fields. */
export function renderShields(report: Report): string {
  const f = badgeFacts(report);
  return JSON.stringify({ schemaVersion: 1, label: f.label, message: f.message, color: f.color, mcpspecDigest: f.digest, mcpspecVerdict: f.verdict, mcpspecVersion: report.tool.version }, null, 2);
}

export interface MustRateFacts extends BadgeFacts {
  /** MUST requirements met, and judged (met, broken or warned). */
  met: number;
  judged: number;
}

/** Runs whose verdicts do not speak for the whole implementation: the rate is shown, but grey. */
const QUALIFIED = new Set(['MCPSPEC ERROR', 'NOTHING JUDGED', 'AUTHORIZATION ONLY']);

/**
 * The MUST-rate badge's facts, always derived from the report's verdicts (never from its stored
 * traceability section): `96% (58/60)`, floored so a broken requirement never shows 100%.
 */
export function mustRateFacts(report: Report): MustRateFacts {
  const { met, judged } = traceReport(report).must;
  const verdict = verdictWord(report);
  const rate = judged ? `${percent({ met, judged })} (${met}/${judged})` : 'none judged';
  const message = QUALIFIED.has(verdict) && judged ? `${rate} · ${verdict.toLowerCase()}` : rate;
  const color: BadgeFacts['color'] = !judged || QUALIFIED.has(verdict) ? 'lightgrey' : met === judged ? 'brightgreen' : met / judged >= 0.9 ? 'yellow' : 'red';
  return { label: 'MUST requirements met', message, color, digest: report.digest, verdict, met, judged };
}

/** The MUST-rate badge as SVG; <desc> and comments name the version, the counts and the report digest. */
export function renderMustBadge(report: Report): string {
  const f = mustRateFacts(report);
  const svg = makeBadge({ label: f.label, message: f.message, color: f.color });
  const desc = `mcpspec ${xmlText(report.tool.version)}: ${f.met} of ${f.judged} judged MUST requirements met, MCP ${xmlText(report.era.version)}; report digest ${xmlText(f.digest)}`;
  return svg.replace(/<\/title>/, `</title><desc>${desc}</desc>${comment('mcpspec-digest', f.digest)}${comment('mcpspec-must-met', `${f.met}/${f.judged}`)}`);
}

/** The MUST-rate badge as a shields.io endpoint JSON. */
export function renderMustShields(report: Report): string {
  const f = mustRateFacts(report);
  return JSON.stringify({ schemaVersion: 1, label: f.label, message: f.message, color: f.color, mcpspecDigest: f.digest, mcpspecMustMet: f.met, mcpspecMustJudged: f.judged, mcpspecProtocolVersion: report.era.version, mcpspecVersion: report.tool.version }, null, 2);
}
