/** uGNI memory registration: the registrations of one process, and the checks a post makes of its local buffer. */
import type { Proc } from '../proc.ts';
import { GNI_RC, type GniFailure, type GniResult } from './codes.ts';
import { checkCq, checkNic, fail } from './checks.ts';
import type { GniCq, GniMemHandle, GniNic } from './objects.ts';

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/** One registration: its bytes, the nic handle it was made on and the handle given out. */
export interface GniRegistration {
  readonly bytes: Uint8Array;
  readonly nic: GniNic;
  readonly mh: GniMemHandle;
}

/** The memory registrations of one process's uGNI face (memRegister / memDeregister of Gni). */
export class GniMemory {
  private readonly regs = new Map<number, GniRegistration>();

  constructor(private readonly proc: Proc) {}

  /**
   * GNI_MemRegister: registers `bytes` with the NIC in this domain; with `dstCq`, remote events
   * of transfers into it go there. The handle is what peers need (share it with `exchange`).
   */
  memRegister(nic: GniNic, bytes: Uint8Array, dstCq: GniCq | null = null): GniResult<{ readonly memHndl: GniMemHandle }> {
    const bad = checkNic('memRegister', nic, this.proc.rank) ?? (dstCq === null ? undefined : checkCq('memRegister', dstCq, this.proc.rank));
    if (bad) return bad;
    if (!(bytes instanceof Uint8Array)) return fail(GNI_RC.INVALID_PARAM, 'memRegister: bytes must be a Uint8Array');
    if (dstCq && dstCq.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'memRegister: dstCq belongs to another nic handle');
    const handle = this.proc.nic.register(bytes, { inst: this.proc.inst, ptag: nic.domain, ...(dstCq ? { cq: dstCq.queue } : {}) });
    const memHndl: GniMemHandle = { rank: this.proc.rank, node: this.proc.node, handle, length: bytes.length };
    this.regs.set(handle, { bytes, nic, mh: memHndl });
    return { rc: GNI_RC.SUCCESS, memHndl };
  }

  /** GNI_MemDeregister: later accesses through the handle fail (BadHandle). */
  memDeregister(nic: GniNic, memHndl: GniMemHandle): GniResult {
    const bad = checkNic('memDeregister', nic, this.proc.rank);
    if (bad) return bad;
    const reg = this.regs.get(memHndl?.handle);
    if (!reg || reg.mh !== memHndl || reg.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'memDeregister: not a registration of this nic handle');
    this.proc.nic.deregister(memHndl.handle);
    this.regs.delete(memHndl.handle);
    return SUCCESS;
  }

  /** The registration with NIC handle `handle`, if this process made it and has not deregistered it. */
  registration(handle: number): GniRegistration | undefined {
    return this.regs.get(handle);
  }

  /** Whether `local` lies in `lm`, a registration of this process; `what` names the post in the message. */
  checkLocalReg(call: string, what: string, lm: GniMemHandle | undefined, local: Uint8Array): GniFailure | undefined {
    const reg = lm ? this.regs.get(lm.handle) : undefined;
    if (!lm || !reg || reg.mh !== lm) return fail(GNI_RC.INVALID_PARAM, `${call}: ${what} needs desc.localMemHndl, a registration of this process`);
    if (!inside(reg.bytes, local)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.local lies outside the registration desc.localMemHndl`);
    return undefined;
  }
}

/** Whether `part` is a view inside the bytes of `whole`. */
function inside(whole: Uint8Array, part: Uint8Array): boolean {
  return whole.buffer === part.buffer && part.byteOffset >= whole.byteOffset && part.byteOffset + part.length <= whole.byteOffset + whole.length;
}
