import { byName } from '../fabric/machines/index.ts';
import type { App } from './app.ts';
import { allreduce } from './allreduce.ts';
import { alltoall } from './alltoall.ts';
import { amg } from './amg.ts';
import { amorate } from './amorate.ts';
import { cg } from './cg.ts';
import { comd } from './comd.ts';
import { fft2d } from './fft2d.ts';
import { fft3d } from './fft3d.ts';
import { gups } from './gups.ts';
import { halo2d } from './halo2d.ts';
import { halo3d } from './halo3d.ts';
import { hpcg } from './hpcg.ts';
import { lulesh } from './lulesh.ts';
import { minife } from './minife.ts';
import { npbBt } from './npb-bt.ts';
import { npbCg } from './npb-cg.ts';
import { npbFt } from './npb-ft.ts';
import { npbIs } from './npb-is.ts';
import { npbLu } from './npb-lu.ts';
import { npbMg } from './npb-mg.ts';
import { npbSp } from './npb-sp.ts';
import { osuBibw } from './osu-bibw.ts';
import { osuBw } from './osu-bw.ts';
import { osuLatency } from './osu-latency.ts';
import { pingpong } from './pingpong.ts';
import { ptrans } from './ptrans.ts';
import { putget } from './putget.ts';
import { putrate } from './putrate.ts';
import { randomring } from './randomring.ts';
import { pattern } from './pattern.ts';
import { randpairs } from './randpairs.ts';
import { summa } from './summa.ts';
import { sweep3d } from './sweep3d.ts';

/** Every built-in app, by name. */
export const apps: Readonly<Record<string, App>> = byName({ pingpong, putget, halo2d, halo3d, putrate, amorate, gups, fft2d, fft3d, ptrans, randpairs, pattern, randomring, 'osu-latency': osuLatency, 'osu-bw': osuBw, 'osu-bibw': osuBibw, allreduce, alltoall, cg, summa, lulesh, hpcg, 'npb-cg': npbCg, 'npb-ft': npbFt, 'npb-is': npbIs, 'npb-lu': npbLu, 'npb-mg': npbMg, 'npb-bt': npbBt, 'npb-sp': npbSp, sweep3d, comd, minife, amg });

/** Looks up an app; throws RangeError listing the valid names. */
export function findApp(name: string): App {
  const a = apps[name];
  if (!a) throw new RangeError(`unknown app "${name}"; valid: ${Object.keys(apps).join(', ')} (or a path to your own .ts file)`);
  return a;
}
