import type { MpiWorld } from './core.ts';
import type { Msg, Posted } from './message.ts';
import { MpiError, type Request } from './request.ts';

/**
 * A message matched by a matched probe (MPI_Message): `mprobe` or `improbe` took it off the
 * matching queues, so no other receive can take it, and `mrecv` or `imrecv` receives it, once
 * (MPI 4.0 §3.8.2). MESSAGE_NO_PROC, the message of a probe of PROC_NULL, receives nothing and
 * can be received any number of times.
 */
export class Message {
  /** Received already (MPI would have set the handle to MPI_MESSAGE_NULL). */
  private received = false;

  constructor(
    /** The matched message; null for MESSAGE_NO_PROC. */
    private readonly msg: Msg | null,
    /** World rank of the rank that matched it. */
    private readonly rank: number,
    /** CPU time of the queue searches on its way, charged when it is received. */
    private readonly searchPs: number,
    /** Communicator rank of each world rank, for the status (null: MPI_COMM_WORLD). */
    private readonly inv: Int32Array | null,
  ) {}

  /** Whether this is MESSAGE_NO_PROC. */
  get noProc(): boolean {
    return this.msg === null;
  }

  /**
   * Receives the message into `buf` on rank `rank` (MPI_Imrecv); MPI_ERR_REQUEST if it was
   * received already or belongs to another rank; MPI_ERR_TYPE at completion if it does not fill
   * whole elements of `elemBytes` bytes (unless `unpack`, a datatype receive's unpacking, is
   * given: then the elements are the datatype's). Not for MESSAGE_NO_PROC.
   */
  receive(world: MpiWorld, rank: number, buf: Uint8Array, elemBytes: number, call: string, unpack: Posted['unpack'] = null): Request {
    const m = this.msg!;
    const what = `${call}(message from ${this.inv ? this.inv[m.src] : m.src}, tag ${m.tag}, ${m.bytes} bytes)`;
    if (this.received) throw new MpiError('MPI_ERR_REQUEST', `${what}: the message was received already (a matched message is received once)`);
    if (rank !== this.rank) throw new MpiError('MPI_ERR_REQUEST', `${what}: the message was matched by rank ${this.rank}, not this rank (${rank})`);
    this.received = true;
    return world.receiveMatched(rank, m, this.searchPs, buf, elemBytes, what, this.inv, unpack === null, unpack);
  }
}

/** The message of a matched probe of PROC_NULL (MPI_MESSAGE_NO_PROC). */
export const MESSAGE_NO_PROC = new Message(null, -1, 0, null);
