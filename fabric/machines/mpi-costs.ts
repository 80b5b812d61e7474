import type { ParamDef } from './spec.ts';

/** A cost's value with where it comes from (a citation, `assumed: ...`, or `fitted: ...`). */
export interface Cost {
  readonly value: string;
  readonly source: string;
}

/** The parts of MPI's software cost a preset sets beyond its call overheads (see mpiCostParams). */
export interface MpiCosts {
  readonly messageGap: Cost;
  readonly matchEntry: Cost;
  readonly requestOverhead: Cost;
  readonly collectiveOverhead: Cost;
  readonly collectiveStep: Cost;
  readonly packBlock: Cost;
}

/**
 * The named parts of the MPI library's software cost that every preset has besides its call
 * overheads (`mpi.sendOverhead`, `mpi.recvOverhead`, `mpi.testOverhead`), its eager copies
 * (`mpi.copyBandwidth`) and its on-node path (`mpi.shmOverhead` where a preset sets it, `mpi.shmLatency`, `mpi.shmBandwidth`). Each is CPU
 * time charged to the rank where the library spends it, so `--metrics` counts it as transfer time:
 * - `mpi.messageGap`: the least time between two messages leaving one rank (the message rate the
 *   library and NIC allow, LogGP's g); a send that comes sooner spins in the library until then;
 * - `mpi.matchEntry`: per entry of the posted-receive or unexpected-message queue that a match
 *   searches past (the first entry that matches costs nothing beyond `mpi.recvOverhead`);
 * - `mpi.requestOverhead`: allocating and completing the request of a point-to-point call,
 *   charged when the call is made (a persistent request's once, when it is made, not at each start);
 * - `mpi.collectiveOverhead`: a collective call's entry (argument checks, algorithm choice,
 *   communicator lookup), charged before its first message;
 * - `mpi.collectiveStep`: each step of a collective's schedule (every wait of the algorithm:
 *   the library's bookkeeping between rounds), charged as each wait ends;
 * - `mpi.packBlock`: per contiguous block of a non-contiguous datatype the library packs (at a
 *   send) or unpacks (at a receive's completion), on top of its bytes at `mpi.copyBandwidth`.
 */
export function mpiCostParams(c: MpiCosts): Record<string, ParamDef> {
  return {
    'mpi.messageGap': { ...c.messageGap, help: 'least time between two messages leaving one rank (the message rate of library and NIC)' },
    'mpi.matchEntry': { ...c.matchEntry, help: 'CPU time per queue entry a match searches past (posted receives, unexpected messages)' },
    'mpi.requestOverhead': { ...c.requestOverhead, help: 'CPU time to allocate and complete the request of a point-to-point call' },
    'mpi.collectiveOverhead': { ...c.collectiveOverhead, help: 'CPU time of a collective call\'s entry (argument checks, algorithm choice, communicator lookup)' },
    'mpi.collectiveStep': { ...c.collectiveStep, help: 'CPU time per step of a collective\'s schedule (each wait of the algorithm)' },
    'mpi.packBlock': { ...c.packBlock, help: 'CPU time per contiguous block of a non-contiguous datatype packed or unpacked (besides its bytes at mpi.copyBandwidth)' },
  };
}

/** No cost beyond the call overheads: the parts nothing published separates on a machine (packing aside, see packBlockCost). */
export const NO_EXTRA_MPI_COST: Omit<MpiCosts, 'packBlock'> = {
  messageGap: { value: '0ns', source: 'assumed: the send overhead and the NIC set the message rate' },
  matchEntry: { value: '0ns', source: 'assumed: not measured on this machine' },
  requestOverhead: { value: '0ns', source: 'assumed: part of mpi.sendOverhead and mpi.recvOverhead' },
  collectiveOverhead: { value: '0ns', source: 'assumed: not measured on this machine' },
  collectiveStep: { value: '0ns', source: 'assumed: not measured on this machine' },
};

/**
 * `mpi.packBlock` of a core running at `ghz` GHz: an estimate of 12 cycles per block (the
 * datatype engine's step to the next block and a memcpy call for a short block, as MPICH's
 * dataloop code runs a vector), since no published measurement separates the per-block cost of
 * Cray MPICH's or MPICH/Yaksa's pack loop from its copy bandwidth. `clock` says where the clock
 * rate comes from.
 */
export function packBlockCost(ghz: number, clock: string): Cost {
  return { value: `${Math.round((12 / ghz) * 10) / 10}ns`, source: `assumed: about 12 cycles per block (loop step and a short memcpy) at ${clock}; no published per-block pack cost of Cray MPICH or MPICH/Yaksa was found` };
}
