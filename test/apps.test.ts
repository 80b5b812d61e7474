import { describe, expect, it } from 'vitest';
import { resolveParams, sizeSweep, type App, type AppResult } from '../apps/app.ts';
import { apps, findApp } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

function app(name: string): App {
  const a = apps[name];
  if (!a) throw new Error(`no app ${name}`);
  return a;
}

async function runApp(name: string, nodes: number, raw: Record<string, string>, ppn = 1, checkTime = true): Promise<{ result: AppResult; extra: { hops: number; size: number } }> {
  const a = app(name);
  const params = resolveParams(a, raw);
  const r = await simulate({
    machine: 'xe6',
    nodes,
    ppn,
    program: async (ctx) => ({ out: await a.main(ctx, params), hops: ctx.machine.hops(0, ctx.size - 1), size: ctx.size }),
  });
  const out = r.result.out;
  if (!out) throw new Error(`${name} returned nothing on rank 0`);
  if (checkTime) expect(r.simulatedTimeUs).toBeGreaterThan(0);
  return { result: out, extra: { hops: r.result.hops, size: r.result.size } };
}

describe('built-in apps', () => {
  it('the registry holds pingpong, putget, halo2d, halo3d, putrate, amorate, gups, fft2d, fft3d, ptrans, randpairs, pattern, randomring, osu-latency, osu-bw, osu-bibw, allreduce, alltoall, cg, summa, lulesh, hpcg, npb-bt, npb-cg, npb-ft, npb-is, npb-lu, npb-mg, npb-sp, sweep3d, comd, minife and amg', () => {
    expect(Object.keys(apps).sort()).toEqual(['allreduce', 'alltoall', 'amg', 'amorate', 'cg', 'comd', 'fft2d', 'fft3d', 'gups', 'halo2d', 'halo3d', 'hpcg', 'lulesh', 'minife', 'npb-bt', 'npb-cg', 'npb-ft', 'npb-is', 'npb-lu', 'npb-mg', 'npb-sp', 'osu-bibw', 'osu-bw', 'osu-latency', 'pattern', 'pingpong', 'ptrans', 'putget', 'putrate', 'randomring', 'randpairs', 'summa', 'sweep3d']);
    for (const [k, a] of Object.entries(apps)) {
      expect(a.name).toBe(k);
      expect(findApp(k)).toBe(a);
    }
    expect(() => findApp('nope')).toThrow(RangeError);
    expect(() => findApp('nope')).toThrow(/unknown app "nope"/);
  });

  it.each([
    { where: 'across nodes', nodes: 2, ppn: 1 },
    { where: 'on one node', nodes: 1, ppn: 2 },
  ])('pingpong ($where): rows {bytes, latencyUs, bandwidthGBs}, latency growing with size through the eager limit', async ({ nodes, ppn }) => {
    const { result } = await runApp('pingpong', nodes, { minBytes: '8', maxBytes: '32KiB', iterations: '3' }, ppn);
    const rows = result.rows;
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(8, 32768));
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['bandwidthGBs', 'bytes', 'latencyUs']);
      expect(r.latencyUs).toBeTypeOf('number');
      expect(r.latencyUs as number).toBeGreaterThan(0);
      // bandwidth is size over latency (rounded to 4 significant digits)
      expect(r.bandwidthGBs as number).toBeCloseTo((r.bytes as number) / (r.latencyUs as number) / 1000, 2);
    }
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.latencyUs as number, `latency of ${rows[i]!.bytes} B vs ${rows[i - 1]!.bytes} B`).toBeGreaterThan(rows[i - 1]!.latencyUs as number);
    }
    expect(result.peer).toBe(1);
  });

  it('pingpong mode=stream: rows {bytes, window, bandwidthGBs, messageRateMps}, a window of messages per ack, on every size', async () => {
    const { result } = await runApp('pingpong', 2, { mode: 'stream', window: '4', minBytes: '8', maxBytes: '32KiB', iterations: '2' });
    const rows = result.rows;
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(8, 32768));
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['bandwidthGBs', 'bytes', 'messageRateMps', 'window']);
      expect(r.window).toBe(4);
      // bandwidth is bytes times messages per us (rounded to 4 significant digits)
      const fromRate = ((r.bytes as number) * (r.messageRateMps as number)) / 1000;
      expect(Math.abs((r.bandwidthGBs as number) - fromRate) / fromRate).toBeLessThan(1e-3);
    }
    // messages in flight overlap: streaming beats one message at a time at every size
    const pp = (await runApp('pingpong', 2, { minBytes: '8', maxBytes: '32KiB', iterations: '2' })).result.rows;
    rows.forEach((r, i) => expect(r.bandwidthGBs as number, `${r.bytes} B`).toBeGreaterThan(pp[i]!.bandwidthGBs as number));
  });

  it('pingpong with peer beyond the ranks fails with a RangeError from the app', async () => {
    await expect(runApp('pingpong', 2, { maxBytes: '8', peer: '5' })).rejects.toThrow(/peer=5 is not a rank/);
  });

  it('putget: rows {op, bytes, hops, latencyUs, bandwidthGBs} for put and get, with hops = ctx.machine.hops', async () => {
    const { result, extra } = await runApp('putget', 8, { minBytes: '8', maxBytes: '8KiB', iterations: '2', window: '2' });
    expect(extra.hops).toBeGreaterThan(0);
    expect(result.target).toBe(extra.size - 1);
    const rows = result.rows;
    const sizes = sizeSweep(8, 8192);
    expect(rows.map((r) => `${r.op}:${r.bytes}`)).toEqual([...sizes.map((b) => `put:${b}`), ...sizes.map((b) => `get:${b}`)]);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['bandwidthGBs', 'bytes', 'hops', 'latencyUs', 'op']);
      expect(r.hops).toBe(extra.hops);
      expect(r.latencyUs as number).toBeGreaterThan(0);
      expect(r.bandwidthGBs as number).toBeGreaterThan(0);
    }
    for (const op of ['put', 'get']) {
      const lat = rows.filter((r) => r.op === op).map((r) => r.latencyUs as number);
      expect(lat[lat.length - 1]!).toBeGreaterThan(lat[0]!);
    }
  });

  it('putget ops=get only measures gets; target=0 is refused', async () => {
    const { result } = await runApp('putget', 2, { maxBytes: '64', iterations: '2', window: '2', ops: 'get' });
    expect(new Set(result.rows.map((r) => r.op))).toEqual(new Set(['get']));
    expect(result.rows.map((r) => r.hops)).toEqual([0, 0, 0, 0]);
    await expect(runApp('putget', 2, { maxBytes: '64', target: '0' })).rejects.toThrow(/target=0 must be a rank other than 0/);
  });

  // Regression: minBytes > maxBytes used to reach dmapp.malloc(NaN) in putget; both sweeping apps
  // now reject it naming minBytes, before any rank starts when run from the CLI (app.check).
  it.each(['putget', 'pingpong'])('%s with minBytes > maxBytes fails naming minBytes', async (name) => {
    await expect(runApp(name, 2, { minBytes: '64', maxBytes: '8' }, 1, false)).rejects.toThrow(/minBytes=64 .*must not exceed maxBytes=8/);
    expect(() => findApp(name).check!(resolveParams(findApp(name), { minBytes: '64', maxBytes: '8' }))).toThrow(RangeError);
  });

  it.each([
    { nodes: 8, ppn: 1 },
    { nodes: 4, ppn: 2 },
  ])('halo3d on $nodes nodes x $ppn ppn, 8x8x8 per rank, 3 iterations: check passed', async ({ nodes, ppn }) => {
    const { result } = await runApp('halo3d', nodes, { nx: '8', ny: '8', nz: '8', iterations: '3' }, ppn);
    expect(result.rows).toHaveLength(1);
    const row = result.rows[0]!;
    expect(row.check).toBe('passed');
    expect(row.ranks).toBe(8);
    expect(row.procGrid).toBe('2x2x2');
    expect(row.localGrid).toBe('8x8x8');
    expect(row.iterations).toBe(3);
    expect(row.bytesPerIteration).toBe(6 * 64 * 8);
    expect(row.timePerIterationUs as number).toBeGreaterThan(0);
    expect(row.timePerIterationUs as number).toBeCloseTo((row.timeUs as number) / 3, 2);
    expect(row.computeUs as number).toBeGreaterThan(0);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it('halo3d with computeUs spends exactly that compute time per iteration, and runs on 1 and 3 ranks', async () => {
    const { result } = await runApp('halo3d', 3, { nx: '4', ny: '3', nz: '2', iterations: '2', computeUs: '10' });
    const row = result.rows[0]!;
    expect(row.check).toBe('passed');
    expect(row.procGrid).toBe('3x1x1');
    expect(row.computeUs).toBe(20);
    expect(row.timeUs as number).toBeGreaterThan(20);
    const one = await runApp('halo3d', 1, { nx: '4', ny: '4', nz: '4', iterations: '2' });
    expect(one.result.rows[0]!.check).toBe('passed');
    expect(one.result.rows[0]!.procGrid).toBe('1x1x1');
  });

  it('halo2d weak scaling on 12 ranks: a 4x3 grid of 16x8 blocks, four faces per rank', async () => {
    const { result } = await runApp('halo2d', 6, { nx: '16', ny: '8', iterations: '2' }, 2);
    expect(result.rows[0]).toMatchObject({ ranks: 12, procGrid: '4x3', localGrid: '16x8', globalGrid: '64x24', scaling: 'weak', bytesPerIteration: 2 * (8 + 16) * 8, check: 'passed' });
  });

  it('halo2d strong scaling splits the global grid (uneven blocks), and without periodic boundaries the edge ranks send less', async () => {
    const strong = await runApp('halo2d', 6, { nx: '100', ny: '50', scaling: 'strong', periodic: '0', iterations: '2' });
    // rank 0 is the corner (0,0) of a 3x2 grid: 34 of 100 rows and 25 of 50 columns, one neighbour per dimension
    expect(strong.result.rows[0]).toMatchObject({ procGrid: '3x2', localGrid: '34x25', globalGrid: '100x50', scaling: 'strong', bytesPerIteration: (25 + 34) * 8, check: 'passed' });
    const weak = await runApp('halo2d', 6, { nx: '34', ny: '25', iterations: '2' });
    expect(weak.result.rows[0]!.bytesPerIteration).toBe(2 * (25 + 34) * 8);
    // half the grid per rank when the same global grid is split over twice the ranks
    const wider = await runApp('halo2d', 12, { nx: '100', ny: '50', scaling: 'strong', iterations: '2' });
    expect(wider.result.rows[0]!.localGrid).toBe('25x17');
    expect(wider.result.rows[0]!.computeUs as number).toBeLessThan(strong.result.rows[0]!.computeUs as number);
  });

  it('halo3d strong scaling needs a cell per rank along each axis', async () => {
    await expect(runApp('halo3d', 8, { nx: '1', ny: '4', nz: '4', scaling: 'strong' })).rejects.toThrow(/strong scaling splits nx=1 cells over 2 ranks along x/);
  });
});

describe('resolveParams', () => {
  const pp = app('pingpong');
  const pg = app('putget');

  it('fills defaults and parses values (bytes with units, ints, lists)', () => {
    const d = resolveParams(pp, {});
    expect(d).toEqual({ minBytes: 8, maxBytes: 4 * 1024 * 1024, iterations: 10, peer: 1, mode: 'pingpong', window: 64 });
    expect(resolveParams(pp, { maxBytes: '4KiB', iterations: '3' })).toMatchObject({ maxBytes: 4096, iterations: 3 });
    expect(resolveParams(pg, { ops: 'get,put' }).ops).toBe('get,put');
    expect(resolveParams(app('halo3d'), { computeUs: '2.5' }).computeUs).toBe(2.5);
  });

  it('rejects an unknown key with a RangeError naming it and the app', () => {
    expect(() => resolveParams(pp, { maxbytes: '64' })).toThrow(RangeError);
    expect(() => resolveParams(pp, { maxbytes: '64' })).toThrow(/unknown parameter "maxbytes" for app pingpong; valid: minBytes, maxBytes, iterations, peer, mode, window/);
  });

  it.each([
    { a: 'pingpong', key: 'maxBytes', value: 'abc', why: /expected a size/ },
    { a: 'pingpong', key: 'maxBytes', value: '0', why: /must be at least 1 bytes/ },
    { a: 'pingpong', key: 'iterations', value: '2.5', why: /expected an integer/ },
    { a: 'pingpong', key: 'iterations', value: 'ten', why: /expected an integer/ },
    { a: 'pingpong', key: 'iterations', value: '0', why: /must be at least 1/ },
    { a: 'pingpong', key: 'peer', value: '0', why: /must be at least 1/ },
    { a: 'putget', key: 'ops', value: 'put,fetch', why: /"fetch" is not one of put, get/ },
    { a: 'putget', key: 'target', value: '-2', why: /must be at least -1/ },
    { a: 'halo3d', key: 'computeUs', value: 'fast', why: /expected a number/ },
    { a: 'halo3d', key: 'computeUs', value: '', why: /expected a number/ },
    { a: 'halo3d', key: 'nx', value: '0', why: /must be at least 1/ },
  ])('rejects $key=$value for $a with a RangeError naming the key and value', ({ a, key, value, why }) => {
    const call = (): unknown => resolveParams(app(a), { [key]: value });
    expect(call).toThrow(RangeError);
    expect(call).toThrow(`parameter ${key}=${value} of app ${a}`);
    expect(call).toThrow(why);
  });

  // Regression: Number('') is 0, so a blank int value used to read as 0.
  it.each(['', ' '])('rejects a blank int value (target=%j) instead of reading it as 0', (value) => {
    expect(() => resolveParams(pg, { target: value })).toThrow(RangeError);
  });
});
