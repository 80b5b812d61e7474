/**
 * `npx tsx bench/golden.ts write|check <folder> [--only name,...]`: outputs that a change to the
 * engine or the network must leave byte-identical. `write` records them into the folder,
 * `check` runs them again and names every one that differs (exit code 1).
 *
 * Two kinds: `phit run` and `phit traffic` runs on every preset (JSON with --metrics: simulated
 * times, link utilisations, hop and latency histograms), and a trace of the fabric alone, uniform
 * random traffic at two loads on every preset with a digest of every packet-hop (time, channel,
 * source, destination) and every delivery, plus the packet-hop count and end time. Engine event
 * counts are left out: a change may take fewer events for the same simulation.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine, type EventHandler } from '../fabric/engine/engine.ts';
import { linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { Network, type Endpoint } from '../fabric/network.ts';
import { PacketPool } from '../fabric/packet.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The CLI runs: name and arguments. */
function cliRuns(): [string, string[]][] {
  const runs: [string, string[]][] = [];
  for (const m of MACHINES) {
    runs.push([`halo3d-${m}`, ['run', 'halo3d', '--machine', m, '--nodes', '8', '--json', '--metrics']]);
    runs.push([`alltoall-${m}`, ['run', 'alltoall', '--machine', m, '--nodes', '16', '--json', '--metrics', '--param', 'maxBytes=16KiB']]);
    runs.push([`pingpong-${m}`, ['run', 'pingpong', '--machine', m, '--nodes', '2', '--json', '--metrics']]);
    runs.push([`randomring-${m}`, ['run', 'randomring', '--machine', m, '--nodes', '8', '--ppn', '2', '--json', '--metrics', '--param', 'bytes=16KiB', '--param', 'patterns=1']]);
    for (const load of ['0.2', '0.6', '0.95']) {
      runs.push([`uniform-${m}-${load}`, ['traffic', '--machine', m, '--nodes', '64', '--pattern', 'uniform', '--load', load, '--window', '10', '--json', '--metrics']]);
      // the adversarial pattern: worstcase on the dragonfly (two groups: 768 nodes, a shorter window), tornado elsewhere
      const adv = m === 'xc30' ? ['worstcase', '--nodes', '768', '--window', '5', '--warmup', '2'] : ['tornado', '--nodes', '64', '--window', '10'];
      runs.push([`${adv[0]}-${m}-${load}`, ['traffic', '--machine', m, '--pattern', ...adv, '--load', load, '--json', '--metrics']]);
    }
  }
  runs.push(['halo3d-xc30-coarse', ['run', 'halo3d', '--machine', 'xc30', '--nodes', '16', '--fidelity', 'coarse', '--json', '--metrics']]);
  runs.push(['halo3d-bw-coarse', ['run', 'halo3d', '--machine', 'bw', '--nodes', '16', '--fidelity', 'coarse', '--json', '--metrics']]);
  runs.push(['uniform-xe6-ber', ['traffic', '--machine', 'xe6', '--nodes', '64', '--load', '0.5', '--ber', '1e-7', '--window', '10', '--json', '--metrics']]);
  return runs;
}

/** FNV-1a over 32-bit words. */
class Digest {
  h = 0x811c9dc5;
  add(x: number): void {
    const lo = x >>> 0;
    const hi = Math.floor(x / 4294967296) >>> 0;
    this.h = Math.imul(this.h ^ lo, 0x01000193) >>> 0;
    this.h = Math.imul(this.h ^ hi, 0x01000193) >>> 0;
  }
}

/** Uniform random traffic straight on the network of preset `machine`, every hop and delivery digested. */
function fabricTrace(machine: string, load: number): string {
  const nodes = machine === 'sc5832' ? 324 : 256;
  const cfg = resolveMachine(machineSpec(machine), nodes, {});
  const engine = new Engine(7);
  const { graph, route, vcs, nextPort } = buildTopology(cfg.topology);
  const pool = new PacketPool(cfg.nic.format.maxPayloadBytes);
  const net = new Network(engine, graph, route, { ...cfg.network, vcs, links: linksByClass(cfg, graph) }, pool, nextPort);
  const hops = new Digest();
  const dels = new Digest();
  net.onHop = (p, chan, now) => {
    hops.add(now);
    hops.add(chan);
    hops.add(pool.src[p]!);
    hops.add(pool.dst[p]!);
  };
  let delivered = 0;
  for (let n = 0; n < cfg.nodes; n++) {
    const node = n;
    const ep: Endpoint = {
      deliver(p: number): void {
        delivered++;
        dels.add(engine.now);
        dels.add(pool.src[p]!);
        dels.add(node);
        dels.add(pool.hops[p]!);
        // the credit returns a little later on odd packets, so that credits wait in the ledger too
        net.ejectCredit(node, pool.vc[p]!, pool.phits[p]!, engine.now + (delivered & 1) * 3000);
        pool.free(p);
      },
    };
    net.attach(n, ep);
  }
  const phits = 24;
  const interval = Math.round(((phits * cfg.network.injectPhitPs) / load));
  const endPs = 20_000_000;
  const gen: EventHandler & { id: number } = {
    id: -1,
    onEvent(_kind: number, src: number): void {
      let dst = engine.rng.int(cfg.nodes - 1);
      if (dst >= src) dst++;
      const p = pool.alloc();
      pool.src[p] = src;
      pool.dst[p] = dst;
      pool.phits[p] = phits;
      pool.vcClass[p] = engine.rng.int(2);
      net.inject(src, p);
      const next = engine.now + Math.max(1, Math.round(-Math.log(1 - engine.rng.next()) * interval));
      if (next < endPs) engine.at(next, gen.id, 0, src);
    },
  };
  gen.id = engine.register(gen);
  for (let n = 0; n < cfg.nodes; n++) engine.at(engine.rng.int(interval), gen.id, 0, n);
  engine.drain();
  return JSON.stringify({ machine, nodes: cfg.nodes, load, linkHops: net.linkHops, delivered, endPs: engine.now, hops: hops.h, deliveries: dels.h }) + '\n';
}

function main(): void {
  const [mode, dir, ...rest] = process.argv.slice(2);
  if ((mode !== 'write' && mode !== 'check') || dir === undefined) {
    process.stderr.write('usage: tsx bench/golden.ts write|check <folder> [--only name,...]\n');
    process.exit(2);
  }
  const onlyAt = rest.indexOf('--only');
  const only = onlyAt >= 0 ? (rest[onlyAt + 1] ?? '').split(',') : null;
  const want = (name: string): boolean => only === null || only.some((o) => name.startsWith(o));
  mkdirSync(dir, { recursive: true });
  let differ = 0;
  let n = 0;
  const settle = (name: string, out: string): void => {
    n++;
    const file = join(dir, `${name}.json`);
    if (mode === 'write') {
      writeFileSync(file, out);
      process.stderr.write(`golden: ${name} written\n`);
      return;
    }
    let old: string;
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      process.stderr.write(`golden: ${name} has no recorded output\n`);
      differ++;
      return;
    }
    if (old !== out) {
      differ++;
      process.stderr.write(`golden: ${name} DIFFERS\n`);
    } else process.stderr.write(`golden: ${name} same\n`);
  };
  for (const m of MACHINES) {
    for (const load of [0.3, 0.8]) {
      const name = `fabric-${m}-${load}`;
      if (want(name)) settle(name, fabricTrace(m, load));
    }
  }
  for (const [name, args] of cliRuns()) {
    if (!want(name)) continue;
    const r = spawnSync(process.execPath, [join(ROOT, 'cli', 'phit.mjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) {
      process.stderr.write(`golden: ${name} failed (exit ${r.status}): ${r.stderr.split('\n')[0]}\n`);
      differ++;
      continue;
    }
    settle(name, r.stdout);
  }
  process.stderr.write(`golden: ${n} outputs, ${mode === 'check' ? `${differ} differ` : 'written'}\n`);
  process.exit(differ > 0 ? 1 : 0);
}

main();
