import type { MpichProgram } from './mtest.ts';

/** A ported test's module: its default export is the rank program. */
export type ProgramModule = { readonly default: MpichProgram };

/** The ported tests by `dir/name`, loaded when run. */
export const PROGRAMS: Readonly<Record<string, () => Promise<ProgramModule>>> = {
  'pt2pt/anyall': () => import('./pt2pt/anyall.ts'),
  'pt2pt/bsend1': () => import('./pt2pt/bsend1.ts'),
  'pt2pt/bsend2': () => import('./pt2pt/bsend2.ts'),
  'pt2pt/bsend4': () => import('./pt2pt/bsend4.ts'),
  'pt2pt/bsendalign': () => import('./pt2pt/bsendalign.ts'),
  'pt2pt/bsendfrag': () => import('./pt2pt/bsendfrag.ts'),
  'pt2pt/bsendpending': () => import('./pt2pt/bsendpending.ts'),
  'pt2pt/cancelanysrc': () => import('./pt2pt/cancelanysrc.ts'),
  'pt2pt/cancelrecv': () => import('./pt2pt/cancelrecv.ts'),
  'pt2pt/huge_anysrc': () => import('./pt2pt/huge_anysrc.ts'),
  'pt2pt/huge_dupcomm': () => import('./pt2pt/huge_dupcomm.ts'),
  'pt2pt/huge_ssend': () => import('./pt2pt/huge_ssend.ts'),
  'pt2pt/huge_underflow': () => import('./pt2pt/huge_underflow.ts'),
  'pt2pt/irecv_any': () => import('./pt2pt/irecv_any.ts'),
  'pt2pt/isendirecv': () => import('./pt2pt/isendirecv.ts'),
  'pt2pt/isendself': () => import('./pt2pt/isendself.ts'),
  'pt2pt/isendselfprobe': () => import('./pt2pt/isendselfprobe.ts'),
  'pt2pt/large_tag': () => import('./pt2pt/large_tag.ts'),
  'pt2pt/many_isend': () => import('./pt2pt/many_isend.ts'),
  'pt2pt/manylmt': () => import('./pt2pt/manylmt.ts'),
  'pt2pt/probe_unexp': () => import('./pt2pt/probe_unexp.ts'),
  'pt2pt/probenull': () => import('./pt2pt/probenull.ts'),
  'pt2pt/rcancel': () => import('./pt2pt/rcancel.ts'),
  'pt2pt/recv_any': () => import('./pt2pt/recv_any.ts'),
  'pt2pt/recvnull': () => import('./pt2pt/recvnull.ts'),
  'pt2pt/scancel': () => import('./pt2pt/scancel.ts'),
  'pt2pt/scancel2': () => import('./pt2pt/scancel2.ts'),
  'pt2pt/scancel_unmatch': () => import('./pt2pt/scancel_unmatch.ts'),
  'pt2pt/send_tests': () => import('./pt2pt/send_tests.ts'),
  'pt2pt/sendall': () => import('./pt2pt/sendall.ts'),
  'pt2pt/sendflood': () => import('./pt2pt/sendflood.ts'),
  'pt2pt/sendrecv3': () => import('./pt2pt/sendrecv3.ts'),
};
