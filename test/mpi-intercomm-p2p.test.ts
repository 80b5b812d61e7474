/**
 * Point-to-point on an intercommunicator: ranks name the remote group, and its messages stay apart
 * from other communicators'.
 */
import { describe, expect, it } from 'vitest';
import { LEFT, RIGHT, halves, run } from './mpi-intercomm-helpers.ts';

describe('point-to-point on an intercommunicator', () => {
  it('ranks name the remote group; wildcards match any remote rank, and status.source is a remote rank', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (left) {
        // left rank r sends one message to every right rank j, tag 10 + r, data [world rank, j]
        for (let j = 0; j < ic.remoteSize; j++) await ic.send(Int32Array.of(mpi.rank, j), j, 10 + ic.rank);
        await ic.send(new Int32Array(1), mpi.PROC_NULL, 0);
        return null;
      }
      const got: number[][] = [];
      for (let k = 0; k < ic.remoteSize; k++) {
        const buf = new Int32Array(2);
        const st = await ic.recv(buf, mpi.ANY_SOURCE, mpi.ANY_TAG);
        got.push([st.source, st.tag, buf[0]!, buf[1]!]);
      }
      got.sort((a, b) => a[0]! - b[0]!);
      return got;
    });
    for (let w = 3; w < 8; w++) {
      const j = w - 3;
      expect(res[w]).toEqual(LEFT.map((world, r) => [r, 10 + r, world, j]));
    }
  });

  it('a receive from a named remote rank, probes and nonblocking calls see remote ranks', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (!left) {
        if (ic.rank < 3) await ic.send(Float64Array.of(ic.rank + 0.5, mpi.rank), ic.rank, 4);
        return null;
      }
      // left rank r hears from right rank r only
      const st = await ic.probe(mpi.ANY_SOURCE, 4, 8);
      const buf = new Float64Array(2);
      const req = ic.irecv(buf, ic.rank, 4);
      const done = await req.wait();
      return [st.source, st.count, done.source, ...buf];
    });
    for (let r = 0; r < 3; r++) expect(res[r]).toEqual([r, 2, r, r + 0.5, RIGHT[r]]);
  });

  it('messages of the intercommunicator never match a receive on MPI_COMM_WORLD or on the local group, nor the other way', async () => {
    const res = await run(async ({ mpi }) => {
      const { half, ic } = await halves(mpi);
      if (mpi.rank === 0) {
        await mpi.send(Int32Array.of(100), 3, 6); // world rank 3
        await ic.send(Int32Array.of(200), 0, 6); // right rank 0, world rank 3
        await half.send(Int32Array.of(300), 1, 6); // left rank 1, world rank 1
      }
      if (mpi.rank === 3) {
        const a = new Int32Array(1);
        const b = new Int32Array(1);
        const rb = ic.irecv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const sa = await mpi.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const sb = await rb.wait();
        return [a[0], sa.source, b[0], sb.source];
      }
      if (mpi.rank === 1) {
        const a = new Int32Array(1);
        const st = await half.recv(a, mpi.ANY_SOURCE, 6);
        return [a[0], st.source];
      }
      return null;
    });
    expect(res[3]).toEqual([100, 0, 200, 0]);
    expect(res[1]).toEqual([300, 0]);
  });
});
