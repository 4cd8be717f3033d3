// Compliance badges: an SVG (badge-maker, the shields.io renderer) and a shields.io endpoint JSON.
// The message counts passed MUST checks of those judged, and says how many checks were skipped or
// untestable, so a server that declares nothing does not look perfect. Both carry the report digest,
// so a badge can be re-verified against a fresh run (equal verdicts give an equal digest).

import { makeBadge } from 'badge-maker';
import type { Report } from './report.js';
import { verdictWord } from './shared.js';

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

/** The badge as SVG; its <desc> and a comment name the verdict and the report digest. */
export function renderBadge(report: Report): string {
  const f = badgeFacts(report);
  const svg = makeBadge({ label: f.label, message: f.message, color: f.color });
  const desc = `mcpspec ${xmlText(report.tool.version)}: ${f.verdict}; report digest ${xmlText(f.digest)}`;
  // After the badge's own <title>: a <desc> a reader can see, and a comment a script can grep.
  return svg.replace(/<\/title>/, `</title><desc>${desc}</desc><!-- mcpspec-digest: ${xmlText(f.digest).replace(/--/g, '- -')} -->`);
}

/** A shields.io endpoint (https://shields.io/badges/endpoint-badge) JSON; shields ignores the extra fields. */
export function renderShields(report: Report): string {
  const f = badgeFacts(report);
  return JSON.stringify({ schemaVersion: 1, label: f.label, message: f.message, color: f.color, mcpspecDigest: f.digest, mcpspecVerdict: f.verdict, mcpspecVersion: report.tool.version }, null, 2);
}
