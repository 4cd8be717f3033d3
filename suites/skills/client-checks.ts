// client.skills-*: a client (host) under test against the skills scenario of client-scenarios.ts
// beside it (SEP-2640, SK-12). Only what a host does on the wire is judged: whether it retrieves a
// skill's files with no need for them. Verifying a loaded file against its digest, size and front
// matter happens inside the host; mcpspec would see it only in what the host reads next, and no run
// here gives a host a reason to load a skill, so those rules are not judged.

import { MODERN } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { firstOffenders } from '../kit/judge.js';
import { endedBadly, ev, isRequest, paramsOf } from '../client/client-reading.js';
import { SKILLS_SPEC } from './checks.js';
import { skillsServer } from './client-scenarios.js';

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
    const requests = o.received.filter((r) => isRequest(r.message));
    const listed = requests.filter((r) => (r.message as { method: string }).method === 'skills/list');
    if (listed.length === 0) return untestable('the client never called skills/list: it holds no skill whose files it could fetch early');
    const files = new Set(o.skillFiles);
    const reads = requests.filter((r) => (r.message as { method: string }).method === 'resources/read' && files.has(String(paramsOf(r).uri)));
    if (reads.length) return violated(`the client read ${reads.length} file(s) of a skill nothing in the run needed: ${reads.map((r) => String(paramsOf(r).uri)).join(', ')}`, firstOffenders(reads).map((r) => ev('resources/read of a skill file', r)));
    return holds(`the client listed skills (${listed.length} skills/list) and read none of the listed skill's ${files.size} files`);
  },
});

export const skillsClientChecks = [noPrefetch];
