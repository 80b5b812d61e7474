import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

/** Simulated times (us) rank 0 measures between two nodes: RMA puts against DMAPP puts and MPI sends. */
interface Times {
  put1m: number;
  dmapp1m: number;
  put8: number;
  dmapp8: number;
  /** Half a ping-pong of 8-byte messages (MPI latency, DESIGN.md). */
  send8: number;
  /** An int64 accumulate (NIC AMO) and a float64 one (software read-modify-write), each to completion. */
  amoAcc: number;
  swAcc: number;
}

async function measure(machine: string): Promise<Times> {
  const r = await simulate({
    machine,
    nodes: 2,
    program: async (ctx) => {
      const { mpi, dmapp } = ctx;
      const MiB = 1 << 20;
      const { win } = await mpi.winAllocate(MiB, 8);
      const seg = dmapp.malloc(MiB);
      const big = new Uint8Array(MiB).fill(9);
      const small = new Uint8Array(8).fill(5);
      await mpi.barrier();
      const out = { put1m: 0, dmapp1m: 0, put8: 0, dmapp8: 0, send8: 0, amoAcc: 0, swAcc: 0 };
      const time = async (f: () => Promise<void>): Promise<number> => {
        const t = ctx.now();
        await f();
        return ctx.now() - t;
      };
      if (mpi.rank === 0) {
        await win.lock(mpi.LOCK_SHARED, 1);
        // a put's latency: from the call to its completion at the target, seen by flush (a round trip)
        out.put1m = await time(async () => {
          await win.put(big, 1, 0);
          await win.flush(1);
        });
        out.put8 = await time(async () => {
          await win.put(small, 1, 0);
          await win.flush(1);
        });
        out.amoAcc = await time(async () => {
          await win.accumulate(BigInt64Array.of(1n), 1, 0, mpi.SUM);
          await win.flush(1);
        });
        out.swAcc = await time(async () => {
          await win.accumulate(Float64Array.of(1), 1, 0, mpi.SUM);
          await win.flush(1);
        });
        await win.unlock(1);
        out.dmapp1m = await time(() => dmapp.put(1, seg, 0, big));
        out.dmapp8 = await time(() => dmapp.put(1, seg, 0, small));
      }
      await mpi.barrier();
      const b = new Uint8Array(8);
      const reps = 10;
      const t0 = ctx.now();
      for (let i = 0; i < reps; i++) {
        if (mpi.rank === 0) {
          await mpi.send(b, 1, 0);
          await mpi.recv(b, 1, 0);
        } else {
          await mpi.recv(b, 0, 0);
          await mpi.send(b, 0, 0);
        }
      }
      out.send8 = (ctx.now() - t0) / (2 * reps);
      await win.free();
      return out;
    },
  });
  return r.result;
}

describe('one-sided MPI: timing on the NIC', () => {
  it.each(['xe6', 'xc30'])('%s: a 1 MiB put takes what a 1 MiB DMAPP put takes; an 8-byte put is faster than an 8-byte MPI send; a NIC AMO accumulate beats a software one', async (machine) => {
    const t = await measure(machine);
    // both are one BTE transfer plus one library call: within 2 %
    expect(Math.abs(t.put1m - t.dmapp1m) / t.dmapp1m).toBeLessThan(0.02);
    // and take at least the time of 1 MiB at 20 GB/s (20e3 bytes per us), above either NIC's rate
    expect(t.put1m).toBeGreaterThan((1 << 20) / 20e3);
    expect(Math.abs(t.put8 - t.dmapp8) / t.dmapp8).toBeLessThan(0.05);
    expect(t.put8).toBeLessThan(t.send8);
    // the software path is a mutex AMO, a get, a put and a release: several round trips
    expect(t.swAcc).toBeGreaterThan(2.5 * t.amoAcc);
  });
});
