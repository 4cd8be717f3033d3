// `mcpspec verify --badge FILE`: a badge is tied to the report it came from. Before the re-run it must
// show what mcpspec renders from that report (same digest, texts, colours and, for a MUST-rate badge,
// counts; otherwise it was made from another report or edited: exit 2, like an edited report). After
// the re-run a MUST-rate badge's counts must be the re-run's too (otherwise the report is refused).

import { readFileSync } from 'node:fs';
import { claimDifferences, claimsOf, readBadge, type BadgeClaims } from '../../reports/badge-claims.js';
import { mustRateFacts } from '../../reports/badge.js';
import type { Report } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';

export interface CheckedBadge {
  file: string;
  claims: BadgeClaims;
}

/** Read each badge and hold it against the recorded report; throws a UsageError for the first that does not match. */
export function checkBadges(files: string[], recorded: Report, reportFile: string): CheckedBadge[] {
  return files.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const claims = readBadge(text);
    if (!claims) throw new UsageError(`${file} is not an mcpspec badge (an SVG or shields.io JSON naming a report digest)`);
    const differences = claimDifferences(claims, claimsOf(recorded, claims.kind, claims.form));
    if (claims.digest !== recorded.digest) throw new UsageError(`${file} was not made from ${reportFile}: ${differences.join('; ')}`);
    if (differences.length) throw new UsageError(`${file} has been altered: ${differences.join('; ')}`);
    return { file, claims };
  });
}

/** After the re-run: one line per MUST-rate badge whose counts the re-run does not give. */
export function badgeRefusals(badges: CheckedBadge[], now: Report): string[] {
  const facts = mustRateFacts(now);
  return badges
    .filter((b) => b.claims.must && (b.claims.must.met !== facts.met || b.claims.must.judged !== facts.judged))
    .map((b) => `${b.file} says ${b.claims.must!.met}/${b.claims.must!.judged} MUST requirements met; the re-run gives ${facts.met}/${facts.judged}`);
}
