/** Bad use of requests and messages: each fails with its MPI error class naming the call. */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('bad use of requests and messages', () => {
  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'wait on a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'wait: the request irecv(source=1, tag=0) was freed', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.wait(r);
    } },
    { name: 'test on a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'test: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.test(r);
    } },
    { name: 'waitAll over a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAll: reqs[1]: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.waitAll([null, r]);
    } },
    { name: 'cancel of a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'cancel: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      mpi.cancel(r);
    } },
    { name: 'requestGetStatus of a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'requestGetStatus: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.requestGetStatus(r);
    } },
    { name: 'requestFree twice', cls: 'MPI_ERR_REQUEST', mentions: 'requestFree: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      mpi.requestFree(r);
    } },
    { name: 'requestFree of REQUEST_NULL', cls: 'MPI_ERR_REQUEST', mentions: 'REQUEST_NULL cannot be freed', call: async ({ mpi }) => mpi.requestFree(mpi.REQUEST_NULL) },
    { name: 'wait on a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'wait: expected a request, got number', call: ({ mpi }) => mpi.wait(3 as never) },
    { name: 'test on a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'test: expected a request, got undefined', call: ({ mpi }) => mpi.test(undefined as never) },
    { name: 'waitAll over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAll: reqs[0]: expected a request, got Object', call: ({ mpi }) => mpi.waitAll([{} as never]) },
    { name: 'waitAll of a non-array', cls: 'MPI_ERR_ARG', mentions: 'waitAll: expected an array of requests, got string', call: ({ mpi }) => mpi.waitAll('x' as never) },
    { name: 'waitAny over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAny: reqs[1]: expected a request, got string', call: ({ mpi }) => mpi.waitAny([null, 'r' as never]) },
    { name: 'waitSome over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitSome: reqs[0]', call: ({ mpi }) => mpi.waitSome([1 as never]) },
    { name: 'testAll over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testAll: reqs[0]', call: ({ mpi }) => mpi.testAll([1 as never]) },
    { name: 'testAny over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testAny: reqs[0]', call: ({ mpi }) => mpi.testAny([1 as never]) },
    { name: 'testSome over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testSome: reqs[0]', call: ({ mpi }) => mpi.testSome([1 as never]) },
    { name: 'requestGetStatus of a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'requestGetStatus: expected a request, got null', call: ({ mpi }) => mpi.requestGetStatus(null as never) },
    { name: 'requestFree of a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'requestFree: expected a request', call: async ({ mpi }) => mpi.requestFree(5 as never) },
    { name: 'mrecv of a message already received', cls: 'MPI_ERR_REQUEST', mentions: 'the message was received already', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      await mpi.mrecv(new Int32Array(1), m.message);
      await mpi.mrecv(new Int32Array(1), m.message);
    } },
    { name: 'imrecv of a message already received', cls: 'MPI_ERR_REQUEST', mentions: 'imrecv(message from 1, tag 0, 4 bytes): the message was received already', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      const r = mpi.imrecv(new Int32Array(1), m.message);
      mpi.imrecv(new Int32Array(1), m.message);
      await r.wait();
    } },
    { name: 'mrecv of a non-message', cls: 'MPI_ERR_REQUEST', mentions: 'mrecv: expected a message from mprobe or improbe, got Object', call: ({ mpi }) => mpi.mrecv(new Int32Array(1), {} as never) },
    { name: 'mrecv into a buffer too small', cls: 'MPI_ERR_TRUNCATE', mentions: 'does not fit the 2-byte receive buffer', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      await mpi.mrecv(new Uint8Array(2), m.message);
    } },
    { name: 'mprobe source = 4', cls: 'MPI_ERR_RANK', mentions: 'mprobe: source=4', call: ({ mpi }) => mpi.mprobe(4, 0) },
    { name: 'improbe tag = -5', cls: 'MPI_ERR_TAG', mentions: 'improbe: tag=-5', call: ({ mpi }) => mpi.improbe(0, -5) },
    { name: 'isendrecv dest = 4', cls: 'MPI_ERR_RANK', mentions: 'isendrecv: dest=4', call: async ({ mpi }) => mpi.isendrecv(new Uint8Array(1), 4, 0, new Uint8Array(1), 1, 0) },
    { name: 'isendrecvReplace source = 7', cls: 'MPI_ERR_RANK', mentions: 'isendrecvReplace: source=7', call: async ({ mpi }) => mpi.isendrecvReplace(new Uint8Array(1), 1, 0, 7, 0) },
    { name: 'getCount of a non-status', cls: 'MPI_ERR_ARG', mentions: 'getCount: expected a status', call: async ({ mpi }) => mpi.getCount(null as never, 4) },
    { name: 'getCount with a zero element size', cls: 'MPI_ERR_TYPE', mentions: 'getCount: type must be a positive element size', call: async ({ mpi }) => mpi.getCount({ source: 0, tag: 0, count: 0, bytes: 4 }, 0) },
  ];
  it.each(bad)('$name fails with $cls naming the call', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          if (ctx.rank === 1) await ctx.mpi.send(Int32Array.of(3), 0, 0);
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
});
