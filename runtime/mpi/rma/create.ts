import { MpiError } from '../request.ts';
import { CTRL_BYTES, type TargetInfo } from './control.ts';
import { Notices } from './pscw.ts';
import { Win, WinShared, type WinFlavor, type WinHost } from './window.ts';

/** A window and the memory the library allocated for it (winAllocate, winAllocateShared). */
export interface AllocatedWin {
  readonly win: Win;
  /** This rank's window memory: view it with any typed array (`new Float64Array(buf.buffer, buf.byteOffset, n)`). */
  readonly buf: Uint8Array;
}

/** Checks a displacement unit (MPI_ERR_DISP). */
export function checkDispUnit(call: string, dispUnit: number): void {
  if (!Number.isInteger(dispUnit) || dispUnit < 1) throw new MpiError('MPI_ERR_DISP', `${call}: dispUnit=${dispUnit} must be a positive integer`);
}

/** Checks a window size in bytes (MPI_ERR_SIZE). */
export function checkSize(call: string, bytes: number): void {
  if (!Number.isInteger(bytes) || bytes < 0) throw new MpiError('MPI_ERR_SIZE', `${call}: bytes=${bytes} must be a non-negative integer`);
}

/**
 * Makes this rank's side of a window over `mem` (null: dynamic) and learns every rank's: its
 * control segment and memory are registered with the NIC (`pageBytes` pages), then an allgather
 * over the window's communicator tells each rank the others' handles, sizes and displacement
 * units, as MPICH does at window creation.
 */
export async function makeWindow(host: WinHost, flavor: WinFlavor, mem: Uint8Array | null, dispUnit: number, pageBytes: number): Promise<Win> {
  const { proc, comm, world } = host;
  const shared = world.registry.memo(host.key, () => new WinShared(comm.size));
  const notices = new Notices(comm.size);
  const ctrl = new Uint8Array(CTRL_BYTES);
  const ctrlHandle = proc.nic.register(ctrl, { inst: proc.inst, cq: notices.cq });
  const memHandle = mem ? proc.nic.register(mem, { inst: proc.inst, pageBytes }) : -1;
  shared.segments[comm.rank] = mem;
  const all = new Float64Array(4 * comm.size);
  await comm.allgather(Float64Array.of(memHandle, ctrlHandle, mem?.length ?? 0, dispUnit), all);
  const targets: TargetInfo[] = [];
  for (let r = 0; r < comm.size; r++) {
    targets.push({ rank: r, proc: world.procs[comm.worldRank(r)]!, memHandle: all[4 * r]!, ctrlHandle: all[4 * r + 1]!, size: all[4 * r + 2]!, dispUnit: all[4 * r + 3]! });
  }
  return new Win(host, shared, { flavor, mem, memHandle, ctrlHandle, targets, notices, dispUnit });
}

/**
 * A shared window (MPI_Win_allocate_shared): every rank of the communicator must run on one
 * node (MPI_ERR_RMA_SHARED otherwise); the node's ranks' segments are contiguous in rank order
 * in one memory that all of them address directly (`sharedQuery`).
 */
export async function allocateShared(host: WinHost, bytes: number, dispUnit: number): Promise<AllocatedWin> {
  const { proc, comm, world } = host;
  const sizes = new Float64Array(comm.size);
  await comm.allgather(Float64Array.of(bytes), sizes);
  const block = world.registry.memo(`${host.key}:shm`, () => {
    const offsets = new Float64Array(comm.size + 1);
    for (let r = 0; r < comm.size; r++) offsets[r + 1] = offsets[r]! + sizes[r]!;
    return { memory: new ArrayBuffer(offsets[comm.size]!), offsets };
  });
  const buf = new Uint8Array(block.memory, block.offsets[comm.rank]!, bytes);
  const win = await makeWindow(host, 'shared', buf, dispUnit, proc.machine.config.dmapp.heapPageBytes);
  return { win, buf };
}
