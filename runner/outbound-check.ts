// mcpspec's own requests, unless deliberately malformed, must be valid for the version in use: if
// one is not, the verdicts built on it would blame the target for mcpspec's mistake.

import { messages } from '../arbitraries/messages.js';
import type { SpecVersion } from '../protocol/versions.js';
import type { Exchange } from '../suites/ports/session.js';

export function outboundProblems(exchanges: Exchange[], deliberate: (ex: Exchange) => boolean, version: SpecVersion): string[] {
  const m = messages(version);
  const problems: string[] = [];
  for (const ex of exchanges) {
    if (deliberate(ex) || !ex.method || typeof ex.request !== 'object' || ex.request === null) continue;
    const info = m.index.get(ex.method);
    if (!info || info.embedded) continue;
    // The definition's validator alone (precompiled): building its arbitraries only to validate cost ~40 ms a run.
    if (!m.doc.validator(info.definition)(ex.request)) problems.push(`mcpspec sent an invalid ${ex.method} (${info.definition}): ${JSON.stringify(ex.request).slice(0, 300)}`);
  }
  return [...new Set(problems)];
}
