import { haloApp } from './halo.ts';

/** 2-D halo exchange (4 faces) on a Cartesian communicator, weak or strong scaling, data checked. */
export const halo2d = haloApp(2);
