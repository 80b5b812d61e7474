import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { CartComm, Comm, MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('bad input', () => {
  const u8 = new Uint8Array(4);
  /** Each call runs on rank 0 of 4 ranks (nodes 4) while the others do nothing. */
  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'ssend dest = size', cls: 'MPI_ERR_RANK', mentions: 'ssend: dest=4', call: ({ mpi }) => mpi.ssend(u8, 4, 0) },
    { name: 'issend tag = ANY_TAG', cls: 'MPI_ERR_TAG', mentions: 'issend: tag=-1', call: async ({ mpi }) => mpi.issend(u8, 1, mpi.ANY_TAG) },
    { name: 'rsend buf = null', cls: 'MPI_ERR_BUFFER', mentions: 'rsend: buf must be a typed array', call: ({ mpi }) => mpi.rsend(null as never, 1, 0) },
    { name: 'irsend dest = ANY_SOURCE', cls: 'MPI_ERR_RANK', mentions: 'irsend: dest=-2', call: async ({ mpi }) => mpi.irsend(u8, mpi.ANY_SOURCE, 0) },
    { name: 'bsend without an attached buffer', cls: 'MPI_ERR_BUFFER', mentions: 'has 0 of 0 bytes free', call: ({ mpi }) => mpi.bsend(u8, 1, 0) },
    { name: 'bsend dest = 9', cls: 'MPI_ERR_RANK', mentions: 'bsend: dest=9', call: ({ mpi }) => mpi.bsend(u8, 9, 0) },
    { name: 'ibsend tag above TAG_UB', cls: 'MPI_ERR_TAG', mentions: 'tag=2147483648', call: async ({ mpi }) => mpi.ibsend(u8, 1, 2 ** 31) },
    { name: 'ibsend buf = plain array', cls: 'MPI_ERR_BUFFER', mentions: 'got Array', call: async ({ mpi }) => mpi.ibsend([1] as never, 1, 0) },
    { name: 'bufferAttach(-1)', cls: 'MPI_ERR_BUFFER', mentions: 'bytes=-1', call: async ({ mpi }) => mpi.bufferAttach(-1) },
    { name: 'bufferAttach twice', cls: 'MPI_ERR_BUFFER', mentions: 'already attached', call: async ({ mpi }) => {
      mpi.bufferAttach(100);
      mpi.bufferAttach(100);
    } },
    { name: 'sendrecv source = 4', cls: 'MPI_ERR_RANK', mentions: 'sendrecv: source=4', call: ({ mpi }) => mpi.sendrecv(u8, 1, 0, u8, 4, 0) },
    { name: 'sendrecv sendTag = -3', cls: 'MPI_ERR_TAG', mentions: 'sendrecv: sendTag=-3', call: ({ mpi }) => mpi.sendrecv(u8, 1, -3, u8, 1, 0) },
    { name: 'sendrecv recvBuf = string', cls: 'MPI_ERR_BUFFER', mentions: 'got string', call: ({ mpi }) => mpi.sendrecv(u8, 1, 0, 'x' as never, 1, 0) },
    { name: 'sendrecvReplace buf = undefined', cls: 'MPI_ERR_BUFFER', mentions: 'sendrecvReplace: buf', call: ({ mpi }) => mpi.sendrecvReplace(undefined as never, 1, 0, 1, 0) },
    { name: 'sendrecvReplace dest = 1.5', cls: 'MPI_ERR_RANK', mentions: 'dest=1.5', call: ({ mpi }) => mpi.sendrecvReplace(u8, 1.5, 0, 1, 0) },
    { name: 'probe source = 4', cls: 'MPI_ERR_RANK', mentions: 'probe: source=4', call: ({ mpi }) => mpi.probe(4, 0) },
    { name: 'iprobe tag = -3', cls: 'MPI_ERR_TAG', mentions: 'iprobe: tag=-3', call: ({ mpi }) => mpi.iprobe(0, -3) },
    { name: 'cancel a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'expected a request, got Object', call: async ({ mpi }) => mpi.cancel({} as never) },
    { name: 'split color = -5', cls: 'MPI_ERR_ARG', mentions: 'split: color=-5', call: ({ mpi }) => mpi.split(-5, 0) },
    { name: 'split key = 0.5', cls: 'MPI_ERR_ARG', mentions: 'split: key=0.5', call: ({ mpi }) => mpi.split(0, 0.5) },
    { name: 'create with a non-group', cls: 'MPI_ERR_GROUP', mentions: 'expected a Group, got Array', call: ({ mpi }) => mpi.create([0, 1] as never) },
    { name: 'group incl out of range', cls: 'MPI_ERR_RANK', mentions: 'incl: ranks[1]=4', call: async ({ mpi }) => mpi.group.incl([0, 4]) },
    { name: 'group incl twice', cls: 'MPI_ERR_RANK', mentions: 'rank 2 appears twice', call: async ({ mpi }) => mpi.group.incl([2, 1, 2]) },
    { name: 'group excl -1', cls: 'MPI_ERR_RANK', mentions: 'excl: ranks[0]=-1', call: async ({ mpi }) => mpi.group.excl([-1]) },
    { name: 'translateRanks out of range', cls: 'MPI_ERR_RANK', mentions: 'translateRanks: ranks[0]=3', call: async ({ mpi }) => mpi.group.incl([0, 1, 2]).translateRanks([3], mpi.group) },
    { name: 'cartCreate dims [0, 2]', cls: 'MPI_ERR_DIMS', mentions: 'dims=[0,2]', call: ({ mpi }) => mpi.cartCreate([0, 2], [false, false]) },
    { name: 'cartCreate grid larger than the comm', cls: 'MPI_ERR_DIMS', mentions: 'the grid 3x2 has 6 ranks', call: ({ mpi }) => mpi.cartCreate([3, 2], [false, false]) },
    { name: 'cartCreate periods too short', cls: 'MPI_ERR_ARG', mentions: 'periods must have one entry per dimension (2)', call: ({ mpi }) => mpi.cartCreate([2, 2], [true]) },
    { name: 'dimsCreate via ctx.mpi', cls: 'MPI_ERR_DIMS', mentions: 'do not divide nnodes=4', call: async ({ mpi }) => mpi.dimsCreate(4, [3, 0]) },
  ];
  it.each(bad)('$name rejects with $cls naming the argument', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          if (ctx.rank === 0) await call(ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(`${cls}:`);
    expect(e.message).toContain(mentions);
  });

  /** Calls on a 2x2 CartComm or a sub-communicator, made by every rank first. */
  const badOnComms: { name: string; cls: string; mentions: string; call: (cart: CartComm, half: Comm, ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'cartShift direction = 2', cls: 'MPI_ERR_DIMS', mentions: 'cartShift: direction=2', call: async (c) => c.cartShift(2, 1) },
    { name: 'cartShift disp = 0.5', cls: 'MPI_ERR_ARG', mentions: 'cartShift: disp=0.5', call: async (c) => c.cartShift(0, 0.5) },
    { name: 'cartCoords rank = 4', cls: 'MPI_ERR_RANK', mentions: 'cartCoords: rank=4', call: async (c) => c.cartCoords(4) },
    { name: 'cartRank with one coordinate', cls: 'MPI_ERR_ARG', mentions: 'cartRank: coords must have 2 entries', call: async (c) => c.cartRank([0]) },
    { name: 'cartRank off a non-periodic edge', cls: 'MPI_ERR_ARG', mentions: 'coords[1]=2', call: async (c) => c.cartRank([0, 2]) },
    { name: 'cartSub with a wrong length', cls: 'MPI_ERR_ARG', mentions: 'cartSub: remainDims must have 2 entries', call: (c) => c.cartSub([true]) },
    { name: 'send to a world rank beyond a 2-rank comm', cls: 'MPI_ERR_RANK', mentions: 'dest=2 is not a rank of the communicator (0..1', call: (_, h) => h.send(u8, 2, 0) },
    { name: 'recv source beyond a 2-rank comm', cls: 'MPI_ERR_RANK', mentions: 'source=3', call: (_, h) => h.recv(u8, 3, 0) },
    { name: 'create with a group not inside the comm', cls: 'MPI_ERR_GROUP', mentions: 'world rank 1 of the group is not in this communicator', call: (_, h, { mpi }) => h.create(mpi.group.incl([0, 1])) },
  ];
  it.each(badOnComms)('$name rejects with $cls naming the argument', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          const cart = (await ctx.mpi.cartCreate([2, 2], [true, false]))!;
          const half = (await ctx.mpi.split(ctx.rank % 2, 0))!;
          if (ctx.rank === 0) await call(cart, half, ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(mentions);
  });

  it('a bad color on one rank while the others enter split fails the run instead of hanging', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async ({ mpi }) => {
          await mpi.split(mpi.rank === 2 ? -7 : 0, 0);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(2);
    expect(((e as RankError).error as MpiError).errorClass).toBe('MPI_ERR_ARG');
    expect(e.message).toContain('color=-7');
  });
});
