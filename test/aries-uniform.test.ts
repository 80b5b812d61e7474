/**
 * Aries under uniform random traffic (seed 001, "Cray XC Routing": "packets will take a minimal
 * path until the load on these paths increases") on 6 groups with 12 cables per group pair:
 * adaptive routing stays within 10 % of minimal's throughput, which is held by the global links.
 */
import { describe, expect, it } from 'vitest';
import { aries, CABLES, GROUPS, globalBound, measure } from './aries-traffic.ts';
import { LONG } from './helpers.ts';

// the long tier (npm run test:long): minutes of one core
describe.runIf(LONG)(`Aries uniform random traffic, ${GROUPS} groups x ${CABLES} cables (seed 001)`, () => {
  it('adaptive accepts within 10 % of minimal, both under the global-link bound', () => {
    const c = aries('minimal');
    if (c.topology.kind !== 'dragonfly') throw new Error('xc30 is a dragonfly');
    // a group sends 5/6 of its traffic to other groups, over 5 bundles of 12 cables
    const bound = globalBound(c, (GROUPS - 1) * CABLES * c.topology.config.linksPerCable, (GROUPS - 1) / GROUPS);
    const minimal = measure('minimal', 'uniform', 0.25).acceptedFraction;
    const adaptive = measure('adaptive', 'uniform', 0.25).acceptedFraction;
    expect(minimal).toBeLessThanOrEqual(bound * 1.01);
    expect(adaptive).toBeLessThanOrEqual(bound * 1.01);
    expect(Math.abs(adaptive - minimal) / minimal).toBeLessThanOrEqual(0.1);
  });
});
