/**
 * Alltoall(v) with a bounded number of messages in flight: Open MPI's linear_sync
 * (ompi/mca/coll/base/coll_base_alltoall.c, ompi_coll_base_alltoall_intra_linear_sync),
 * MVAPICH2's scatter-destination (src/mpi/coll/alltoall_osu.c, MPIR_Alltoall_Scatter_dest_MV2,
 * and alltoallv_osu.c, MPIR_Alltoallv_intra_scatter_MV2, from MPICH's medium-message alltoall)
 * and MPICH's own scattered form (MPICH 3.x src/mpi/coll/alltoall.c, medium messages, and
 * alltoallv.c, MPIR_Alltoallv_intra).
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { copy, recv, send, TAG, type Buf } from './util.ts';

/**
 * Outstanding receives (and as many sends) of linear_sync. Open MPI's
 * coll_tuned_alltoall_algorithm_max_requests defaults to 0, no bound, which is the basic linear
 * form; phit bounds it at 8 so that the form is the windowed one it is named for.
 */
export const LINEAR_SYNC_WINDOW = 8;

/**
 * Receives (and sends) per block of scatter-destination: MVAPICH2's MV2_ALLTOALL_THROTTLE_FACTOR
 * (mv2_coll_param.alltoall_throttle_factor, default 4).
 */
export const SCATTER_DEST_BLOCK = 4;

/**
 * Partners per block of MPICH's scattered alltoall and alltoallv: MPIR_CVAR_ALLTOALL_THROTTLE
 * (MPICH 3.x, default 32, "max no. of irecvs/isends posted at a time in some alltoall
 * algorithms"; 0 posts them all at once, phit's `linear`).
 */
export const MPICH_ALLTOALL_THROTTLE = 32;

type At = (r: number) => number;

/**
 * Linear sync: receives from rank + 1, rank + 2, ... and sends to rank - 1, rank - 2, ..., at
 * most `window` of each in flight; when one completes the next of its kind is posted. phit's
 * steps wait for given requests (there is no wait-any), so the rank waits for its oldest
 * request and then replaces it and every other one already complete.
 */
function* linearSyncWith(t: CollTransport, sendBuf: Buf, sAt: At, sLen: At, recvBuf: Buf, rAt: At, rLen: At, window: number, what: string, tag: number): Coll {
  const n = t.size;
  const me = t.rank;
  yield copy(t, recvBuf, rAt(me), sendBuf, sAt(me), sLen(me));
  const live: { req: Request; isRecv: boolean }[] = [];
  let ri = 1;
  let si = 1;
  let recvs = 0;
  let sends = 0;
  const fill = (): void => {
    for (; recvs < window && ri < n; ri++) {
      const src = (me + ri) % n;
      if (rLen(src) === 0) continue;
      live.push({ req: recv(t, recvBuf, rAt(src), rLen(src), src, tag, what), isRecv: true });
      recvs++;
    }
    for (; sends < window && si < n; si++) {
      const dst = (me - si + n) % n;
      if (sLen(dst) === 0) continue;
      live.push({ req: send(t, sendBuf, sAt(dst), sLen(dst), dst, tag, what), isRecv: false });
      sends++;
    }
  };
  const drop = (i: number): void => {
    if (live[i]!.isRecv) recvs--;
    else sends--;
    live.splice(i, 1);
  };
  fill();
  while (live.length > 0) {
    yield live[0]!.req;
    drop(0);
    for (let i = 0; i < live.length; ) {
      if (!live[i]!.req.done) {
        i++;
        continue;
      }
      yield live[i]!.req;
      drop(i);
    }
    fill();
  }
}

/**
 * Scatter-destination: blocks of `block` partners at a time, in each the receives from
 * rank + i and the sends to rank - i posted at once, then waited for together.
 */
function* scatterDestWith(t: CollTransport, sendBuf: Buf, sAt: At, sLen: At, recvBuf: Buf, rAt: At, rLen: At, block: number, what: string, tag: number): Coll {
  const n = t.size;
  const me = t.rank;
  yield copy(t, recvBuf, rAt(me), sendBuf, sAt(me), sLen(me));
  for (let ii = 1; ii < n; ii += block) {
    const end = Math.min(n, ii + block);
    const reqs: Request[] = [];
    for (let i = ii; i < end; i++) {
      const src = (me + i) % n;
      if (rLen(src) > 0) reqs.push(recv(t, recvBuf, rAt(src), rLen(src), src, tag, what));
    }
    for (let i = ii; i < end; i++) {
      const dst = (me - i + n) % n;
      if (sLen(dst) > 0) reqs.push(send(t, sendBuf, sAt(dst), sLen(dst), dst, tag, what));
    }
    yield reqs;
  }
}

/**
 * MPICH's scattered form ("Tony Ladd's modification": post only a small number of isends and
 * irecvs at a time): partners i = 0 .. n - 1 in blocks of `block`, i = 0 the rank itself (a local
 * copy); per block the receives from rank + i and the sends to rank - i posted (none for an empty
 * count), then waited for together before the next block. A block of n or more is the linear form.
 */
export function* scatteredWith(t: CollTransport, sendBuf: Buf, sAt: At, sLen: At, recvBuf: Buf, rAt: At, rLen: At, block: number, what: string, tag: number): Coll {
  const n = t.size;
  const me = t.rank;
  for (let ii = 0; ii < n; ii += block) {
    const end = Math.min(n, ii + block);
    const reqs: Request[] = [];
    for (let i = Math.max(1, ii); i < end; i++) {
      const src = (me + i) % n;
      if (rLen(src) > 0) reqs.push(recv(t, recvBuf, rAt(src), rLen(src), src, tag, what));
    }
    for (let i = Math.max(1, ii); i < end; i++) {
      const dst = (me - i + n) % n;
      if (sLen(dst) > 0) reqs.push(send(t, sendBuf, sAt(dst), sLen(dst), dst, tag, what));
    }
    if (ii === 0) yield copy(t, recvBuf, rAt(me), sendBuf, sAt(me), sLen(me));
    yield reqs;
  }
}

/** MPICH's medium-message alltoall: the scattered form in blocks of MPICH_ALLTOALL_THROTTLE partners. */
export function* alltoallScattered(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length / t.size;
  yield* scatteredWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, MPICH_ALLTOALL_THROTTLE, 'alltoall(scattered)', TAG.alltoall + 7);
}

/** MPICH's alltoallv: the scattered form in blocks of MPICH_ALLTOALL_THROTTLE partners (counts and displacements in elements). */
export function* alltoallvScattered(t: CollTransport, sendBuf: Buf, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: Buf, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Coll {
  yield* scatteredWith(t, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, MPICH_ALLTOALL_THROTTLE, 'alltoallv(scattered)', TAG.alltoallv + 4);
}

/** Open MPI's linear_sync alltoall (at most LINEAR_SYNC_WINDOW receives and sends in flight). */
export function* alltoallLinearSync(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length / t.size;
  yield* linearSyncWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, LINEAR_SYNC_WINDOW, 'alltoall(linear sync)', TAG.alltoall + 3);
}

/** MVAPICH2's scatter-destination alltoall (blocks of SCATTER_DEST_BLOCK partners). */
export function* alltoallScatterDest(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length / t.size;
  yield* scatterDestWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, SCATTER_DEST_BLOCK, 'alltoall(scatter dest)', TAG.alltoall + 4);
}

/** Open MPI's linear_sync alltoallv (counts and displacements in elements). */
export function* alltoallvLinearSync(t: CollTransport, sendBuf: Buf, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: Buf, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Coll {
  yield* linearSyncWith(t, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, LINEAR_SYNC_WINDOW, 'alltoallv(linear sync)', TAG.alltoallv + 2);
}

/** MVAPICH2's scatter-destination alltoallv (counts and displacements in elements). */
export function* alltoallvScatterDest(t: CollTransport, sendBuf: Buf, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: Buf, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Coll {
  yield* scatterDestWith(t, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, SCATTER_DEST_BLOCK, 'alltoallv(scatter dest)', TAG.alltoallv + 3);
}

const W = LINEAR_SYNC_WINDOW;
const B = SCATTER_DEST_BLOCK;
const M = MPICH_ALLTOALL_THROTTLE;

/** The windowed alltoalls, spread into the alltoall's table. */
export const ALLTOALL_WINDOWED: AlgorithmSpecs<'alltoall'> = {
  linearSync: { fn: alltoallLinearSync, origin: 'Open MPI', cost: `(p-1)·(α + nβ), ${W} receives and ${W} sends in flight`, help: `linear, at most ${W} receives and ${W} sends in flight` },
  scatterDest: { fn: alltoallScatterDest, origin: 'MVAPICH2', cost: `ceil((p-1)/${B})·α + (p-1)·nβ`, help: `blocks of ${B} partners posted at once, one block after another` },
  scattered: { fn: alltoallScattered, origin: 'MPICH', cost: `ceil(p/${M})·α + (p-1)·nβ`, help: `blocks of ${M} partners (MPIR_CVAR_ALLTOALL_THROTTLE) posted at once, one block after another` },
};

/** The windowed alltoallvs, spread into the alltoallv's table. */
export const ALLTOALLV_WINDOWED: AlgorithmSpecs<'alltoallv'> = {
  scatterDest: { fn: alltoallvScatterDest, origin: 'MVAPICH2', cost: `ceil((p-1)/${B})·α + (p-1)·nβ`, help: `blocks of ${B} partners posted at once, one block after another` },
  linearSync: { fn: alltoallvLinearSync, origin: 'Open MPI', cost: `(p-1)·(α + nβ), ${W} receives and ${W} sends in flight`, help: `linear, at most ${W} receives and ${W} sends in flight` },
  scattered: { fn: alltoallvScattered, origin: 'MPICH', cost: `ceil(p/${M})·α + (p-1)·nβ`, help: `blocks of ${M} partners (MPIR_CVAR_ALLTOALL_THROTTLE) posted at once, one block after another` },
};
