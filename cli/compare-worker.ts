/**
 * One run of `phit compare` (one machine), `phit sweep` (one point) or `phit collectives --study`
 * (one algorithm at one size), in a worker thread: it loads and checks the app again (a worker
 * trusts nothing it is sent), simulates, and returns the row as plain data.
 */
import { runStudyPoint, type StudyPoint, type StudyTask } from '../runtime/coll-study.ts';
import { compareOne, type CompareOutcome, type CompareTask } from './compare.ts';

export default function run(task: CompareTask | StudyTask): Promise<CompareOutcome | StudyPoint> {
  return 'collective' in task ? runStudyPoint(task) : compareOne(task);
}
