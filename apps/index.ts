import type { App } from './app.ts';
import { halo3d } from './halo3d.ts';
import { pingpong } from './pingpong.ts';
import { putget } from './putget.ts';

/** Every built-in app, by name. */
export const apps: Readonly<Record<string, App>> = { pingpong, putget, halo3d };

/** Looks up an app; throws RangeError listing the valid names. */
export function findApp(name: string): App {
  const a = apps[name];
  if (!a) throw new RangeError(`unknown app "${name}"; valid: ${Object.keys(apps).join(', ')} (or a path to your own .ts file)`);
  return a;
}
