import type { Proc } from '../proc.ts';
import type { MpiWorld } from './core.ts';

/** Split type of `splitType`: the ranks of one node, which share memory (MPI_COMM_TYPE_SHARED; MPICH's value). */
export const COMM_TYPE_SHARED = 1;
/** Split type of `splitType`: by the hardware resource the info key `mpi_hw_resource_type` names (MPI_COMM_TYPE_HW_GUIDED, MPI 4.0). */
export const COMM_TYPE_HW_GUIDED = 2;
/** Split type of `splitType`: by the largest hardware level that splits the communicator, which the call writes into the info (MPI_COMM_TYPE_HW_UNGUIDED, MPI 4.0). */
export const COMM_TYPE_HW_UNGUIDED = 3;
/** Split type of `splitType`: as HW_GUIDED, by `mpi_hw_resource_type` (MPI_COMM_TYPE_RESOURCE_GUIDED, MPI 4.1; phit has no process sets for `mpi_pset_name`). */
export const COMM_TYPE_RESOURCE_GUIDED = 4;

/** The info key naming the hardware resource of the guided split types (MPI 4.0 §7.4.2). */
export const HW_RESOURCE_KEY = 'mpi_hw_resource_type';

/** The hardware levels of a phit machine a rank belongs to, from the widest. */
export type HwLevel = 'router' | 'node' | 'socket' | 'core';

/**
 * The values of `mpi_hw_resource_type` phit knows, hwloc's names as MPICH takes them, and the level
 * each stands for on phit's machines:
 * - `router`: the nodes on one router of the fabric (phit's own name; a Gemini's 2 nodes on xe6,
 *   an Aries' 4 on xc30, the nodes per router of the topology elsewhere);
 * - `mpi_shared_memory` (MPI's reserved value, as COMM_TYPE_SHARED), `machine` (hwloc: one OS
 *   instance) and `node`: the ranks of one node;
 * - `package`, `socket`, `numanode` and the L3 caches: the ranks of one socket (a node's ranks
 *   fill its `cpu.sockets` sockets in order, as the launch places them; assumed: one NUMA domain
 *   and one L3 per socket);
 * - `core`, `hwthread`, `pu` and the L1 and L2 caches: one rank alone (a rank per core, one
 *   hardware thread each; assumed: private L1 and L2 caches).
 * Other values (devices such as `gpu`, `ib`, `pci:x`, or unknown words) name nothing phit
 * models: the guided splits return null for them, as MPI specifies.
 */
export const HW_RESOURCES: Readonly<Record<string, HwLevel>> = {
  router: 'router',
  mpi_shared_memory: 'node',
  machine: 'node',
  node: 'node',
  package: 'socket',
  socket: 'socket',
  numanode: 'socket',
  l3cache: 'socket',
  l3ucache: 'socket',
  l3dcache: 'socket',
  l3icache: 'socket',
  core: 'core',
  hwthread: 'core',
  pu: 'core',
  l1cache: 'core',
  l1ucache: 'core',
  l1dcache: 'core',
  l1icache: 'core',
  l2cache: 'core',
  l2ucache: 'core',
  l2dcache: 'core',
  l2icache: 'core',
};

/** The levels HW_UNGUIDED tries, widest first, with the resource type it reports for each (MPICH tries the node, then hwloc's levels below it). */
export const UNGUIDED_LEVELS: readonly (readonly [HwLevel, string])[] = [
  ['router', 'router'],
  ['node', 'node'],
  ['socket', 'package'],
  ['core', 'core'],
];

/** The instance of hardware level `level` world rank `w` uses: a number that ranks sharing it, and only they, have. */
export function hwInstance(world: MpiWorld, proc: Proc, w: number, level: HwLevel): number {
  const p = world.procs[w]!;
  switch (level) {
    case 'router':
      return proc.machine.graph.nodeRouter[p.node]!;
    case 'node':
      return p.node;
    case 'socket': {
      // as the launch places them: a node's ranks fill its sockets in order
      const sockets = proc.machine.config.cpu.sockets;
      let onNode = 0;
      for (const q of world.procs) if (q.node === p.node) onNode++;
      return p.node * sockets + Math.floor((p.inst * sockets) / onNode);
    }
    case 'core':
      return w;
  }
}
