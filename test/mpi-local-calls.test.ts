/**
 * MPI calls of one rank or of few arguments: MPI_Reduce_local, MPI_Request_get_status_any / all /
 * some (MPI 4.1), communicator info hints (MPI_Comm_set_info, get_info, dup_with_info,
 * idup_with_info), datatype names and MPI_Type_match_size; each with real data and its errors.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import type { RankContext } from '../runtime/rank.ts';
import { MpiError, type ReduceArray } from '../runtime/mpi/mpi.ts';

/** MPI_UNDEFINED. */
const UNDEFINED = -32766;

/** Runs `program` on `nodes` xe6 nodes and returns rank 0's result. */
async function on<T>(nodes: number, program: (ctx: RankContext) => Promise<T>): Promise<T> {
  const r = await simulate({ machine: 'xe6', nodes, program });
  return r.result as T;
}

/** The message of the MpiError `fn` throws (fails if it throws something else or nothing). */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof MpiError) return e.message;
    throw e;
  }
  throw new Error('expected an MpiError');
}

describe('reduceLocal (MPI_Reduce_local)', () => {
  it('combines inbuf into inoutbuf with inbuf as the left operand, in the short and the long form, and costs CPU time', async () => {
    const out = await on(1, async ({ mpi }) => {
      const a = Float64Array.of(1, 2, 3);
      const b = Float64Array.of(10, 20, 30);
      mpi.reduceLocal(a, b, mpi.SUM);
      // a non-commutative op: left - right, so inoutbuf = inbuf - inoutbuf
      const minus = mpi.opCreate((inout: ReduceArray, input: ReduceArray) => {
        for (let i = 0; i < inout.length; i++) (inout as Int32Array)[i] = (inout as Int32Array)[i]! - (input as Int32Array)[i]!;
      }, false);
      const x = Int32Array.of(100, 200, 300, 400);
      const y = Int32Array.of(1, 2, 3, 4);
      const t0 = mpi.wtime();
      mpi.reduceLocal(x, y, 3, mpi.INT, minus);
      const t1 = mpi.wtime();
      const mx = Int32Array.of(5, 0, 7, 1);
      const my = Int32Array.of(6, 3, 2, 2);
      mpi.reduceLocal(mx, my, 2, mpi.TWO_INT, mpi.MAXLOC);
      return { b: [...b], y: [...y], pairs: [...my], x: [...x], dt: t1 - t0 };
    });
    expect(out.b).toEqual([11, 22, 33]);
    expect(out.y).toEqual([99, 198, 297, 4]); // the 4th element is outside count
    expect(out.x).toEqual([100, 200, 300, 400]); // inbuf untouched
    expect(out.pairs).toEqual([6, 3, 7, 1]); // (5,0) vs (6,3): 6 at 3; (7,1) vs (2,2): 7 at 1
    expect(out.dt).toBeGreaterThan(0);
  });

  it('refuses arrays of different types or lengths, a bad op and MINLOC on a plain type, naming the call', async () => {
    const errs = await on(1, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      return [
      thrown(() => mpi.reduceLocal(new Float64Array(2), new Float32Array(2), mpi.SUM)),
      thrown(() => mpi.reduceLocal(new Int32Array(2), new Int32Array(3), mpi.SUM)),
      thrown(() => mpi.reduceLocal(new Int32Array(2), new Int32Array(2), 'sum' as never)),
      thrown(() => mpi.reduceLocal(new Int32Array(2), new Int32Array(2), 2, mpi.INT, mpi.MAXLOC)),
      thrown(() => mpi.reduceLocal(new Int32Array(2), new Int32Array(2), 3, mpi.INT, mpi.SUM)),
      ];
    });
    expect(errs[0]).toMatch(/^MPI_ERR_TYPE: reduceLocal: inbuf .* and inoutbuf .* must be typed arrays of one type and length/);
    expect(errs[1]).toMatch(/^MPI_ERR_TYPE: reduceLocal/);
    expect(errs[2]).toMatch(/^MPI_ERR_OP: reduceLocal: op must be an MPI op/);
    expect(errs[3]).toMatch(/^MPI_ERR_OP: reduceLocal: MPI_MAXLOC works on the pair types/);
    expect(errs[4]).toMatch(/reduceLocal: .*inbuf/);
  });
});

describe('requestGetStatusAny / All / Some (MPI 4.1)', () => {
  it('report completed requests without completing them: a wait afterwards still returns each status once', async () => {
    const out = await on(2, async ({ mpi }) => {
      // rank 1 sends the second message only when rank 0 says go, after its checks
      if (mpi.rank === 1) {
        await mpi.send(Int32Array.of(7), 0, 1);
        await mpi.recv(new Int32Array(1), 0, 9);
        await mpi.send(Int32Array.of(8), 0, 2);
        return null;
      }
      const a = new Int32Array(1);
      const b = new Int32Array(1);
      const ra = mpi.irecv(a, 1, 1);
      const rb = mpi.irecv(b, 1, 2);
      while (!(await mpi.requestGetStatusAny([ra, rb])).flag);
      const any = await mpi.requestGetStatusAny([ra, rb]);
      const all1 = await mpi.requestGetStatusAll([ra, rb]);
      const some1 = await mpi.requestGetStatusSome([null, ra, rb]);
      await mpi.send(new Int32Array(1), 1, 9);
      let all2 = await mpi.requestGetStatusAll([ra, null, rb]);
      while (all2 === null) all2 = await mpi.requestGetStatusAll([ra, null, rb]);
      const wa = await mpi.wait(ra);
      await mpi.wait(rb);
      const afterNull = await mpi.requestGetStatusAny([mpi.REQUEST_NULL, null]);
      const someNull = await mpi.requestGetStatusSome([mpi.REQUEST_NULL]);
      const allNull = await mpi.requestGetStatusAll([null]);
      return {
        any: [any.flag, any.index, any.status?.tag],
        all1: all1 === null,
        some1: some1 === UNDEFINED ? 'undefined' : some1.map((c) => [c.index, c.status.tag]),
        wa: [wa.source, wa.tag, a[0], b[0]],
        afterNull: [afterNull.flag, afterNull.index],
        someNull,
        allNull: allNull?.map((s) => s.source),
        all2: all2.map((s) => s.tag),
      };
    });
    if (!out) throw new Error('rank 0 returned nothing');
    expect(out.any).toEqual([true, 0, 1]);
    expect(out.all1).toBe(true); // the second message is not sent yet
    expect(out.all2).toEqual([1, -1, 2]); // the null entry's empty status in the middle
    expect(out.some1).toEqual([[1, 1]]);
    expect(out.wa).toEqual([1, 1, 7, 8]);
    expect(out.afterNull).toEqual([true, UNDEFINED]);
    expect(out.someNull).toBe(UNDEFINED);
    expect(out.allNull).toEqual([-2]);
  });

  it('refuses what is not a list of requests, naming the call and the entry', async () => {
    const errs = await on(1, async ({ mpi }) => {
      const out: string[] = [];
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      for (const f of [() => mpi.requestGetStatusAny(7 as never), () => mpi.requestGetStatusAll([{}] as never), () => mpi.requestGetStatusSome(['x'] as never)]) {
        try {
          await f();
        } catch (e) {
          out.push((e as Error).message);
        }
      }
      return out;
    });
    expect(errs).toHaveLength(3);
    expect(errs[0]).toMatch(/^MPI_ERR_ARG: requestGetStatusAny: expected an array of requests, got number/);
    expect(errs[1]).toMatch(/requestGetStatusAll: reqs\[0\]/);
    expect(errs[2]).toMatch(/requestGetStatusSome: reqs\[0\]/);
  });
});

describe('communicator info hints', () => {
  it('keep the hints MPI defines, drop others; dup keeps them, dupWithInfo and idupWithInfo replace them; the copies carry messages', async () => {
    const out = await on(4, async ({ mpi }) => {
      const info = mpi.infoCreate();
      info.set('mpi_assert_no_any_tag', 'true');
      info.set('mpi_assert_exact_length', 'maybe'); // not true or false: ignored
      info.set('my_key', 'true'); // not an MPI hint: ignored
      const c = await mpi.dup();
      const none = c.getInfo().nkeys;
      c.setInfo(info);
      const set = c.getInfo();
      const d = await c.dup();
      const other = mpi.infoCreate();
      other.set('mpi_assert_allow_overtaking', 'false');
      const e = await c.dupWithInfo(other);
      const { comm: f, request } = c.idupWithInfo(mpi.INFO_NULL);
      await mpi.wait(request);
      info.free();
      other.free();
      const sum = new Int32Array(1);
      await f.allreduce(Int32Array.of(f.rank + 1), sum, mpi.SUM);
      const ring = new Int32Array(1);
      await e.sendrecv(Int32Array.of(e.rank), (e.rank + 1) % e.size, 3, ring, (e.rank + e.size - 1) % e.size, 3);
      return {
        none,
        set: [set.nkeys, set.get('mpi_assert_no_any_tag'), set.get('my_key'), set.get('mpi_assert_exact_length')],
        dup: d.getInfo().get('mpi_assert_no_any_tag'),
        withInfo: [e.getInfo().nkeys, e.getInfo().get('mpi_assert_allow_overtaking')],
        idup: f.getInfo().nkeys,
        sum: sum[0],
        ring: ring[0],
      };
    });
    expect(out.none).toBe(0);
    expect(out.set).toEqual([1, 'true', undefined, undefined]);
    expect(out.dup).toBe('true');
    expect(out.withInfo).toEqual([1, 'false']);
    expect(out.idup).toBe(0);
    expect(out.sum).toBe(10);
    expect(out.ring).toBe(3); // rank 0 receives from rank 3
  });

  it('refuse a freed info object or one that is not an info, naming the call', async () => {
    const errs = await on(1, async ({ mpi }) => {
      const out: string[] = [];
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const info = mpi.infoCreate();
      info.free();
      for (const f of [() => mpi.dupWithInfo(info), () => mpi.setInfo({} as never), async () => mpi.idupWithInfo(info)]) {
        try {
          await f();
        } catch (e) {
          out.push((e as Error).message);
        }
      }
      return out;
    });
    expect(errs).toEqual([
      'MPI_ERR_INFO: dupWithInfo: the info object was freed',
      expect.stringMatching(/^MPI_ERR_INFO: setInfo: info must be an info object/),
      'MPI_ERR_INFO: idupWithInfo: the info object was freed',
    ]);
  });
});

describe('datatype names and typeMatchSize', () => {
  it('name predefined and derived types; match a class and size to C types', async () => {
    const out = await on(1, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const v = mpi.typeVector(2, 1, 3, mpi.INT);
      const before = mpi.typeGetName(v);
      mpi.typeSetName(v, 'halo face');
      mpi.typeSetName(mpi.FLOAT, 'real*4');
      return {
        names: [mpi.typeGetName(mpi.INT), before, mpi.typeGetName(v), mpi.typeGetName(mpi.FLOAT)],
        real: [mpi.typeMatchSize(mpi.TYPECLASS_REAL, 4) === mpi.FLOAT, mpi.typeMatchSize(mpi.TYPECLASS_REAL, 8) === mpi.DOUBLE, mpi.typeMatchSize(mpi.TYPECLASS_REAL, 16) === mpi.LONG_DOUBLE],
        complex: [8, 16, 32].map((n) => mpi.typeGetName(mpi.typeMatchSize(mpi.TYPECLASS_COMPLEX, n))),
        int: [1, 2, 4, 8].map((n) => mpi.typeSize(mpi.typeMatchSize(mpi.TYPECLASS_INTEGER, n))),
        errs: [
          thrown(() => mpi.typeMatchSize(mpi.TYPECLASS_COMPLEX, 12)),
          thrown(() => mpi.typeMatchSize(9, 4)),
          thrown(() => mpi.typeMatchSize(mpi.TYPECLASS_INTEGER, 3)),
          thrown(() => mpi.typeSetName(v, 5 as never)),
          thrown(() => mpi.typeGetName({} as never)),
        ],
      };
    });
    expect(out.names).toEqual(['MPI_INT', '', 'halo face', 'real*4']);
    expect(out.real).toEqual([true, true, true]);
    // C11's float, double and long double complex: twice the size of their parts on x86-64
    expect(out.complex).toEqual(['MPI_C_FLOAT_COMPLEX', 'MPI_C_DOUBLE_COMPLEX', 'MPI_C_LONG_DOUBLE_COMPLEX']);
    expect(out.int).toEqual([1, 2, 4, 8]);
    expect(out.errs[0]).toMatch(/^MPI_ERR_ARG: typeMatchSize: no predefined type of this class has size=12 bytes; sizes: 8 \(MPI_C_FLOAT_COMPLEX\), 16 \(MPI_C_DOUBLE_COMPLEX\), 32 \(MPI_C_LONG_DOUBLE_COMPLEX\)/);
    expect(out.errs[1]).toMatch(/^MPI_ERR_ARG: typeMatchSize: typeclass=9 must be/);
    expect(out.errs[2]).toMatch(/size=3 bytes; sizes: 1 \(MPI_SIGNED_CHAR\), 2 \(MPI_SHORT\), 4 \(MPI_INT\), 8 \(MPI_LONG\)/);
    expect(out.errs[3]).toMatch(/^MPI_ERR_ARG: typeSetName: name must be a string/);
    expect(out.errs[4]).toMatch(/typeGetName/);
  });
});

describe('typeGetEnvelope / typeGetContents', () => {
  it('return each constructor and its arguments in MPI order; derived types come back as handles the program may free', async () => {
    const out = await on(1, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const v = mpi.typeVector(3, 2, 5, mpi.DOUBLE);
      const h = mpi.typeCreateHvector(2, 1, 40, v);
      const r = mpi.typeCreateResized(h, -8, 96);
      const s = mpi.typeCreateSubarray(2, [4, 6], [2, 3], [1, 2], mpi.ORDER_C, mpi.INT);
      const d = mpi.typeDup(s);
      const ib = mpi.typeCreateIndexedBlock(2, 3, [0, 7], mpi.SHORT);
      const c = mpi.typeContiguous(4, r);
      const env = (t: typeof v) => {
        const e = mpi.typeGetEnvelope(t);
        return [e.combiner, e.numIntegers, e.numAddresses, e.numDatatypes];
      };
      const rc = mpi.typeGetContents(r);
      const inner = rc.datatypes[0]!;
      const innerContents = mpi.typeGetContents(inner);
      mpi.typeFree(inner); // the returned handle, not h
      const stillH = mpi.typeGetExtent(h).extent;
      let named = '';
      try {
        mpi.typeGetContents(mpi.INT);
      } catch (e) {
        named = (e as Error).message;
      }
      return {
        envs: [env(mpi.DOUBLE), env(v), env(h), env(r), env(s), env(d), env(ib), env(c)],
        combiners: [mpi.COMBINER_NAMED, mpi.COMBINER_VECTOR, mpi.COMBINER_HVECTOR, mpi.COMBINER_RESIZED, mpi.COMBINER_SUBARRAY, mpi.COMBINER_DUP, mpi.COMBINER_INDEXED_BLOCK, mpi.COMBINER_CONTIGUOUS],
        v: mpi.typeGetContents(v).integers,
        vType: mpi.typeGetContents(v).datatypes[0] === mpi.DOUBLE,
        r: rc.addresses,
        innerIsHvector: [innerContents.integers, innerContents.addresses, innerContents.datatypes.length],
        s: mpi.typeGetContents(s).integers,
        orderC: mpi.ORDER_C,
        ib: mpi.typeGetContents(ib).integers,
        dOf: mpi.typeGetEnvelope(mpi.typeGetContents(d).datatypes[0]!).combiner === mpi.COMBINER_SUBARRAY,
        stillH,
        named,
      };
    });
    expect(out.envs.map((e) => e[0])).toEqual(out.combiners);
    expect(out.envs.map((e) => e.slice(1))).toEqual([
      [0, 0, 0],
      [3, 0, 1],
      [2, 1, 1],
      [0, 2, 1],
      [8, 0, 1],
      [0, 0, 1],
      [4, 0, 1],
      [1, 0, 1],
    ]);
    expect(out.v).toEqual([3, 2, 5]);
    expect(out.vType).toBe(true);
    expect(out.r).toEqual([-8, 96]);
    expect(out.innerIsHvector).toEqual([[2, 1], [40], 1]);
    expect(out.s).toEqual([2, 4, 6, 2, 3, 1, 2, out.orderC]);
    expect(out.ib).toEqual([2, 3, 0, 7]);
    expect(out.dOf).toBe(true);
    expect(out.stillH).toBe(40 + ((3 - 1) * 5 + 2) * 8); // the second vector starts 40 bytes on; a vector spans 12 doubles
    expect(out.named).toMatch(/^MPI_ERR_TYPE: typeGetContents: MPI_INT is a predefined \(named\) datatype/);
  });
});

describe('typeCreateDarray', () => {
  it('selects a process’s block, cyclic or whole dimensions in index order, C and Fortran, with the global array’s extent', async () => {
    const out = await on(1, async ({ mpi }) => {
      const B = mpi.DISTRIBUTE_BLOCK;
      const C = mpi.DISTRIBUTE_CYCLIC;
      const N = mpi.DISTRIBUTE_NONE;
      const D = mpi.DISTRIBUTE_DFLT_DARG;
      const picked = (t: ReturnType<typeof mpi.typeCreateDarray>, n: number) => {
        const src = Int32Array.from({ length: n }, (_, i) => i);
        const packed = new Int32Array(mpi.typeSize(t) / 4);
        mpi.pack(src, 1, mpi.typeCommit(t), new Uint8Array(packed.buffer), 0);
        return [...packed];
      };
      // 10 elements in blocks of ceil(10/4) = 3 on 4 processes: the last gets only index 9
      const last = mpi.typeCreateDarray(4, 3, 1, [10], [B], [D], [4], mpi.ORDER_C, mpi.INT);
      // a 4x6 array (C order: rows of 6), rows cyclic(1) over 2, columns block over 3, process (1, 2)
      const c2 = mpi.typeCreateDarray(6, 5, 2, [4, 6], [C, B], [D, D], [2, 3], mpi.ORDER_C, mpi.INT);
      // the same in Fortran order: dimension 0 (4 long) is fastest
      const f2 = mpi.typeCreateDarray(6, 5, 2, [4, 6], [C, B], [D, D], [2, 3], mpi.ORDER_FORTRAN, mpi.INT);
      const whole = mpi.typeCreateDarray(2, 1, 2, [2, 3], [B, N], [D, D], [2, 1], mpi.ORDER_C, mpi.INT);
      return {
        last: picked(last, 10),
        lastExtent: mpi.typeGetExtent(last),
        c2: picked(c2, 24),
        f2: picked(f2, 24),
        whole: picked(whole, 6),
        env: mpi.typeGetEnvelope(c2),
        envCombiner: mpi.COMBINER_DARRAY,
      };
    });
    expect(out.last).toEqual([9]);
    expect(out.lastExtent).toEqual({ lb: 0, extent: 40 });
    // rows 1 and 3, columns 4 and 5 (C: element r * 6 + c)
    expect(out.c2).toEqual([10, 11, 22, 23]);
    // Fortran: element r + 4 * c, r fastest
    expect(out.f2).toEqual([1 + 16, 3 + 16, 1 + 20, 3 + 20]);
    expect(out.whole).toEqual([3, 4, 5]);
    expect(out.env).toEqual({ numIntegers: 4 * 2 + 4, numAddresses: 0, numDatatypes: 1, combiner: out.envCombiner });
  });

  it('refuses a grid that is not `size`, a distributed NONE dimension, a block too small and an unknown distribution', async () => {
    const errs = await on(1, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const B = mpi.DISTRIBUTE_BLOCK;
      const D = mpi.DISTRIBUTE_DFLT_DARG;
      return [
        thrown(() => mpi.typeCreateDarray(4, 0, 1, [8], [B], [D], [3], mpi.ORDER_C, mpi.INT)),
        thrown(() => mpi.typeCreateDarray(2, 0, 1, [8], [mpi.DISTRIBUTE_NONE], [D], [2], mpi.ORDER_C, mpi.INT)),
        thrown(() => mpi.typeCreateDarray(2, 0, 1, [8], [B], [3], [2], mpi.ORDER_C, mpi.INT)),
        thrown(() => mpi.typeCreateDarray(2, 0, 1, [8], [7], [D], [2], mpi.ORDER_C, mpi.INT)),
        thrown(() => mpi.typeCreateDarray(2, 2, 1, [8], [B], [D], [2], mpi.ORDER_C, mpi.INT)),
      ];
    });
    expect(errs[0]).toBe('MPI_ERR_ARG: typeCreateDarray: psizes [3] make a grid of 3 processes, not size=4');
    expect(errs[1]).toMatch(/psizes\[0\]=2 must be 1 where distribs\[0\] is mpi.DISTRIBUTE_NONE/);
    expect(errs[2]).toMatch(/dargs\[0\]=3: a block of 3 on 2 processes does not cover gsizes\[0\]=8/);
    expect(errs[3]).toMatch(/distribs\[0\]=7 must be mpi.DISTRIBUTE_BLOCK/);
    expect(errs[4]).toMatch(/rank=2 must be in 0..1/);
  });
});

describe('persistent neighbourhood collectives (MPI_Neighbor_*_init)', () => {
  it('run once per start with the buffers’ data of then, on a periodic ring', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const ring = (await mpi.cartCreate([mpi.size], [true], false))!;
        const send = Int32Array.of(0);
        const got = new Int32Array(2);
        const a2a = new Int32Array(2);
        const sendw = new Int32Array(2);
        const gather = ring.neighborAllgatherInit(send, got);
        const w = ring.neighborAlltoallwInit(sendw, [1, 1], [0, 4], [mpi.INT, mpi.INT], a2a, [1, 1], [4, 0], [mpi.INT, mpi.INT]);
        const seen: number[][] = [];
        for (let round = 1; round <= 3; round++) {
          send[0] = 100 * round + mpi.rank;
          sendw[0] = -(100 * round + mpi.rank);
          sendw[1] = 100 * round + mpi.rank;
          mpi.startAll([gather, w]);
          await mpi.waitAll([gather, w]);
          seen.push([...got, ...a2a]);
        }
        mpi.requestFree(gather);
        mpi.requestFree(w);
        return seen;
      },
    });
    const n = 4;
    r.rankResults.forEach((seen, rank) => {
      const left = (rank + n - 1) % n;
      const right = (rank + 1) % n;
      expect(seen).toEqual([1, 2, 3].map((k) => [100 * k + left, 100 * k + right, -(100 * k + right), 100 * k + left]));
    });
  });

  it('fail at the start on a communicator without a topology, naming the call', async () => {
    const msg = await on(2, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const req = mpi.neighborAllgatherInit(new Int32Array(1), new Int32Array(2));
      try {
        mpi.start(req);
        await mpi.wait(req);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    });
    expect(msg).toMatch(/^MPI_ERR_TOPOLOGY: .*neighborAllgather.*no topology/);
  });
});

describe('persistent collectives in the long (datatype) form', () => {
  it('land non-contiguous receive blocks at every completion and take new send data at every start', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        // the root gathers 2 ints from each rank into every other int of its buffer
        const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(2, 1, 2, mpi.INT), 0, 16));
        const send = new Int32Array(2);
        const recv = new Int32Array(4 * mpi.size).fill(-1);
        const req = mpi.gatherInit(send, 2, mpi.INT, recv, 1, every2, 0);
        const seen: number[][] = [];
        for (let k = 1; k <= 2; k++) {
          send[0] = 10 * k + mpi.rank;
          send[1] = -(10 * k + mpi.rank);
          mpi.start(req);
          await mpi.wait(req);
          seen.push([...recv]);
        }
        mpi.requestFree(req);
        return seen;
      },
    });
    const seen = r.result;
    for (const k of [1, 2]) {
      const want: number[] = [];
      for (let p = 0; p < 3; p++) want.push(10 * k + p, -1, -(10 * k + p), -1);
      expect(seen[k - 1]).toEqual(want);
    }
  });
});

describe('win.flushAll and flushLocalAll', () => {
  it('complete every outstanding operation inside a passive epoch, and fail with MPI_ERR_RMA_SYNC outside one', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const n = 1 << 17; // 1 MiB of doubles: the put takes a while to land
        const { win, buf: mem } = await mpi.winAllocate(8 * n, 8);
        const local = new Float64Array(mem.buffer, mem.byteOffset, n);
        local.fill(0);
        win.setErrhandler(mpi.ERRORS_RETURN);
        const errs: string[] = [];
        for (const f of [() => win.flushAll(), () => win.flushLocalAll()]) {
          try {
            await f();
          } catch (e) {
            errs.push((e as Error).message);
          }
        }
        await mpi.barrier();
        let flushUs = 0;
        if (mpi.rank === 0) {
          await win.lockAll();
          await win.put(new Float64Array(n).fill(7), 1, 0);
          const t0 = mpi.wtime();
          await win.flushAll();
          flushUs = (mpi.wtime() - t0) * 1e6;
          await mpi.send(Int32Array.of(1), 1, 5); // after flushAll the data is at rank 1
          await win.unlockAll();
        } else {
          await mpi.recv(new Int32Array(1), 0, 5);
        }
        const seen = mpi.rank === 1 ? [local[0], local[n - 1]] : [];
        await mpi.barrier();
        return { errs, flushUs, seen };
      },
    });
    for (const x of r.rankResults) {
      expect(x.errs).toEqual([
        'MPI_ERR_RMA_SYNC: flushAll: needs a passive-target epoch (lock or lockAll); none is open',
        'MPI_ERR_RMA_SYNC: flushLocalAll: needs a passive-target epoch (lock or lockAll); none is open',
      ]);
    }
    expect(r.rankResults[0]!.flushUs).toBeGreaterThan(50); // 1 MiB over a Gemini link takes well over 50 us
    expect(r.rankResults[1]!.seen).toEqual([7, 7]);
  });
});

describe('persistent collective errors', () => {
  it('an argument error found at a start names the persistent call, not the nonblocking one it runs', async () => {
    const msgs = await on(2, async ({ mpi }) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const out: string[] = [];
      for (const req of [mpi.bcastInit(new Float64Array(1), 9), mpi.allreduceInit(new Float64Array(2), new Float64Array(3), mpi.SUM)]) {
        try {
          mpi.start(req);
          await mpi.wait(req);
        } catch (e) {
          out.push((e as Error).message);
        }
      }
      return out;
    });
    expect(msgs[0]).toBe('MPI_ERR_ROOT: bcastInit (at start): root=9 is not a rank of the communicator (0..1)');
    expect(msgs[1]).toMatch(/^MPI_ERR_\w+: allreduceInit \(at start\): /);
  });
});
