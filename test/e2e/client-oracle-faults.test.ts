// Every client oracle's fault judged on all the oracle traffic (both eras, MRTR retries, plain calls),
// as the client fault tests did before npm test judged each on the scenario its record names
// (fixtures/clients/reference/faults.ts, `shownBy`).
import { describe, it } from 'vitest';
import { FAULTS } from '../../fixtures/clients/reference/faults.js';
import { CLIENT_CHECKS, clientFaultTitle, expectClientFaultCaught } from '../suites/client-fault-run.js';

describe.concurrent('every client oracle fault, on all the oracle traffic', () => {
  for (const fault of FAULTS) {
    const c = CLIENT_CHECKS.get(fault.id);
    if (c?.kind !== 'oracle') continue;
    it(`${clientFaultTitle(fault, c)}, all oracle traffic`, () => expectClientFaultCaught(fault, c, true));
  }
});
