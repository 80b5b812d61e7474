import { haloApp } from './halo.ts';

/** 3-D halo exchange (6 faces) on a Cartesian communicator, weak or strong scaling, data checked. */
export const halo3d = haloApp(3);
