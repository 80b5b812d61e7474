// MPICH test/mpi/coll/allgatherv4.c: MPI_Allgatherv of 1 B to 256 KiB per rank with regular,
// broadcast-like, spiked, half-full, linearly decreasing and bell-curve counts, on world, on
// world less its last rank and on world split with random keys (no data check: completion).
// C seeds rand() with time(NULL), the same second on every rank: one seeded generator here.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

const START_BUF = 1;
const LARGE_BUF = 256 * 1024;
const MAX_BUF = 128 * 1024 * 1024;
const LOOPS = 10;

type TestType = 'REGULAR' | 'BCAST' | 'SPIKE' | 'HALF_FULL' | 'LINEAR_DECREASE' | 'BELL_CURVE';

/** Probability of the normal distribution for slot i of n spanning [-3, 3]. */
function normal(n: number, i: number): number {
  const range = 6.0;
  const dx = range / n;
  const x = ((i + 0.5) / n - 0.5) * range;
  const p = (1.0 / Math.sqrt(6.28)) * Math.exp((-x * x) / 2.0);
  return p * dx;
}

export default async function allgatherv4(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const commSize = mpi.size;
  const commRank = mpi.rank;
  if (commSize < 3) throw new Error('At least 3 processes required');
  if (LARGE_BUF * commSize > MAX_BUF) return mt.finalize(errs);
  const runTest = async (msgSize: number, comm: Comm, testType: TestType): Promise<number> => {
    const size = comm.size;
    const rank = comm.rank;
    const recvcounts = new Int32Array(size);
    const displs = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      if (testType === 'REGULAR') recvcounts[i] = msgSize;
      else if (testType === 'BCAST') recvcounts[i] = !i ? msgSize : 0;
      else if (testType === 'SPIKE') recvcounts[i] = !i ? Math.trunc(msgSize / 2) : Math.trunc(msgSize / (2 * (size - 1)));
      else if (testType === 'HALF_FULL') recvcounts[i] = i < Math.trunc(size / 2) ? 2 * msgSize : 0;
      else if (testType === 'LINEAR_DECREASE') {
        const tmp = Math.trunc((2 * msgSize * (size - 1 - i)) / (size - 1));
        recvcounts[i] = tmp;
        // if the maximum message size is too large, don't run
        if (tmp > MAX_BUF) return errs;
      } else {
        let tmp = Math.trunc(msgSize * size * normal(size, i));
        if (displs[i]! + tmp > MAX_BUF) tmp = MAX_BUF - displs[i]!;
        recvcounts[i] = tmp;
      }
      if (i < size - 1) displs[i + 1] = displs[i]! + recvcounts[i]!;
    }
    // the part of the MAX_BUF-byte buffers the counts reach
    const sbuf = new Uint8Array(recvcounts[rank]!);
    const rbuf = new Uint8Array(displs[size - 1]! + recvcounts[size - 1]!);
    await comm.barrier();
    const start = mpi.wtime();
    for (let i = 0; i < LOOPS; i++) await comm.allgatherv(sbuf, rbuf, recvcounts, displs);
    const end = mpi.wtime();
    await comm.barrier();
    const totalTime = Float64Array.of(1.0e6 * (end - start));
    const avgTime = new Float64Array(1);
    const maxTime = new Float64Array(1);
    await comm.reduce(totalTime, avgTime, mpi.SUM, 0);
    await comm.reduce(totalTime, maxTime, mpi.MAX, 0);
    return avgTime[0]! / (LOOPS * size);
  };
  const commTests = async (comm: Comm): Promise<void> => {
    for (let msgSize = START_BUF; msgSize <= LARGE_BUF; msgSize *= 2) {
      for (const t of ['REGULAR', 'BCAST', 'SPIKE', 'HALF_FULL', 'LINEAR_DECREASE', 'BELL_CURVE'] as const) {
        const rtime = await runTest(msgSize, comm, t);
        if (!comm.rank) mt.printfMsg(1, `${t}:\tAVG: ${rtime.toFixed(3)}`);
      }
    }
  };
  // MPI_COMM_WORLD
  await commTests(mpi);
  // world less its last rank
  let comm = (await mpi.split(commRank === commSize - 1 ? 0 : 1, 0))!;
  if (commRank < commSize - 1) await commTests(comm);
  await comm.free();
  // a randomized communicator: every rank draws the same key
  comm = (await mpi.split(0, 1103515245))!;
  await commTests(comm);
  await comm.free();
  return mt.finalize(errs);
}
