/**
 * A receive into a typed array takes whole elements of it: a message whose byte count is not a
 * multiple of the buffer's element size (3 Int8 bytes into a Float64Array) does not match the
 * receive's type and fails with MPI_ERR_TYPE naming the sizes, over the network (eager and
 * rendezvous), within a node, and through irecv, a persistent receive and a matched probe. A
 * whole number of elements, and the long form's partial derived elements (MPI_Get_count
 * MPI_UNDEFINED), are still received.
 */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** MPI_UNDEFINED. */
const UNDEFINED = -32766;

type Receive = (ctx: RankContext, buf: Float64Array) => Promise<unknown>;

const receives: { name: string; recv: Receive }[] = [
  { name: 'recv', recv: ({ mpi }, buf) => mpi.recv(buf, 0, 5) },
  { name: 'irecv and wait', recv: ({ mpi }, buf) => mpi.irecv(buf, 0, 5).wait() },
  {
    name: 'recvInit and start',
    recv: async ({ mpi }, buf) => {
      const r = mpi.recvInit(buf, 0, 5);
      mpi.start(r);
      return mpi.wait(r);
    },
  },
  {
    name: 'mprobe and mrecv',
    recv: async ({ mpi }, buf) => {
      const { message } = await mpi.mprobe(0, 5);
      return mpi.mrecv(buf, message);
    },
  },
];

const places = [
  { where: 'eager over the network', nodes: 2, ppn: 1, bytes: 3 },
  { where: 'rendezvous over the network', nodes: 2, ppn: 1, bytes: 20001 },
  { where: 'within a node', nodes: 1, ppn: 2, bytes: 3 },
];

/** Rank 0 sends `bytes` Int8 bytes with tag 5; rank 1 receives them into a Float64Array with `recv`. */
function run(nodes: number, ppn: number, bytes: number, doubles: number, recv: Receive): Promise<unknown> {
  return simulate({
    machine: 'xe6',
    nodes,
    ppn,
    program: async (ctx) => {
      if (ctx.rank === 0) {
        await ctx.mpi.send(new Int8Array(bytes).fill(7), 1, 5);
        return null;
      }
      const buf = new Float64Array(doubles);
      return { status: await recv(ctx, buf), bytes: Array.from(new Uint8Array(buf.buffer, 0, Math.min(bytes, 16))) };
    },
  }).then((r) => r.rankResults[1]);
}

describe('a message that is not a whole number of the receive buffer elements', () => {
  for (const { where, nodes, ppn, bytes } of places) {
    it.each(receives)(`${where}: $name fails with MPI_ERR_TYPE naming the sizes`, async ({ recv }) => {
      const e = await rejection(run(nodes, ppn, bytes, Math.ceil(bytes / 8), recv));
      expect(e).toBeInstanceOf(RankError);
      expect((e as RankError).rank).toBe(1);
      expect(((e as RankError).error as MpiError).errorClass).toBe('MPI_ERR_TYPE');
      expect(e.message).toContain(`message of ${bytes} bytes from rank 0 (tag 5) is not a whole number of the receive buffer's 8-byte elements`);
    });
  }

  it.each(receives)('a whole number of elements is received ($name): 16 Int8 bytes give 2 doubles', async ({ recv }) => {
    const got = (await run(2, 1, 16, 4, recv)) as { status: { count: number; bytes: number }; bytes: number[] };
    expect(got.status).toMatchObject({ source: 0, tag: 5, count: 2, bytes: 16 });
    expect(got.bytes).toEqual(new Array<number>(16).fill(7));
  });

  it('the long form with a derived datatype still takes a partial element (count MPI_UNDEFINED)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 0) {
          await mpi.send(new Int32Array([1, 2, 3]), 1, 5);
          return null;
        }
        const pair = mpi.typeContiguous(2, mpi.INT);
        mpi.typeCommit(pair);
        const buf = new Int32Array(4);
        const status = await mpi.recv(buf, 2, pair, 0, 5);
        return { status, count: mpi.getCount(status, pair), data: Array.from(buf) };
      },
    });
    const g = r.rankResults[1] as { status: { bytes: number }; count: number; data: number[] };
    expect(g.status.bytes).toBe(12);
    expect(g.count).toBe(UNDEFINED);
    expect(g.data).toEqual([1, 2, 3, 0]);
  });
});
