/** A sweep point's row from what its run gave: the same for a point run in a worker thread and one run as a Slurm array task. */
import { firstLine, type CompareOutcome } from './compare.ts';
import type { SweepPoint, SweepRow } from './sweep.ts';

/** The error row of a point that could not run or gave no result (the first line of the error). */
export function failedRow(point: SweepPoint, e: unknown): SweepRow {
  return { ...point, status: 'error', error: firstLine(e), simulatedTimeUs: null, commShare: null, merit: null, meritKey: null, higherIsBetter: null, result: {} };
}

/** The row of a point from its run's outcome (an error row when the run failed). */
export function outcomeRow(point: SweepPoint, o: CompareOutcome): SweepRow {
  if (o.error !== undefined) return failedRow(point, o.error);
  return {
    ...point,
    status: 'ok',
    simulatedTimeUs: o.simulatedTimeUs,
    commShare: o.commShare,
    merit: o.merit,
    meritKey: o.meritKey,
    higherIsBetter: o.higherIsBetter ?? null,
    result: o.lastRow ?? {},
  };
}
