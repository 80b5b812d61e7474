import type { EventHandler } from '../../fabric/engine/engine.ts';
import type { MpiParams } from '../../fabric/machine.ts';
import { NicStatus, statusName } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { Msg, MsgPool, Slots, type Posted } from './message.ts';
import type { Endpoint } from './endpoint.ts';
import { PeerFailures } from './peer-failures.ts';
import { MpiError, type Request, type Status } from './request.ts';

/** An empty payload (a rendezvous announcement, a FIN or ACK, a cancelled message's body). */
const EMPTY = new Uint8Array(0);
const ignore = (): void => {};

/** Unpacks a derived-datatype receive's bytes into the user's layout; the CPU time (ps) it took. */
export function unpacked(p: Posted, bytes: number): number {
  return p.unpack ? p.unpack(bytes) : 0;
}

/** The MPI library's engine event kinds (MpiWorld.onEvent takes them all). */
export const EV_SHM_ARRIVE = 0;
export const EV_SHM_SENT = 1;
export const EV_POST = 2;
export const EV_SEND = 3;
export const EV_RECV = 4;

/**
 * The wire protocol of the MPI library between two ranks, as Cray MPI over uGNI (seed 001, "Cray
 * XC Network Software Stack"): a message leaves its sender as an on-node copy, an eager
 * short-message put into the receiver's mailbox, or a request-to-send that exposes the sender's
 * buffer; a matched request-to-send is pulled with BTE gets (one per rail with
 * `mpi.railThreshold`, seed 002 §6.1) and answered with a FIN, a matched synchronous send with an
 * ACK, which complete the send requests tracked here. `MpiWorld` (core.ts) adds the requests,
 * matching and progress on top; it takes the engine events scheduled here.
 */
export abstract class P2pProtocol implements EventHandler {
  /** Each rank's MPI state (queues, sequence numbers, its process), by rank. */
  protected readonly eps: Endpoint[] = [];
  /** Send requests that a FIN or ACK completes, by the id the message carries (see track). */
  protected readonly sendReqs = new Map<number, { req: Request; handle: number; proc: Proc; dst: number }>();
  private nextSreq = 1;
  /** Message objects for reuse (eager messages over the network). */
  protected readonly msgs = new MsgPool();
  /** Messages on the on-node path, by slot (events carry the slot). */
  protected readonly shm = new Slots<Msg>();
  /** Protocol steps deferred to a rank's own time, by slot. */
  protected readonly deferred = new Slots<() => void>();
  /** Source completions of eager messages and of requests-to-send (one function for all). */
  private readonly eagerSent = (s: NicStatus, meta: unknown): void => {
    const m = meta as Msg;
    // a synchronous send completes on the receiver's ACK instead
    if (!m.sync || s !== NicStatus.Ok) this.nicDone(m.req!, s, m.bytes, m.dst);
    m.req = null;
    m.buf = EMPTY;
    this.msgs.release(m);
  };
  private readonly rtsSent = (s: NicStatus, meta: unknown): void => {
    const m = meta as Msg;
    if (s !== NicStatus.Ok) this.nicDone(m.req!, s, m.bytes, m.dst);
    m.req = null;
    m.buf = EMPTY;
  };
  readonly id: number;
  /** The ranks known dead (their node died). */
  readonly failures = new PeerFailures();

  constructor(
    readonly procs: readonly Proc[],
    readonly params: MpiParams,
  ) {
    this.id = procs[0]!.engine.register(this);
  }

  abstract onEvent(kind: number, arg: number): void;

  /** Accepts arrivals in sequence order per sender, then matches them (core.ts). */
  protected abstract arrive(me: Endpoint, a: Msg): void;

  /** Message `m` leaves its sender now: on-node copy, eager short message, or request-to-send. */
  protected launch(m: Msg): void {
    const P = this.params;
    const proc = this.eps[m.src]!.proc;
    const peer = this.eps[m.dst]!.proc;
    // a message cancelled before it left goes as its bare header, to keep the pair's sequence
    if (m.cancelled) m.buf = EMPTY;
    if (peer.node === proc.node) {
      // on-node path: copy into a shared buffer; the send completes when the copy is done (a
      // synchronous one when the receiver has matched too)
      const now = proc.engine.now;
      const copyPs = Math.ceil(m.bytes / P.shmBytesPerPs);
      m.data = proc.isSkeleton(m.buf) ? m.buf : m.buf.slice();
      m.local = true;
      m.buf = EMPTY;
      if (m.sync) m.req = null;
      const slot = this.shm.put(m);
      if (!m.sync) proc.engine.at(now + copyPs, this.id, EV_SHM_SENT, slot);
      proc.engine.at(now + P.shmLatencyPs + copyPs, this.id, EV_SHM_ARRIVE, slot);
      return;
    }
    if (m.kind === 'eager') {
      proc.nic.sendSmsg(peer.node, peer.inst, m, m.buf, this.eagerSent);
      return;
    }
    // rendezvous: expose the buffer and announce it; the receiver pulls it
    if (m.cancelled) {
      proc.nic.sendSmsg(peer.node, peer.inst, m, EMPTY, this.rtsSent);
      return;
    }
    m.handle = proc.nic.register(m.buf);
    m.sreq = this.track(m.req!, m.handle, proc, m.dst);
    proc.nic.sendSmsg(peer.node, peer.inst, m, EMPTY, this.rtsSent);
  }

  /** Remembers a send request that a later FIN or ACK completes; returns its id. */
  protected track(req: Request, handle: number, proc: Proc, dst: number): number {
    const sreq = this.nextSreq++;
    this.sendReqs.set(sreq, { req, handle, proc, dst });
    return sreq;
  }

  /** Runs `fn` at time `at` of `proc`'s clock: now, or by an event once the engine gets there. */
  runAt(proc: Proc, at: number, fn: () => void): void {
    if (at <= proc.engine.now) {
      fn();
      return;
    }
    proc.engine.at(Math.round(at), this.id, EV_POST, this.deferred.put(fn));
  }

  /** The source completion of send `req` (`bytes` to rank `dst`) by the NIC: done, or failed naming the status or the dead peer. */
  private nicDone(req: Request, s: NicStatus, bytes: number, dst: number): void {
    if (s === NicStatus.Ok) req.complete(this.sendStatus(bytes));
    else {
      const dead = s === NicStatus.Timeout ? this.failures.describe(dst) : null;
      req.fail(new MpiError('MPI_ERR_OTHER', dead ? `${req.what}: ${dead} did not answer within the NIC timeout` : `${req.what}: network transfer failed with NIC status ${statusName(s)}`));
    }
  }

  /** The status of a send of `bytes` completed by the NIC: one frozen object, shared by the sends of a size in a row. */
  private sendStatus(bytes: number): Status {
    if (this.lastSendStatus.bytes !== bytes) this.lastSendStatus = Object.freeze({ source: -1, tag: -1, count: 0, bytes });
    return this.lastSendStatus;
  }
  private lastSendStatus: Status = Object.freeze({ source: -1, tag: -1, count: 0, bytes: 0 });

  /** A short message reached rank `to`'s mailbox. */
  protected onSmsg(to: number, m: Msg, payload: Uint8Array | null): void {
    if (m.kind === 'fin' || m.kind === 'ack') {
      const s = this.sendReqs.get(m.sreq)!;
      this.sendReqs.delete(m.sreq);
      if (s.handle >= 0) s.proc.nic.deregister(s.handle);
      s.req.complete({ source: to, tag: m.tag, count: 0, bytes: m.bytes });
      return;
    }
    m.data = m.kind === 'eager' ? payload : null;
    m.local = false;
    this.arrive(this.eps[to]!, m);
    // the mailbox buffer is lent for this call: a message that did not match keeps a copy (a
    // skeleton payload, sizes only, is a view of the run's store and has no bytes to keep)
    if (m.data !== null && m.data === payload && !this.eps[to]!.proc.isSkeleton(payload)) m.data = payload.slice();
  }

  /**
   * The receive side of a rendezvous: pulls the sender's buffer and answers with a FIN. (Its
   * closures live here, apart from `deliver`, so that an eager delivery allocates none.)
   */
  protected rendezvous(me: Endpoint, env: Msg, p: Posted, status: Status, inCall: boolean): void {
    const P = this.params;
    const proc = me.proc;
    const sender = this.eps[env.src]!.proc;
    // multi-rail (seed 002 §6.1): a large message is pulled as `rails` gets, one per independent path
    const rails = P.railThresholdBytes > 0 && env.bytes >= P.railThresholdBytes ? Math.min(P.rails, env.bytes) : 1;
    const pull = (): void => {
      const local = p.buf.subarray(0, env.bytes);
      if (rails === 1) {
        proc.nic.post({
          op: 'get',
          mode: 'bte',
          local,
          remoteNode: sender.node,
          remoteHandle: env.handle,
          remoteOffset: 0,
          onComplete: (s) => {
            if (s !== NicStatus.Ok) p.req.fail(new MpiError('MPI_ERR_OTHER', `${p.req.what}: rendezvous get from ${this.failures.describe(env.src) ?? `rank ${env.src}`} failed with NIC status ${statusName(s)}`));
            else p.req.complete(status, P.recvOverheadPs + p.searchPs + unpacked(p, env.bytes));
            this.reply(me, env, 'fin');
          },
        });
        return;
      }
      // the receive completes, and the FIN goes, once every stream is in
      let left = rails;
      let failed: NicStatus = NicStatus.Ok;
      // streams split on packet boundaries
      const pkt = proc.nic.params.format.maxPayloadBytes;
      const part = Math.ceil(env.bytes / rails / pkt) * pkt;
      for (let i = 0; i < rails; i++) {
        const from = Math.min(i * part, env.bytes);
        proc.nic.post({
          op: 'get',
          mode: 'bte',
          local: local.subarray(from, Math.min(from + part, env.bytes)),
          remoteNode: sender.node,
          remoteHandle: env.handle,
          remoteOffset: from,
          path: i,
          onComplete: (s) => {
            if (s !== NicStatus.Ok && failed === NicStatus.Ok) failed = s;
            if (--left > 0) return;
            if (failed !== NicStatus.Ok) p.req.fail(new MpiError('MPI_ERR_OTHER', `${p.req.what}: rendezvous get from ${this.failures.describe(env.src) ?? `rank ${env.src}`} failed with NIC status ${statusName(failed)}`));
            else p.req.complete(status, P.recvOverheadPs + p.searchPs + unpacked(p, env.bytes));
            this.reply(me, env, 'fin');
          },
        });
      }
    };
    // the pull needs the receiver's CPU: now if it is inside MPI, else at its next MPI call
    if (inCall) return pull();
    me.onCpu(pull);
  }

  /** Tells a synchronous sender that its message has matched. */
  protected ack(me: Endpoint, env: Msg, local: boolean): void {
    if (!local) {
      this.reply(me, env, 'ack');
      return;
    }
    const s = this.sendReqs.get(env.sreq)!;
    this.sendReqs.delete(env.sreq);
    this.runAt(me.proc, me.proc.time() + this.params.shmLatencyPs, () => s.req.complete({ source: me.proc.rank, tag: env.tag, count: 0, bytes: env.bytes }));
  }

  /** Answers a sender: FIN (its rendezvous buffer is free) or ACK (its synchronous send matched). */
  protected reply(me: Endpoint, env: Msg, kind: 'fin' | 'ack'): void {
    const sender = this.eps[env.src]!.proc;
    const r = new Msg(kind, me.proc.rank, env.tag, env.ctx, -1, env.bytes, -1, env.sreq, false);
    me.proc.nic.sendSmsg(sender.node, sender.inst, r, EMPTY, ignore);
  }
}
