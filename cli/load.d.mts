/** The module at `entry` (a file: URL of one of phit's .ts files), compiled into a cached bundle, else loaded through tsx. */
export function load(entry: URL | string): Promise<Record<string, unknown>>;
/** The path of a fresh bundle of the .ts file `entry` and what it imports from phit, made if need be. */
export function bundleOf(entry: string): Promise<string>;
