/**
 * The inventory of phit's MPI routines cannot drift: every public method of the MPI objects a
 * program gets (their classes' prototype chains in runtime/mpi/, public as the TypeScript
 * declarations say) has an entry in the manifest (test/mpi-routine-manifest.ts) with its
 * real-data test and its bad call, or is named as the library's plumbing with a reason; and no
 * entry names a routine that is gone; every C routine of the MPI 4.0 chapters phit serves
 * (test/mpi-spec-routines.ts) is served by one of them or excluded with a reason.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CartComm, Datatype, Info, InterComm, Mpi, Win } from '../runtime/mpi/mpi.ts';
import { Group } from '../runtime/mpi/group.ts';
import { Message } from '../runtime/mpi/mprobe.ts';
import { PersistentRequest } from '../runtime/mpi/persistent.ts';
import { Request } from '../runtime/mpi/request.ts';
import { MANIFEST, NO_BAD_CALL, NOT_ROUTINES } from './mpi-routine-manifest.ts';
import { PHIT_EXTRAS, SPEC_LEFT_OUT, specRoutines } from './mpi-spec-routines.ts';

/** Per class of runtime/mpi/ (and rma/): its methods and accessors, and whether each is public (no private or protected modifier, no @internal). */
function declarations(): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  for (const dir of ['runtime/mpi', 'runtime/mpi/rma']) {
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
  }
  return out;
}

/**
 * The public methods of the objects made by `ctor`, walking its prototype chain as a program sees
 * it, up to the class `stop` (whose routines another object of the inventory lists). A method an
 * intercommunicator inherits from the intracommunicator's face but refuses is not declared in its
 * class: it is on the prototype as the refusal (see `refusals`), not a routine.
 */
function routines(ctor: { prototype: object }, decls: Map<string, Map<string, boolean>>, stop?: string): { names: string[]; undeclared: string[] } {
  const seen = new Set<string>();
  const names: string[] = [];
  const undeclared: string[] = [];
  for (let p: object | null = ctor.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const cls = (p as { constructor: { name: string } }).constructor.name;
    if (cls === stop) break;
    const members = decls.get(cls);
    if (!members) throw new Error(`class ${cls} of the MPI face is not declared in runtime/mpi/`);
    for (const name of Object.getOwnPropertyNames(p)) {
      if (name === 'constructor' || seen.has(name)) continue;
      seen.add(name);
      const d = Object.getOwnPropertyDescriptor(p, name)!;
      if (typeof d.value !== 'function') continue;
      const pub = members.get(name);
      if (pub === undefined) undeclared.push(`${cls}.${name}`);
      else if (pub) names.push(name);
    }
  }
  return { names, undeclared };
}

/** The text of each test of `file` by title, with the text of the file's functions outside any test (its helpers) appended. */
function testBodies(file: string): Map<string, string> {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out = new Map<string, string>();
  const helpers: string[] = [];
  const visit = (n: ts.Node, inTest: boolean): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'it' || n.expression.text === 'test') && n.arguments[0] && (ts.isStringLiteral(n.arguments[0]) || ts.isNoSubstitutionTemplateLiteral(n.arguments[0]))) {
      out.set(n.arguments[0].text, n.getText(src));
      return;
    }
    if (!inTest && ts.isFunctionDeclaration(n)) helpers.push(n.getText(src));
    ts.forEachChild(n, (c) => visit(c, inTest));
  };
  visit(src, false);
  const shared = helpers.join('\n');
  for (const [title, body] of out) out.set(title, `${body}\n${shared}`);
  return out;
}

const decls = declarations();
/** Each object of the inventory: its prefix, its class, and the class where its chain joins one listed before. */
const FACES: [string, { prototype: object }, string?][] = [
  ['mpi', Mpi],
  ['cart', CartComm, 'Comm'],
  ['inter', InterComm, 'CommBase'],
  ['group', Group],
  ['win', Win],
  ['info', Info],
  ['datatype', Datatype],
  ['request', Request],
  ['persistent', PersistentRequest, 'Request'],
  ['message', Message],
];
const walked = FACES.map(([prefix, ctor, stop]) => ({ prefix, ...routines(ctor, decls, stop) }));
const all = walked.flatMap((w) => w.names.map((n) => `${w.prefix}.${n}`)).sort();
const inventory = all.filter((r) => !(r in NOT_ROUTINES));

describe('MPI routine inventory', () => {
  it('the faces have the routines a program is told of, and no private helper', () => {
    for (const r of ['mpi.send', 'mpi.typeCreateStruct', 'mpi.ialltoallw', 'mpi.neighborAlltoallwInit', 'mpi.winAllocateShared', 'cart.cartShift', 'inter.intercommMerge', 'group.rangeExcl', 'win.compareAndSwap', 'win.flushLocalAll', 'info.nthkey', 'request.wait', 'persistent.start']) expect(inventory).toContain(r);
    for (const r of ['mpi.live', 'mpi.checkTag', 'mpi.startSend', 'mpi.startBsend', 'win.flushCall', 'group.checkDistinct']) expect(all).not.toContain(r);
  });

  it('the only methods on the prototypes that no class declares are the intracommunicator calls an intercommunicator refuses', () => {
    for (const w of walked.filter((x) => x.prefix !== 'inter')) expect(w.undeclared, w.prefix).toEqual([]);
    const inter = walked.find((x) => x.prefix === 'inter')!;
    expect(inter.undeclared.length).toBeGreaterThan(10);
    for (const u of inter.undeclared) expect(u.startsWith('InterComm.'), u).toBe(true);
  });

  it('every routine has a manifest entry, and every entry is a routine', () => {
    const manifest = Object.keys(MANIFEST).sort();
    expect(inventory.filter((r) => !manifest.includes(r)), 'routines without a manifest entry').toEqual([]);
    expect(manifest.filter((r) => !inventory.includes(r)), 'manifest entries that are no routine').toEqual([]);
    // the plumbing named is public on the prototypes, with a reason
    for (const [r, why] of Object.entries(NOT_ROUTINES)) {
      expect(all, r).toContain(r);
      expect(why.length, r).toBeGreaterThan(20);
    }
  });

  it('every real-data test named exists, calls the routine and expects something of what it gives', () => {
    const bodies = new Map<string, Map<string, string>>();
    const bad: string[] = [];
    for (const [routine, { data }] of Object.entries(MANIFEST)) {
      const file = `test/${data[0]}`;
      expect(existsSync(file), `${routine}: ${file}`).toBe(true);
      if (!bodies.has(file)) bodies.set(file, testBodies(file));
      const hits = [...bodies.get(file)!].filter(([title]) => title.startsWith(data[1]));
      const name = routine.slice(routine.indexOf('.') + 1);
      if (hits.length === 0) bad.push(`${routine}: no test "${data[1]}" in ${file}`);
      // the test calls it, or a helper of its file that the test calls does
      else if (!hits.some(([, body]) => body.includes(`.${name}(`) && body.includes('expect'))) bad.push(`${routine}: the test "${data[1]}" of ${file} never calls ${name} or expects nothing`);
    }
    expect(bad).toEqual([]);
  });

  it('every routine has a bad call, or is listed as missing one with what is wrong', () => {
    const missing = Object.entries(MANIFEST).filter(([, e]) => 'missing' in e.error);
    for (const [routine, e] of missing) expect((e.error as { missing: string }).missing.length, routine).toBeGreaterThan(10);
    expect(missing.map(([r]) => r).sort()).toEqual(Object.keys(NO_BAD_CALL).sort());
    for (const [routine, e] of Object.entries(MANIFEST)) if ('cls' in e.error) expect(e.error.value.length, routine).toBeGreaterThan(0);
  });

  it('the README states the counts this inventory gives', () => {
    const readme = readFileSync('README.md', 'utf8');
    const c = spec.filter((x) => !x.exclude).length;
    const x = spec.filter((y) => y.exclude).length;
    const spl = `${spec.length} C routines of MPI 4.0, ${c} served and ${x} excluded`;
    expect(readme.includes(spl), `README.md should say: ${spl}`).toBe(true);
    const bad = Object.values(MANIFEST).filter((e) => 'cls' in e.error).length;
    const n = (p: string): number => inventory.filter((r) => r.startsWith(`${p}.`)).length;
    const line = `${inventory.length} routines (${n('mpi')} of \`ctx.mpi\`, ${n('cart')} of a Cartesian communicator, ${n('inter')} of an intercommunicator, ${n('group')} of a group, ${n('win')} of a window, ${n('info')} of an info object, ${n('request') + n('persistent')} of a request)`;
    for (const l of [line, `${bad} with a bad call and ${inventory.length - bad} without one yet`]) expect(readme.includes(l), `README.md should say: ${l}`).toBe(true);
  });
});

const spec = specRoutines();

describe('MPI 4.0 routines in phit', () => {
  it('names each C routine once', () => {
    const names = spec.map((n) => n.c);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const n of ['MPI_Isendrecv_replace', 'MPI_Alltoallw_init', 'MPI_Neighbor_alltoallw_init', 'MPI_Win_flush_local_all', 'MPI_Type_create_darray']) expect(names).toContain(n);
  });

  it('every C routine is served by a routine of the inventory or a declared property, or excluded with its reason', () => {
    const missing = spec.filter((n) => !n.exclude && !n.prop && (n.phit === undefined || !inventory.includes(n.phit)));
    expect(missing.map((n) => `${n.c} -> ${n.phit ?? 'nothing'}`)).toEqual([]);
    for (const n of spec.filter((y) => y.prop)) {
      const [file, text] = n.prop!.split(':') as [string, string];
      const path = existsSync(`runtime/mpi/${file}`) ? `runtime/mpi/${file}` : `runtime/mpi/rma/${file}`;
      expect(readFileSync(path, 'utf8').includes(`  ${text}`), `${n.c}: ${path} does not declare ${text}`).toBe(true);
    }
    for (const n of spec.filter((y) => y.exclude)) expect(n.exclude!.startsWith('unknown reason'), n.c).toBe(false);
    expect(SPEC_LEFT_OUT.length).toBeGreaterThan(0);
  });

  it('every phit routine serves a C routine (an intercommunicator or request routine the one its ctx.mpi form serves), or is a phit extra with its reason', () => {
    const served = new Set(spec.map((n) => n.phit));
    const serves = (r: string): boolean => served.has(r) || (/^(inter|request|persistent)\./.test(r) && served.has(`mpi.${r.slice(r.indexOf('.') + 1)}`));
    expect(inventory.filter((r) => !serves(r))).toEqual(Object.keys(PHIT_EXTRAS).sort());
    for (const why of Object.values(PHIT_EXTRAS)) expect(why.length).toBeGreaterThan(20);
  });
});
