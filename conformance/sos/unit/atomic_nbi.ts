// SOS test/unit/atomic_nbi.c: non-blocking swaps until npes results congruent to me mod 2 are seen, then non-blocking compare-swaps counting every PE's target from -1 up to npes-1.
import type { ShmemTest } from '../../shmem/harness.ts';

const N = 2n;

export default async function atomicNbi(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [targetSym] = await t.statics([8]);
  const target = targetSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const bme = BigInt(me);
  const bnpes = BigInt(npes);
  const result = new BigInt64Array(npes);
  // NBI swap
  target[0] = bme;
  result.fill(-1n);
  await s.barrierAll();
  // loop until we observe npes values that are congruent to me mod N
  for (let ncompleted = 0; ncompleted < npes; ) {
    for (let i = 0; i < npes; i++) await s.atomicSwapNbi(result, i, targetSym!, bme, i, 'int64');
    await s.quiet();
    for (let i = 0; i < npes; i++) if (bme % N === result[i]! % N) ++ncompleted;
  }
  await s.barrierAll();
  if (target[0]! < 0n || target[0]! >= bnpes) {
    t.printf(`${me}: Invalid target (${target[0]}) in NBI swap test`);
    ++errors;
  }
  for (let i = 0; i < npes; i++) {
    if (result[i]! < 0n || result[i]! >= bnpes) {
      t.printf(`${me}: Invalid result (${result[i]}) in NBI swap test`);
      ++errors;
    }
  }
  // NBI cswap
  target[0] = -1n;
  result.fill(bnpes);
  await s.barrierAll();
  // the target at each PE counts from -1 up to npes-1
  for (;;) {
    let ncompleted = 0;
    // attempt to increment each PE not already incremented by me
    for (let i = 0; i < npes; i++) if (result[i] !== bme - 1n) await s.atomicCompareSwapNbi(result, i, targetSym!, bme - 1n, bme, i, 'int64');
    await s.quiet();
    for (let i = 0; i < npes; i++) if (result[i] === bme - 1n) ++ncompleted;
    if (ncompleted === npes) break;
  }
  await s.barrierAll();
  if (target[0] !== bnpes - 1n) {
    t.printf(`${me}: Invalid target (${target[0]}) in NBI cswap test`);
    ++errors;
  }
  for (let i = 0; i < npes; i++) {
    if (result[i] !== bme - 1n) {
      t.printf(`${me}: Invalid result (${result[i]}) in NBI cswap test`);
      ++errors;
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
