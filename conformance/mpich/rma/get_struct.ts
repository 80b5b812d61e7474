// MPICH test/mpi/rma/get_struct.c: rank 0 attaches one list element (struct { Rptr next { MPI_Aint
// disp; int rank; void *lptr; }; char key[64], value[256]; }, next = <MPI_BOTTOM, -1>, "key1",
// "value1") to a dynamic window and broadcasts its address (an MPI_AINT); rank 1 gets it under
// lock_all, once as sizeof(ListElm) bytes and once as a struct type whose first member is a
// struct of an MPI_AINT and an MPI_INT, and checks its `next` (the test's check: rank -1 or disp
// MPI_BOTTOM). The arguments -byteonly, -twostruct and -onelevel select the cases as in C (by
// default both gets run). The C test takes member displacements with MPI_Get_address of a sample
// struct; they are C's offsets here (x86-64 layout), and the element's address is the one
// MPI_Win_attach returns (as in the aint port). MPI_BOTTOM as an MPI_Aint is MPICH's (void *)0: 0.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

const MAX_KEY_SIZE = 64;
const MAX_VALUE_SIZE = 256;
/** Rptr: disp at 0 (8 bytes), rank at 8 (4), lptr at 16 (8): 24 bytes. */
const RPTR = { disp: 0, rank: 8, lptr: 16, size: 24 };
/** ListElm: next at 0, key at 24, value at 88: 344 bytes. */
const ELM = { next: 0, key: RPTR.size, value: RPTR.size + MAX_KEY_SIZE, size: RPTR.size + MAX_KEY_SIZE + MAX_VALUE_SIZE };
/** (MPI_Aint) MPI_BOTTOM in MPICH. */
const MPI_BOTTOM = 0n;
const BYTE_ONLY = 0x1;
const TWO_STRUCT = 0x2;

export default async function getStruct(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const wrank = mpi.rank;
  let testCases = -1;
  let isOneLevel = false;
  for (const a of mt.argv) {
    if (a === '-byteonly') testCases = BYTE_ONLY;
    else if (a === '-twostruct') testCases = TWO_STRUCT;
    else if (a === '-onelevel') isOneLevel = true;
    else mt.printf(`Unrecognized argument ${a}`);
  }
  // the datatypes that move the data
  const dptrType = mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, RPTR.rank - RPTR.disp], [mpi.AINT, mpi.INT]));
  const blens = [1, MAX_KEY_SIZE, MAX_VALUE_SIZE];
  const dtypes: Datatype[] = [dptrType, mpi.CHAR, mpi.CHAR];
  if (isOneLevel) {
    blens[0] = RPTR.size;
    dtypes[0] = mpi.BYTE;
  }
  const displ = [0, ELM.key - ELM.next, ELM.value - ELM.next];
  for (let i = 0; i < 3; i++) mt.printfMsg(0, `${i}:count=${blens[i]},disp=${displ[i]}`);
  const listelmType = mpi.typeCommit(mpi.typeCreateStruct(3, blens, displ, dtypes));

  const listwin = await mpi.winCreateDynamic(mpi.INFO_NULL);
  const headDisp = new BigInt64Array(1);
  let headLptr: Uint8Array | null = null;
  if (wrank === 0) {
    // one list element (the head)
    headLptr = mpi.allocMem(ELM.size, mpi.INFO_NULL);
    const v = new DataView(headLptr.buffer, headLptr.byteOffset, ELM.size);
    v.setInt32(ELM.next + RPTR.rank, -1, true);
    v.setBigInt64(ELM.next + RPTR.disp, MPI_BOTTOM, true);
    v.setBigInt64(ELM.next + RPTR.lptr, 0n, true);
    headLptr.set(new TextEncoder().encode('key1'), ELM.key);
    headLptr.set(new TextEncoder().encode('value1'), ELM.value);
    headDisp[0] = BigInt(listwin.attach(headLptr));
  }
  await mpi.bcast(headDisp, 1, mpi.AINT, 0);
  await mpi.barrier();
  const headRank = 0;

  if (wrank === 1) {
    const headcopy = new Uint8Array(ELM.size);
    const h = new DataView(headcopy.buffer);
    const next = (): { rank: number; disp: bigint } => ({ rank: h.getInt32(RPTR.rank, true), disp: h.getBigInt64(RPTR.disp, true) });
    await listwin.lockAll(0);
    if (testCases & BYTE_ONLY) {
      h.setInt32(RPTR.rank, 100, true);
      h.setBigInt64(RPTR.disp, 0xefefefefn, true);
      await listwin.get(headcopy, ELM.size, mpi.BYTE, headRank, Number(headDisp[0]), ELM.size, mpi.BYTE);
      await listwin.flush(headRank);
      const n = next();
      if (n.rank !== -1 && n.disp !== MPI_BOTTOM) {
        errors++;
        mt.printf(`MPI_BYTE: headcopy contains incorrect next:<${n.rank},${n.disp}>`);
      }
    }
    if (testCases & TWO_STRUCT) {
      h.setInt32(RPTR.rank, 100, true);
      h.setBigInt64(RPTR.disp, 0xefefefefn, true);
      // a struct of struct type: not the same get as the bytes above, but it should work
      await listwin.get(headcopy, 1, listelmType, headRank, Number(headDisp[0]), 1, listelmType);
      await listwin.flush(headRank);
      const n = next();
      if (n.rank !== -1 && n.disp !== MPI_BOTTOM) {
        errors++;
        mt.printf(`ListelmType: headcopy contains incorrect next:<${n.rank},${n.disp}>`);
      }
    }
    await listwin.unlockAll();
  }
  await mpi.barrier();
  if (wrank === 0 && headLptr) {
    listwin.detach(headLptr);
    mpi.freeMem(headLptr);
  }
  await listwin.free();
  mpi.typeFree(dptrType);
  mpi.typeFree(listelmType);
  return mt.finalize(errors);
}
