/**
 * uGNI completion queues: creating and destroying them, reading their events, and the descriptor a
 * local POST event completes.
 */
import { CqEventKind, CompletionQueue } from '../../fabric/nic/cq.ts';
import { NicStatus, statusName } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { GNI_RC, type GniResult } from './codes.ts';
import { checkCq, checkNic, fail } from './checks.ts';
import { GniCq, type GniCompletedResult, type GniCqEvent, type GniCqResult, type GniNic, type GniPostDescriptor } from './objects.ts';
import { isSmsgEvent } from './smsg.ts';

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/** A local POST event's record: the descriptor it completes. */
interface PostRecord {
  readonly desc: GniPostDescriptor;
}

/**
 * The completion queues of one process's uGNI face (the CQ calls of Gni), and the posts whose
 * local event is still to be read: an event carries its descriptor's postId, and getCompleted
 * gives the descriptor.
 */
export class GniCompletions {
  private readonly posts = new Map<number, PostRecord>();
  private readonly completed = new WeakMap<GniCqEvent, PostRecord>();
  private nextPost = 1;

  constructor(private readonly proc: Proc) {}

  /** Records a post whose local event completes `desc`; returns the serial the NIC's CQ event carries. */
  track(desc: GniPostDescriptor): number {
    const serial = this.nextPost++;
    this.posts.set(serial, { desc });
    return serial;
  }

  /** GNI_CqCreate: a completion queue of `entries` events on `nic`. */
  cqCreate(nic: GniNic, entries: number): GniResult<{ readonly cq: GniCq }> {
    const bad = checkNic('cqCreate', nic, this.proc.rank);
    if (bad) return bad;
    if (!Number.isInteger(entries) || entries < 1) return fail(GNI_RC.INVALID_PARAM, `cqCreate: entries=${entries} must be a positive integer`);
    const cq = new GniCq(nic, new CompletionQueue(entries));
    cq.queue.onEvent = () => {
      if (cq.waiting) this.proc.wake();
    };
    return { rc: GNI_RC.SUCCESS, cq };
  }

  /** GNI_CqDestroy. */
  cqDestroy(cq: GniCq): GniResult {
    const bad = checkCq('cqDestroy', cq, this.proc.rank);
    if (bad) return bad;
    cq.destroyed = true;
    cq.queue.onEvent = null;
    return SUCCESS;
  }

  /**
   * GNI_CqGetEvent: the oldest event (SUCCESS, or TRANSACTION_ERROR with the event of a failed
   * transaction), GNI_RC_NOT_DONE when the queue is empty, GNI_RC_ERROR_RESOURCE once after the
   * queue overran (events were lost; those that fitted follow). Costs one poll of CPU time.
   */
  async cqGetEvent(cq: GniCq): Promise<GniCqResult> {
    const bad = checkCq('cqGetEvent', cq, this.proc.rank);
    if (bad) return bad;
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'gni.cqGetEvent');
    return this.takeEvent(cq);
  }

  /** GNI_CqWaitEvent (no timeout): like cqGetEvent but blocks while the queue is empty. */
  async cqWaitEvent(cq: GniCq): Promise<GniCqResult> {
    const bad = checkCq('cqWaitEvent', cq, this.proc.rank);
    if (bad) return bad;
    for (;;) {
      await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'gni.cqWaitEvent');
      const r = this.takeEvent(cq);
      if (r.rc !== GNI_RC.NOT_DONE || cq.destroyed) return r;
      cq.waiting = true;
      await this.proc.engine.suspend(this.proc.thread, `gni.cqWaitEvent (CQ of ${cq.entries} entries, instId ${cq.nic.cdm.instId})`);
      cq.waiting = false;
    }
  }

  /**
   * GNI_GetCompleted: the descriptor a local POST event completes (once per event);
   * TRANSACTION_ERROR, with the descriptor, when the transaction failed.
   */
  getCompleted(cq: GniCq, event: GniCqEvent): GniCompletedResult {
    const bad = checkCq('getCompleted', cq, this.proc.rank);
    if (bad) return bad;
    const rec = this.completed.get(event);
    if (!rec) return fail(GNI_RC.INVALID_PARAM, 'getCompleted: not a local POST event of this process, or its descriptor was already retrieved');
    this.completed.delete(event);
    if (!event.ok) return { rc: GNI_RC.TRANSACTION_ERROR, message: `getCompleted: ${rec.desc.type} failed with NIC status ${event.status}`, desc: rec.desc };
    return { rc: GNI_RC.SUCCESS, desc: rec.desc };
  }

  private takeEvent(cq: GniCq): GniCqResult {
    const q = cq.queue;
    if (q.overrun) {
      q.clearOverrun();
      return fail(GNI_RC.ERROR_RESOURCE, `cqGetEvent: the CQ of ${q.entries} entries overran; events were lost`);
    }
    const ev = q.get();
    if (!ev) return fail(GNI_RC.NOT_DONE, 'cqGetEvent: the CQ is empty');
    const local = ev.kind === CqEventKind.Local;
    let data = ev.data;
    let rec: PostRecord | undefined;
    if (local && !isSmsgEvent(ev)) {
      rec = this.posts.get(ev.data);
      this.posts.delete(ev.data);
      data = rec?.desc.postId ?? 0;
    }
    const recv = ev.kind === CqEventKind.Receive;
    const event: GniCqEvent = {
      type: isSmsgEvent(ev) ? 'SMSG' : recv ? 'RECV' : 'POST',
      source: local ? 'local' : 'remote',
      ok: ev.status === NicStatus.Ok,
      status: statusName(ev.status),
      data,
      sourceNode: ev.sourceNode,
      ...(recv ? { length: ev.bytes ?? 0 } : {}),
    };
    if (rec) this.completed.set(event, rec);
    if (!event.ok) return { rc: GNI_RC.TRANSACTION_ERROR, message: `cqGetEvent: a ${event.type} transaction failed with NIC status ${event.status}`, event };
    return { rc: GNI_RC.SUCCESS, event };
  }
}
