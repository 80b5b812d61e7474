/**
 * `npx tsx bench/flow.ts [--quick]`: speed of the flow model on an xe6 torus (2,048 nodes, 1,024
 * Geminis) with random source/destination pairs, for 256 and 4,096 concurrent flows. Two figures
 * per size: max-min solves per second of the whole set of flows (maxMinRates alone, on the
 * flows' route resources), and a drain run through FlowNetwork: every flow starts at once with
 * 64 KiB to 1 MiB, each end re-solves the flows connected to it, until none is left. Prints one
 * JSON object on stdout; not a test.
 */
import { Engine } from '../fabric/engine/engine.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { FlowNetwork } from '../fabric/flow/flow-network.ts';
import { maxMinRates, MaxMinScratch, type MaxMinProblem } from '../fabric/flow/max-min.ts';
import { linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

const quick = process.argv.slice(2).includes('--quick');
const NODES = 2048;
const config = resolveMachine(machineSpec('xe6'), NODES);
const built = buildTopology(config.topology);
const g = built.graph;
const params = { ...config.network, vcs: built.vcs, links: linksByClass(config, g) };
const format = config.nic.format;

function network(): { engine: Engine; fn: FlowNetwork } {
  const engine = new Engine(1);
  return { engine, fn: new FlowNetwork({ engine, graph: g, route: built.route, params, format }) };
}

function randomPairs(n: number, seed: number): [number, number][] {
  const rng = new Prng(seed);
  return Array.from({ length: n }, () => {
    const src = rng.int(NODES);
    return [src, (src + 1 + rng.int(NODES - 1)) % NODES];
  });
}

/** maxMinRates over the route resources of `flows` random pairs, repeated for `seconds`. */
function solveRate(flows: number, seconds: number): { solvesPerSec: number; resources: number; entries: number; msPerSolve: number } {
  const { fn } = network();
  const pairs = randomPairs(flows, 7);
  const res: number[] = [];
  const w: number[] = [];
  const flowStart = new Int32Array(flows + 1);
  pairs.forEach(([s, d], i) => {
    flowStart[i] = res.length;
    for (const h of fn.routesOf(s, d, 0)[0]!.hops) {
      // fn registers a resource per group on first use; a 64-byte put is 32 phits, 34 on a link
      res.push(fn.linkResourceOf(h.channel));
      w.push((h.channel >= g.routers * g.radix || g.portClass[h.channel] === 0 ? 32 : 34) / 64);
    }
  });
  flowStart[flows] = res.length;
  const capacity = Float64Array.from({ length: fn.resources }, (_, r) => fn.capacityOf(r));
  const p: MaxMinProblem = { flows, resources: fn.resources, capacity, flowStart, entryResource: Int32Array.from(res), entryWeight: Float64Array.from(w), rateCap: null };
  const rates = new Float64Array(flows);
  const scratch = new MaxMinScratch();
  for (let i = 0; i < 20; i++) maxMinRates(p, rates, scratch); // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < seconds * 1000) {
    for (let i = 0; i < 10; i++) maxMinRates(p, rates, scratch);
    n += 10;
    t = performance.now();
  }
  const s = (t - t0) / 1000;
  return { solvesPerSec: Math.round(n / s), resources: fn.resources, entries: res.length, msPerSolve: Number(((1000 * s) / n).toFixed(3)) };
}

/** Every flow starts at t = 0; the run drains them all through FlowNetwork. */
function drainRun(flows: number): { solves: number; solvedFlows: number; seconds: number; solvesPerSec: number; lastEndUs: number } {
  const { engine, fn } = network();
  const rng = new Prng(11);
  let lastEnd = 0;
  for (const [src, dst] of randomPairs(flows, 7)) fn.start({ src, dst, vcClass: 0, bytes: 65536 * (1 + rng.int(16)), onDone: () => (lastEnd = engine.now) });
  const t0 = performance.now();
  engine.drain();
  const seconds = (performance.now() - t0) / 1000;
  if (fn.active !== 0) throw new Error(`${fn.active} flows left`);
  return { solves: fn.solves, solvedFlows: fn.solvedFlows, seconds: Number(seconds.toFixed(3)), solvesPerSec: Math.round(fn.solves / seconds), lastEndUs: Number((lastEnd / 1e6).toFixed(1)) };
}

const out: Record<string, unknown> = { machine: `xe6, ${NODES} nodes: ${config.topologySummary}` };
for (const flows of [256, 4096]) {
  process.stderr.write(`bench flow: ${flows} flows...\n`);
  out[`flows${flows}`] = { solve: solveRate(flows, quick ? 0.5 : 2), drain: drainRun(flows) };
}
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
