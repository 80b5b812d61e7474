/**
 * Cancel of a send: an unmatched send is cancelled and never matches; a matched one cannot be, on
 * xe6 over the network and within a node.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { SIZES, mismatch, pattern, placements } from './mpi-requests-helpers.ts';

describe('cancel of a send', () => {
  it.each(placements)('$name: an eager isend, complete at the sender but unmatched at the receiver, is cancelled; the receiver only ever sees the next message', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === a) {
          const req = mpi.isend(Int32Array.of(111), b, 4);
          await compute({ us: 20 }); // sent (complete) and queued unexpected at b
          const doneBefore = req.done;
          const ok = mpi.cancel(req);
          const st = await mpi.wait(req);
          await mpi.send(Int32Array.of(222), b, 4);
          await mpi.barrier();
          return { doneBefore, ok, st };
        }
        if (mpi.rank !== b) return mpi.barrier();
        await compute({ us: 40 });
        const buf = new Int32Array(1);
        const st = await mpi.recv(buf, a, 4);
        await mpi.barrier();
        return { st, got: buf[0], left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    expect(r.rankResults[a]).toEqual({ doneBefore: true, ok: true, st: { source: b, tag: 4, count: 0, bytes: 0, cancelled: true } });
    expect(r.rankResults[b]).toEqual({ st: { source: a, tag: 4, count: 1, bytes: 4 }, got: 222, left: null });
  });

  it.each(placements)('$name: eager and rendezvous sends cancelled at once (still leaving or in flight) never match; later messages of the pair still arrive in order', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        if (mpi.rank === a) {
          const res = [];
          for (const [k, n] of SIZES.entries()) {
            const req = mpi.isend(pattern(n, 1), b, 0);
            const ok = mpi.cancel(req);
            res.push({ ok, st: await mpi.wait(req) });
            await mpi.send(pattern(n, k + 2), b, 0);
          }
          return res;
        }
        if (mpi.rank !== b) return null;
        const res = [];
        for (const [k, n] of SIZES.entries()) {
          const buf = new Uint8Array(n);
          const st = await mpi.recv(buf, a, 0);
          res.push({ st, bad: mismatch(buf, pattern(n, k + 2)) });
        }
        return res;
      },
    });
    expect(r.rankResults[a]).toEqual(SIZES.map(() => ({ ok: true, st: { source: b, tag: 0, count: 0, bytes: 0, cancelled: true } })));
    expect(r.rankResults[b]).toEqual(SIZES.map((n) => ({ st: { source: a, tag: 0, count: n, bytes: n }, bad: -1 })));
  });

  it('a send matched by a posted receive or by mprobe cannot be cancelled: cancel returns false and the data arrives', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          const posted = mpi.isend(Int32Array.of(1), 1, 1);
          const probed = mpi.isend(pattern(20000, 5), 1, 2);
          await compute({ us: 30 }); // rank 1 matched both by now
          const okPosted = mpi.cancel(posted);
          const okProbed = mpi.cancel(probed);
          const st = await mpi.waitAll([posted, probed]);
          return { okPosted, okProbed, cancelled: st.map((s) => s.cancelled ?? false) };
        }
        const one = new Int32Array(1);
        const req = mpi.irecv(one, 0, 1);
        const m = await mpi.mprobe(0, 2);
        await compute({ us: 40 });
        const big = new Uint8Array(20000);
        const st = await mpi.mrecv(big, m.message);
        await mpi.wait(req);
        return { one: one[0], st, bad: mismatch(big, pattern(20000, 5)) };
      },
    });
    expect(r.rankResults[0]).toEqual({ okPosted: false, okProbed: false, cancelled: [false, false] });
    expect(r.rankResults[1]).toEqual({ one: 1, st: { source: 0, tag: 2, count: 20000, bytes: 20000 }, bad: -1 });
  });
});
