/**
 * The one-sided calls of a trace replayed on windows the replay makes: MPI_Win_create (and
 * MPI_Win_allocate, written as a create) makes a window of the traced size and displacement
 * unit on the traced communicator, and each put, get, accumulate, fence, start/complete,
 * post/wait, lock/unlock and free is issued on it with the traced target, displacement, count,
 * group and assertions. Origin buffers are scratch memory of the traced bytes (skeleton memory in
 * a skeleton run) in the widest element that divides the traced datatype (8-byte items as doubles).
 */
import type { ArrayType } from '../fabric/skeleton.ts';
import type { Comm, Op, ReduceArray, Win } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { TraceFormatError, type RmaCall, type TraceOp, type WinCreateCall, type WinSyncCall } from './calls.ts';
import { phitAssert } from './call-log.ts';

/** What the window replay needs from the rank's replayer. */
export interface WindowHost {
  readonly ctx: RankContext;
  /** The communicator of a trace handle. */
  comm(h: number, name: string): Comm;
  /** A scratch buffer of `count` elements of `Type` for `role`. */
  buffer<T extends ReduceArray>(role: string, Type: ArrayType<T>, count: number): T;
  /** The element type and op of an accumulate of items of `typeBytes` with `op`. */
  reduceShape(typeBytes: number, op: TraceOp): { Type: ArrayType<ReduceArray>; per: number; op: Op };
}

/** A rank's windows by trace handle, and the calls on them. */
export class WindowReplay {
  private readonly wins = new Map<number, { win: Win; comm: Comm }>();

  constructor(private readonly host: WindowHost) {}

  /** Makes the window of an MPI_Win_create. */
  async create(c: WinCreateCall): Promise<void> {
    const comm = this.host.comm(c.comm, c.name);
    // the window's own memory: never a scratch buffer another call reuses
    const mem = this.host.ctx.alloc(Uint8Array, c.bytes);
    this.wins.set(c.win, { win: await comm.winCreate(mem, c.dispUnit), comm });
  }

  /** A put, get or accumulate; returns its bytes. */
  async transfer(c: RmaCall): Promise<number> {
    const { win } = this.of(c.win, c.name);
    // elements of the traced size where a typed array has it (8-byte items as doubles), so the calls count as traced
    const { Type, per, op } = this.host.reduceShape(c.typeBytes, c.op);
    const buf = this.host.buffer(c.call === 'get' ? 'rma-get' : 'rma', Type, c.count * per);
    if (c.call === 'accumulate') await win.accumulate(buf, c.target, c.disp, op);
    else if (c.call === 'put') await win.put(buf, c.target, c.disp);
    else await win.get(buf, c.target, c.disp);
    return c.count * c.typeBytes;
  }

  /** A synchronisation call, or the window's release; false for a traced MPI_Win_test that found the epoch still open (nothing to issue). */
  async sync(c: WinSyncCall): Promise<boolean> {
    const { win, comm } = this.of(c.win, c.name);
    const mpi = this.host.ctx.mpi;
    const assert = phitAssert(c.assert);
    switch (c.call) {
      case 'winFree':
        await win.free();
        this.wins.delete(c.win);
        return true;
      case 'fence':
        await win.fence(assert);
        return true;
      case 'winStart':
      case 'winPost': {
        const group = comm.group.incl(c.group ?? []);
        if (c.call === 'winStart') await win.start(group, assert);
        else await win.post(group, assert);
        return true;
      }
      case 'winComplete':
        await win.complete();
        return true;
      case 'winWait':
        await win.wait();
        return true;
      case 'winTest':
        // a test that ended the epoch is the wait that ends it here; one that did not is passed over, so the replay's epoch stays open as the trace's did
        if (c.flag !== true) return false;
        await win.wait();
        return true;
      case 'lock':
        await win.lock(c.exclusive ? mpi.LOCK_EXCLUSIVE : mpi.LOCK_SHARED, c.target, assert);
        return true;
      case 'unlock':
        await win.unlock(c.target);
        return true;
    }
  }

  private of(h: number, name: string): { win: Win; comm: Comm } {
    const w = this.wins.get(h);
    if (!w) throw new TraceFormatError(`rank ${this.host.ctx.rank}: ${name} on window ${h}, which the trace never created`);
    return w;
  }
}
