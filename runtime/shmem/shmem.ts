import type { Dmapp } from '../dmapp/dmapp.ts';
import type { Proc } from '../proc.ts';

/**
 * OpenSHMEM 1.5 (subset) over DMAPP, as Cray SHMEM is layered on the XC and XE (DESIGN.md).
 * Every remote access goes through this PE's `Dmapp`.
 */
export class Shmem {
  constructor(
    private readonly dmapp: Dmapp,
    private readonly proc: Proc,
  ) {}

  /** This PE's number. */
  myPe(): number {
    return this.dmapp.pe;
  }

  /** Number of PEs. */
  nPes(): number {
    return this.dmapp.npes;
  }

  /** The process this PE runs as (for CPU-time charges). */
  protected get process(): Proc {
    return this.proc;
  }
}
