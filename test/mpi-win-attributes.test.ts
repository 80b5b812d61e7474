import { describe, expect, it } from 'vitest';
import { Attributes, DUP_FN, Keyval, NULL_COPY_FN, NULL_DELETE_FN } from '../runtime/mpi/attributes.ts';
import type { MpiError, Win } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** The error class and message of what `f` raises, or 'none'. */
function raised(f: () => unknown): string {
  try {
    f();
    return 'none';
  } catch (e) {
    return (e as MpiError).message;
  }
}

describe('window attributes (MPI_Win_create_keyval, MPI_Win_set_attr, ...)', () => {
  it('set, get, replace and delete run the delete callback on the old value; free deletes the rest, the last set first', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const log: string[] = [];
        const del = (w: Win, k: { name: string }, value: unknown, extra: unknown): number => {
          log.push(`${k.name}:${String(value)}:${String(extra)}:${w.getName()}`);
          return 0;
        };
        const win = await mpi.winCreate(new Float64Array(4), 8);
        win.setName(`w${mpi.rank}`);
        const a = mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, del, 'A');
        const b = mpi.winCreateKeyval(mpi.WIN_DUP_FN, del, 'B');
        const c = mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, del, 'C');
        const before = win.getAttr(a);
        win.setAttr(a, 10 + mpi.rank);
        win.setAttr(b, 20);
        win.setAttr(c, 30);
        win.setAttr(a, 11 + mpi.rank); // replaces: the delete callback sees the old value
        const got = [win.getAttr(a).value, win.getAttr(b).value, win.getAttr(c).value];
        win.deleteAttr(b);
        win.deleteAttr(b); // nothing there: no callback
        const afterDelete = win.getAttr(b);
        // a freed keyval keys its attribute on until the window is freed
        mpi.winFreeKeyval(c);
        log.push('free');
        await win.free();
        mpi.winFreeKeyval(a);
        mpi.winFreeKeyval(b);
        return { before, got, afterDelete, log };
      },
    });
    const rank = (n: number) => ({
      before: { flag: false },
      got: [11 + n, 20, 30],
      afterDelete: { flag: false },
      log: [`keyval 1:${10 + n}:A:w${n}`, 'keyval 2:20:B:w' + n, 'free', `keyval 3:30:C:w${n}`, `keyval 1:${11 + n}:A:w${n}`],
    });
    expect(r.rankResults).toEqual([rank(0), rank(1)]);
  });

  it('the predefined keyvals answer each flavor its base, size, displacement unit, flavor and model', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async ({ mpi }) => {
        const mem = new Int32Array(6 + mpi.rank);
        const out: unknown[][] = [];
        const row = (win: Win): unknown[] => [mpi.WIN_BASE, mpi.WIN_SIZE, mpi.WIN_DISP_UNIT, mpi.WIN_CREATE_FLAVOR, mpi.WIN_MODEL].map((k) => win.getAttr(k).value);
        const created = await mpi.winCreate(mem, 4);
        const [base, ...rest] = row(created);
        out.push([(base as Uint8Array).buffer === mem.buffer, ...rest]);
        await created.free();
        const allocated = await mpi.winAllocate(24, 8);
        const [abase, ...arest] = row(allocated.win);
        out.push([abase === allocated.buf, ...arest]);
        await allocated.win.free();
        const dynamic = await mpi.winCreateDynamic();
        const [dbase, ...drest] = row(dynamic);
        out.push([(dbase as Uint8Array).byteLength, ...drest]);
        await dynamic.free();
        return out;
      },
    });
    // MPICH's numbers: flavors create 1, allocate 2, dynamic 3; MPI_WIN_UNIFIED 2
    expect(r.rankResults).toEqual([0, 1].map((n) => [
      [true, 4 * (6 + n), 4, 1, 2],
      [true, 24, 8, 2, 2],
      [0, 0, 1, 3, 2],
    ]));
  });

  it('bad keyvals and failing callbacks are MPI_ERR_KEYVAL or the callback\'s code, named', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        const win = await mpi.winCreate(new Int32Array(2), 4);
        win.setErrhandler(mpi.ERRORS_RETURN);
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const freed = mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, mpi.WIN_NULL_DELETE_FN);
        mpi.winFreeKeyval(freed);
        const failing = mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, () => mpi.errorCodes.ERR_ARG!);
        win.setAttr(failing, 1);
        const out = [
          raised(() => win.setAttr(freed, 1)),
          raised(() => win.getAttr({} as never)),
          raised(() => win.setAttr(mpi.WIN_BASE, 1)),
          raised(() => win.deleteAttr(mpi.WIN_SIZE)),
          raised(() => mpi.winFreeKeyval(mpi.WIN_MODEL)),
          raised(() => mpi.winFreeKeyval(freed)),
          raised(() => mpi.winCreateKeyval(null as never, mpi.WIN_NULL_DELETE_FN)),
          raised(() => win.deleteAttr(failing)),
          win.getAttr(failing).flag,
        ];
        // a delete callback that fails fails the free too: the window is not freed
        const freeFailed = await win.free().then(() => 'freed', (e: MpiError) => e.errorClass);
        return [...out, freeFailed];
      },
    });
    expect(r.rankResults[0]).toEqual([
      'MPI_ERR_KEYVAL: setAttr: keyval 1 was freed',
      'MPI_ERR_KEYVAL: getAttr: expected a keyval of mpi.winCreateKeyval or a predefined one, got Object',
      'MPI_ERR_KEYVAL: setAttr: MPI_WIN_BASE is predefined and cannot be set',
      'MPI_ERR_KEYVAL: deleteAttr: MPI_WIN_SIZE is predefined and cannot be deleted',
      'MPI_ERR_KEYVAL: winFreeKeyval: MPI_WIN_MODEL is predefined and cannot be freed',
      'MPI_ERR_KEYVAL: winFreeKeyval: keyval 1 was freed',
      'MPI_ERR_ARG: winCreateKeyval: copyFn must be a function (or mpi.WIN_NULL_COPY_FN), got null',
      'MPI_ERR_ARG: deleteAttr: the delete callback of keyval 2 returned 12',
      true,
      'MPI_ERR_ARG',
    ]);
  });

  it('a keyval of one kind of object is refused on another; a duplicate gets what the copy callbacks give', () => {
    const attrs = new Attributes<string>('comm');
    const dup = new Keyval<string>('comm', 1, DUP_FN, NULL_DELETE_FN, null);
    const none = new Keyval<string>('comm', 2, NULL_COPY_FN, NULL_DELETE_FN, null);
    const twice = new Keyval<string>('comm', 3, (old, _k, extra, v) => ({ flag: true, value: `${old}:${String(extra)}:${Number(v) * 2}` }), NULL_DELETE_FN, 'x');
    const failing = new Keyval<string>('comm', 4, () => 15, NULL_DELETE_FN, null);
    attrs.set('c', 'set', dup, 7);
    attrs.set('c', 'set', none, 8);
    attrs.set('c', 'set', twice, 9);
    const copy = attrs.copy('c', 'dup');
    expect([dup, none, twice].map((k) => copy.get('d', 'get', k))).toEqual([{ flag: true, value: 7 }, { flag: false }, { flag: true, value: 'c:x:18' }]);
    attrs.set('c', 'set', failing, 0);
    expect(raised(() => attrs.copy('c', 'dup'))).toBe('MPI_ERR_OTHER: dup: the copy callback of keyval 4 returned 15');
    const winKey = new Keyval<string>('win', 5, NULL_COPY_FN, NULL_DELETE_FN, null);
    expect(raised(() => attrs.set('c', 'setAttr', winKey, 1))).toBe('MPI_ERR_KEYVAL: setAttr: keyval 5 is a keyval of a win, not of a comm');
  });
});

describe('window names (MPI_Win_set_name, MPI_Win_get_name)', () => {
  it('a window has no name until each rank gives its own; a name that is not a string is MPI_ERR_ARG', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const win = await mpi.winCreate(new Int32Array(1), 4);
        win.setErrhandler(mpi.ERRORS_RETURN);
        const before = win.getName();
        win.setName(`rank-${mpi.rank}`);
        const bad = raised(() => win.setName(5 as never));
        const name = win.getName();
        await win.free();
        return [before, name, bad, raised(() => win.getName())];
      },
    });
    expect(r.rankResults).toEqual([0, 1].map((n) => ['', `rank-${n}`, 'MPI_ERR_ARG: setName: name must be a string, got number', 'MPI_ERR_WIN: getName: the window was freed']));
  });
});

describe('window error handlers (MPI_Win_create_errhandler, MPI_Win_call_errhandler, MPI_Errhandler_free)', () => {
  it('callErrhandler calls a window\'s handler with the window and code; a freed handler stays on the window but cannot be set again', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const calls: string[] = [];
        const win = await mpi.winCreate(new Int32Array(1), 4);
        const h = mpi.winCreateErrhandler((w, code) => calls.push(`${w === win ? 'win' : 'other'}:${code}`));
        win.setErrhandler(h);
        win.callErrhandler(mpi.errorCodes.ERR_OTHER!);
        mpi.errhandlerFree(h);
        // the window keeps the handler: a failing call goes to it, then raises
        const put = await win.put(Int32Array.of(1), 1, 0).then(() => 'none', (e: MpiError) => e.errorClass);
        win.setErrhandler(mpi.ERRORS_RETURN);
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const again = raised(() => win.setErrhandler(h));
        const onComm = raised(() => mpi.setErrhandler(mpi.winCreateErrhandler(() => {})));
        const onWin = raised(() => win.setErrhandler(mpi.commCreateErrhandler(() => {})));
        const freeTwice = raised(() => mpi.errhandlerFree(h));
        const freePredefined = raised(() => mpi.errhandlerFree(mpi.ERRORS_RETURN));
        const badCode = raised(() => win.callErrhandler(12345));
        win.callErrhandler(mpi.errorCodes.ERR_RANK!); // ERRORS_RETURN: nothing to do
        // the communicator's call shares the code
        const commCalls: number[] = [];
        mpi.setErrhandler(mpi.commCreateErrhandler((c, code) => commCalls.push(c === mpi ? code : -1)));
        mpi.callErrhandler(mpi.errorCodes.ERR_TAG!);
        await win.free();
        return { calls, put, again, onComm, onWin, freeTwice, freePredefined, badCode, commCalls };
      },
    });
    expect(r.rankResults[1]).toEqual({
      calls: ['win:15', 'win:50'],
      put: 'MPI_ERR_RMA_SYNC',
      again: 'MPI_ERR_ARG: setErrhandler: the handler was freed (errhandlerFree)',
      onComm: 'MPI_ERR_ARG: setErrhandler: the handler was made by winCreateErrhandler, for a window',
      onWin: 'MPI_ERR_ARG: setErrhandler: the handler was made by commCreateErrhandler, for a communicator',
      freeTwice: 'MPI_ERR_ARG: errhandlerFree: the handler was freed already',
      freePredefined: 'MPI_ERR_ARG: errhandlerFree: MPI_ERRORS_RETURN is predefined and cannot be freed',
      badCode: 'MPI_ERR_ARG: callErrhandler: code=12345 is not an MPI error code (mpi.errorCodes)',
      commCalls: [4],
    });
  });

  it('callErrhandler under ERRORS_ARE_FATAL fails the run with the code\'s class', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 1,
        program: async ({ mpi }) => {
          const win = await mpi.winCreate(new Int32Array(1), 4);
          try {
            win.callErrhandler(mpi.errorCodes.ERR_OTHER!);
          } catch {
            // caught, but the handler is fatal
          }
          await win.free();
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_OTHER: callErrhandler: the program raised MPI_ERR_OTHER under MPI_ERRORS_ARE_FATAL/);
  });
});
