/**
 * Matched probes (mprobe, improbe, mrecv, imrecv): a matched message no other receive can take,
 * each received once, with real data on xe6.
 */
import { describe, expect, it } from 'vitest';
import type { Status } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { SIZES, mismatch, pattern, placements } from './mpi-requests-helpers.ts';

describe('matched probes', () => {
  it.each(placements)('$name: improbe finds nothing, then matches a message that no other receive can take; mrecv and imrecv receive eager and rendezvous messages', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === b) {
          await mpi.barrier();
          for (const [k, n] of SIZES.entries()) {
            await mpi.send(pattern(n, k), a, 7);
            await mpi.send(pattern(n, k + 20), a, 7);
          }
          return null;
        }
        if (mpi.rank !== a) return mpi.barrier();
        const nothing = await mpi.improbe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        await mpi.barrier();
        await compute({ us: 40 });
        const out = [];
        for (const [k, n] of SIZES.entries()) {
          const m = await mpi.improbe(b, 7);
          if (!m) throw new Error('no message');
          // a receive posted now takes the next message, not the matched one
          const other = new Uint8Array(n);
          const otherReq = mpi.irecv(other, mpi.ANY_SOURCE, mpi.ANY_TAG);
          const buf = new Uint8Array(n);
          const st = k === 0 ? await mpi.mrecv(buf, m.message) : await mpi.wait(mpi.imrecv(buf, m.message));
          const otherSt = await mpi.wait(otherReq);
          out.push({ probed: m.status, st, bad: mismatch(buf, pattern(n, k)), otherSt, otherBad: mismatch(other, pattern(n, k + 20)) });
        }
        return { nothing, out, left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    const g = r.rankResults[a] as { nothing: unknown; out: unknown[]; left: unknown };
    expect(g.nothing).toBeNull();
    expect(g.out).toEqual(
      SIZES.map((n) => ({
        probed: { source: b, tag: 7, count: n, bytes: n },
        st: { source: b, tag: 7, count: n, bytes: n },
        bad: -1,
        otherSt: { source: b, tag: 7, count: n, bytes: n },
        otherBad: -1,
      })),
    );
    expect(g.left).toBeNull();
  });

  it('mprobe + mrecv with ANY_SOURCE from 5 senders receives each of their 4 messages exactly once, in each sender\'s order, none lost', async () => {
    const perSender = 4;
    const size = (src: number, k: number) => (k % 2 === 0 ? 8 * (src + k + 1) : 9000 + 1000 * src + k);
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank !== 0) {
          for (let k = 0; k < perSender; k++) {
            await compute({ us: ((mpi.rank * 7 + k * 3) % 5) + 1 });
            await mpi.send(pattern(size(mpi.rank, k), mpi.rank * 100 + k), 0, k);
          }
          return mpi.barrier();
        }
        const got: { source: number; tag: number; bytes: number; bad: number }[] = [];
        for (let i = 0; i < (mpi.size - 1) * perSender; i++) {
          const { message, status } = await mpi.mprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
          const buf = new Uint8Array(status.count);
          const st = await mpi.mrecv(buf, message);
          if (st.source !== status.source || st.tag !== status.tag || st.bytes !== status.bytes) throw new Error('mrecv status differs from mprobe status');
          got.push({ source: st.source, tag: st.tag, bytes: st.bytes, bad: mismatch(buf, pattern(size(st.source, st.tag), st.source * 100 + st.tag)) });
        }
        await mpi.barrier();
        return { got, left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    const g = r.result as unknown as { got: { source: number; tag: number; bytes: number; bad: number }[]; left: unknown };
    expect(g.left).toBeNull();
    expect(g.got).toHaveLength(5 * perSender);
    expect(g.got.every((x) => x.bad === -1)).toBe(true);
    for (let src = 1; src <= 5; src++) {
      const mine = g.got.filter((x) => x.source === src);
      expect(mine.map((x) => x.tag)).toEqual([0, 1, 2, 3]);
      expect(mine.map((x) => x.bytes)).toEqual([0, 1, 2, 3].map((k) => size(src, k)));
    }
  });

  it('a rendezvous message matched by improbe is pulled from the imrecv on: imrecv before 100 us of compute overlaps the pull, mrecv after it does not', async () => {
    const n = 2_000_000;
    const run = (early: boolean) =>
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === 1) {
            await mpi.send(pattern(n, 4), 0, 0);
            return null;
          }
          let m = null;
          while (!m) m = await mpi.improbe(1, 0);
          const buf = new Uint8Array(n);
          const t0 = now();
          let st: Status;
          if (early) {
            const req = mpi.imrecv(buf, m.message);
            await compute({ us: 100 });
            st = await mpi.wait(req);
          } else {
            await compute({ us: 100 });
            st = await mpi.mrecv(buf, m.message);
          }
          return { dt: now() - t0, st, bad: mismatch(buf, pattern(n, 4)) };
        },
      });
    const [early, late] = await Promise.all([run(true), run(false)]);
    for (const x of [early.result!, late.result!]) {
      expect(x.st).toEqual({ source: 1, tag: 0, count: n, bytes: n });
      expect(x.bad).toBe(-1);
    }
    // the pull of 2 MB takes several hundred us on Gemini: overlapped, it ends ~100 us sooner
    const pull = late.result!.dt - 100;
    expect(pull).toBeGreaterThan(150);
    expect(early.result!.dt).toBeLessThan(late.result!.dt - 90);
    // overlapped, the compute hides under the pull, which nothing can shorten (1 ps of rounding allowed)
    expect(early.result!.dt).toBeGreaterThanOrEqual(pull - 1e-6);
  });

  it('a probe of PROC_NULL returns MESSAGE_NO_PROC, whose receive returns at once with the PROC_NULL status; statuses use communicator ranks', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank % 2, -mpi.rank))!;
        // in `half`, world rank 2 is rank 0 and world rank 0 is rank 1 (keys reverse the order)
        if (mpi.rank === 2) await half.send(Int32Array.of(99), 1, 3);
        if (mpi.rank !== 0) return null;
        const p = await mpi.mprobe(mpi.PROC_NULL, 0);
        const ip = await mpi.improbe(mpi.PROC_NULL, mpi.ANY_TAG);
        const buf = Int32Array.of(-1);
        const st = await mpi.mrecv(buf, p.message);
        const st2 = await mpi.wait(mpi.imrecv(buf, mpi.MESSAGE_NO_PROC));
        const m = await half.mprobe(mpi.ANY_SOURCE, 3, 4);
        const got = new Int32Array(1);
        const st3 = await half.mrecv(got, m.message);
        return { noProc: p.message === mpi.MESSAGE_NO_PROC && ip!.message === mpi.MESSAGE_NO_PROC, p: p.status, st, st2, untouched: buf[0], probed: m.status, st3, got: got[0] };
      },
    });
    const nullStatus = { source: -1, tag: -1, count: 0, bytes: 0 };
    expect(r.result).toEqual({ noProc: true, p: nullStatus, st: nullStatus, st2: nullStatus, untouched: -1, probed: { source: 0, tag: 3, count: 1, bytes: 4 }, st3: { source: 0, tag: 3, count: 1, bytes: 4 }, got: 99 });
  });
});
