// MPICH test/mpi/datatype/lbub.c: size, lb, extent, true lb and true extent of a 4-byte contiguous
// type resized to lb -3, extent 9 (and to lb 6, extent -9), alone and as a contiguous type or
// vectors of 3 of it with block lengths 1 and 4, strides 1, 5 and -5 (errors returned and counted;
// verbose by default, as the C).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

/** One of the C's tests: the outer type over the resized one, and what its five figures must be. */
interface Case {
  /** The C's message when it finds errors. */
  readonly label: string;
  /** MPI_Type_create_resized(4 bytes, lb, extent). */
  readonly resized: readonly [number, number];
  /** The type of 3 of the resized one: contiguous, or vector(3, blklen, stride); none: the resized one. */
  readonly outer?: { readonly kind: 'contig' } | { readonly kind: 'vector'; readonly blklen: number; readonly stride: number };
  readonly size: number;
  readonly lb: number;
  readonly extent: number;
  readonly trueLb: number;
  readonly trueExtent: number;
}

// in the C's order of calls; the figures are the C's
const CASES: readonly Case[] = [
  { label: 'simple lb/ub test', resized: [-3, 9], size: 4, lb: -3, extent: 9, trueLb: 0, trueExtent: 4 },
  { label: 'contig test', resized: [-3, 9], outer: { kind: 'contig' }, size: 12, lb: -3, extent: 27, trueLb: 0, trueExtent: 22 },
  { label: 'negextent contig test', resized: [6, -9], outer: { kind: 'contig' }, size: 12, lb: -12, extent: 9, trueLb: -18, trueExtent: 22 },
  { label: 'simple vector test', resized: [-3, 9], outer: { kind: 'vector', blklen: 1, stride: 1 }, size: 12, lb: -3, extent: 27, trueLb: 0, trueExtent: 22 },
  { label: 'vector blklen test', resized: [-3, 9], outer: { kind: 'vector', blklen: 4, stride: 1 }, size: 48, lb: -3, extent: 54, trueLb: 0, trueExtent: 49 },
  { label: 'strided vector test', resized: [-3, 9], outer: { kind: 'vector', blklen: 4, stride: 5 }, size: 48, lb: -3, extent: 126, trueLb: 0, trueExtent: 121 },
  { label: 'negstrided vector test', resized: [-3, 9], outer: { kind: 'vector', blklen: 4, stride: -5 }, size: 48, lb: -93, extent: 126, trueLb: -90, trueExtent: 121 },
  { label: 'negextent lb/ub test', resized: [6, -9], size: 4, lb: 6, extent: -9, trueLb: 0, trueExtent: 4 },
  { label: 'strided negextent vector test', resized: [6, -9], outer: { kind: 'vector', blklen: 4, stride: 5 }, size: 48, lb: -111, extent: 108, trueLb: -117, trueExtent: 121 },
  { label: 'negstrided negextent vector test', resized: [6, -9], outer: { kind: 'vector', blklen: 4, stride: -5 }, size: 48, lb: -21, extent: 108, trueLb: -27, trueExtent: 121 },
];

export default async function lbub(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = true;
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  const runCase = async (c: Case): Promise<number> => {
    let e = 0;
    const made: Datatype[] = [];
    // a constructor that fails ends the test (no point in continuing; the C's first test goes on
    // and counts more errors, the failure is counted either way)
    const make = async (what: string, build: () => Datatype): Promise<Datatype | null> => {
      let t: Datatype | null = null;
      const err = await rc(() => {
        t = build();
      });
      if (err) {
        e++;
        if (verbose) mt.printf(`  ${what} failed.`);
        mt.printError(err);
        return null;
      }
      made.push(t!);
      return t;
    };
    const finish = (): number => {
      for (const t of made) mpi.typeFree(t);
      return e;
    };
    const tmptype = await make('MPI_Type_contiguous', () => mpi.typeContiguous(4, mpi.BYTE));
    if (!tmptype) return finish();
    const [rlb, rextent] = c.resized;
    const inttype = await make('MPI_Type_create_resized', () => mpi.typeCreateResized(tmptype, rlb, rextent));
    if (!inttype) return finish();
    let eviltype = inttype;
    if (c.outer) {
      const o = c.outer;
      const t = o.kind === 'contig' ? await make('MPI_Type_contiguous', () => mpi.typeContiguous(3, inttype)) : await make('MPI_Type_vector', () => mpi.typeVector(3, o.blklen, o.stride, inttype));
      if (!t) return finish();
      eviltype = t;
    }
    let size = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(eviltype);
      })
    ) {
      e++;
      if (verbose) mt.printf('  MPI_Type_size failed.');
    }
    if (size !== c.size) {
      e++;
      if (verbose) mt.printf(`  size of type = ${size}; should be ${c.size}`);
    }
    let lb = NaN;
    let extent = NaN;
    if (
      await rc(() => {
        ({ lb, extent } = mpi.typeGetExtent(eviltype));
      })
    ) {
      e++;
      if (verbose) mt.printf('  MPI_Type_get_extent failed.');
    }
    if (lb !== c.lb) {
      e++;
      if (verbose) mt.printf(`  lb of type = ${lb}; should be ${c.lb}`);
    }
    if (extent !== c.extent) {
      e++;
      if (verbose) mt.printf(`  extent of type = ${extent}; should be ${c.extent}`);
    }
    let trueLb = NaN;
    let trueExtent = NaN;
    if (
      await rc(() => {
        ({ lb: trueLb, extent: trueExtent } = mpi.typeGetTrueExtent(eviltype));
      })
    ) {
      e++;
      if (verbose) mt.printf('  MPI_Type_get_true_extent failed.');
    }
    if (trueLb !== c.trueLb) {
      e++;
      if (verbose) mt.printf(`  true_lb of type = ${trueLb}; should be ${c.trueLb}`);
    }
    if (trueExtent !== c.trueExtent) {
      e++;
      if (verbose) mt.printf(`  true extent of type = ${trueExtent}; should be ${c.trueExtent}`);
    }
    return finish();
  };

  for (const c of CASES) {
    const err = await runCase(c);
    if (err && verbose) mt.printf(`found ${err} errors in ${c.label}`);
    errs += err;
  }
  return mt.finalize(errs);
}
