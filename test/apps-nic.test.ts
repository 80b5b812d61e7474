/**
 * The one-sided NIC apps (putrate, amorate, gups and its locks mode, putget's pairs=node and bidirectional modes)
 * on all five machines: each runs to the end with its own data check passing, reports its rows,
 * and says in a `note` which NIC features the machine lacks.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type AppResult, type Row } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;

async function run(app: string, machine: string, nodes: number, ppn: number, raw: Record<string, string>, set: Record<string, string> = {}): Promise<Row[]> {
  const a = apps[app]!;
  const p = resolveParams(a, raw);
  a.check?.(p);
  const r = await simulate({ machine, nodes, ppn, set, program: (ctx) => a.main(ctx, p) });
  const out = r.result as AppResult | undefined;
  if (!out) throw new Error(`${app} returned nothing on rank 0`);
  return [...out.rows];
}

/** The note each machine's rows carry for the features each app measures ('' for none). */
const NOTES: Record<string, Record<(typeof MACHINES)[number], RegExp | null>> = {
  putrate: { xt4: /^xt4: SeaStar has no FMA; puts use the DMA engine; no vMDH/, xe6: /^xe6: no vMDH/, xc30: null, sc5832: /^sc5832: no vMDH/, bw: /^bw: no vMDH/ },
  amorate: { xt4: /^xt4: no AMO cache.*; no IOMMU model/, xe6: /^xe6: no IOMMU model/, xc30: null, sc5832: /^sc5832: no AMO cache; no IOMMU model/, bw: /^bw: no AMO cache.*; no IOMMU model/ },
  gups: { xt4: /^xt4: SeaStar has no FMA.*; no AMO cache/, xe6: null, xc30: null, sc5832: /^sc5832: no AMO cache/, bw: /^bw: no AMO cache/ },
};

function expectNote(app: string, machine: (typeof MACHINES)[number], row: Row): void {
  const want = NOTES[app]![machine];
  if (want === null) expect(row.note, `${app} on ${machine}`).toBeUndefined();
  else expect(row.note, `${app} on ${machine}`).toMatch(want);
}

describe.each(MACHINES)('NIC apps on %s', (machine) => {
  it('putrate: one row {ppn, puts, vmdh, rateMps, perProcessMps}, every put in place', async () => {
    const [r] = await run('putrate', machine, 3, 2, { puts: '40', warmup: '8', targets: '4' });
    expect(r).toMatchObject({ ppn: 2, puts: 80, vmdh: machine === 'xc30' ? 'yes' : 'no' });
    expect(r!.rateMps as number).toBeGreaterThan(0);
    // two processes issue at most twice one's rate
    expect(r!.rateMps as number).toBeLessThanOrEqual(2.05 * (r!.perProcessMps as number));
    expectNote('putrate', machine, r!);
  });

  it('amorate: every variable holds its adds; cache hit rates or n/a where the machine has no such cache', async () => {
    const [hot] = await run('amorate', machine, 2, 3, { vars: '1', amos: '30', warmup: '5' });
    expect(hot).toMatchObject({ ranks: 5, vars: 1, amos: 150 });
    expect(hot!.rateMps as number).toBeGreaterThan(0);
    expect(hot!.amoCacheHitPct).toBe(machine === 'xc30' || machine === 'xe6' ? 100 : 'n/a');
    expect(hot!.pteCacheHitPct).toBe(machine === 'xc30' ? 100 : 'n/a');
    expectNote('amorate', machine, hot!);
    const [spread] = await run('amorate', machine, 2, 3, { vars: '512', arrayBytes: '1MiB', amos: '30', warmup: '5' });
    expect(spread).toMatchObject({ vars: 512, arrayBytes: 1024 * 1024 });
    if (machine === 'xc30' || machine === 'xe6') expect(spread!.amoCacheHitPct as number).toBeLessThan(50);
  });

  it('gups over SHMEM atomics: the table matches its serial recomputation; GUPS is updates over time', async () => {
    const [r] = await run('gups', machine, 2, 2, { log2Words: '6', updates: '64', window: '16' });
    expect(r).toMatchObject({ mode: 'amo', ranks: 4, tableWords: 256, updates: 256, check: 'passed (exact)' });
    expect(r!.gups as number).toBeCloseTo((r!.updates as number) / (r!.timeUs as number) / 1e3, 3);
    expectNote('gups', machine, r!);
  });

  it('gups mode=locks: the AMO pass, then HPCC SHMEM RandomAccess\'s verification under the owner PE\'s lock leaves every word at its start; locked updates cost more than AMOs', async () => {
    const [r] = await run('gups', machine, 2, 2, { mode: 'locks', log2Words: '2', updates: '24', window: '8' });
    expect(r).toMatchObject({ mode: 'locks', ranks: 4, tableWords: 16, updates: 96, check: 'passed (locks)' });
    expect(r!.gups as number).toBeCloseTo((r!.updates as number) / (r!.timeUs as number) / 1e3, 3);
    // each verified update is a lock taken (two AMO round trips, more if queued), a get, a put and a release
    expect(r!.verifyUs as number).toBeGreaterThan(3 * (r!.timeUs as number));
    expectNote('gups', machine, r!);
  });

  it('gups bucket mode (3 rounds through a 2-D grid of 6 ranks, on 3 nodes): exact table, then a run verified by checksum', async () => {
    const [r] = await run('gups', machine, 3, 2, { mode: 'bucket', log2Words: '5', updates: '150', lookahead: '64', stages: '2' });
    expect(r).toMatchObject({ mode: 'bucket', ranks: 6, grid: '3x2', tableWords: 192, updates: 900, check: 'passed (exact)' });
    expect(r!.gups as number).toBeCloseTo((r!.updates as number) / (r!.timeUs as number) / 1e3, 3);
    // 6 x 180000 updates: over the exact-check limit, so the 509-class checksum verifies it
    const [big] = await run('gups', machine, 3, 2, { mode: 'bucket', log2Words: '4', updates: '180000', lookahead: '60000', stages: '1' });
    expect(big).toMatchObject({ grid: '6', updates: 1_080_000, check: 'passed (checksum)' });
  });

  it('putget pairs=node bidirectional=1: every stream lands, both directions summed', async () => {
    const uni = await run('putget', machine, 2, 2, { minBytes: '64', maxBytes: '256', pairs: 'node', window: '4' });
    const bi = await run('putget', machine, 2, 2, { minBytes: '64', maxBytes: '256', pairs: 'node', bidirectional: '1', window: '4' });
    expect(uni.map((r) => r.bytes)).toEqual([64, 128, 256]);
    for (const r of uni) expect(r).toMatchObject({ op: 'put', pairs: 2, directions: 1 });
    for (const r of bi) expect(r).toMatchObject({ op: 'put', pairs: 2, directions: 2 });
    for (let i = 0; i < uni.length; i++) expect(bi[i]!.bandwidthGBs as number).toBeGreaterThan(uni[i]!.bandwidthGBs as number);
  });
});

describe('NIC apps: bad input and switches', () => {
  it('putget keeps its single-pair rows by default', async () => {
    const rows = await run('putget', 'xe6', 2, 1, { minBytes: '8', maxBytes: '8', iterations: '2', window: '2', ops: 'put' });
    expect(Object.keys(rows[0]!).sort()).toEqual(['bandwidthGBs', 'bytes', 'hops', 'latencyUs', 'op']);
  });

  it('putget pairs=node refuses a target on node 0', async () => {
    await expect(run('putget', 'xe6', 2, 2, { target: '1', pairs: 'node', maxBytes: '64' })).rejects.toThrow(/target on another node/);
  });

  it('putrate refuses a single node; amorate refuses an array smaller than its variables', async () => {
    await expect(run('putrate', 'xe6', 1, 2, {})).rejects.toThrow(/needs ranks on a node other than node 0/);
    await expect(run('amorate', 'xe6', 2, 1, { vars: '16', arrayBytes: '64' })).rejects.toThrow(/arrayBytes=64 .*must hold vars=16/);
  });

  it('putrate reports the vMDH switch of the machine (--set dmapp.vmdh=no)', async () => {
    const [r] = await run('putrate', 'xc30', 2, 2, { puts: '20', warmup: '4' }, { 'dmapp.vmdh': 'no' });
    expect(r!.vmdh).toBe('no');
    expect(r!.note).toMatch(/^xc30: vMDH off/);
  });

  it('amorate on 4 KiB pages reports PTE misses on xc30 over an array beyond the PTE cache reach', async () => {
    const [r] = await run('amorate', 'xc30', 2, 2, { vars: '2048', arrayBytes: '32MiB', amos: '100', warmup: '20' }, { 'dmapp.heapPage': '4KiB' });
    expect(r!.heapPageBytes).toBe(4096);
    expect(r!.pteCacheHitPct as number).toBeLessThan(50);
  });
});
