import type { Proc } from '../../proc.ts';

/**
 * The control segment every rank of a window registers with its NIC beside the window's memory
 * (as Open MPI's osc/rdma and Cray MPICH's DMAPP path keep their lock and state words in
 * registered memory): the passive-target lock word, the accumulate mutex, the landing slot of
 * post and complete notifications (puts with a destination-side event) and, for a dynamic
 * window, the table of attached regions that origins read.
 */
export const CTRL_LOCK = 0;
/** Byte offset of the accumulate mutex: 0 when free, else the holder's rank + 1. */
export const CTRL_ACC = 8;
/** Byte offset where notifications land (their bytes mean nothing; their event does). */
export const CTRL_NOTE = 16;
/** Byte offset of a dynamic window's region table: 16 bytes (address, length) per region. */
export const CTRL_TABLE = 64;
/** Regions the control segment's table holds; a table that outgrows it moves to a segment of its own (see RegionTable). */
export const CTRL_REGIONS = 64;
/** Bytes of the control segment. */
export const CTRL_BYTES = CTRL_TABLE + 16 * CTRL_REGIONS;

/** Where one rank of a window is, as the other ranks learn it when the window is made. */
export interface TargetInfo {
  /** Rank in the window's communicator. */
  readonly rank: number;
  readonly proc: Proc;
  /** NIC handle of its window memory (-1: a dynamic window, see its regions). */
  readonly memHandle: number;
  /** NIC handle of its control segment. */
  readonly ctrlHandle: number;
  /** Bytes of its window memory. */
  readonly size: number;
  readonly dispUnit: number;
}
