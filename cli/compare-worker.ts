/**
 * One run of `phit compare` (one machine) or `phit sweep` (one point), in a worker thread: it
 * loads and checks the app again (a worker trusts nothing it is sent), simulates, and returns the
 * row as plain data.
 */
import { compareOne, type CompareOutcome, type CompareTask } from './compare.ts';

export default function run(task: CompareTask): Promise<CompareOutcome> {
  return compareOne(task);
}
