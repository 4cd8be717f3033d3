// client.skills-*: a client (host) under test against the skills scenarios of client-scenarios.ts
// beside it (SEP-2640, SK-12). Only what a host does on the wire is judged: whether it retrieves a
// skill's files with no need for them, and, where it loads a skill whose SKILL.md fails verification,
// whether it goes on to the skill's other files anyway (the verification itself happens inside the
// host: what it reads next is what shows).

import { MODERN } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { firstOffenders } from '../kit/judge.js';
import { endedBadly, ev, paramsOf, requestsOf } from '../client/client-reading.js';
import type { Received } from '../ports/scripted-server.js';
import { SKILLS_SPEC } from './checks.js';
import { skillsServer, skillsTamperedServer } from './client-scenarios.js';

/** The client's requests of one method, in the order they came. */
const calls = (received: Received[], method: string): Received[] => requestsOf(received).filter((r) => (r.message as { method: string }).method === method);

const noPrefetch = check(skillsServer, {
  id: 'client.skills-no-prefetch',
  // SEP-2640: hosts MUST NOT retrieve a skill's files ahead of need (on connection, on listing, at approval).
  title: 'a host that lists skills retrieves none of their files while nothing needs the skill',
  requirements: ['SK-12'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: `${SKILLS_SPEC}#specification`,
  judge(o) {
    const crashed = endedBadly(o, 'against a server offering skills');
    if (crashed) return crashed;
    const listed = calls(o.received, 'skills/list');
    if (listed.length === 0) return untestable('the client never called skills/list: it holds no skill whose files it could fetch early');
    const files = new Set(o.skillFiles);
    const reads = calls(o.received, 'resources/read').filter((r) => files.has(String(paramsOf(r).uri)));
    if (reads.length) return violated(`the client read ${reads.length} file(s) of a skill nothing in the run needed: ${reads.map((r) => String(paramsOf(r).uri)).join(', ')}`, firstOffenders(reads).map((r) => ev('resources/read of a skill file', r)));
    return holds(`the client listed skills (${listed.length} skills/list) and read none of the listed skill's ${files.size} files`);
  },
});

const verified = check(skillsTamperedServer, {
  id: 'client.skills-verified',
  // SEP-2640: a host MUST verify a retrieved file against its entry's digest (a size that differs is the
  // same failure) and compare a fetched SKILL.md's front matter with the entry's, and MUST NOT use
  // content that fails. Reading the skill's supporting file after such a SKILL.md is using it.
  title: 'a host that loads a skill whose SKILL.md fails its digest, size or front-matter check does not go on to use the skill (its other files are not read)',
  requirements: ['SK-12'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: `${SKILLS_SPEC}#specification`,
  judge(o) {
    const crashed = endedBadly(o, 'against a server offering skills that fail verification');
    if (crashed) return crashed;
    const reads = calls(o.received, 'resources/read');
    const readAt = (uri: string) => reads.findIndex((r) => String(paramsOf(r).uri) === uri);
    const loaded = o.skills.filter((k) => readAt(k.skillMd) >= 0);
    if (loaded.length === 0) return untestable('the client read no SKILL.md of the skills offered: it loaded none, so there was nothing to verify');
    const used = loaded.filter((k) => reads.some((r, i) => i > readAt(k.skillMd) && String(paramsOf(r).uri) === k.supporting));
    if (used.length) {
      return violated(`the client went on to ${used.length} skill(s) whose SKILL.md failed verification (${used.map((k) => k.tampering).join(', ')}): it read their supporting files`, firstOffenders(used).map((k) => ev(`resources/read of ${k.supporting} after a SKILL.md failing its ${k.tampering} check`, reads.find((r) => String(paramsOf(r).uri) === k.supporting)!)));
    }
    return holds(`the client loaded ${loaded.length} skill(s) whose SKILL.md failed verification (${loaded.map((k) => k.tampering).join(', ')}) and used none of them`);
  },
});

export const skillsClientChecks = [noPrefetch, verified];
