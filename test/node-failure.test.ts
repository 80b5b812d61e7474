import { describe, expect, it } from 'vitest';
import { DmappError } from '../runtime/dmapp/dmapp.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import { NodeFailureError } from '../runtime/node-failure.ts';
import { simulate } from '../runtime/simulate.ts';
import { GNI_RC, gniCheck } from '../runtime/ugni/gni.ts';
import { rejection } from './helpers.ts';

/** The NIC timeout of every preset (nic.timeout) and the time node 1 dies in these runs, in us. */
const TIMEOUT_US = 1000;
const DEATH_US = 5;
const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;

describe('node failure (faults.nodes, nic.timeout)', () => {
  it.each(MACHINES)('%s: a send to, and a receive from, a dead node\'s rank fail with MPI_ERR_OTHER naming it, after the death and the NIC timeout', async (machine) => {
    const r = await simulate({
      machine,
      nodes: 2,
      metrics: true,
      set: { 'faults.nodes': `1@${DEATH_US}us` },
      program: async (ctx) => {
        if (ctx.rank === 1) {
          // stopped by its node's death long before this ends
          await ctx.compute(1e12);
          return null;
        }
        ctx.mpi.setErrhandler(ctx.mpi.ERRORS_RETURN);
        await ctx.compute(10e6);
        const seen: { cls: string; message: string; us: number }[] = [];
        for (const call of [() => ctx.mpi.send(new Int32Array(4), 1, 0), () => ctx.mpi.recv(new Int32Array(4), 1, 0), () => ctx.mpi.send(new Int32Array(40_000), 1, 0)]) {
          try {
            await call();
            seen.push({ cls: 'none', message: '', us: ctx.now() });
          } catch (e) {
            seen.push({ cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() });
          }
        }
        return seen;
      },
    });
    // the dead rank returned nothing: it stopped at its node's death
    expect(r.rankResults[1]).toBeUndefined();
    const seen = r.rankResults[0]!;
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(s.cls).toBe('MPI_ERR_OTHER');
      expect(s.message).toMatch(/rank 1 \(node 1, dead since 5\.000 us\)/);
      expect(s.us).toBeGreaterThanOrEqual(DEATH_US + TIMEOUT_US);
    }
    // the eager send was issued at 10 us: it fails one timeout later, not before
    expect(seen[0]!.us).toBeGreaterThanOrEqual(10 + TIMEOUT_US);
    expect(seen[0]!.us).toBeLessThan(10 + TIMEOUT_US + 50);
    // --metrics: the dead node, the packets it dropped, the two sends that timed out
    const nf = r.metrics!.fabric.nodeFaults!;
    expect(nf.dead).toEqual([{ node: 1, atUs: DEATH_US }]);
    expect(nf.timeouts).toBe(2);
    expect(nf.droppedPackets).toBeGreaterThanOrEqual(2);
    expect(nf.timeoutUs).toBe(TIMEOUT_US);
  });

  it('the default handler (ERRORS_ARE_FATAL): a barrier with a dead rank fails the run with MPI_ERR_OTHER naming the dead node', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 3,
        set: { 'faults.nodes': `2@${DEATH_US}us` },
        program: async (ctx) => {
          await ctx.compute(10e6);
          await ctx.mpi.barrier();
        },
      }),
    );
    expect(err.message).toMatch(/MPI_ERR_OTHER: barrier.*rank 2 \(node 2, dead since 5\.000 us\) will never send/);
    expect(err.message).not.toMatch(/deadlock/);
  });

  it.each(MACHINES)('%s: with BER 1e-6 on every link and a node dead from the start, its ranks never run; live ranks on a communicator of their own get correct data', async (machine) => {
    const r = await simulate({
      machine,
      nodes: 4,
      ppn: 2,
      metrics: true,
      set: { 'faults.nodes': '3', 'link.ber': '1e-6' },
      program: async (ctx) => {
        const live = ctx.mpi.group.incl([0, 1, 2, 3, 4, 5]);
        const comm = await ctx.mpi.createGroup(live);
        const sum = new Float64Array(4);
        await comm.allreduce(Float64Array.from([1, ctx.rank, 2 * ctx.rank, 0.5]), sum, ctx.mpi.SUM);
        // and a ring of point-to-point messages of 64 KiB (rendezvous) between live nodes
        const next = (comm.rank + 1) % comm.size;
        const prev = (comm.rank + comm.size - 1) % comm.size;
        const got = new Int32Array(16_384);
        await Promise.all([comm.send(new Int32Array(16_384).fill(ctx.rank), next, 1), comm.recv(got, prev, 1)]);
        return { sum: [...sum], ringOk: got.every((v) => v === prev) };
      },
    });
    for (let rank = 0; rank < 6; rank++) expect(r.rankResults[rank]).toEqual({ sum: [6, 15, 30, 3], ringOk: true });
    expect(r.rankResults[6]).toBeUndefined();
    expect(r.rankResults[7]).toBeUndefined();
    // the link errors are counted per link class (bw's 4 nodes share one router: no class), and the dead node is reported
    const classes = r.metrics!.fabric.linkErrors!.length;
    if (machine === 'bw') expect(classes).toBe(0);
    else expect(classes).toBeGreaterThan(0);
    expect(r.metrics!.fabric.linkErrors!.every((c) => c.ber === 1e-6)).toBe(true);
    expect(r.metrics!.fabric.nodeFaults!.dead).toEqual([{ node: 3, atUs: 0 }]);
  });

  it.each(['xe6', 'xc30'])('%s uGNI: an FMA put and a BTE get to a dead node complete with GNI_RC_TRANSACTION_ERROR on the CQ, status Timeout', async (machine) => {
    const r = await simulate({
      machine,
      nodes: 2,
      set: { 'faults.nodes': `1@${DEATH_US}us` },
      program: async (ctx) => {
        const gni = ctx.gni;
        const { cdm } = gniCheck(gni.cdmCreate(gni.rank, 1, 0xc0ffee), 'cdmCreate');
        const { nic } = gniCheck(gni.cdmAttach(cdm), 'cdmAttach');
        const { cq } = gniCheck(gni.cqCreate(nic, 16), 'cqCreate');
        const mem = new Uint8Array(4096);
        const { memHndl } = gniCheck(gni.memRegister(nic, mem), 'memRegister');
        const handles = await gni.exchange(memHndl);
        if (ctx.rank === 1) {
          await ctx.compute(1e12);
          return null;
        }
        const { ep } = gniCheck(gni.epCreate(nic, cq), 'epCreate');
        gniCheck(gni.epBind(ep, 1, 1), 'epBind');
        await ctx.compute(10e6);
        const out: { rc: string; status: string; us: number }[] = [];
        gniCheck(await gni.postFma(ep, { type: 'FMA_PUT', local: new Uint8Array(256), remoteMemHndl: handles[1]!, remoteOffset: 0, postId: 1 }), 'postFma');
        let ev = await gni.cqWaitEvent(cq);
        out.push({ rc: ev.rc, status: 'event' in ev ? ev.event.status : '', us: ctx.now() });
        gniCheck(await gni.postRdma(ep, { type: 'RDMA_GET', local: mem, localMemHndl: memHndl, remoteMemHndl: handles[1]!, remoteOffset: 0, length: 2048, postId: 2 }), 'postRdma');
        ev = await gni.cqWaitEvent(cq);
        out.push({ rc: ev.rc, status: 'event' in ev ? ev.event.status : '', us: ctx.now() });
        return out;
      },
    });
    const out = r.rankResults[0]!;
    expect(out.map((o) => [o.rc, o.status])).toEqual([
      [GNI_RC.TRANSACTION_ERROR, 'Timeout'],
      [GNI_RC.TRANSACTION_ERROR, 'Timeout'],
    ]);
    expect(out[0]!.us).toBeGreaterThanOrEqual(10 + TIMEOUT_US);
    expect(out[1]!.us).toBeGreaterThanOrEqual(out[0]!.us + TIMEOUT_US);
  });

  it('DMAPP and SHMEM: a put to a dead PE fails with DMAPP_RC_TRANSACTION_ERROR; a get from it with a SHMEM error; puts between live PEs land', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      set: { 'faults.nodes': `2@${DEATH_US}us` },
      program: async (ctx) => {
        const seg = ctx.dmapp.malloc(4096);
        const sym = await ctx.shmem.malloc(64);
        if (ctx.rank === 2) {
          await ctx.compute(1e12);
          return null;
        }
        await ctx.compute(10e6);
        let dmapp = '';
        try {
          const h = await ctx.dmapp.putNb(2, seg, 0, new Uint8Array(512).fill(7));
          await ctx.dmapp.syncidWait(h);
        } catch (e) {
          dmapp = e instanceof DmappError ? e.message : `not a DmappError: ${String(e)}`;
        }
        let shmem = '';
        try {
          await ctx.shmem.getmem(new Uint8Array(64), sym, 64, 2);
        } catch (e) {
          shmem = (e as Error).message;
        }
        // a put between the two live PEs still lands
        const peer = 1 - ctx.rank;
        const h = await ctx.dmapp.putNb(peer, seg, 1024, new Uint8Array(256).fill(10 + ctx.rank));
        await ctx.dmapp.syncidWait(h);
        await ctx.mpi.createGroup(ctx.mpi.group.incl([0, 1])).then((c) => c.barrier());
        return { dmapp, shmem, landed: seg.local.subarray(1024, 1280).every((v) => v === 10 + peer), us: ctx.now() };
      },
    });
    for (const rank of [0, 1]) {
      const res = r.rankResults[rank]!;
      expect(res.dmapp).toMatch(/^DMAPP_RC_TRANSACTION_ERROR: putNb failed with NIC status Timeout: PE 2 on node 2 did not answer within the NIC timeout/);
      expect(res.shmem).toMatch(/^getmem: DMAPP_RC_TRANSACTION_ERROR: .*Timeout: PE 2 on node 2 did not answer/);
      expect(res.landed).toBe(true);
    }
  });

  it('a wait nothing can satisfy because of a dead node is reported as its failure, not as a deadlock of the program', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        set: { 'faults.nodes': `1@${DEATH_US}us` },
        program: async (ctx) => {
          const sym = await ctx.shmem.malloc(8);
          if (ctx.rank === 1) {
            await ctx.compute(1e12);
            return;
          }
          // rank 1 was to set the flag; it died
          await ctx.shmem.waitUntil(sym, 'eq', 1);
        },
      }),
    );
    expect(err).toBeInstanceOf(NodeFailureError);
    expect(err.message).toMatch(/node 1 \(dead since 5\.000 us\)/);
    expect(err.message).toMatch(/rank 0/);
  });

  it('bad faults.nodes values and nodes outside the machine are refused with the parameter named', async () => {
    for (const [value, why] of [
      ['x', /faults\.nodes: "x" is not a list of nodes; expected none, or node ids/],
      ['1,1', /faults\.nodes: "1,1" is not a list of nodes/],
      ['1@3', /faults\.nodes: "1@3" is not a list of nodes/],
      ['7', /parameter faults\.nodes: node 7 is not a node of this 2-node machine \(0\.\.1\)/],
    ] as const) {
      const err = await rejection(simulate({ machine: 'xt4', nodes: 2, set: { 'faults.nodes': value }, program: async () => null }));
      expect(err.message).toMatch(why);
    }
  });
});
