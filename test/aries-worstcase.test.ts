/**
 * Aries under the dragonfly's worst case (seed 001, "Cray XC Routing"; every node of group i
 * sends to group i+1) on 6 groups with 12 cables per group pair: minimal routing is held to the
 * 12-cable bundle; Valiant, through an intermediate router drawn from the whole system, spreads
 * the load over every bundle and has a max-flow bound 3 times higher; adaptive follows Valiant.
 */
import { describe, expect, it } from 'vitest';
import { aries, CABLES, GROUPS, globalBound, measure } from './aries-traffic.ts';
import { LONG } from './helpers.ts';

// the long tier (npm run test:long): minutes of one core
describe.runIf(LONG)(`Aries worst-case traffic, ${GROUPS} groups x ${CABLES} cables (seed 001)`, () => {
  const c = aries('minimal');
  if (c.topology.kind !== 'dragonfly') throw new Error('xc30 is a dragonfly');
  const bundle = CABLES * c.topology.config.linksPerCable;
  // minimal: all of group i's traffic crosses its one bundle to group i+1
  const minimalBound = globalBound(c, bundle, 1);
  // Valiant: every directed bundle carries a third of a group's traffic (1/6 from the source's
  // first leg, 1/6 from an intermediate group's second leg), so the bound is 3 times minimal's
  const valiantBound = 3 * minimalBound;
  // measured once each (the later checks compare with the earlier figures), each at an offered
  // load above its bound so that the network saturates
  const rows: Record<string, number> = {};
  const accepted = (routing: string, load: number): number => (rows[routing] ??= measure(routing, 'worstcase', load).acceptedFraction);

  it('minimal accepts no more than the 12-cable bundle allows', () => {
    const minimal = accepted('minimal', 0.08);
    expect(minimal).toBeLessThanOrEqual(minimalBound * 1.01);
    // and the bundle is used: within 10 % of its bound
    expect(minimal).toBeGreaterThan(0.9 * minimalBound);
  });

  it('Valiant accepts at least 2.2 times minimal (its max-flow bound is 3 times)', () => {
    const valiant = accepted('valiant', 0.15);
    expect(valiant).toBeGreaterThanOrEqual(2.2 * accepted('minimal', 0.08));
    expect(valiant).toBeLessThanOrEqual(valiantBound * 1.01);
  });

  it('adaptive accepts at least 0.85 times Valiant', () => {
    expect(accepted('adaptive', 0.15)).toBeGreaterThanOrEqual(0.85 * accepted('valiant', 0.15));
  });
});
