/**
 * One machine of `phit compare`, in a worker thread of its own: it loads and checks the app again
 * (a worker trusts nothing it is sent), simulates, and returns the row as plain data.
 */
import { compareOne, type CompareOutcome, type CompareTask } from './compare.ts';

export default function run(task: CompareTask): Promise<CompareOutcome> {
  return compareOne(task);
}
