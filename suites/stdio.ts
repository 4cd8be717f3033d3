// stdio.*: newline-delimited framing on the server's stdout (IO26, IO-01, IO-02), judged over
// every line of the run.

import { SPEC } from '../protocol/spec-links.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import { holds, oracle, untestable, violated } from './check.js';

const STDIO = { transports: ['stdio' as const] };

export const stdioChecks = [
  oracle({
    id: 'stdio.stdout-clean',
    title: 'the server writes only JSON-RPC messages to stdout',
    requirements: ['IO-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: STDIO,
    spec: SPEC.stdio26,
    judge({ events }) {
      const noise = events.filter((e) => e.channel === 'stdio' && e.kind === 'noise');
      if (noise.length) return violated(`${noise.length} stdout line(s) that are not JSON-RPC messages; first: ${JSON.stringify(noise[0].raw.slice(0, 80))}`, noise.slice(0, 3).map((e) => ({ what: 'stdout line', actual: e.raw.slice(0, 300), seq: [e.seq] })));
      const lines = events.filter((e) => e.channel === 'stdio' && e.dir === 'in').length;
      if (lines === 0) return untestable('nothing was read from stdout');
      return holds(`${lines} stdout lines, all JSON-RPC`);
    },
  }),
  oracle({
    id: 'stdio.newline-framing',
    title: 'one message per line: no message spans several lines',
    requirements: ['IO-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: STDIO,
    spec: SPEC.stdio26,
    judge({ events }) {
      const split = events.filter((e) => e.note === 'multi-line-message');
      if (split.length) return violated(`${split.length} message(s) were spread over several lines`, split.slice(0, 3).map((e) => ({ what: 'multi-line message', actual: e.raw.slice(0, 300), seq: [e.seq] })));
      const msgs = events.filter((e) => e.channel === 'stdio' && e.dir === 'in' && e.kind === 'message').length;
      if (msgs === 0) return untestable('no message was read from stdout');
      return holds(`${msgs} messages, one per line`);
    },
  }),
];
