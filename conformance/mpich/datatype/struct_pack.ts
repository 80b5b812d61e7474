// MPICH test/mpi/datatype/struct_pack.c: MPI_Pack and MPI_Unpack of a struct type of C's
// struct { int a, b; char c, d; int e; } (one, then an array of 10), and of 5 of a struct of two
// structs of chars resized to extent 10 (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

const SIZEOF_INT = 4;
// struct test_struct_1 { int a, b; char c, d; int e; }: its field offsets and size on the C ABI
const A = 0;
const B = 4;
const C = 8;
const D = 9;
const E = 12;
const SIZEOF_TS = 16;

export default async function structPack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  const makeStruct = async (): Promise<{ e: number; mystruct: Datatype }> => {
    const disps = [0, 2 * SIZEOF_INT, 3 * SIZEOF_INT]; // guessing...
    const blks = [2, 2, 1];
    const types = [mpi.INT, mpi.CHAR, mpi.INT];
    let mystruct = mpi.INT;
    const e = await rc(() => {
      mystruct = mpi.typeCreateStruct(3, blks, disps, types);
    });
    if (e && verbose) mt.printf('MPI_Type_create_struct returned error');
    mpi.typeCommit(mystruct);
    return { e: e ? 1 : 0, mystruct };
  };
  // packs n structs of ts1 and unpacks them into ts2
  const packUnpack = async (mystruct: Datatype, n: number, ts1: DataView, ts2: DataView): Promise<number> => {
    let e = 0;
    const bufsize = mpi.packSize(n, mystruct);
    const buffer = new Uint8Array(bufsize);
    let position = 0;
    if (
      await rc(() => {
        position = mpi.pack(ts1, n, mystruct, buffer, position);
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Pack returned error');
    }
    position = 0;
    if (
      await rc(() => {
        position = mpi.unpack(buffer, position, ts2, n, mystruct);
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Unpack returned error');
    }
    mpi.typeFree(mystruct);
    return e;
  };
  const fields = (v: DataView, i: number): Record<string, number> => ({
    a: v.getInt32(i * SIZEOF_TS + A, true),
    b: v.getInt32(i * SIZEOF_TS + B, true),
    c: v.getInt8(i * SIZEOF_TS + C),
    d: v.getInt8(i * SIZEOF_TS + D),
    e: v.getInt32(i * SIZEOF_TS + E, true),
  });
  const set = (v: DataView, i: number, a: number, b: number, c: number, d: number, e: number): void => {
    v.setInt32(i * SIZEOF_TS + A, a, true);
    v.setInt32(i * SIZEOF_TS + B, b, true);
    v.setInt8(i * SIZEOF_TS + C, c);
    v.setInt8(i * SIZEOF_TS + D, d);
    v.setInt32(i * SIZEOF_TS + E, e, true);
  };
  const compare = (ts1: DataView, ts2: DataView, n: number, indexed: boolean): number => {
    let e = 0;
    for (let i = 0; i < n; i++) {
      const want = fields(ts1, i);
      const got = fields(ts2, i);
      for (const f of ['a', 'b', 'c', 'd', 'e']) {
        if (want[f] !== got[f]) {
          e++;
          if (verbose) mt.printf(`ts2${indexed ? `[${i}]` : ''}.${f} = ${got[f]}; should be ${want[f]}`);
        }
      }
    }
    return e;
  };

  const singleStructTest = async (): Promise<number> => {
    const ts1 = new DataView(new ArrayBuffer(SIZEOF_TS));
    const ts2 = new DataView(new ArrayBuffer(SIZEOF_TS));
    set(ts1, 0, 1, 2, 3, 4, 5);
    const { e, mystruct } = await makeStruct();
    const pe = await packUnpack(mystruct, 1, ts1, ts2);
    return e + pe + compare(ts1, ts2, 1, false);
  };

  const arrayOfStructsTest = async (): Promise<number> => {
    const ts1 = new DataView(new ArrayBuffer(10 * SIZEOF_TS));
    const ts2 = new DataView(new ArrayBuffer(10 * SIZEOF_TS));
    for (let i = 0; i < 10; i++) {
      set(ts1, i, 10 * i + 1, 10 * i + 2, 10 * i + 3, 10 * i + 4, 10 * i + 5);
      set(ts2, i, -13, -13, -13, -13, -13);
    }
    const { e, mystruct } = await makeStruct();
    const pe = await packUnpack(mystruct, 10, ts1, ts2);
    return e + pe + compare(ts1, ts2, 10, true);
  };

  const structOfStructsTest = async (): Promise<number> => {
    let e = 0;
    const buf = new Int8Array(50);
    const buf2 = new Int8Array(50);
    // build a contig of one char to try to keep optimizations from being applied
    const chartype = mpi.typeContiguous(1, mpi.CHAR);
    // build a type that we can tile a few times, and the same type again
    const tiletype1 = mpi.typeCreateStruct(2, [2, 1], [0, 3], [mpi.CHAR, chartype]);
    const tiletype2 = mpi.typeCreateStruct(2, [2, 1], [0, 3], [mpi.CHAR, chartype]);
    // build a combination of those two tiletypes
    const tmptype = mpi.typeCreateStruct(2, [1, 1], [0, 5], [tiletype1, tiletype2]);
    const finaltype = mpi.typeCreateResized(tmptype, 0, 10);
    mpi.typeCommit(finaltype);
    mpi.typeFree(chartype);
    mpi.typeFree(tiletype1);
    mpi.typeFree(tiletype2);
    mpi.typeFree(tmptype);
    const bufsize = mpi.packSize(5, finaltype);
    const packbuf = new Uint8Array(bufsize);
    for (let j = 0; j < 10; j++) {
      for (let i = 0; i < 5; i++) buf[5 * j + i] = i === 2 || i === 4 ? 0 : i;
    }
    if (await rc(() => mpi.pack(buf, 5, finaltype, packbuf, 0))) {
      e++;
      if (verbose) mt.printf('pack failed');
      return e;
    }
    buf2.fill(0);
    if (await rc(() => mpi.unpack(packbuf, 0, buf2, 5, finaltype))) {
      e++;
      if (verbose) mt.printf('unpack failed');
      return e;
    }
    for (let j = 0; j < 10; j++) {
      for (let i = 0; i < 5; i++) {
        if (buf[5 * j + i] !== buf2[5 * j + i]) {
          e++;
          if (verbose) mt.printf(`buf2[${5 * j + i}] = ${buf2[5 * j + i]}; should be ${buf[5 * j + i]}`);
        }
      }
    }
    mpi.typeFree(finaltype);
    return e;
  };

  let err = await singleStructTest();
  if (verbose && err) mt.printf('error in single_struct_test');
  errs += err;
  err = await arrayOfStructsTest();
  if (verbose && err) mt.printf('error in array_of_structs_test');
  errs += err;
  err = await structOfStructsTest();
  if (verbose && err) mt.printf('error in struct_of_structs_test');
  errs += err;
  return mt.finalize(errs);
}
