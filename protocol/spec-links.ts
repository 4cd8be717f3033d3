/** Spec section URLs, by the version whose text a check cites. */
const BASE = 'https://modelcontextprotocol.io/specification';

export const SPEC = {
  lifecycle25: `${BASE}/2025-11-25/basic/lifecycle`,
  ping25: `${BASE}/2025-11-25/basic/utilities/ping`,
  basic25: `${BASE}/2025-11-25/basic`,
  transports25: `${BASE}/2025-11-25/basic/transports`,
  basic26: `${BASE}/2026-07-28/basic`,
  versioning26: `${BASE}/2026-07-28/basic/versioning`,
  discover26: `${BASE}/2026-07-28/server/discover`,
  caching26: `${BASE}/2026-07-28/server/utilities/caching`,
  pagination26: `${BASE}/2026-07-28/server/utilities/pagination`,
  tools26: `${BASE}/2026-07-28/server/tools`,
  tools25: `${BASE}/2025-11-25/server/tools`,
  resources26: `${BASE}/2026-07-28/server/resources`,
  resources25: `${BASE}/2025-11-25/server/resources`,
  prompts26: `${BASE}/2026-07-28/server/prompts`,
  completion26: `${BASE}/2026-07-28/server/utilities/completion`,
  stdio26: `${BASE}/2026-07-28/basic/transports/stdio`,
  http26: `${BASE}/2026-07-28/basic/transports/streamable-http`,
  patterns26: `${BASE}/2026-07-28/basic/patterns`,
  changelog26: `${BASE}/2026-07-28/changelog`,
  mrtr26: `${BASE}/2026-07-28/basic/patterns/mrtr`,
  progress26: `${BASE}/2026-07-28/basic/patterns/progress`,
  logging26: `${BASE}/2026-07-28/server/utilities/logging`,
  logging25: `${BASE}/2025-11-25/server/utilities/logging`,
  cancellation25: `${BASE}/2025-11-25/basic/utilities/cancellation`,
};
