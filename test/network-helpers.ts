/**
 * What the network tests share: an xe6 machine of some nodes, seeded payloads, packet counts and
 * the torus of a machine.
 */
import { Prng } from '../fabric/engine/prng.ts';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import type { TorusGraph } from '../fabric/topology/torus.ts';

/** An xe6 machine of `nodes` nodes, built with `seed` and the parameter `overrides`. */
export function machine(nodes: number, seed = 1, overrides: Record<string, string> = {}): Machine {
  return buildMachine(resolveMachine(machineSpec('xe6'), nodes, overrides), seed);
}

/** Deterministic, position- and stream-dependent bytes (never all zero). */
export function pattern(n: number, salt: number): Uint8Array {
  const rng = new Prng(salt);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 1 + (rng.nextU32() % 255);
  return out;
}

/** Packets a transfer of `bytes` takes at `maxPayload` bytes per packet. */
export function packetsOf(bytes: number, maxPayload: number): number {
  return Math.max(1, Math.ceil(bytes / maxPayload));
}

/** The torus graph of a machine built from a torus preset. */
export function torusOf(m: Machine): TorusGraph {
  if (m.graph.topology !== 'torus') throw new Error(`expected a torus, got ${m.graph.topology}`);
  return m.graph as TorusGraph;
}
