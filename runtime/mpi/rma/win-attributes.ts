import { Keyval, NULL_COPY_FN, NULL_DELETE_FN } from '../attributes.ts';
import type { WinFlavor } from './parts.ts';
import type { Win } from './window.ts';

/** MPI_WIN_FLAVOR_* (MPICH's numbers): how a window's memory came to be, as MPI_WIN_CREATE_FLAVOR answers. */
export const WIN_FLAVORS: Readonly<Record<WinFlavor, number>> = { create: 1, allocate: 2, dynamic: 3, shared: 4 };
/** MPI_WIN_SEPARATE (MPICH's number): a window with separate public and private copies. */
export const WIN_SEPARATE = 1;
/** MPI_WIN_UNIFIED (MPICH's number): one copy of a window's memory, as every phit window has. */
export const WIN_UNIFIED = 2;

const predefined = (id: number, name: string, get: (w: Win) => unknown): Keyval<Win> => new Keyval<Win>('win', id, NULL_COPY_FN, NULL_DELETE_FN, null, get, name);

/** MPI_WIN_BASE: the window's memory (`win.buf`; empty for a dynamic window, whose base is MPI_BOTTOM). MPICH's keyval numbers. */
export const WIN_BASE = predefined(0x66000001, 'MPI_WIN_BASE', (w) => w.buf);
/** MPI_WIN_SIZE: the window's size in bytes (0 for a dynamic window). */
export const WIN_SIZE = predefined(0x66000003, 'MPI_WIN_SIZE', (w) => w.buf.length);
/** MPI_WIN_DISP_UNIT: the window's displacement unit in bytes. */
export const WIN_DISP_UNIT = predefined(0x66000005, 'MPI_WIN_DISP_UNIT', (w) => w.dispUnit);
/** MPI_WIN_CREATE_FLAVOR: one of WIN_FLAVORS. */
export const WIN_CREATE_FLAVOR = predefined(0x66000007, 'MPI_WIN_CREATE_FLAVOR', (w) => WIN_FLAVORS[w.flavor]);
/** MPI_WIN_MODEL: WIN_UNIFIED (phit's windows are one copy of their memory, see window.ts's sync). */
export const WIN_MODEL = predefined(0x66000009, 'MPI_WIN_MODEL', () => WIN_UNIFIED);
