import type { Proc } from '../../proc.ts';
import type { Comm } from '../comm.ts';
import type { MpiWorld } from '../core.ts';
import type { TargetInfo } from './control.ts';
import { RegionTable } from './dynamic.ts';
import { LockWatch } from './locks.ts';
import type { Notices } from './pscw.ts';

/** How a window's memory came to be (MPI_WIN_FLAVOR_*). */
export type WinFlavor = 'create' | 'allocate' | 'shared' | 'dynamic';

/** What a window is made on: the library, the rank, the window's own duplicate communicator and its key. */
export interface WinHost {
  readonly world: MpiWorld;
  readonly proc: Proc;
  readonly comm: Comm;
  readonly key: string;
}

/** What the ranks of one window reach of each other's memory: dynamic windows' region tables, shared windows' segments; and who waits for a lock. */
export class WinShared {
  readonly tables: RegionTable[];
  readonly segments: (Uint8Array | null)[];
  readonly locks: LockWatch;
  constructor(size: number) {
    this.locks = new LockWatch(size);
    this.tables = Array.from({ length: size }, () => new RegionTable());
    this.segments = new Array<Uint8Array | null>(size).fill(null);
  }
}

/** A segment of a shared window as `sharedQuery` gives it. */
export interface SharedSegment {
  /** The rank's bytes, directly addressable by every rank of the window. */
  readonly buf: Uint8Array;
  readonly size: number;
  readonly dispUnit: number;
}

/** What one made window is: its memory, handles and every rank's place. */
export interface WinParts {
  readonly flavor: WinFlavor;
  readonly mem: Uint8Array | null;
  readonly memHandle: number;
  readonly ctrlHandle: number;
  readonly targets: readonly TargetInfo[];
  readonly notices: Notices;
  readonly dispUnit: number;
}
