/** Point-to-point errors: truncation, and each bad argument rejects with its MPI error class naming it. */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('errors', () => {
  it.each([
    { what: 'eager over the network', nodes: 2, ppn: 1, bytes: 100, cap: 10 },
    { what: 'rendezvous over the network', nodes: 2, ppn: 1, bytes: 20000, cap: 10000 },
    { what: 'shared memory', nodes: 1, ppn: 2, bytes: 100, cap: 10 },
  ])('truncation ($what): a $bytes-byte message into a $cap-byte buffer rejects with MPI_ERR_TRUNCATE', async ({ nodes, ppn, bytes, cap }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.send(new Uint8Array(bytes), 1, 4);
          else await mpi.recv(new Uint8Array(cap), 0, 4);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    const re = e as RankError;
    expect(re.rank).toBe(1);
    expect(re.message).toContain('MPI_ERR_TRUNCATE');
    expect(re.message).toContain(`${bytes} bytes`);
    expect(re.error).toBeInstanceOf(MpiError);
    expect((re.error as MpiError).errorClass).toBe('MPI_ERR_TRUNCATE');
  });

  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'send dest = size', cls: 'MPI_ERR_RANK', mentions: 'dest=2', call: ({ mpi }) => mpi.send(new Uint8Array(1), 2, 0) },
    { name: 'send dest = -3', cls: 'MPI_ERR_RANK', mentions: 'dest=-3', call: ({ mpi }) => mpi.send(new Uint8Array(1), -3, 0) },
    { name: 'send dest = ANY_SOURCE', cls: 'MPI_ERR_RANK', mentions: 'dest=-2', call: ({ mpi }) => mpi.send(new Uint8Array(1), mpi.ANY_SOURCE, 0) },
    { name: 'send dest = 0.5', cls: 'MPI_ERR_RANK', mentions: 'dest=0.5', call: ({ mpi }) => mpi.send(new Uint8Array(1), 0.5, 0) },
    { name: 'isend dest = 7', cls: 'MPI_ERR_RANK', mentions: 'dest=7', call: async ({ mpi }) => {
      mpi.isend(new Uint8Array(1), 7, 0);
    } },
    { name: 'recv source = 5', cls: 'MPI_ERR_RANK', mentions: 'source=5', call: ({ mpi }) => mpi.recv(new Uint8Array(1), 5, 0) },
    { name: 'send tag = -5', cls: 'MPI_ERR_TAG', mentions: 'tag=-5', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, -5) },
    { name: 'send tag = ANY_TAG', cls: 'MPI_ERR_TAG', mentions: 'tag=-1', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, mpi.ANY_TAG) },
    { name: 'send tag above TAG_UB', cls: 'MPI_ERR_TAG', mentions: 'tag=2147483648', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, 2 ** 31) },
    { name: 'recv tag = -7', cls: 'MPI_ERR_TAG', mentions: 'tag=-7', call: ({ mpi }) => mpi.recv(new Uint8Array(1), 1, -7) },
    { name: 'send plain array', cls: 'MPI_ERR_BUFFER', mentions: 'buf must be a typed array', call: ({ mpi }) => mpi.send([1, 2, 3] as never, 1, 0) },
    { name: 'send ArrayBuffer', cls: 'MPI_ERR_BUFFER', mentions: 'ArrayBuffer', call: ({ mpi }) => mpi.send(new ArrayBuffer(8) as never, 1, 0) },
    { name: 'recv null', cls: 'MPI_ERR_BUFFER', mentions: 'got null', call: ({ mpi }) => mpi.recv(null as never, 1, 0) },
    { name: 'irecv string', cls: 'MPI_ERR_BUFFER', mentions: 'got string', call: async ({ mpi }) => {
      mpi.irecv('abc' as never, 1, 0);
    } },
  ];
  it.each(bad)('bad argument ($name) rejects with $cls naming it', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async (ctx) => {
          if (ctx.rank === 0) await call(ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(e.message).toContain(`${cls}:`);
    expect(e.message).toContain(mentions);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
  });
});
