// Reads an HTTP response body chunk by chunk with a hard size cap, so a misbehaving server cannot
// make mcpspec buffer an unbounded body. The caller sees text chunks as they arrive (SSE needs
// them live) and can stop reading early.

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ReadOutcome {
  /** Bytes received (up to the cap). */
  bytes: number;
  /** The cap was hit and the rest of the body was discarded. */
  overflow: boolean;
  /** The caller asked to stop (`onText` returned `'stop'`). */
  stopped: boolean;
}

/**
 * Feed `onText` with decoded UTF-8 text until the body ends, the cap is hit, or `onText` returns
 * `'stop'`. Abort errors propagate to the caller (it owns the AbortController and knows why).
 */
export async function readBounded(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  onText: (text: string) => void | 'stop',
): Promise<ReadOutcome> {
  const outcome: ReadOutcome = { bytes: 0, overflow: false, stopped: false };
  if (!body) return outcome;
  const decoder = new TextDecoder('utf-8');
  // Leaving the loop early (stop, overflow, an exception) closes the body: the transfer stops.
  for await (const value of body) {
    let chunk = value;
    if (outcome.bytes + chunk.byteLength > maxBytes) {
      chunk = chunk.subarray(0, maxBytes - outcome.bytes);
      outcome.overflow = true;
    }
    outcome.bytes += chunk.byteLength;
    const text = decoder.decode(chunk, { stream: !outcome.overflow });
    if (text && onText(text) === 'stop') {
      outcome.stopped = true;
      break;
    }
    if (outcome.overflow) break;
  }
  if (!outcome.stopped && !outcome.overflow) {
    const rest = decoder.decode();
    if (rest) onText(rest);
  }
  return outcome;
}
