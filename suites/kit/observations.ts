// What stream oracles judge: every exchange and every recorded wire event of the whole run.

import type { SpecVersion } from '../../protocol/versions.js';
import type { TransportKind } from '../../results/check-record.js';
import type { WireEvent } from '../../results/wire.js';
import type { Exchange } from '../ports/session.js';

export interface RunObservations {
  /** Every exchange of every scenario (handshakes included), in the order they ended. */
  exchanges: Exchange[];
  /** The run-wide wire log (each event tagged with the scenario that recorded it). */
  events: WireEvent[];
  version: SpecVersion;
  transport: TransportKind;
  /** Whether mcpspec broke this message on purpose (malformed, near-valid, mismatched headers). */
  deliberate(ex: Exchange): boolean;
}
