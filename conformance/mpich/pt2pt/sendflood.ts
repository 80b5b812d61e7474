// MPICH test/mpi/pt2pt/sendflood.c: every rank floods rank 0 with short messages, which answers
// each; a lost message (a race in a message-queue update) hangs the test.
import type { MTest, MTestResult } from '../mtest.ts';

const LOOP_COUNT = 100000;
const DATA_SIZE = 4;
const MP_TAG = 999;

export default async function sendflood(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const nProc = mpi.size;
  const rank = mpi.rank;
  if (!rank) {
    const psend: Int32Array[] = [];
    const precv: Int32Array[] = [];
    for (let i = 0; i < nProc; i++) {
      psend[i] = new Int32Array(DATA_SIZE);
      precv[i] = new Int32Array(DATA_SIZE);
    }
    for (let i = 0; i < LOOP_COUNT; i++) {
      for (let j = 1; j < nProc; j++) await mpi.recv(precv[j]!, j, MP_TAG);
      for (let j = 1; j < nProc; j++) await mpi.send(psend[j]!.subarray(0, DATA_SIZE - 1), j, MP_TAG);
    }
  } else {
    const psend = new Int32Array(DATA_SIZE);
    const precv = new Int32Array(DATA_SIZE);
    for (let i = 0; i < LOOP_COUNT; i++) {
      await mpi.send(psend.subarray(0, DATA_SIZE - 1), 0, MP_TAG);
      await mpi.recv(precv, 0, MP_TAG);
    }
  }
  return mt.finalize(0);
}
