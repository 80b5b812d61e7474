/**
 * MPI_Buffer_iflush and MPI_Buffer_flush (MPI 4.1, runtime/mpi/bsend-flush.ts): a flush completes
 * when the messages in the attached buffer have left it (a rendezvous buffered send: when its
 * receiver has received it), not before; the buffer stays attached and takes new messages in the
 * space the flushed ones freed; flushes and bufferDetach may wait on the same sends at once.
 */
import { describe, expect, it } from 'vitest';
import { BSEND_OVERHEAD, MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Bytes of one message: above the eager limit of every preset, so a buffered send waits for its receive. */
const MSG = 100000;

describe('flushing the buffered-send buffer', () => {
  it('iflush completes when the receiver has taken the message, then the buffer takes the next one', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          mpi.setErrhandler(mpi.ERRORS_RETURN);
          mpi.bufferAttach(MSG + BSEND_OVERHEAD);
          await mpi.bsend(new Uint8Array(MSG).fill(1), 1, 0);
          let full = '';
          try {
            await mpi.bsend(new Uint8Array(MSG).fill(2), 1, 0);
          } catch (e) {
            full = (e as MpiError).errorClass;
          }
          const req = mpi.bufferIflush();
          const early = await req.test();
          await req.wait();
          const flushed = now();
          await mpi.bsend(new Uint8Array(MSG).fill(2), 1, 0);
          await mpi.bufferFlush();
          const n = await mpi.bufferDetach();
          return { full, early, flushed, n, emptyDone: mpi.bufferIflush().done };
        }
        await compute({ us: 200 });
        const posted = now();
        const a = new Uint8Array(MSG);
        const b = new Uint8Array(MSG);
        await mpi.recv(a, 0, 0);
        await mpi.recv(b, 0, 0);
        return { posted, ok: a.every((x) => x === 1) && b.every((x) => x === 2) };
      },
    });
    const s = r.rankResults[0] as { full: string; early: boolean; flushed: number; n: number; emptyDone: boolean };
    const g = r.rankResults[1] as { posted: number; ok: boolean };
    expect(s.full).toBe('MPI_ERR_BUFFER');
    expect(s.early).toBe(false);
    // the flush ended only after the receive was posted (the receiver computed 200 us first)
    expect(s.flushed).toBeGreaterThan(g.posted);
    expect(s.n).toBe(MSG + BSEND_OVERHEAD);
    // with nothing in the buffer a flush is complete at once
    expect(s.emptyDone).toBe(true);
    expect(g.ok).toBe(true);
  });

  it('two flushes and a detach wait on the same messages together', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          mpi.bufferAttach(2 * (MSG + BSEND_OVERHEAD));
          await mpi.bsend(new Uint8Array(MSG).fill(3), 1, 0);
          await mpi.bsend(new Uint8Array(MSG).fill(4), 1, 0);
          const f1 = mpi.bufferIflush();
          const f2 = mpi.bufferIflush();
          const early = [f1.done, f2.done];
          const n = await mpi.bufferDetach();
          return { n, early, flushes: [f1.done, f2.done] };
        }
        await compute({ us: 50 });
        const a = new Uint8Array(MSG);
        const b = new Uint8Array(MSG);
        await mpi.recv(a, 0, 0);
        await mpi.recv(b, 0, 0);
        return { ok: a.every((x) => x === 3) && b.every((x) => x === 4) };
      },
    });
    expect(r.rankResults[0]).toEqual({ n: 2 * (MSG + BSEND_OVERHEAD), early: [false, false], flushes: [true, true] });
    expect(r.rankResults[1]).toEqual({ ok: true });
  });

  it('a flush whose message no one receives is a deadlock, named in the diagnosis', async () => {
    const run = simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank !== 0) return;
        mpi.bufferAttach(MSG + BSEND_OVERHEAD);
        await mpi.bsend(new Uint8Array(MSG), 1, 0);
        await mpi.bufferFlush();
      },
    });
    await expect(run).rejects.toThrow(/bufferFlush\(1 buffered sends\)/);
  });
});
