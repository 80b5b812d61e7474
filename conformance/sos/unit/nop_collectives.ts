// SOS test/unit/nop_collectives.c: every collective with zero elements and NULL buffers (OpenSHMEM Annex C) on TEAM_WORLD (deprecated build: the 1.4 active-set calls over all PEs with their pSyncs), barriers between.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function nopCollectives(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const NULL = null as unknown as Symmetric;
  // long bcast_psync, collect_psync, reduce_psync, alltoall_psync, alltoalls_psync; int pwrk
  const [bcastPsync, collectPsync, reducePsync, alltoallPsync, alltoallsPsync, pwrk] = deprecated
    ? await t.statics([8 * s.BCAST_SYNC_SIZE, 8 * s.COLLECT_SYNC_SIZE, 8 * s.REDUCE_SYNC_SIZE, 8 * s.ALLTOALL_SYNC_SIZE, 8 * s.ALLTOALLS_SYNC_SIZE, 4 * s.REDUCE_MIN_WRKDATA_SIZE], (v) => {
        v[0]!.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
        v[1]!.int64().fill(s.SYNC_VALUE, 0, s.COLLECT_SYNC_SIZE);
        v[2]!.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
        v[3]!.int64().fill(s.SYNC_VALUE, 0, s.ALLTOALL_SYNC_SIZE);
        v[4]!.int64().fill(s.SYNC_VALUE, 0, s.ALLTOALLS_SYNC_SIZE);
        v[5]!.int32().fill(0, 0, s.REDUCE_MIN_WRKDATA_SIZE);
      })
    : [];
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const W = s.TEAM_WORLD;
  if (me === 0) t.printf('Testing zero length collectives');
  if (me === 0) t.printf(' + broadcast');
  if (deprecated) await s.broadcast32(NULL, NULL, 0, 0, 0, 0, npes, bcastPsync!);
  else await s.broadcast(W, NULL, NULL, 0, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.broadcast64(NULL, NULL, 0, 0, 0, 0, npes, bcastPsync!);
  else await s.broadcast(W, NULL, NULL, 0, 0, 'int64');
  await s.barrierAll();
  if (me === 0) t.printf(' + collect');
  if (deprecated) await s.fcollect32(NULL, NULL, 0, 0, 0, npes, collectPsync!);
  else await s.fcollect(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.fcollect64(NULL, NULL, 0, 0, 0, npes, collectPsync!);
  else await s.fcollect(W, NULL, NULL, 0, 'int64');
  await s.barrierAll();
  if (deprecated) await s.collect32(NULL, NULL, 0, 0, 0, npes, collectPsync!);
  else await s.collect(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.collect64(NULL, NULL, 0, 0, 0, npes, collectPsync!);
  else await s.collect(W, NULL, NULL, 0, 'int64');
  await s.barrierAll();
  if (me === 0) t.printf(' + reduction');
  if (deprecated) await s.intAndToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.andReduce(W, NULL, NULL, 0, 'uint32');
  await s.barrierAll();
  if (deprecated) await s.intOrToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.orReduce(W, NULL, NULL, 0, 'uint32');
  await s.barrierAll();
  if (deprecated) await s.intXorToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.xorReduce(W, NULL, NULL, 0, 'uint32');
  await s.barrierAll();
  if (deprecated) await s.intMinToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.minReduce(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.intMaxToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.maxReduce(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.intSumToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.sumReduce(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.intProdToAll(NULL, NULL, 0, 0, 0, npes, pwrk!, reducePsync!);
  else await s.prodReduce(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (me === 0) t.printf(' + all-to-all');
  if (deprecated) await s.alltoall32(NULL, NULL, 0, 0, 0, npes, alltoallPsync!);
  else await s.alltoall(W, NULL, NULL, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.alltoall64(NULL, NULL, 0, 0, 0, npes, alltoallPsync!);
  else await s.alltoall(W, NULL, NULL, 0, 'int64');
  await s.barrierAll();
  if (deprecated) await s.alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, npes, alltoallsPsync!);
  else await s.alltoalls(W, NULL, NULL, 1, 1, 0, 'int32');
  await s.barrierAll();
  if (deprecated) await s.alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, npes, alltoallsPsync!);
  else await s.alltoalls(W, NULL, NULL, 1, 1, 0, 'int64');
  if (me === 0) t.printf('Done');
  await s.finalize();
  return 0;
}
