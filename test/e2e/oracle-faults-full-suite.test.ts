// Every oracle's fault judged on the whole server suite, as the fault tests did before `npm test`
// judged each on the scenarios its record names (fixtures/servers/reference/faults.ts, `shownBy`):
// here every scenario check and oracle sees the faulty traffic, so a fault tripping a check it does
// not declare anywhere in the suite is caught.
import { describe, it } from 'vitest';
import { FAULTS } from '../../fixtures/servers/reference/faults.js';
import { expectFaultCaught, faultTitle, SERVER_CHECKS } from '../suites/server-fault-run.js';

describe.concurrent('every oracle fault, on the whole suite', () => {
  for (const fault of FAULTS) {
    const c = SERVER_CHECKS.get(fault.id);
    if (c?.kind !== 'oracle') continue;
    it(`${faultTitle(fault, c)}, whole suite`, () => expectFaultCaught(fault, c, true));
  }
});
