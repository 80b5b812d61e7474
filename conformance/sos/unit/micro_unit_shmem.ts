// SOS test/unit/micro_unit_shmem.c (exactly 2 PEs, all operations, 7 iterations): p with
// fences, g, atomic add and inc with fences, swap, compare-swap, fetch-add and fetch-inc between
// PEs 0 and 1, each checked by the PE that waits for it.
import type { ShmemTest } from '../../shmem/harness.ts';

const NUM_WRITE = 8;
const NUM_READ = 5;
const NUM_SYNC = 3;

export default async function microUnitShmem(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [targetSym, sourceSym, syncSym] = await t.statics([4 * NUM_WRITE, 4 * NUM_READ, 4 * NUM_SYNC]);
  const target = targetSym!.int32();
  const source = sourceSym!.int32();
  const syncPes = syncSym!.int32();
  const tgt = (i: number) => targetSym!.element('int32', i);
  const src = (i: number) => sourceSym!.element('int32', i);
  const syn = (i: number) => syncSym!.element('int32', i);
  const verbose = false;
  // the indices into target, source and sync_pes that each operation takes in turn (T++, S++, P++)
  const counter = (): (() => number) => {
    let v = 0;
    return () => v++;
  };
  const nextT = counter();
  const nextS = counter();
  const nextP = counter();
  const iterations = 7;
  s.init();
  const me = s.myPe();
  const nproc = s.nPes();
  target.fill(-1, 0, NUM_WRITE);
  source.fill(-1, 0, NUM_READ);
  syncPes.fill(-1, 0, NUM_SYNC);
  await s.barrierAll();
  if (nproc !== 2) {
    if (me === 0) t.printf(`This is a micro test and is only intended to run on exactly two processes you are using ${nproc}`);
    await s.finalize();
    return 0;
  }
  const waitUntil = (i: ReturnType<typeof tgt>, n: number): Promise<void> => s.waitUntil(i, 'eq', n, 'int32');
  const postOpCheck = async (op: string, checkVar: number, n: number, pe: number): Promise<void> => {
    if (checkVar !== n) {
      t.printf(`${op} ERR: PE ${pe} source = ${checkVar} != ${n}`);
      await s.globalExit(1);
    }
  };
  const preOpCheck = (op: string, n: number): void => {
    if (verbose) t.printf(`SHMEM ${op}, performing ${n} iterations`);
  };

  // putfence
  {
    const Ti = nextT();
    if (me === 1) preOpCheck('putfence', iterations);
    if (me === 0) {
      let i: number;
      for (i = 1; i < iterations; i++) {
        await s.pInt32(tgt(Ti), i, 1);
        await s.fence();
      }
      await s.pInt32(tgt(Ti), i, 1);
    } else await waitUntil(tgt(Ti), iterations);
  }
  // gettest
  {
    const Ti = nextT();
    const Si = nextS();
    const Pi = nextP();
    if (me === 1) {
      preOpCheck('gettest', iterations);
      await s.pInt32(src(Si), iterations, 0);
      await s.fence();
      for (let i = 0; i < iterations; i++) target[Ti] = await s.gInt32(src(Si), 0);
      await s.pInt32(syn(Pi), iterations, 0);
      await postOpCheck('get', target[Ti]!, iterations, 1);
    } else await waitUntil(syn(Pi), iterations);
  }
  // atomic_add
  {
    const Ti = nextT();
    if (me === 0) preOpCheck('atomic_add', iterations);
    target[Ti] = 0;
    await s.barrierAll();
    if (me === 1) {
      for (let i = 0; i < iterations; i++) {
        await s.atomicAdd(tgt(Ti), 1, 0, 'int32');
        await s.fence();
      }
      await s.atomicAdd(tgt(Ti), 1, 0, 'int32');
    } else await waitUntil(tgt(Ti), iterations + 1);
  }
  // atomic_inc
  {
    const Ti = nextT();
    if (me === 1) preOpCheck('atomic_inc', iterations);
    target[Ti] = 0;
    await s.barrierAll();
    if (me === 0) {
      for (let i = 0; i < iterations; i++) {
        await s.atomicInc(tgt(Ti), 1, 'int32');
        await s.fence();
      }
      await s.atomicInc(tgt(Ti), 1, 'int32');
    } else await waitUntil(tgt(Ti), iterations + 1);
  }
  // swaptest
  {
    const Ti = nextT();
    const Si = nextS();
    const Pi = nextP();
    const tswap = 5;
    const sswap = 2;
    target[Ti] = tswap;
    source[Si] = sswap;
    await s.barrierAll(); // ensure target/source initialisation completed
    if (me === 0) preOpCheck('swaptest', iterations);
    if (me === 0) {
      let i: number;
      for (i = 0; i < iterations; i++) source[Si] = Number(await s.atomicSwap(tgt(Ti), source[Si]!, 1, 'int32'));
      await s.pInt32(syn(Pi), i, 1);
      if ((iterations % 2 === 1 && source[Si] !== tswap) || (iterations % 2 === 0 && source[Si] !== sswap)) {
        t.printf(`swap ERR: PE 0 source = ${source[Si]}`);
        await s.globalExit(1);
      }
    } else {
      await waitUntil(syn(Pi), iterations);
      if ((iterations % 2 === 1 && target[Ti] !== sswap) || (iterations % 2 === 0 && target[Ti] !== tswap)) {
        t.printf(`swap ERR: PE 0 target = ${target[Ti]} `);
        await s.globalExit(1);
      }
    }
  }
  // cswaptest
  {
    const Ti = nextT();
    const Si = nextS();
    const Pi = nextP();
    source[Si] = -100;
    target[Ti] = 0;
    await s.barrierAll();
    if (me === 1) {
      preOpCheck('cswaptest', iterations);
      let i: number;
      for (i = 0; i < iterations; i++) source[Si] = Number(await s.atomicCompareSwap(tgt(Ti), i, i + 1, 0, 'int32'));
      await s.pInt32(syn(Pi), i, 0);
      await postOpCheck('compare_swap', source[Si]!, iterations - 1, 1);
    } else {
      await waitUntil(syn(Pi), iterations);
      if (target[Ti] !== iterations) {
        t.printf(`compare_swap ERR: PE 1 target = ${target[Ti]} != ${iterations}`);
        await s.globalExit(1);
      }
    }
  }
  // fetchatomic_add
  {
    const Ti = nextT();
    const Si = nextS();
    if (me === 1) preOpCheck('fetchatomic_add', iterations);
    target[Ti] = 0;
    await s.barrierAll();
    if (me === 0) {
      for (let i = 0; i < iterations; i++) {
        source[Si] = Number(await s.atomicFetchAdd(tgt(Ti), 1, 1, 'int32'));
        await s.fence();
      }
      source[Si] = Number(await s.atomicFetchAdd(tgt(Ti), 1, 1, 'int32'));
      await postOpCheck('fetch_add', source[Si]!, iterations, 0);
    } else await waitUntil(tgt(Ti), iterations + 1);
  }
  // fetchatomic_inc
  {
    const Ti = nextT();
    const Si = nextS();
    if (me === 0) preOpCheck('fetchatomic_inc', iterations);
    target[Ti] = 0;
    await s.barrierAll();
    if (me === 1) {
      for (let i = 0; i < iterations; i++) {
        source[Si] = Number(await s.atomicFetchInc(tgt(Ti), 0, 'int32'));
        await s.fence();
      }
      await postOpCheck('fetch_inc', source[Si]!, iterations - 1, 1);
    } else await waitUntil(tgt(Ti), iterations);
  }
  await s.finalize();
  return 0;
}
