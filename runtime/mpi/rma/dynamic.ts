import type { Proc } from '../../proc.ts';
import { MpiError } from '../request.ts';
import { MAX_REGIONS } from './control.ts';

/** Memory attached to a dynamic window: its address (what MPI_Get_address would give), bytes and NIC handle. */
export interface Region {
  readonly address: number;
  readonly mem: Uint8Array;
  readonly handle: number;
}

/** First address handed out, and the alignment of each region's address. */
const FIRST_ADDRESS = 0x10000;
const ALIGN = 64;

/**
 * The regions one rank has attached to a dynamic window (MPI_Win_attach/detach). Each is
 * registered with the rank's NIC and listed in the rank's region table, which origins read with
 * a get and keep (as Open MPI's osc/rdma does): an origin that finds no region for an address in
 * its copy reads the table again, and fails with MPI_ERR_RMA_RANGE if it is not there either.
 */
export class RegionTable {
  private list: Region[] = [];
  private next = FIRST_ADDRESS;
  /** Changes on every attach and detach. */
  version = 0;

  get regions(): readonly Region[] {
    return this.list;
  }

  /** Registers `mem` and lists it; returns its address. */
  attach(proc: Proc, mem: Uint8Array): number {
    if (this.list.some((r) => r.mem.buffer === mem.buffer && r.mem.byteOffset < mem.byteOffset + mem.length && mem.byteOffset < r.mem.byteOffset + r.mem.length)) {
      throw new MpiError('MPI_ERR_RMA_ATTACH', 'attach: the memory overlaps a region already attached to this window');
    }
    if (this.list.length >= MAX_REGIONS) throw new MpiError('MPI_ERR_RMA_ATTACH', `attach: ${MAX_REGIONS} regions are attached to this window already, the most it takes`);
    const address = this.next;
    this.next = Math.ceil((address + Math.max(1, mem.length)) / ALIGN) * ALIGN;
    const handle = proc.nic.register(mem, { inst: proc.inst });
    this.list = [...this.list, { address, mem, handle }];
    this.version++;
    return address;
  }

  /** Deregisters and unlists the region of `mem` (the same view that was attached). */
  detach(proc: Proc, mem: Uint8Array): void {
    const r = this.list.find((x) => x.mem.buffer === mem.buffer && x.mem.byteOffset === mem.byteOffset && x.mem.length === mem.length);
    if (!r) throw new MpiError('MPI_ERR_RMA_ATTACH', `detach: this memory (${mem.length} bytes) is not attached to the window`);
    proc.nic.deregister(r.handle);
    this.list = this.list.filter((x) => x !== r);
    this.version++;
  }

  /** Deregisters every region (the window is freed). */
  clear(proc: Proc): void {
    for (const r of this.list) proc.nic.deregister(r.handle);
    this.list = [];
    this.version++;
  }
}

/** The region of `regions` holding bytes [address, address + bytes), or undefined. */
export function findRegion(regions: readonly Region[], address: number, bytes: number): Region | undefined {
  return regions.find((r) => address >= r.address && address + bytes <= r.address + r.mem.length);
}
