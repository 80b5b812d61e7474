// SOS test/unit/self_collectives.c: every collective on a one-PE team (PE 0 alone; deprecated
// build: the active set of this PE alone), checked; as in C, the `in` variables are the
// destinations and `out` the sources.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function selfCollectives(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  let errors = 0;
  // int in, out; unsigned int uin, uout; int32_t in_32, out_32; int64_t in_64, out_64
  const [inS, outS, uinS, uoutS, in32S, out32S, in64S, out64S] = await t.statics([4, 4, 4, 4, 4, 4, 8, 8]);
  const [bcastPsync, collectPsync, reducePsync, alltoallPsync, alltoallsPsync, pwrk] = deprecated
    ? await t.statics([8 * s.BCAST_SYNC_SIZE, 8 * s.COLLECT_SYNC_SIZE, 8 * s.REDUCE_SYNC_SIZE, 8 * s.ALLTOALL_SYNC_SIZE, 8 * s.ALLTOALLS_SYNC_SIZE, 4 * s.REDUCE_MIN_WRKDATA_SIZE], (v) => {
        for (const [k, n] of [s.BCAST_SYNC_SIZE, s.COLLECT_SYNC_SIZE, s.REDUCE_SYNC_SIZE, s.ALLTOALL_SYNC_SIZE, s.ALLTOALLS_SYNC_SIZE].entries()) v[k]!.int64().fill(s.SYNC_VALUE, 0, n);
        v[5]!.int32().fill(0, 0, s.REDUCE_MIN_WRKDATA_SIZE);
      })
    : [];
  const i32 = (x: Symmetric): number => x.int32()[0]!;
  const u32 = (x: Symmetric): number => x.uint32()[0]!;
  const i64 = (x: Symmetric): bigint => x.int64()[0]!;
  s.init();
  const me = s.myPe();
  const check = (func: string, inV: number | bigint, outV: number | bigint): void => {
    if (outV !== inV) {
      t.printf(`[${String(me).padStart(2, '0')}] Error: ${func} expected=${inV} out=${outV}`);
      ++errors;
    }
  };
  const set32 = (inV: number, outV: number): void => {
    in32S!.int32()[0] = inV;
    out32S!.int32()[0] = outV;
  };
  const set64 = (inV: bigint, outV: bigint): void => {
    in64S!.int64()[0] = inV;
    out64S!.int64()[0] = outV;
  };
  if (me === 0) t.printf('Testing single PE active set collectives');
  // broadcast (it does not modify the output buffer at the root)
  if (me === 0) t.printf(' + broadcast');
  // a one-PE team (start 0, stride 1, size 1) for all team tests; active sets may start at self
  const newTeam = deprecated ? null : await t.split(s.TEAM_WORLD, 0, 1, 1);
  const team = newTeam !== s.TEAM_INVALID;
  set32(me, -1);
  if (deprecated) {
    await s.broadcast32(in32S!, out32S!, 1, 0, me, 0, 1, bcastPsync!);
    check('shmem_broadcast32', -1, i32(out32S!));
  } else if (team) {
    await s.broadcast(newTeam, in32S!, out32S!, 1, 0, 'int32');
    check('shmem_int32_broadcast', -1, i32(out32S!));
  }
  await s.barrierAll();
  set64(BigInt(me), -1n);
  if (deprecated) {
    await s.broadcast64(in64S!, out64S!, 1, 0, me, 0, 1, bcastPsync!);
    check('shmem_broadcast64', -1n, i64(out64S!));
  } else if (team) {
    await s.broadcast(newTeam, in64S!, out64S!, 1, 0, 'int64');
    check('shmem_int64_broadcast', -1n, i64(out64S!));
  }
  await s.barrierAll();
  // collect
  if (me === 0) t.printf(' + collect');
  set32(me, -1);
  if (deprecated) {
    await s.fcollect32(in32S!, out32S!, 1, me, 0, 1, collectPsync!);
    check('shmem_fcollect32', i32(in32S!), i32(out32S!));
  } else if (team) {
    await s.fcollect(newTeam, in32S!, out32S!, 1, 'int32');
    check('shmem_int32_fcollect', i32(in32S!), i32(out32S!));
  }
  await s.barrierAll();
  set64(BigInt(me), -1n);
  if (deprecated) {
    await s.fcollect64(in64S!, out64S!, 1, me, 0, 1, collectPsync!);
    check('shmem_fcollect64', i64(in64S!), i64(out64S!));
  } else if (team) {
    await s.fcollect(newTeam, in64S!, out64S!, 1, 'int64');
    check('shmem_int64_fcollect', i64(in64S!), i64(out64S!));
  }
  await s.barrierAll();
  set32(me, -1);
  if (deprecated) {
    await s.collect32(in32S!, out32S!, 1, me, 0, 1, collectPsync!);
    check('shmem_collect32', i32(in32S!), i32(out32S!));
  } else if (team) {
    await s.collect(newTeam, in32S!, out32S!, 1, 'int32');
    check('shmem_int32_collect', i32(in32S!), i32(out32S!));
  }
  await s.barrierAll();
  set64(BigInt(me), -1n);
  if (deprecated) {
    await s.collect64(in64S!, out64S!, 1, me, 0, 1, collectPsync!);
    check('shmem_collect64', i64(in64S!), i64(out64S!));
  } else if (team) {
    await s.collect(newTeam, in64S!, out64S!, 1, 'int64');
    check('shmem_int64_collect', i64(in64S!), i64(out64S!));
  }
  await s.barrierAll();
  // reduction
  if (me === 0) t.printf(' + reduction');
  const ops = ['and', 'or', 'xor', 'min', 'max', 'sum', 'prod'] as const;
  for (const op of ops) {
    inS!.int32()[0] = me;
    outS!.int32()[0] = -1;
    const cap = `${op[0]!.toUpperCase()}${op.slice(1)}`;
    if (deprecated) {
      const call = (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[`int${cap}ToAll`]!;
      await call.call(s, inS!, outS!, 1, me, 0, 1, pwrk!, reducePsync!);
      check(`shmem_int_${op}_to_all`, i32(inS!), i32(outS!));
    } else if (op === 'and' || op === 'or' || op === 'xor') {
      uinS!.uint32()[0] = me;
      uoutS!.uint32()[0] = -1 >>> 0;
      if (team) {
        await s[`${op}Reduce`](newTeam, uinS!, uoutS!, 1, 'uint32');
        check(`shmem_uint_${op}_reduce`, u32(uinS!), u32(uoutS!));
      }
    } else if (team) {
      await s[`${op}Reduce`](newTeam, inS!, outS!, 1, 'int32');
      check(op === 'max' ? 'shmem_int_max_to_all' : `shmem_int_${op}_reduce`, i32(inS!), i32(outS!));
    }
    await s.barrierAll();
  }
  // all-to-all
  if (me === 0) t.printf(' + all-to-all');
  set32(me, -1);
  if (deprecated) {
    await s.alltoall32(in32S!, out32S!, 1, me, 0, 1, alltoallPsync!);
    check('shmem_alltoall32', i32(in32S!), i32(out32S!));
  } else if (team) {
    await s.alltoall(newTeam, in32S!, out32S!, 1, 'int32');
    check('shmem_int32_alltoall', i32(in32S!), i32(out32S!));
  }
  await s.barrierAll();
  set64(BigInt(me), -1n);
  if (deprecated) {
    await s.alltoall64(in64S!, out64S!, 1, me, 0, 1, alltoallPsync!);
    check('shmem_alltoall64', i64(in64S!), i64(out64S!));
  } else if (team) {
    await s.alltoall(newTeam, in64S!, out64S!, 1, 'int64');
    check('shmem_int64_alltoall', i64(in64S!), i64(out64S!));
  }
  await s.barrierAll();
  set32(me, -1);
  if (deprecated) {
    await s.alltoalls32(in32S!, out32S!, 1, 1, 1, me, 0, 1, alltoallsPsync!);
    check('shmem_alltoalls32', i32(in32S!), i32(out32S!));
  } else if (team) {
    await s.alltoalls(newTeam, in32S!, out32S!, 1, 1, 1, 'int32');
    check('shmem_int32_alltoalls', i32(in32S!), i32(out32S!));
  }
  await s.barrierAll();
  set64(BigInt(me), -1n);
  if (deprecated) {
    await s.alltoalls64(in64S!, out64S!, 1, 1, 1, me, 0, 1, alltoallsPsync!);
    check('shmem_alltoalls64', i64(in64S!), i64(out64S!));
  } else if (team) {
    await s.alltoalls(newTeam, in64S!, out64S!, 1, 1, 1, 'int64');
    check('shmem_int64_alltoalls', i64(in64S!), i64(out64S!));
  }
  await s.barrierAll();
  if (me === 0) t.printf('Done');
  await s.finalize();
  return errors;
}
