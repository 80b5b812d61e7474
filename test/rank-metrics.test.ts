import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import type { CallStats, RunMetrics } from '../runtime/metrics.ts';
import type { RankContext, RankProgram } from '../runtime/rank.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { gniCheck } from '../runtime/ugni/gni.ts';
import { phit } from './helpers.ts';

/** An app as a program that returns the rank's finish time (us), so every rank's time is known. */
function finishing(app: string, params: Record<string, string> = {}): RankProgram<number> {
  const a = apps[app]!;
  const p = resolveParams(a, params);
  return async (ctx) => {
    await a.main(ctx, p);
    return ctx.now();
  };
}

/** rank 0 puts 256 bytes to rank 1 over uGNI FMA and waits for the local event. */
async function gniPut(ctx: RankContext): Promise<number> {
  const gni = ctx.gni;
  const { cdm } = gniCheck(gni.cdmCreate(gni.rank, 1, 0xc0ffee), 'cdmCreate');
  const { nic } = gniCheck(gni.cdmAttach(cdm), 'cdmAttach');
  const { cq } = gniCheck(gni.cqCreate(nic, 16), 'cqCreate');
  const mem = new Uint8Array(1024);
  const { memHndl } = gniCheck(gni.memRegister(nic, mem, null), 'memRegister');
  const handles = await gni.exchange(memHndl);
  if (ctx.rank === 0) {
    const { ep } = gniCheck(gni.epCreate(nic, cq), 'epCreate');
    gniCheck(gni.epBind(ep, 1, 1), 'epBind');
    gniCheck(await gni.postFma(ep, { type: 'FMA_PUT', local: new Uint8Array(256).fill(7), remoteMemHndl: handles[1]!, remoteOffset: 0 }), 'postFma');
    await gni.cqWaitEvent(cq);
    await ctx.compute({ us: 2 });
  }
  await gni.exchange(0);
  return ctx.now();
}

function byName(calls: readonly CallStats[]): Record<string, CallStats> {
  return Object.fromEntries(calls.map((c) => [c.name, c]));
}

const RUNS: readonly [string, Omit<SimulateOptions<number>, 'metrics'>][] = [
  ['halo3d (MPI, nonblocking + waitall)', { machine: 'xe6', nodes: 8, program: finishing('halo3d', { iterations: '3' }) }],
  ['pingpong (MPI, blocking)', { machine: 'xt4', nodes: 2, program: finishing('pingpong', { maxBytes: '64KiB' }) }],
  ['allreduce on the collective engine', { machine: 'xc30', nodes: 4, ppn: 2, program: finishing('allreduce', { maxBytes: '1KiB' }) }],
  ['gups (SHMEM atomics, noise on xc30)', { machine: 'xc30', nodes: 4, program: finishing('gups') }],
  ['putrate (DMAPP)', { machine: 'xe6', nodes: 2, program: finishing('putrate') }],
  ['uGNI FMA put', { machine: 'xe6', nodes: 2, program: gniPut }],
];

describe('per-rank time split', () => {
  for (const [what, opts] of RUNS) {
    it(`compute + transfer + wait = each rank's finish time, and metrics do not change the run: ${what}`, async () => {
      const plain = await simulate(opts);
      const r = await simulate({ ...opts, metrics: true });
      // instrumentation must not move simulated time or the order of events
      expect(r.simulatedTimeUs).toBe(plain.simulatedTimeUs);
      expect(r.events).toBe(plain.events);
      expect(r.rankResults).toEqual(plain.rankResults);
      const m = r.metrics!;
      expect(m.ranks.map((x) => x.rank)).toEqual(r.rankResults.map((_, i) => i));
      for (const t of m.ranks) {
        expect(t.computeUs).toBeGreaterThanOrEqual(0);
        expect(t.transferUs).toBeGreaterThanOrEqual(0);
        expect(t.waitUs).toBeGreaterThanOrEqual(0);
        expect(t.computeUs + t.transferUs + t.waitUs).toBeCloseTo(r.rankResults[t.rank]!, 6);
      }
      // some rank spends CPU time in calls, and some rank waits
      expect(m.ranks.some((t) => t.transferUs > 0)).toBe(true);
      expect(m.ranks.some((t) => t.waitUs > 0)).toBe(true);
      // all time outside ctx.compute is inside some call
      const inCalls = m.calls.reduce((a, c) => a + c.timeUs, 0);
      const notCompute = m.ranks.reduce((a, t) => a + t.transferUs + t.waitUs, 0);
      expect(inCalls).toBeCloseTo(notCompute, 3);
      // the fabric half covers the whole run and every packet of it
      expect(m.fabric.packets).toBe(r.packets);
      expect(m.fabric.durationPs).toBeGreaterThanOrEqual(r.simulatedTimeUs * 1e6);
      // the old mean compute figure is the mean of the split's
      expect(m.ranks.reduce((a, t) => a + t.computeUs, 0) / m.ranks.length).toBeCloseTo(r.computeUs, 9);
    });
  }
});

describe('per-call counts and bytes', () => {
  it('pingpong of N round trips: 2N MPI_Send and 2N MPI_Recv of the payload, one barrier per rank, no internal sends', async () => {
    const N = 7;
    const r = await simulate({ machine: 'xe6', nodes: 4, metrics: true, program: finishing('pingpong', { minBytes: '1024', maxBytes: '1024', iterations: String(N) }) });
    const c = byName(r.metrics!.calls);
    expect(c.MPI_Send).toMatchObject({ calls: 2 * N, bytes: 2 * N * 1024 });
    expect(c.MPI_Recv).toMatchObject({ calls: 2 * N, bytes: 2 * N * 1024 });
    // the barrier's dissemination rounds are its own messages, not the program's
    expect(c.MPI_Barrier).toMatchObject({ calls: 4, bytes: 0 });
    expect(Object.keys(c).sort()).toEqual(['MPI_Barrier', 'MPI_Recv', 'MPI_Send']);
    expect(c.MPI_Recv!.timeUs).toBeGreaterThan(0);
  });

  it('collectives, sub-communicators, requests and waits count as the program calls them', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      metrics: true,
      program: async (ctx) => {
        const { mpi } = ctx;
        const x = new Float64Array(100).fill(mpi.rank);
        await mpi.allreduce(mpi.IN_PLACE, x, mpi.SUM);
        const half = (await mpi.split(mpi.rank % 2, mpi.rank))!;
        await half.bcast(new Int32Array(10), 0);
        const peer = mpi.rank ^ 1;
        const rq = mpi.irecv(new Uint8Array(300), peer, 5);
        const sq = mpi.isend(new Uint8Array(300), peer, 5);
        await rq.wait();
        await mpi.waitAll([sq]);
        return 0;
      },
    });
    const c = byName(r.metrics!.calls);
    expect(c.MPI_Allreduce).toMatchObject({ calls: 4, bytes: 4 * 800 });
    expect(c.MPI_Comm_split).toMatchObject({ calls: 4 });
    expect(c.MPI_Bcast).toMatchObject({ calls: 4, bytes: 4 * 40 });
    expect(c.MPI_Isend).toMatchObject({ calls: 4, bytes: 1200 });
    expect(c.MPI_Irecv).toMatchObject({ calls: 4, bytes: 1200 });
    expect(c.MPI_Wait).toMatchObject({ calls: 4 });
    expect(c.MPI_Waitall).toMatchObject({ calls: 4 });
    // split's allgather and the collectives' point-to-point traffic are not the program's calls
    expect(c.MPI_Allgather).toBeUndefined();
    expect(c.MPI_Send).toBeUndefined();
  });

  it('SHMEM calls count once, not as the DMAPP operations under them; DMAPP and uGNI by their C names', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const { shmem } = ctx;
        const buf = await shmem.malloc(4096);
        await shmem.putmem(buf, new Uint8Array(1000), 1000, 1 - shmem.myPe());
        await shmem.putFloat64(buf, new Float64Array(3), 3, 1 - shmem.myPe());
        await shmem.atomicAdd(buf, 1, 1 - shmem.myPe(), 'int32');
        await shmem.barrierAll();
        return 0;
      },
    });
    const c = byName(r.metrics!.calls);
    expect(c.shmem_malloc).toMatchObject({ calls: 2 });
    expect(c.shmem_putmem).toMatchObject({ calls: 2, bytes: 2000 });
    expect(c.shmem_double_put).toMatchObject({ calls: 2, bytes: 48 });
    expect(c.shmem_atomic_add).toMatchObject({ calls: 2, bytes: 8 });
    expect(c.shmem_barrier_all).toMatchObject({ calls: 2 });
    expect(Object.keys(c).filter((n) => !n.startsWith('shmem_'))).toEqual([]);

    const g = await simulate({ machine: 'xe6', nodes: 2, metrics: true, program: gniPut });
    const gc = byName(g.metrics!.calls);
    expect(gc.GNI_PostFma).toMatchObject({ calls: 1, bytes: 256 });
    expect(gc.GNI_CqWaitEvent).toMatchObject({ calls: 1 });
    expect(gc.GNI_CdmCreate).toMatchObject({ calls: 2 });
    expect(gc.PMI_Allgather).toMatchObject({ calls: 4 });

    const d = await simulate({ machine: 'xe6', nodes: 2, metrics: true, program: finishing('putrate') });
    const dc = byName(d.metrics!.calls);
    expect(Object.keys(dc).some((n) => n.startsWith('dmapp_put'))).toBe(true);
  });

  it('without metrics the result has none', async () => {
    const r = await simulate({ machine: 'xe6', nodes: 2, program: finishing('putrate') });
    expect(r.metrics).toBeUndefined();
    expect(r.trace).toBeUndefined();
  });
});

describe('phit run --metrics', () => {
  it('prints min/mean/max per rank and a call table; --json carries the same numbers', async () => {
    const t = await phit('run', 'pingpong', '--machine', 'xe6', '--nodes', '2', '--param', 'maxBytes=1KiB', '--param', 'iterations=3', '--metrics');
    expect(t.code).toBe(0);
    const text = t.out.join('\n');
    expect(text).toMatch(/time per rank \(2 ranks/);
    expect(text).toMatch(/^compute\s/m);
    expect(text).toMatch(/^wait\s/m);
    expect(text).toMatch(/^MPI_Send\s+\d+/m);
    expect(text).toMatch(/^fabric over the run:\nover [\d.]+ us, \d+ packets delivered$/m);
    const j = await phit('run', 'pingpong', '--machine', 'xe6', '--nodes', '2', '--param', 'maxBytes=1KiB', '--param', 'iterations=3', '--metrics', '--json');
    expect(j.code).toBe(0);
    const out = JSON.parse(j.out.join('')) as { metrics: RunMetrics };
    expect(out.metrics.ranks).toHaveLength(2);
    expect(out.metrics.fabric.packets).toBeGreaterThan(0);
    const send = out.metrics.calls.find((c) => c.name === 'MPI_Send')!;
    // 8 B to 1 KiB: 8 sizes, 3 round trips each, one send per rank per round trip
    expect(send.calls).toBe(8 * 3 * 2);
    expect(text).toMatch(new RegExp(`^MPI_Send\\s+${send.calls}\\s+${send.bytes}\\s`, 'm'));
  });
});
