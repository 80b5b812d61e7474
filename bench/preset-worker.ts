/**
 * One run of the benchmark (a preset's uniform traffic, or an app run), in a worker thread of its
 * own so that each is measured with fresh compiled code, as in a run that simulates that machine alone.
 */
import { benchFabric, type FabricBenchOptions, type FabricBenchResult } from './fabric.ts';
import { benchMpi, type MpiBenchOptions, type MpiBenchResult } from './mpi.ts';

export default function run(opts: FabricBenchOptions | MpiBenchOptions): FabricBenchResult | Promise<MpiBenchResult> {
  return 'app' in opts ? benchMpi(opts) : benchFabric(opts);
}
