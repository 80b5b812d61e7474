/**
 * The Aries collective engine (seed 001 "Reductions and Barriers", A26): the tree builder's
 * invariants, exact results of every op and type over every node of a 750-node XC, four virtual
 * CEs at once, bad joins, and the time of a reduction against tree depth and network load.
 * Driven straight on the NICs, below every API face.
 */
import { describe, expect, it } from 'vitest';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { CE_OPS, CE_TYPES, buildCeTree, type CeContribution, type CeOp, type CeResult, type CeTree, type CeType } from '../fabric/nic/collective-engine.ts';
import { NicStatus } from '../fabric/nic/nic.ts';

function machine(name: string, nodes: number, overrides: Record<string, string> = {}): Machine {
  return buildMachine(resolveMachine(machineSpec(name), nodes, overrides), 1);
}

const range = (n: number): number[] => [...Array(n).keys()];

/** Seeded generator of 32-bit values (xorshift32), so the test data is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

interface Outcome {
  results: Map<number, CeResult>;
  /** Time from the join to each node's result (ps). */
  times: Map<number, number>;
}

/** Every member of `tree` joins `contribution(node)` on `engine` now; the engine is drained. */
function reduce(m: Machine, tree: CeTree, engine: number, contribution: (node: number) => CeContribution, drain = true): Outcome {
  const out: Outcome = { results: new Map(), times: new Map() };
  const start = m.engine.now;
  for (const n of tree.nodes) {
    m.nics[n]!.ce!.join(tree, engine, contribution(n), (r) => {
      expect(out.results.has(n)).toBe(false);
      out.results.set(n, r);
      out.times.set(n, m.engine.now - start);
    });
  }
  if (drain) m.engine.drain();
  return out;
}

/** The one result every member got (fails unless all members got the same one). */
function common(o: Outcome, tree: CeTree): CeResult {
  expect(o.results.size).toBe(tree.nodes.length);
  const first = o.results.get(tree.root)!;
  for (const r of o.results.values()) expect(r).toEqual(first);
  return first;
}

/** Largest member count of a tree of fan-out `radix` and depth `d`: (radix^(d+1) - 1) / (radix - 1). */
function capacity(radix: number, d: number): number {
  let c = 0;
  for (let i = 0, p = 1; i <= d; i++, p *= radix) c += p;
  return c;
}

describe('buildCeTree: reduction trees of fan-out up to the radix (seed 001 "Reductions and Barriers")', () => {
  const sizes = [1, 2, 3, 4, 5, 17, 31, 32, 33, 34, 100, 384, 750, 1024, 1056, 1057, 5000];
  const radices = [2, 3, 4, 8, 16, 32];

  it('reaches every node exactly once, keeps fan-out <= radix, has the least possible depth and contiguous subtrees', () => {
    for (const n of sizes) {
      for (const radix of radices) {
        // a job's nodes need not start at 0 or be consecutive
        const nodes = range(n).map((i) => 3 * i + 7);
        const t = buildCeTree(nodes, radix);
        expect(t.root).toBe(nodes[0]);
        expect(t.parent[0]).toBe(-1);
        const seen = new Set<number>();
        const order: number[] = []; // preorder walk from the root
        let deepest = 0;
        const stack: [number, number][] = [[t.root, 0]];
        while (stack.length > 0) {
          const [v, d] = stack.pop()!;
          expect(seen.has(v)).toBe(false);
          seen.add(v);
          order.push(v);
          deepest = Math.max(deepest, d);
          const i = t.index.get(v)!;
          const kids = t.children[i]!;
          expect(kids.length).toBeLessThanOrEqual(radix);
          for (const c of kids) expect(t.parent[t.index.get(c)!]).toBe(v);
          for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k]!, d + 1]);
        }
        expect(seen.size).toBe(n);
        expect(t.depth).toBe(deepest);
        // least depth for the fan-out, hence at most ceil(log_radix(n))
        let least = 0;
        while (capacity(radix, least) < n) least++;
        expect(t.depth).toBe(least);
        if (n > 1) expect(t.depth).toBeLessThanOrEqual(Math.ceil(Math.log(n) / Math.log(radix) - 1e-9));
        // preorder is the node list itself: every subtree is a contiguous run of it
        expect(order).toEqual(nodes);
      }
    }
  });

  it('is deterministic, roots the tree at the first node given, and covers 750 nodes at radix 32 in depth 2', () => {
    const nodes = range(750).reverse();
    const a = buildCeTree(nodes, 32);
    const b = buildCeTree(nodes, 32);
    expect(a.children).toEqual(b.children);
    expect(a.parent).toEqual(b.parent);
    expect(a.root).toBe(749);
    expect(a.depth).toBe(2);
    expect(buildCeTree(range(750), 4).depth).toBe(5);
    // seed 001: "a tree of depth three covering most system sizes"
    expect(buildCeTree(range(32 * 32 * 32), 32).depth).toBe(3);
  });

  it('refuses a bad radix or node list, naming it', () => {
    expect(() => buildCeTree([0, 1], 1)).toThrow(/radix=1/);
    expect(() => buildCeTree([0, 1], 2.5)).toThrow(/radix=2.5/);
    expect(() => buildCeTree([], 4)).toThrow(/empty/);
    expect(() => buildCeTree([0, 1, 0], 4)).toThrow(/node 0 appears twice/);
    expect(() => buildCeTree([0, -1], 4)).toThrow(/nodes\[1\]=-1/);
  });
});

/** Operand of node k for type `type`: 64-bit types as bigint. */
const asType = (type: CeType, v: bigint): number | bigint => (type === 'int64' || type === 'uint64' ? v : Number(v));

/** Wraps an exact integer to the type's width. */
function wrapTo(type: CeType, v: bigint): bigint {
  if (type === 'int32') return BigInt.asIntN(32, v);
  if (type === 'uint32') return BigInt.asUintN(32, v);
  if (type === 'int64') return BigInt.asIntN(64, v);
  return BigInt.asUintN(64, v);
}

const INTS: CeType[] = ['int32', 'uint32', 'int64', 'uint64'];
const bounds = (type: CeType): [bigint, bigint] => {
  const w = type.endsWith('32') ? 32n : 64n;
  return type.startsWith('u') ? [0n, (1n << w) - 1n] : [-(1n << (w - 1n)), (1n << (w - 1n)) - 1n];
};

describe('reductions over every node of a 750-node XC (seed 001: 32- and 64-bit logical, integer and floating-point operands)', () => {
  const N = 750;
  const m = machine('xc30', N);
  const tree = buildCeTree(range(N), 32);

  it('sum wraps integers to their width and is exact for float64', () => {
    for (const type of INTS) {
      // values near the top of the range: the sum wraps around many times
      const [, hi] = bounds(type);
      const val = (k: number): bigint => hi - BigInt(3 * k);
      const r = common(reduce(m, tree, 0, (k) => ({ op: 'sum', type, value: asType(type, val(k)) })), tree);
      const exact = range(N).reduce((s, k) => s + val(k), 0n);
      expect(r).toEqual({ op: 'sum', value: asType(type, wrapTo(type, exact)) });
    }
    const r = common(reduce(m, tree, 0, (k) => ({ op: 'sum', type: 'float64', value: k + 0.25 })), tree);
    expect(r.value).toBe((N * (N - 1)) / 2 + N * 0.25);
  });

  it('min and max of seeded values, for every type', () => {
    for (const type of CE_TYPES) {
      const next = rng(17);
      const [lo, hi] = type.startsWith('float') ? [-(1n << 40n), 1n << 40n] : bounds(type);
      const vals = range(N).map(() => {
        const x = (BigInt(next()) << 32n) | BigInt(next());
        return lo + (x % (hi - lo + 1n));
      });
      const v = (k: number): number | bigint => (type === 'float32' ? Math.fround(Number(vals[k]!)) : type === 'float64' ? Number(vals[k]!) / 3 : asType(type, vals[k]!));
      const all = range(N).map(v);
      for (const op of ['min', 'max'] as const) {
        const r = common(reduce(m, tree, 1, (k) => ({ op, type, value: v(k) })), tree);
        const want = all.reduce((a, b) => ((op === 'min' ? b < a : b > a) ? b : a));
        expect(r).toEqual({ op, value: want });
      }
    }
  });

  it('minloc and maxloc return the value and its identifier; ties take the lowest identifier', () => {
    for (const type of CE_TYPES) {
      // value k % 7: the minimum 0 and the maximum 6 are each held by ~107 nodes; id 10000 - k,
      // so the winner is the highest node holding the value
      for (const op of ['minloc', 'maxloc'] as const) {
        const r = common(reduce(m, tree, 2, (k) => ({ op, type, value: asType(type, BigInt(k % 7)), id: 10000 - k })), tree);
        const target = op === 'minloc' ? 0 : 6;
        const winner = Math.max(...range(N).filter((k) => k % 7 === target));
        expect(r).toEqual({ op, value: asType(type, BigInt(target)), id: 10000 - winner });
      }
    }
  });

  it('bitwise and logical operations on integer types', () => {
    for (const type of INTS) {
      const next = rng(99);
      const [lo, hi] = bounds(type);
      const vals = range(N).map(() => {
        const x = (BigInt(next()) << 32n) | BigInt(next());
        return lo + (x % (hi - lo + 1n));
      });
      // band over values with many bits set, so the result is not just 0
      const ones = vals.map((x, k) => wrapTo(type, x | ~(1n << BigInt(k % 61))));
      const cases: [CeOp, (k: number) => bigint, bigint][] = [
        ['band', (k) => ones[k]!, wrapTo(type, ones.reduce((a, b) => a & b))],
        ['bor', (k) => vals[k]! & 0xff0fn, vals.reduce((a, b) => a | (b & 0xff0fn), 0n)],
        ['bxor', (k) => vals[k]!, wrapTo(type, vals.reduce((a, b) => a ^ b))],
        // all true but one: land false; all false but one: lor true; nodes 0 mod 3 true: lxor is the parity of 250
        ['land', (k) => (k === 411 ? 0n : BigInt(k + 1)), 0n],
        ['lor', (k) => (k === 411 ? 5n : 0n), 1n],
        ['lxor', (k) => (k % 3 === 0 ? 2n : 0n), 0n],
      ];
      for (const [op, val, want] of cases) {
        const r = common(reduce(m, tree, 3, (k) => ({ op, type, value: asType(type, val(k)) })), tree);
        expect(r).toEqual({ op, value: asType(type, want) });
      }
      const r = common(reduce(m, tree, 3, (k) => ({ op: 'lxor', type, value: asType(type, k < 251 ? 1n : 0n) })), tree);
      expect(r.value).toEqual(asType(type, 1n));
    }
  });

  it('a barrier (a reduction without data) completes on every node', () => {
    const r = common(reduce(m, tree, 0, () => ({ op: 'barrier' })), tree);
    expect(r).toEqual({ op: 'barrier' });
  });

  it('float32 rounds at every combine, in tree order: the result depends on the tree shape', () => {
    // node 0 holds 1, the rest 2^-25 (a quarter of float32's unit in the last place at 1)
    const val = (k: number): number => (k === 0 ? 1 : 2 ** -25);
    /** The sum a tree gives: each NIC adds its children's partial sums to its own value, in tree order. */
    const reference = (t: CeTree, node: number): number => {
      let acc = val(node);
      for (const c of t.children[t.index.get(node)!]!) acc = Math.fround(acc + reference(t, c));
      return acc;
    };
    const sums: number[] = [];
    for (const radix of [32, 4]) {
      const t = buildCeTree(range(N), radix);
      const r = common(reduce(m, t, 0, (k) => ({ op: 'sum', type: 'float32', value: val(k) })), t);
      expect(r.value).toBe(reference(t, 0));
      expect(Math.fround(r.value as number)).toBe(r.value);
      sums.push(r.value as number);
    }
    // in units of 2^-23 above 1: the exact sum is 187.25; radix 32 gives 192 and radix 4 gives 188
    const ulps = sums.map((s) => (s - 1) / 2 ** -23);
    expect(ulps).toEqual([192, 188]);
  });

  it('four virtual CEs run at once, each on its own tree', () => {
    const all = buildCeTree(range(N), 32);
    const evens = buildCeTree(range(N).filter((k) => k % 2 === 0), 8);
    const backwards = buildCeTree(range(N).reverse(), 16);
    const first = buildCeTree(range(100), 32);
    const a = reduce(m, all, 0, (k) => ({ op: 'sum', type: 'int64', value: BigInt(k) }), false);
    const b = reduce(m, evens, 1, (k) => ({ op: 'max', type: 'uint32', value: k }), false);
    const c = reduce(m, backwards, 2, () => ({ op: 'barrier' }), false);
    const d = reduce(m, first, 3, (k) => ({ op: 'minloc', type: 'float64', value: Math.abs(k - 50.5), id: k }), false);
    for (const n of [0, 98]) for (const e of [0, 1, 2, 3]) expect(m.nics[n]!.ce!.busy(e)).toBe(true);
    m.engine.drain();
    expect(common(a, all)).toEqual({ op: 'sum', value: BigInt((N * (N - 1)) / 2) });
    expect(common(b, evens)).toEqual({ op: 'max', value: N - 2 });
    expect(common(c, backwards)).toEqual({ op: 'barrier' });
    expect(common(d, first)).toEqual({ op: 'minloc', value: 0.5, id: 50 });
    for (const e of [0, 1, 2, 3]) expect(m.nics[0]!.ce!.busy(e)).toBe(false);
  });
});

describe('bad joins (programming errors below the API faces)', () => {
  const m = machine('xc30', 8);
  const tree = buildCeTree(range(8), 32);
  const ce = m.nics[0]!.ce!;
  const ok = { op: 'sum', type: 'int32', value: 1 } as const;

  it('a second join on a busy engine throws; another engine and, after the result, the same engine take it', () => {
    reduce(m, tree, 0, () => ok, false);
    expect(() => ce.join(tree, 0, ok, () => {})).toThrow(RangeError);
    expect(() => ce.join(tree, 0, ok, () => {})).toThrow(/engine 0 already has a collective pending/);
    m.engine.drain();
    expect(ce.busy(0)).toBe(false);
    const again = reduce(m, tree, 0, () => ok);
    expect(common(again, tree)).toEqual({ op: 'sum', value: 8 });
  });

  it('refuses prod, unknown ops and types, and operands that do not fit the type, naming the bad value', () => {
    const bad: [CeContribution, RegExp][] = [
      [{ op: 'prod' as CeOp, type: 'float64', value: 2 }, /op=prod .*footnote 7/],
      [{ op: 'avg' as CeOp, type: 'float64', value: 2 }, /op=avg .*valid: sum, min/],
      [{ op: 'sum', type: 'int16' as CeType, value: 2 }, /type=int16 .*valid: int32/],
      [{ op: 'sum', value: 2 }, /type=undefined/],
      [{ op: 'band', type: 'float64', value: 2 }, /op=band needs an integer type/],
      [{ op: 'lor', type: 'float32', value: 2 }, /op=lor needs an integer type/],
      [{ op: 'sum', type: 'int32', value: 2 ** 31 }, /value=2147483648/],
      [{ op: 'sum', type: 'uint32', value: -1 }, /value=-1/],
      [{ op: 'sum', type: 'int32', value: 1.5 }, /value=1.5/],
      [{ op: 'sum', type: 'int64', value: 1 }, /must be a bigint/],
      [{ op: 'sum', type: 'uint64', value: 1n << 64n }, /value=18446744073709551616/],
      [{ op: 'sum', type: 'float64', value: 1n }, /must be a number/],
      [{ op: 'minloc', type: 'int32', value: 1 }, /needs id/],
      [{ op: 'maxloc', type: 'int32', value: 1, id: 0.5 }, /id=0.5/],
    ];
    for (const [c, re] of bad) {
      expect(() => ce.join(tree, 1, c, () => {})).toThrow(RangeError);
      expect(() => ce.join(tree, 1, c, () => {})).toThrow(re);
      expect(ce.busy(1)).toBe(false);
    }
    expect(CE_OPS).not.toContain('prod');
  });

  it('refuses a bad engine, a tree beyond the radix and a node outside the tree', () => {
    expect(() => ce.join(tree, 4, ok, () => {})).toThrow(/engine=4 must be 0..3/);
    expect(() => ce.join(tree, -1, ok, () => {})).toThrow(/engine=-1/);
    expect(() => ce.join(buildCeTree(range(8), 64), 1, ok, () => {})).toThrow(/radix 64 exceeds the CE's 32/);
    expect(() => ce.join(buildCeTree([1, 2, 3], 4), 1, ok, () => {})).toThrow(/node 0 is not a member/);
  });

  it('members that join different operations on one engine fail the run when their partial results meet', () => {
    const m2 = machine('xc30', 4);
    const t = buildCeTree(range(4), 32);
    m2.nics[0]!.ce!.join(t, 0, { op: 'sum', type: 'int32', value: 1 }, () => {});
    m2.nics[1]!.ce!.join(t, 0, { op: 'max', type: 'int32', value: 1 }, () => {});
    expect(() => m2.engine.drain()).toThrow(/node 1 joined max int32 on engine 0, this node sum int32/);
  });

  it('only the xc30 preset has a CE; a bad CE setting fails naming the parameter', () => {
    for (const name of ['xt4', 'xe6', 'sc5832', 'bw']) expect(machine(name, 4).nics[0]!.ce).toBeNull();
    expect(m.nics[0]!.ce!.engines).toBe(4);
    expect(() => machine('xe6', 4, { 'ce.present': 'yes' })).toThrow(/ce.engines/);
    expect(() => machine('xc30', 4, { 'ce.radix': '1' })).toThrow(/ce.radix/);
    // more virtual CEs than Aries has, set from the command line, each still independent
    const wide = machine('xc30', 4, { 'ce.engines': '9' });
    const t = buildCeTree(range(4), 32);
    expect(common(reduce(wide, t, 8, (k) => ({ op: 'sum', type: 'int32', value: k })), t)).toEqual({ op: 'sum', value: 6 });
  });
});

describe('CE timing: simulated packets through the network (seed 001 A26: MPI_Allreduce over 750 nodes under 10 us)', () => {
  const N = 750;
  const sum = (k: number): CeContribution => ({ op: 'sum', type: 'float64', value: k });
  const last = (o: Outcome): number => Math.max(...o.times.values()) / 1e6; // us

  it('an 8-byte sum over 750 nodes takes a few microseconds at radix 32 (depth 2) and longer on deeper trees', () => {
    const m = machine('xc30', N);
    const t32 = last(reduce(m, buildCeTree(range(N), 32), 0, sum));
    const t4 = last(reduce(m, buildCeTree(range(N), 4), 0, sum));
    const t2 = last(reduce(m, buildCeTree(range(N), 2), 0, sum));
    // the network phase alone; A26's 10 us also holds the on-node reduction and the MPI library
    expect(t32).toBeGreaterThan(1.5);
    expect(t32).toBeLessThan(5);
    expect(t4).toBeGreaterThan(t32 * 1.2);
    expect(t2).toBeGreaterThan(t4 * 1.2);
    // one node alone: the store to the NIC, the result and event writes back
    const one = last(reduce(m, buildCeTree([5], 32), 1, sum));
    expect(one).toBeGreaterThan(0.15);
    expect(one).toBeLessThan(0.3);
  });

  it('grows with the combining time (ce.op) and is the same on an idle network whichever engine runs it', () => {
    const time = (op: string, engine: number): number => {
      const m = machine('xc30', N, { 'ce.op': op });
      return last(reduce(m, buildCeTree(range(N), 32), engine, sum));
    };
    const base = time('20ns', 0);
    expect(time('20ns', 3)).toBe(base);
    // two levels of up to 32 inputs each: about 2 x 31 more combines
    expect(time('40ns', 0) - base).toBeGreaterThan(0.8);
  });

  it('is slower when puts load the network around the root', () => {
    const n = 96;
    const tree = buildCeTree(range(n), 32);
    const quiet = last(reduce(machine('xc30', n), tree, 0, sum));
    const m = machine('xc30', n);
    // every other node streams 64 KiB into the root's node: its ejection port is the hot spot
    const seg = new Uint8Array(64 * 1024);
    const h = m.nics[0]!.register(seg);
    const status: NicStatus[] = [];
    for (let k = 1; k < n; k++) {
      m.nics[k]!.post({ op: 'put', mode: 'bte', local: new Uint8Array(64 * 1024), remoteNode: 0, remoteHandle: h, remoteOffset: 0, onComplete: (s) => status.push(s) });
    }
    const loaded = last(reduce(m, tree, 0, sum));
    expect(status.length).toBe(n - 1);
    expect(loaded).toBeGreaterThan(2 * quiet);
  });
});
