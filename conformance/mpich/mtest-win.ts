import type { Keyval, Win } from '../../runtime/mpi/mpi.ts';
import type { MTest } from './mtest.ts';

/** The window memory of each kind MTestGetWin makes, as the value of its keyval: static, malloc'ed, MPI_Alloc_mem'ed. */
const STATIC = 0;
const MALLOC = 1;
const ALLOC_MEM = 2;

/**
 * MTest's window generator (test/mpi/util/mtest.c: MTestGetWin, MTestGetWinName, MTestFreeWin,
 * MTestRMACleanup) for one rank: the windows of MTest's list in turn, each remembering in an
 * attribute how its memory was made, so that MTestFreeWin frees it the right way. The list: an
 * active-target window over 1024 static bytes, a passive-target window over 1024 bytes of
 * MPI_Alloc_mem, and rank * 64 malloc'ed bytes on every rank, once plain and once with the info
 * `nolocks=true`.
 */
export class MTestWins {
  private index = 0;
  private memKeyval: Keyval<Win> | null = null;
  private winName = '';
  /** MTestGetWin's static buffer (`static char actbuf[1024]`). */
  private readonly actbuf = new Uint8Array(1024);

  constructor(private readonly mt: MTest) {}

  /**
   * MTestGetWin(&win, mustBePassive): the next window of the list (collective), with its list
   * position (1..4), or position 0 and no window once the list is done (and it starts again).
   * `mustBePassive` is unused, as in MTest.
   */
  async next(_mustBePassive: boolean): Promise<{ idx: number; win: Win | null }> {
    const { mpi } = this.mt;
    this.memKeyval ??= mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, mpi.WIN_NULL_DELETE_FN, 0);
    let win: Win | null = null;
    switch (this.index) {
      case 0:
        // active target window
        win = await mpi.winCreate(this.actbuf, 1, mpi.INFO_NULL);
        this.winName = 'active-window';
        win.setAttr(this.memKeyval, STATIC);
        break;
      case 1:
        // passive target window
        win = await mpi.winCreate(mpi.allocMem(1024, mpi.INFO_NULL), 1, mpi.INFO_NULL);
        this.winName = 'passive-window';
        win.setAttr(this.memKeyval, ALLOC_MEM);
        break;
      case 2:
        // active target; all windows different sizes
        win = await mpi.winCreate(new Uint8Array(mpi.rank * 64), 1, mpi.INFO_NULL);
        this.winName = 'active-all-different-win';
        win.setAttr(this.memKeyval, MALLOC);
        break;
      case 3: {
        // active target, no locks set
        const info = mpi.infoCreate();
        info.set('nolocks', 'true');
        win = await mpi.winCreate(new Uint8Array(mpi.rank * 64), 1, info);
        info.free();
        this.winName = 'active-nolocks-all-different-win';
        win.setAttr(this.memKeyval, MALLOC);
        break;
      }
      default:
        this.index = -1;
    }
    this.index++;
    return { idx: this.index, win };
  }

  /** MTestGetWinName: what the last window of the list is. */
  name(): string {
    return this.winName;
  }

  /** MTestFreeWin(&win): frees the window (collective), and its memory if MPI_Alloc_mem gave it (malloc'ed memory is garbage collected). */
  async free(win: Win): Promise<void> {
    const { mpi } = this.mt;
    const base = win.getAttr(mpi.WIN_BASE);
    if (!base.flag) throw new Error('Could not get WIN_BASE from window');
    const addr = base.value as Uint8Array;
    // a window of no bytes has a null base in C
    if (addr.byteLength > 0 && this.memKeyval) {
      const kind = win.getAttr(this.memKeyval);
      if (kind.flag && kind.value === ALLOC_MEM) mpi.freeMem(addr);
    }
    await win.free();
  }

  /** MTestRMACleanup (part of MTest_Finalize): frees the generator's keyval. */
  cleanup(): void {
    if (this.memKeyval) this.mt.mpi.winFreeKeyval(this.memKeyval);
    this.memKeyval = null;
  }
}
