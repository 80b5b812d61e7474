/**
 * The inventory of phit's OpenSHMEM routines cannot drift: every public method of `ctx.shmem`
 * and of a context (their classes' prototype chains in runtime/shmem/, public as the TypeScript
 * declarations say) has an entry in the manifest (test/shmem-routine-manifest.ts) with its
 * real-data test and its bad call, and no entry names a routine that is gone; every C routine of
 * OpenSHMEM 1.5 (test/shmem-spec-routines.ts) is served by one of them or excluded with a reason.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { OP_TYPES, type ReduceOp } from '../runtime/shmem/reduce-ops.ts';
import { Shmem, ShmemCtx } from '../runtime/shmem/shmem.ts';
import { MANIFEST } from './shmem-routine-manifest.ts';
import { PHIT_EXTRAS, SPEC_LEFT_OUT, specNames } from './shmem-spec-routines.ts';

/** Per class of runtime/shmem/: its methods and accessors, and whether each is public (no private or protected modifier, no @internal). */
function declarations(): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  const dir = 'runtime/shmem';
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    const src = ts.createSourceFile(f, readFileSync(`${dir}/${f}`, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const node of src.statements) {
      if (!ts.isClassDeclaration(node) || !node.name) continue;
      const members = new Map<string, boolean>();
      for (const m of node.members) {
        if (!(ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m)) || !m.name || !ts.isIdentifier(m.name)) continue;
        const hidden = (ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 || ts.getJSDocTags(m).some((t) => t.tagName.text === 'internal');
        // an overload's signatures and its body are one routine: public if any declaration is
        members.set(m.name.text, (members.get(m.name.text) ?? false) || !hidden);
      }
      out.set(node.name.text, members);
    }
  }
  return out;
}

/** The public routines (methods) of the objects made by `ctor`, walking its prototype chain as a program sees it. */
function routines(ctor: { prototype: object }, decls: Map<string, Map<string, boolean>>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let p: object | null = ctor.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const cls = (p as { constructor: { name: string } }).constructor.name;
    const members = decls.get(cls);
    if (!members) throw new Error(`class ${cls} of the SHMEM face is not declared in runtime/shmem/`);
    for (const name of Object.getOwnPropertyNames(p)) {
      if (name === 'constructor' || seen.has(name)) continue;
      seen.add(name);
      const d = Object.getOwnPropertyDescriptor(p, name)!;
      if (typeof d.value !== 'function') continue;
      const pub = members.get(name);
      if (pub === undefined) throw new Error(`${cls}.${name} is on the prototype but not declared as a method`);
      if (pub) out.push(name);
    }
  }
  return out;
}

const decls = declarations();
const inventory = [...routines(Shmem, decls).map((r) => `shmem.${r}`), ...routines(ShmemCtx, decls).map((r) => `ctx.${r}`)].sort();
const spec = specNames();

describe('SHMEM routine inventory', () => {
  it('the faces have the routines a program is told of: typed families, contexts and teams, and no internal helper', () => {
    for (const r of ['shmem.putFloat32', 'shmem.iget128', 'shmem.atomicFetchXorNbi', 'shmem.ctxCreate', 'shmem.teamSplit2d', 'shmem.complexdProdToAll', 'ctx.putInt16Nbi', 'ctx.quiet', 'ctx.putmemSignal', 'shmem.gLongdouble', 'ctx.putLongdoubleSignalNbi']) expect(inventory).toContain(r);
    for (const r of ['shmem.checkPe', 'shmem.disseminate', 'shmem.atomic', 'shmem.groupReduce', 'ctx.target', 'shmem.ready']) expect(inventory).not.toContain(r);
    // a context has RMA, atomics, signals, quiet and fence, and nothing that is not per context
    for (const r of ['ctx.barrierAll', 'ctx.malloc', 'ctx.waitUntil', 'ctx.teamSync']) expect(inventory).not.toContain(r);
  });

  it('every routine has a manifest entry, and every entry is a routine', () => {
    const manifest = Object.keys(MANIFEST).sort();
    expect(inventory.filter((r) => !manifest.includes(r)), 'routines without a manifest entry').toEqual([]);
    expect(manifest.filter((r) => !inventory.includes(r)), 'manifest entries that are no routine').toEqual([]);
  });

  it('every real-data test named exists and calls the routine (by name, or by the template its loop builds the name with)', () => {
    const texts = new Map<string, string>();
    for (const [routine, { data }] of Object.entries(MANIFEST)) {
      expect(existsSync(data.file), `${routine}: ${data.file}`).toBe(true);
      if (!texts.has(data.file)) texts.set(data.file, readFileSync(data.file, 'utf8'));
      const text = texts.get(data.file)!;
      expect(text.includes(data.test), `${routine}: no test "${data.test}" in ${data.file}`).toBe(true);
      const mention = data.mentions ?? routine.slice(routine.indexOf('.') + 1);
      expect(text.includes(mention), `${routine}: ${data.file} never says ${mention}`).toBe(true);
    }
  });

  it('every routine has a bad call, or a reason it has none', () => {
    const none = Object.entries(MANIFEST).filter(([, e]) => 'none' in e.error);
    for (const [routine, e] of none) expect((e.error as { none: string }).none.length, routine).toBeGreaterThan(10);
    // the routines without a bad call take no argument that can be wrong
    expect(none.map(([r]) => r).sort()).toEqual(['shmem.addrAccessible', 'shmem.barrierAll', 'shmem.clearCacheInv', 'shmem.fence', 'shmem.finalize', 'shmem.infoGetName', 'shmem.infoGetVersion', 'shmem.init', 'shmem.myPe', 'shmem.nPes', 'shmem.peAccessible', 'shmem.queryThread', 'shmem.quiet', 'shmem.setCacheInv', 'shmem.syncAll', 'shmem.udcflush']);
    for (const [routine, e] of Object.entries(MANIFEST)) if ('kind' in e.error) expect(e.error.value.length, routine).toBeGreaterThan(0);
  });
});

describe('OpenSHMEM 1.5 routines in phit', () => {
  it('names each C routine once', () => {
    const names = spec.map((n) => n.c);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    // the families expand over their tables: 24 RMA types, 10 of them in Table 7 only as float and double
    expect(names).toContain('shmem_ctx_ptrdiff_iget');
    expect(names).toContain('shmem_uint64_atomic_fetch_xor_nbi');
    expect(names).toContain('shmem_complexf_prod_reduce');
    expect(names).toContain('shmem_ctx_put128_signal_nbi');
  });

  it('every C routine of 1.5 is served by a phit routine of the manifest, or excluded with its reason', () => {
    const missing = spec.filter((n) => !n.exclude && (n.phit === undefined || !inventory.includes(n.phit)));
    expect(missing.map((n) => `${n.c} (${n.section}) -> ${n.phit ?? 'nothing'}`)).toEqual([]);
    for (const n of spec.filter((x) => x.exclude)) expect(n.exclude!.length, n.c).toBeGreaterThan(20);
    // nothing is excluded: long double RMA and put-with-signal too have their routines
    expect(spec.filter((n) => n.exclude).map((n) => n.c)).toEqual([]);
    for (const c of ['shmem_longdouble_iget', 'shmem_ctx_longdouble_put_signal_nbi']) expect(spec.find((n) => n.c === c)?.phit, c).toMatch(/Longdouble/);
    expect(SPEC_LEFT_OUT.length).toBeGreaterThan(0);
  });

  it('every phit routine serves a C routine of the specification, or is a phit extra with its reason', () => {
    const served = new Set(spec.map((n) => n.phit));
    const extra = inventory.filter((r) => !served.has(r));
    expect(extra).toEqual(Object.keys(PHIT_EXTRAS).sort());
  });

  it("a reduction's C types are types phit's routine takes for that operator (Table 10)", () => {
    for (const n of spec.filter((x) => /_reduce$/.test(x.c) && !x.exclude)) {
      const op = n.phit!.slice('shmem.'.length, -'Reduce'.length) as ReduceOp;
      expect(OP_TYPES[op], n.c).toContain(n.type);
    }
  });

  it('the README states the counts this inventory gives', () => {
    const readme = readFileSync('README.md', 'utf8');
    const c = spec.filter((n) => !n.exclude).length;
    const x = spec.filter((n) => n.exclude).length;
    const shmem = inventory.filter((r) => r.startsWith('shmem.')).length;
    const ctx = inventory.length - shmem;
    const bad = Object.values(MANIFEST).filter((e) => 'kind' in e.error).length;
    for (const line of [`${bad} with a bad call and ${inventory.length - bad} that take no argument`, `${inventory.length} routines (${shmem} of \`ctx.shmem\`, ${ctx} of a context)`, `${spec.length} C routines of OpenSHMEM 1.5, ${c} served and ${x} excluded`]) {
      expect(readme.includes(line), `README.md should say: ${line}`).toBe(true);
    }
  });
});
