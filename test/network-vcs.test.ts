/**
 * VC use on the torus: request and response packets on their class's VCs, switching at the
 * dateline, and an acyclic channel dependency graph of the traffic carried.
 */
import { describe, expect, it } from 'vitest';
import type { Machine } from '../fabric/machine.ts';
import { sortDependencies } from './helpers.ts';
import { machine, pattern, torusOf } from './network-helpers.ts';

describe('VC use of response packets', () => {
  /**
   * Records, for every packet that crosses a router-to-router link, the VC it uses and whether it
   * has crossed the dateline (wraparound link) of the dimension it travels in.
   */
  function traceVcs(m: Machine): { cls: number; vc: number; expected: number; dim: number }[] {
    const g = torusOf(m);
    const pk = m.net.pkts;
    const n = g.dims.length;
    const nGP = g.routers * g.radix;
    const state = new Map<number, { dim: number; crossed: number }>();
    const out: { cls: number; vc: number; expected: number; dim: number }[] = [];
    m.net.onHop = (p, chan) => {
      if (chan >= nGP) {
        state.set(p, { dim: -1, crossed: 0 }); // injection: a new trip starts
        return;
      }
      const cls = g.portClass[chan]!;
      if (cls < 2) return; // ejection
      const d = (cls - 2) >> 1;
      const plus = ((cls - 2) & 1) === 0;
      const st = state.get(p)!;
      if (st.dim !== d) {
        st.dim = d;
        st.crossed = 0;
      }
      const r = Math.floor(chan / g.radix);
      const c = g.coords[r * n + d]!;
      const k = g.dims[d]!;
      if (g.wrap[d] && ((plus && c === k - 1) || (!plus && c === 0))) st.crossed = 1;
      out.push({ cls: pk.vcClass[p]!, vc: pk.vc[p]!, expected: 2 * pk.vcClass[p]! + st.crossed, dim: d });
    };
    return out;
  }

  /** An 8-byte put from node 4 (router 2) to node 0 on a 4-router ring; returns the traced hops. */
  function putOverDateline(): ReturnType<typeof traceVcs> {
    const m = machine(8, 1, { 'torus.dims': '4,1,1' });
    const hops = traceVcs(m);
    const h = m.nics[0]!.register(new Uint8Array(64));
    m.nics[4]!.post({ op: 'put', mode: 'fma', local: pattern(8, 1), remoteNode: 0, remoteHandle: h, remoteOffset: 0, onComplete: () => {} });
    m.engine.drain();
    return hops;
  }

  it('request packets use the low VC of class 0 until they cross the dateline, then the high one', () => {
    // node 4 sits on router 2: the put goes 2 -> 3 -> 0 (x+, over the wraparound link 3 -> 0)
    const hops = putOverDateline();
    const req = hops.filter((x) => x.cls === 0);
    expect(req.map((x) => x.vc)).toEqual([0, 1]);
    expect(req.map((x) => x.expected)).toEqual([0, 1]);
  });

  // Regression: a response reuses its request's packet; Network.inject must reset the torus
  // routing state, or a response whose first dimension is the request's last one inherits
  // rDateline = 1 and rides the high VC before it has crossed the dateline.
  it('a response packet uses the low VC of class 1 until it crosses the dateline (routing state is reset)', () => {
    // request 2 -> 3 -> 0 crosses the x dateline; its response 0 -> 1 -> 2 (tie: + way) does not
    const hops = putOverDateline();
    const resp = hops.filter((x) => x.cls === 1);
    expect(resp).toHaveLength(2);
    expect(resp.map((x) => x.expected)).toEqual([2, 2]);
    expect(resp.map((x) => x.vc)).toEqual([2, 2]); // actual: [3, 3]
  });

  // Consequence of the bug above: on a ring with an even k >= 6, the response class's high VC
  // gets a cyclic channel dependency (x+ links 0->1->2->3->4->5->0 all on VC 3), so the dateline
  // scheme no longer guarantees deadlock freedom.
  it('the channel dependency graph of the traffic the network really carries is acyclic (ring of 6)', () => {
    const m = machine(6, 1, { 'torus.dims': '6,1,1', 'torus.nodesPerRouter': '1', 'torus.links': '1,1,1' });
    const g = m.graph;
    const nGP = g.routers * g.radix;
    const last = new Map<number, number>();
    const succ = new Map<number, Set<number>>();
    m.net.onHop = (p, chan) => {
      const ch = chan * m.net.nv + m.net.pkts.vc[p]!;
      const prev = chan >= nGP ? undefined : last.get(p);
      if (prev !== undefined) {
        let s = succ.get(prev);
        if (!s) succ.set(prev, (s = new Set()));
        s.add(ch);
      }
      last.set(p, ch);
    };
    const segs = m.nics.map((nic) => nic.register(new Uint8Array(64)));
    for (let s = 0; s < 6; s++) {
      for (let d = 0; d < 6; d++) {
        m.nics[s]!.post({ op: 'put', mode: 'fma', local: pattern(8, s + 1), remoteNode: d, remoteHandle: segs[d]!, remoteOffset: 0, onComplete: () => {} });
      }
    }
    m.engine.drain();
    expect(m.net.pkts.live).toBe(0);
    const { cyclic, channels } = sortDependencies(succ);
    expect(channels).toBeGreaterThan(0);
    expect(cyclic).toBe(0);
  });
});
