/** Metrics of the request calls: matched probes, isendrecv and requestGetStatus are counted under their MPI names. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('metrics', () => {
  it('count matched probes, isendrecv and requestGetStatus under their MPI names', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const peer = 1 - mpi.rank;
        const buf = new Int32Array(1);
        const req = mpi.isendrecv(Int32Array.of(mpi.rank), peer, 0, buf, peer, 0);
        await mpi.requestGetStatus(req);
        await mpi.wait(req);
        await mpi.send(Int32Array.of(1), peer, 1);
        const m = await mpi.mprobe(peer, 1);
        await mpi.mrecv(buf, m.message);
        await mpi.wait(mpi.isendrecvReplace(buf, peer, 2, peer, 2));
        return null;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
    expect(calls).toMatchObject({ MPI_Isendrecv: 2, MPI_Isendrecv_replace: 2, MPI_Request_get_status: 2, MPI_Mprobe: 2, MPI_Mrecv: 2, MPI_Wait: 4 });
  });
});
