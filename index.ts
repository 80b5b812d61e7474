/** phit's programmatic API: simulate a program on a machine preset. */
export { simulate, type SimulateOptions, type SimulateResult } from './runtime/simulate.ts';
export type { RankContext, RankProgram, MachineView, Work } from './runtime/rank.ts';
export { traceChunks, DEFAULT_MAX_TRACE_EVENTS, type Trace, type TraceEvent, type TraceOptions } from './runtime/trace.ts';
export type { CallStats, RankTime } from './runtime/metrics.ts';
export type { Mpi, Request, Status, Op, NumericArray } from './runtime/mpi/mpi.ts';
export { MpiError } from './runtime/mpi/mpi.ts';
export type { Dmapp, SymmetricSegment } from './runtime/dmapp/dmapp.ts';
export { DmappError } from './runtime/dmapp/dmapp.ts';
export { DeadlockError, RankError } from './fabric/engine/engine.ts';
export { apps, findApp } from './apps/index.ts';
export type { App, AppResult, Row } from './apps/app.ts';
export { presets } from './fabric/machines/index.ts';
export { machineSpec, resolveMachine, buildMachine } from './fabric/machine.ts';
