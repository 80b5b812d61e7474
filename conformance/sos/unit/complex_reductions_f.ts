// SOS test/unit/complex_reductions_f.f90: shmem_comp4_sum_to_all and shmem_comp8_sum_to_all, then
// the prod_to_all pair, over all PEs and (when npes is even, on the even PEs) over the active set
// PE_start 0, logPE_stride 1, PE_size npes/2; 10 elements cmplx(me, me+1) (the double sum: the
// default-real literals -7.123123... and 2.321321..., so single precision widened), each PE
// checking every part against its own fold of the PEs' values (its own first) to a relative
// 1e-5, a miss ending the run with shmem_global_exit(test number). comp4 is C's float _Complex
// (complexf), comp8 double _Complex (complexd); the Fortran integer pSync is of longs here.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const NR = 10;

type Z = [number, number];

/** Fortran's complex arithmetic in the kind's precision (4: each step rounded to single). */
const arith = (kind: 4 | 8) => {
  const r = kind === 4 ? Math.fround : (v: number): number => v;
  return {
    cmplx: (a: number, b: number): Z => [r(a), r(b)],
    add: ([a, b]: Z, [c, d]: Z): Z => [r(a + c), r(b + d)],
    mul: ([a, b]: Z, [c, d]: Z): Z => [r(r(a * c) - r(b * d)), r(r(a * d) + r(b * c))],
  };
};

export default async function complexReductionsF(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const wrk = Math.max(Math.trunc(NR / 2) + 1, s.REDUCE_MIN_WRKDATA_SIZE);
  // integer psync(shmem_reduce_sync_size), data psync /shmem_reduce_sync_size*shmem_sync_value/;
  // common /com/ z_src, z_target, pwrk, zd_src, zd_target, pwrkd
  const [psync, zSrc, zTarget, pwrk, zdSrc, zdTarget, pwrkd] = await t.statics([8 * s.REDUCE_SYNC_SIZE, 8 * NR, 8 * NR, 8 * wrk, 16 * NR, 16 * NR, 16 * wrk], ([p]) => {
    p!.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
  });
  s.init();
  const npes = s.nPes();
  const me = s.myPe();
  const view = (kind: 4 | 8, x: Symmetric): Float32Array | Float64Array => (kind === 4 ? new Float32Array(x.local.buffer, x.local.byteOffset, 2 * NR) : new Float64Array(x.local.buffer, x.local.byteOffset, 2 * NR));
  const store = (kind: 4 | 8, x: Symmetric, i: number, z: Z): void => {
    const v = view(kind, x);
    [v[2 * i], v[2 * i + 1]] = z;
  };
  const load = (kind: 4 | 8, x: Symmetric, i: number): Z => {
    const v = view(kind, x);
    return [v[2 * i]!, v[2 * i + 1]!];
  };
  /** check_result_complex(_dbl): every part within a relative 1e-5 of the expected one, or shmem_global_exit(id). */
  const check = async (kind: 4 | 8, target: Symmetric, correct: readonly Z[], id: number): Promise<void> => {
    for (let i = 0; i < NR; i++) {
      const z = load(kind, target, i);
      const c = correct[i]!;
      for (const [part, name] of [
        [0, 'real'],
        [1, 'imaginary'],
      ] as const) {
        if (Math.abs(1 - z[part] / c[part]) > 1e-5) {
          t.printf(` fail : incorrect ${name} component ${z[part]} expected ${c[part]} on process ${me} test # ${id}`);
          await s.globalExit(id);
        }
      }
    }
  };
  const reduce = (kind: 4 | 8, op: 'Sum' | 'Prod', target: Symmetric, source: Symmetric, start: number, log: number, size: number): Promise<void> =>
    s[`complex${kind === 4 ? 'f' : 'd'}${op}ToAll`](target, source, NR, start, log, size, kind === 4 ? pwrk! : pwrkd!, psync!);
  const subset = me % 2 === 0 && npes % 2 === 0;

  for (const [kind, op, id] of [
    [4, 'Sum', 1],
    [8, 'Sum', 3],
    [4, 'Prod', 5],
    [8, 'Prod', 7],
  ] as const) {
    const z = arith(kind);
    const src = kind === 4 ? zSrc! : zdSrc!;
    const target = kind === 4 ? zTarget! : zdTarget!;
    const combine = op === 'Sum' ? z.add : z.mul;
    // the source and the expected result over all PEs, and over the even PEs
    let mine: Z;
    let expected: Z;
    let expectedEven: Z;
    if (kind === 8 && op === 'Sum') {
      // dcmplx(-7.123123123123123123123, 2.32132132132132132132): default-real literals (single
      // precision, so the digits a double holds are plenty); zd_src*npes
      mine = [Math.fround(-7.123123123123123), Math.fround(2.321321321321321)];
      expected = [mine[0] * npes, mine[1] * npes];
      expectedEven = [mine[0] * Math.trunc(npes / 2), mine[1] * Math.trunc(npes / 2)];
    } else {
      mine = z.cmplx(me, me + 1);
      expected = mine;
      for (let j = 0; j < npes; j++) if (j !== me) expected = combine(expected, z.cmplx(j, j + 1));
      expectedEven = mine;
      for (let j = 0; j < npes; j += 2) if (j !== me) expectedEven = combine(expectedEven, z.cmplx(j, j + 1));
    }
    for (let i = 0; i < NR; i++) store(kind, src, i, mine);
    await reduce(kind, op, target, src, 0, 0, npes);
    await check(kind, target, Array.from({ length: NR }, () => expected), id);
    await s.barrierAll();
    if (subset) {
      await reduce(kind, op, target, src, 0, 1, npes / 2);
      await check(kind, target, Array.from({ length: NR }, () => expectedEven), id + 1);
    }
    await s.barrierAll();
  }
  await s.finalize();
  return 0;
}
