// stdio.*: newline-delimited framing on the server's stdout (IO26, IO-01, IO-02), judged over
// every line of the run, and shutdown by stdin EOF (IO-05).

import { SPEC } from '../../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from '../../kit/check.js';
import { outcome } from '../../kit/exchange.js';
import { firstOffenders } from '../../kit/judge.js';
import type { Exchange, InputEnd } from '../../ports/session.js';
import { scenario } from '../../kit/scenario.js';

const STDIO = { transports: ['stdio' as const] };

interface EofObservations {
  /** A request answered before stdin was closed: the target was up and reading. */
  fence: Exchange;
  end?: InputEnd;
  timeoutMs: number;
}

const stdinEof = scenario<EofObservations>({
  id: 'stdio.stdin-eof',
  title: 'close the server\'s stdin after an answered request and wait, without signals, for it to exit',
  versions: ALL_VERSIONS,
  transports: ['stdio'],
  // Up to a whole timeout of waiting for a server that stays: overlap it with the rest of the run.
  startEarly: true,
  async run({ session, options, signal }) {
    const fence = await session.fence();
    if (fence.timedOut || fence.closed || fence.aborted || !session.endInput) return { fence, timeoutMs: options.timeoutMs };
    return { fence, end: await session.endInput(options.timeoutMs, signal), timeoutMs: options.timeoutMs };
  },
});

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
      if (noise.length) return violated(`${noise.length} stdout line(s) that are not JSON-RPC messages; first: ${JSON.stringify(noise[0].raw.slice(0, 80))}`, firstOffenders(noise).map((e) => ({ what: 'stdout line', actual: e.raw.slice(0, 300), seq: [e.seq] })));
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
      if (split.length) return violated(`${split.length} message(s) were spread over several lines`, firstOffenders(split).map((e) => ({ what: 'multi-line message', actual: e.raw.slice(0, 300), seq: [e.seq] })));
      const msgs = events.filter((e) => e.channel === 'stdio' && e.dir === 'in' && e.kind === 'message').length;
      if (msgs === 0) return untestable('no message was read from stdout');
      return holds(`${msgs} messages, one per line`);
    },
  }),
  check(stdinEof, {
    id: 'stdio.exit-on-eof',
    title: 'the server exits on its own once its stdin is closed (within the request timeout, no signal needed)',
    requirements: ['IO-05'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    requires: STDIO,
    spec: SPEC.stdio26,
    judge({ fence, end, timeoutMs }) {
      if (!end) return untestable(`the server did not answer ${fence.method ?? 'a request'} before its stdin was to be closed: ${outcome(fence)}`);
      if (end.alreadyExited) return untestable('the server had exited before its stdin was closed');
      if (end.exited) return holds(`exited ${end.elapsedMs} ms after its stdin was closed (${end.signal ? `signal ${end.signal}` : `code ${end.exitCode}`})`);
      if (end.aborted) return untestable(`the run ended ${end.elapsedMs} ms after the server's stdin was closed, before it exited`);
      return violated(`still running ${timeoutMs} ms after its stdin was closed; mcpspec had to signal it (a client that only closes stdin leaves it behind)`, [
        { what: 'stdin closed after an answered request', expected: 'the process exits', actual: `still running after ${timeoutMs} ms`, seq: fence.seq.slice(0, 2) },
      ]);
    },
  }),
];
