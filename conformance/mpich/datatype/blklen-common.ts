// The body shared by MPICH's vecblklen.c and hvecblklen.c: 59 chars resized to 64 bytes, tiled
// 16 x 16 by a vector type whose block length equals its stride (not contiguous: each copy has a
// gap at its end), packed and unpacked; the gaps of the output keep CHAR_MAX.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

const CHAR_MAX = 127;

export async function blklen(mt: MTest, vector: (mpi: Mpi, veccount: number, stride: number, oldtype: Datatype) => Datatype): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const veccount = 16;
  const stride = 16;
  // a type with some padding
  const dt = mpi.typeContiguous(59, mpi.CHAR);
  const dt2 = mpi.typeCreateResized(dt, 0, 64);
  // a vector type with a block size equal to the stride, tiling the target memory with copies of
  // the old type: not a contiguous copy, since the old type has a gap at its end
  const newtype = vector(mpi, veccount, stride, dt2);
  mpi.typeCommit(newtype);
  const insize = veccount * stride * 64;
  const outsize = insize;
  const inbuf = new Int8Array(insize);
  const outbuf = new Int8Array(outsize);
  for (let i = 0; i < outsize; i++) {
    inbuf[i] = i % 64;
    outbuf[i] = CHAR_MAX;
  }
  let psize = mpi.packSize(1, newtype);
  const pbuf = new Uint8Array(psize);
  const position = mpi.pack(inbuf, 1, newtype, pbuf, 0);
  psize = position;
  mpi.unpack(pbuf.subarray(0, psize), 0, outbuf, 1, newtype);
  // check the output
  let p = 0;
  for (let i = 0; i < veccount; i++) {
    for (let j = 0; j < stride; j++) {
      for (let k = 0; k < 59; k++) {
        if (outbuf[p] !== k % 64) {
          errs++;
          if (errs < 10) mt.printf(`[${i},${j},${k}]expected ${k % 64} but saw ${outbuf[p]}`);
        }
        p++;
      }
      for (let k = 59; k < 64; k++) {
        if (outbuf[p] !== CHAR_MAX) {
          errs++;
          if (errs < 10) mt.printf(`[${i},${j},${k}]expected ${String.fromCharCode(CHAR_MAX)} but saw ${outbuf[p]}`);
        }
        p++;
      }
    }
  }
  mpi.typeFree(dt);
  mpi.typeFree(dt2);
  mpi.typeFree(newtype);
  return mt.finalize(errs);
}
