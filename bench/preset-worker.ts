/**
 * One preset of the fabric benchmark, run in a worker thread of its own so that each machine is
 * measured with fresh compiled code, as in a run that simulates that machine alone.
 */
import { benchFabric, type FabricBenchOptions, type FabricBenchResult } from './fabric.ts';

export default function run(opts: FabricBenchOptions): FabricBenchResult {
  return benchFabric(opts);
}
