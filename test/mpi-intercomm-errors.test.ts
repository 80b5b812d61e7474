/**
 * Errors on intercommunicators: bad intercommCreate arguments, intracommunicator-only calls,
 * roots, counts, deadlocks and error handlers.
 */
import { describe, expect, it } from 'vitest';
import type { Comm, MpiError } from '../runtime/mpi/mpi.ts';
import { failure, halves, run } from './mpi-intercomm-helpers.ts';

describe('errors on intercommunicators', () => {
  it('intercommCreate: a local leader out of range, or ranks of one group passing different leaders or tags', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        await half.intercommCreate(5, mpi, 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: localLeader=5 is not a rank of the local communicator \(0\.\.[24]\)/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(left && half.rank === 2 ? 1 : 0, mpi, left ? 3 : 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate \(collective call \d+ on .*\): rank \d passes localLeader=\d but rank \d passes \d/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 3 : 0, !left && half.rank === 4 ? 8 : 7);
      }),
    ).toMatch(/MPI_ERR_TAG: intercommCreate \(collective call \d+ on .*\): rank \d passes tag=\d but rank \d passes \d/);
  });

  it('intercommCreate: the two leaders passing different tags, a remote leader out of range or the leader itself, a peer that is no communicator', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 3 : 0, left ? 7 : 8);
      }),
    ).toMatch(/MPI_ERR_TAG: intercommCreate: this leader \(world rank \d\) passes tag=\d but the remote leader \(world rank \d\) passed tag=\d/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 8 : 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: remoteLeader=8 is not a rank of peerComm \(0\.\.7\)/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 0 : 3, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: remoteLeader=0 is this rank, the local leader/);
    expect(
      await failure(async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        await half.intercommCreate(0, null, 3, 7);
      }),
    ).toMatch(/MPI_ERR_COMM: intercommCreate: peerComm must be an intracommunicator holding both leaders, got null/);
  });

  it('point-to-point with a rank outside the remote group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (left) await ic.send(new Int32Array(1), 5, 0);
      }),
    ).toMatch(/MPI_ERR_RANK: send: dest=5 is not a rank of the remote group \(0\.\.4 or mpi\.PROC_NULL\)/);
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (!left) await ic.recv(new Int32Array(1), 3, 0);
      }),
    ).toMatch(/MPI_ERR_RANK: recv: source=3 is not a rank of the remote group \(0\.\.2, mpi\.ANY_SOURCE or mpi\.PROC_NULL\)/);
  });

  it('calls MPI defines on intracommunicators only fail with MPI_ERR_COMM', async () => {
    const res = await run(async ({ mpi }) => {
      const { ic } = await halves(mpi);
      ic.setErrhandler(mpi.ERRORS_RETURN);
      const intra = ic as unknown as Comm;
      const out: string[] = [];
      const attempts: (() => unknown)[] = [
        () => intra.cartCreate([2], [false]),
        () => intra.graphCreate([1, 2], [1, 0]),
        () => intra.distGraphCreateAdjacent([], null, [], null),
        () => intra.neighborAllgather(new Int32Array(1), new Int32Array(1)),
        () => intra.scan(new Int32Array(1), new Int32Array(1), mpi.SUM),
        () => intra.winCreate(new Int32Array(1)),
        () => intra.createGroup(mpi.group),
        () => intra.splitType(mpi.COMM_TYPE_SHARED),
      ];
      for (const f of attempts) {
        try {
          await f();
          out.push('no error');
        } catch (e) {
          out.push((e as MpiError).message);
        }
      }
      return out;
    });
    expect(res[0]).toEqual([
      expect.stringMatching(/^MPI_ERR_COMM: cartCreate: the communicator is an intercommunicator; cartCreate takes an intracommunicator/),
      expect.stringMatching(/^MPI_ERR_COMM: graphCreate: /),
      expect.stringMatching(/^MPI_ERR_COMM: distGraphCreateAdjacent: /),
      expect.stringMatching(/^MPI_ERR_COMM: neighborAllgather: /),
      expect.stringMatching(/^MPI_ERR_COMM: scan: /),
      expect.stringMatching(/^MPI_ERR_COMM: winCreate: /),
      expect.stringMatching(/^MPI_ERR_COMM: createGroup: /),
      expect.stringMatching(/^MPI_ERR_COMM: splitType: phit does not implement splitType on intercommunicators/),
    ]);
    // fatal by default
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await (ic as unknown as Comm).cartCreate([2], [false]);
      }),
    ).toMatch(/MPI_ERR_COMM: cartCreate: the communicator is an intercommunicator/);
  });

  it('root arguments against MPI\'s conventions', async () => {
    // a root that is neither ROOT, PROC_NULL nor a remote rank
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), 7);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast: root=7 must be mpi\.ROOT .* or the root's rank in the remote group \(0\.\.[24]\)/);
    // two ranks of one group pass ROOT
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), left ? (ic.rank < 2 ? mpi.ROOT : mpi.PROC_NULL) : 0);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast \(collective call \d+ on the intercommunicator .*\): rank [01] of group \[0-2\] and rank [01] of group \[0-2\] both pass root=mpi\.ROOT/);
    // the other group names a rank that passes PROC_NULL
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.reduce(left ? null : new Int32Array(1), left && ic.rank === 0 ? new Int32Array(1) : null, mpi.SUM, left ? (ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL) : 1);
      }),
    ).toMatch(/MPI_ERR_ROOT: reduce .*: rank \d of group \[3-7\] passes root=1 but (the root is rank 0 of group \[0-2\], which passes mpi\.ROOT|that rank passes mpi\.PROC_NULL, not mpi\.ROOT)/);
    // both groups name a root in the other
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.gather(new Int32Array(1), new Int32Array(5), 0);
      }),
    ).toMatch(/MPI_ERR_ROOT: gather .*: each names a root in the other's group, so neither group holds it/);
    // both groups pass ROOT/PROC_NULL
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast .*: only the root's group passes mpi\.ROOT or mpi\.PROC_NULL/);
  });

  it('counts that do not pair up across the groups, IN_PLACE, the long form, merge with two high values in a group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.allgather(new Int32Array(2), new Int32Array(ic.remoteSize * (left ? 3 : 1)));
      }),
    ).toMatch(/MPI_ERR_COUNT: allgather .*: rank \d of group \[\d-\d\] sends \d elements but rank \d of group \[\d-\d\] receives \d from each remote rank/);
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.allreduce(mpi.IN_PLACE as never, new Int32Array(1), mpi.SUM);
      }),
    ).toMatch(/MPI_ERR_BUFFER: allreduce: sendBuf may not be mpi\.IN_PLACE on an intercommunicator/);
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        const bcast = ic.bcast as unknown as (...a: unknown[]) => Promise<void>;
        await bcast.call(ic, new Int32Array(2), 2, mpi.INT, left ? 0 : 0);
      }),
    ).toMatch(/MPI_ERR_ARG: bcast: on an intercommunicator only the short form \(typed arrays, no options\) is available; got 4 arguments, expected 2/);
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.intercommMerge(ic.rank === 1);
      }),
    ).toMatch(/MPI_ERR_ARG: intercommMerge .*: rank \d of group \[\d-\d\] passes high=(true|false) but rank \d of group \[\d-\d\] passes high=(true|false): the ranks of one group pass the same value/);
  });

  it('a collective only one group calls ends the run naming the ranks in it by group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (left) await ic.barrier();
      }),
    ).toMatch(/MPI_ERR_OTHER: barrier \(collective call 1 on the intercommunicator of context \d+ \(groups \[0-2\] and \[3-7\]\)\) was called by ranks 0-2 of group \[0-2\] but not by ranks 0-4 of group \[3-7\]: rank 0 of group \[3-7\] finished its program/);
  });

  it('the intercommunicator inherits the local communicator\'s error handler: under ERRORS_RETURN the program goes on', async () => {
    const res = await run(async ({ mpi }) => {
      const left = mpi.rank < 3;
      const half = (await mpi.split(left ? 0 : 1, 0))!;
      half.setErrhandler(mpi.ERRORS_RETURN);
      const ic = await half.intercommCreate(0, mpi, left ? 3 : 0, 7);
      let cls = 'none';
      try {
        await ic.send(new Int32Array(1), 9, 0);
      } catch (e) {
        cls = (e as MpiError).errorClass;
      }
      const sum = new Int32Array(1);
      await ic.allreduce(Int32Array.of(1), sum, mpi.SUM);
      return [cls, sum[0]];
    });
    res.forEach((x, w) => expect(x).toEqual(['MPI_ERR_RANK', w < 3 ? 5 : 3]));
  });
});
