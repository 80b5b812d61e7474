// MPICH test/mpi/rma/attrorderwin.c: three attributes set on a window in three orders (2 1 0,
// 1 2 0, 0 1 2), each time found with their values and then deleted in another order (0 1 2,
// 2 1 0, 1 2 0) and found gone; the list management must handle every case. C compares the
// pointers the attributes hold: the port gives each attribute an object and compares identity.
import type { Keyval, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function attrorderwin(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const buf = new Int32Array(1);
  const win = await mpi.winCreate(buf, 4, mpi.INFO_NULL);
  // create key values
  const key: Keyval<Win>[] = [];
  const attrval: Int32Array[] = [];
  for (let i = 0; i < 3; i++) {
    key.push(mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, mpi.WIN_NULL_DELETE_FN, 0));
    attrval.push(Int32Array.of(1024 * i));
  }
  const checkAttrs = (): number => {
    let e = 0;
    for (let i = 0; i < 3; i++) {
      const { flag, value } = win.getAttr(key[i]!);
      if (!flag) {
        e++;
        mt.printf(`Attribute for key ${i} not set`);
      } else if (value !== attrval[i]) {
        e++;
        mt.printf(`Attribute value for key ${i} not correct`);
      }
    }
    return e;
  };
  const checkNoAttrs = (): number => {
    let e = 0;
    for (let i = 0; i < 3; i++) {
      if (win.getAttr(key[i]!).flag) {
        e++;
        mt.printf(`Attribute for key ${i} set but should be deleted`);
      }
    }
    return e;
  };
  // insert attributes in several orders: test after put with get, then delete, then confirm delete with get
  for (const [setOrder, deleteOrder] of [
    [[2, 1, 0], [0, 1, 2]],
    [[1, 2, 0], [2, 1, 0]],
    [[0, 1, 2], [1, 2, 0]],
  ] as const) {
    for (const i of setOrder) win.setAttr(key[i]!, attrval[i]);
    errs += checkAttrs();
    for (const i of deleteOrder) win.deleteAttr(key[i]!);
    errs += checkNoAttrs();
  }
  for (const k of key) mpi.winFreeKeyval(k);
  await win.free();
  return mt.finalize(errs);
}
