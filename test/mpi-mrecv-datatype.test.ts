/**
 * The datatype forms of the matched receives, mrecv and imrecv (buf, count, datatype, message): the
 * matched message lands in the datatype's layout, eager and rendezvous, and the status counts
 * elements of the datatype; bad counts and types fail naming the call.
 */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import type { Message, Mpi, MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('mrecv and imrecv with a datatype', () => {
  // ints per message: eager (8) and rendezvous (8,192 ints, 32 KiB, above xe6's eager limit)
  it.each([8, 8192])('%i ints land every other int with mrecv and in a vector with imrecv; the status counts the datatype\'s elements', async (n) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 0) {
          const out = Int32Array.from({ length: n }, (_, i) => 7 * i + 1);
          await mpi.send(out, 1, 1);
          await mpi.send(out, 1, 2);
          return null;
        }
        // every other int: an int resized to an extent of 2 ints
        const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.INT, 0, 8));
        const a = new Int32Array(2 * n).fill(-1);
        const m1 = await mpi.mprobe(0, 1);
        const s1 = await mpi.mrecv(a, n, every2, m1.message);
        // blocks of 2 ints, stride 3 ints: n / 2 blocks
        const vec = mpi.typeCommit(mpi.typeVector(n / 2, 2, 3, mpi.INT));
        const b = new Int32Array((3 * n) / 2).fill(-1);
        const m2 = await mpi.mprobe(0, 2);
        const s2 = await mpi.wait(mpi.imrecv(b, 1, vec, m2.message));
        return { a: [...a], b: [...b], c1: mpi.getCount(s1, every2), c2: mpi.getCount(s2, vec), bytes: [s1.bytes, s2.bytes] };
      },
    });
    const g = r.rankResults[1] as { a: number[]; b: number[]; c1: number; c2: number; bytes: number[] };
    const sent = (i: number): number => 7 * i + 1;
    expect(g.a).toEqual(Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? sent(i / 2) : -1)));
    // int j of block k sits at 3k + j and carries int 2k + j of the message
    expect(g.b).toEqual(Array.from({ length: (3 * n) / 2 }, (_, i) => (i % 3 === 2 ? -1 : sent(2 * Math.floor(i / 3) + (i % 3)))));
    expect([g.c1, g.c2]).toEqual([n, 1]);
    expect(g.bytes).toEqual([4 * n, 4 * n]);
  });

  const bad = [
    { name: 'mrecv count = -1', cls: 'MPI_ERR_COUNT', mentions: 'mrecv: count=-1', long: (mpi: Mpi, m: Message) => mpi.mrecv(new Int32Array(1), -1, mpi.INT, m) },
    { name: 'imrecv with an uncommitted type', cls: 'MPI_ERR_TYPE', mentions: 'imrecv: datatype', long: async (mpi: Mpi, m: Message) => mpi.imrecv(new Int32Array(1), 1, mpi.typeContiguous(1, mpi.INT), m) },
  ];
  it.each(bad)('$name fails with $cls naming the call', async ({ cls, mentions, long }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.send(Int32Array.of(1), 1, 0);
          else await long(mpi, (await mpi.mprobe(0, 0)).message);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(mentions);
  });
});
