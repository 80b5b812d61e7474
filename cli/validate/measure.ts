/** Measurement helpers shared by the checks of `phit validate`: the same calls the tests make. */
import { resolveParams, type Row } from '../../apps/app.ts';
import { findApp } from '../../apps/index.ts';
import { machineSpec, rawLinkGBs, resolveMachine, type MachineConfig } from '../../fabric/machine.ts';
import { topologyMetrics, type TopologyMetrics } from '../../fabric/topology/metrics.ts';
import { buildTopology, type BuiltTopology } from '../../fabric/topology/topologies.ts';
import type { Placement } from '../../runtime/placement.ts';
import { simulate } from '../../runtime/simulate.ts';

/**
 * Machine parameters every measurement of this thread's validation applies under its own (the
 * fidelity level of `phit validate --fidelity`), set by runTask for each task.
 */
let levelSet: Readonly<Record<string, string>> = {};

/** Runs this thread's measurements at fidelity `level` (undefined: each machine's own, packet). */
export function useFidelity(level: string | undefined): void {
  levelSet = level === undefined ? {} : { 'fabric.fidelity': level };
}

/** A machine preset resolved for `nodes` nodes with `set` applied. */
export function config(machine: string, nodes: number, set: Record<string, string> = {}): MachineConfig {
  return resolveMachine(machineSpec(machine), nodes, { ...levelSet, ...set });
}

/** The built topology of a resolved machine (no simulator objects). */
export function topology(c: MachineConfig): BuiltTopology {
  return buildTopology(c.topology);
}

/** `phit topo` figures of a machine resolved with `set` (nodes 0: the structure `set` describes, as `phit topo` sizes it). */
export function metrics(machine: string, nodes: number, set: Record<string, string> = {}): TopologyMetrics {
  const c = config(machine, nodes, set);
  return topologyMetrics(topology(c).graph, (cls) => rawLinkGBs(c, cls));
}

/** What one app run needs. */
export interface AppRun {
  readonly app: string;
  readonly machine: string;
  readonly nodes: number;
  readonly ppn?: number;
  readonly params?: Record<string, string>;
  readonly set?: Record<string, string>;
  readonly placement?: Placement;
}

/** Runs a built-in app and returns rank 0's rows. */
export async function appRows(run: AppRun): Promise<Row[]> {
  const app = findApp(run.app);
  const p = resolveParams(app, run.params ?? {});
  app.check?.(p);
  const r = await simulate({
    machine: run.machine,
    nodes: run.nodes,
    ppn: run.ppn ?? 1,
    set: { ...levelSet, ...run.set },
    ...(run.placement ? { placement: run.placement } : {}),
    program: (ctx) => app.main(ctx, p),
  });
  const rows = (r.result as { rows?: Row[] } | undefined)?.rows;
  if (!Array.isArray(rows) || rows.length === 0) throw new Error(`${run.app} on ${run.machine} returned no rows`);
  return rows;
}

/** A numeric field of a row; throws naming it when absent. */
export function num(row: Row | undefined, key: string): number {
  const v = row?.[key];
  if (typeof v !== 'number') throw new Error(`row has no number ${key}: ${JSON.stringify(row)}`);
  return v;
}

/** The row whose `key` equals `value`. */
export function rowWhere(rows: readonly Row[], key: string, value: number | string): Row {
  const r = rows.find((x) => x[key] === value);
  if (!r) throw new Error(`no row with ${key} = ${value}`);
  return r;
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  return points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
}

/**
 * One-way ns per router hop: the slope of 8-byte put latency (a round trip, so halved) over the
 * hop counts of rank 0's puts to each target, as the calibration tests measure it.
 */
export async function hopSlopeNs(machine: string, nodes: number, targets: readonly number[]): Promise<{ ns: number; maxHops: number }> {
  const points: { x: number; y: number }[] = [];
  for (const target of targets) {
    const [put] = await appRows({ app: 'putget', machine, nodes, params: { target: String(target), minBytes: '8', maxBytes: '8', ops: 'put', iterations: '2' } });
    points.push({ x: num(put, 'hops'), y: num(put, 'latencyUs') });
  }
  if (new Set(points.map((p) => p.x)).size < 3) throw new Error(`targets ${targets.join(',')} give fewer than 3 hop counts`);
  return { ns: (slope(points) / 2) * 1000, maxHops: Math.max(...points.map((p) => p.x)) };
}

/** Router-to-router network ports of router `r` (wired ports that lead to another router), by class name. */
export function portsByClass(b: BuiltTopology, r: number): Record<string, number> {
  const g = b.graph;
  const out: Record<string, number> = {};
  for (let port = 0; port < g.radix; port++) {
    const gp = r * g.radix + port;
    if (g.peerRouter[gp]! < 0) continue;
    const name = g.classNames[g.portClass[gp]!]!;
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** Sum of the values of a record. */
export function total(r: Readonly<Record<string, number>>): number {
  return Object.values(r).reduce((a, v) => a + v, 0);
}
