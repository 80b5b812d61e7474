import type { Proc } from '../../proc.ts';
import { MpiError } from '../request.ts';
import { CTRL_REGIONS, CTRL_TABLE } from './control.ts';

/** Memory attached to a dynamic window: its address (what MPI_Get_address would give), bytes and NIC handle. */
export interface Region {
  readonly address: number;
  readonly mem: Uint8Array;
  readonly handle: number;
}

/** Where a rank's region table lies for origins to read it: a NIC handle and a byte offset. */
export interface TableAt {
  readonly handle: number;
  readonly offset: number;
}

/** First address handed out, and the alignment of each region's address. */
const FIRST_ADDRESS = 0x10000;
const ALIGN = 64;

/**
 * The regions one rank has attached to a dynamic window (MPI_Win_attach/detach). Each is
 * registered with the rank's NIC and listed in the rank's region table, which origins read with
 * a get and keep (as Open MPI's osc/rdma does): an origin that finds no region for an address in
 * its copy reads the table again, and fails with MPI_ERR_RMA_RANGE if it is not there either.
 * Addresses are as a C program's: views of one ArrayBuffer get addresses that differ by their
 * byte offsets, so regions attached back to back in one buffer are back to back in addresses too,
 * and one operation may reach across them (as MPICH allows).
 *
 * The table starts in the window's control segment (CTRL_REGIONS entries); an attach that
 * outgrows it registers a table of twice the entries and deregisters the old one, as a library
 * reallocates a growing array, so a rank may attach up to the machine's `mpi.maxAttach` regions
 * (MPI_ERR_RMA_ATTACH past it). Origins read the table where it lies now (a real library would
 * keep its location in the control segment; phit charges only the read of the table).
 */
export class RegionTable {
  private list: Region[] = [];
  private next = FIRST_ADDRESS;
  /** The address of byte 0 of each buffer a region was attached from. */
  private readonly bases = new WeakMap<ArrayBufferLike, number>();
  /** Changes on every attach and detach. */
  version = 0;
  /** Entries the table holds where it lies now. */
  private capacity = CTRL_REGIONS;
  /** NIC handle of the table's own segment once it outgrew the control segment (-1 before). */
  private ownHandle = -1;

  get regions(): readonly Region[] {
    return this.list;
  }

  /** Where the table lies: in the control segment of handle `ctrlHandle`, or in its own segment once it outgrew it. */
  tableAt(ctrlHandle: number): TableAt {
    return this.ownHandle < 0 ? { handle: ctrlHandle, offset: CTRL_TABLE } : { handle: this.ownHandle, offset: 0 };
  }

  /** Registers `mem` and lists it; returns its address. At most `maxAttach` regions at once (MPI_ERR_RMA_ATTACH). */
  attach(proc: Proc, mem: Uint8Array, maxAttach: number): number {
    if (this.list.some((r) => r.mem.buffer === mem.buffer && r.mem.byteOffset < mem.byteOffset + mem.length && mem.byteOffset < r.mem.byteOffset + r.mem.length)) {
      throw new MpiError('MPI_ERR_RMA_ATTACH', 'attach: the memory overlaps a region already attached to this window');
    }
    if (this.list.length >= maxAttach) throw new MpiError('MPI_ERR_RMA_ATTACH', `attach: ${maxAttach} regions are attached to this window already, the most it takes (mpi.maxAttach=${maxAttach})`);
    if (this.list.length >= this.capacity) this.grow(proc);
    let base = this.bases.get(mem.buffer);
    if (base === undefined) {
      base = this.next;
      this.bases.set(mem.buffer, base);
      this.next = Math.ceil((base + Math.max(1, mem.buffer.byteLength)) / ALIGN) * ALIGN;
    }
    const address = base + mem.byteOffset;
    const handle = proc.nic.register(mem, { inst: proc.inst });
    this.list = [...this.list, { address, mem, handle }];
    this.version++;
    return address;
  }

  /** Moves the table to a registered segment of twice the entries. */
  private grow(proc: Proc): void {
    this.capacity *= 2;
    const handle = proc.nic.register(new Uint8Array(16 * this.capacity), { inst: proc.inst });
    if (this.ownHandle >= 0) proc.nic.deregister(this.ownHandle);
    this.ownHandle = handle;
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
    if (this.ownHandle >= 0) proc.nic.deregister(this.ownHandle);
    this.ownHandle = -1;
    this.capacity = CTRL_REGIONS;
    this.list = [];
    this.version++;
  }
}

/**
 * The regions of `regions` holding bytes [address, address + bytes), in address order: one, or
 * several attached back to back; undefined when some byte is in none.
 */
export function findRegions(regions: readonly Region[], address: number, bytes: number): Region[] | undefined {
  if (bytes === 0) {
    const r = regions.find((x) => address >= x.address && address <= x.address + x.mem.length);
    return r ? [r] : undefined;
  }
  const out: Region[] = [];
  let at = address;
  const end = address + bytes;
  do {
    const r = regions.find((x) => at >= x.address && at < x.address + x.mem.length);
    if (!r) return undefined;
    out.push(r);
    at = r.address + r.mem.length;
  } while (at < end);
  return out;
}
