/**
 * phit's programmatic API: everything the `phit` command does, as functions. `simulate` runs a
 * program on a machine; `compare` and the sweep functions run many; `machineTopology` and
 * `runTraffic` study a fabric; machine files, reports and metrics have their functions below.
 */
export { simulate, type SimulateOptions, type SimulateProgress, type SimulateResult } from './runtime/simulate.ts';
export type { RankContext, RankProgram, MachineView, Work } from './runtime/rank.ts';
export type { ArrayType, SkeletonArray } from './fabric/skeleton.ts';
export { traceChunks, DEFAULT_MAX_TRACE_EVENTS, type Trace, type TraceEvent, type TraceOptions } from './runtime/trace.ts';
export type { Mpi, Request, Status, Completion, Message, Op, NumericArray, Datatype, Win, AllocatedWin } from './runtime/mpi/mpi.ts';
export { MpiError } from './runtime/mpi/mpi.ts';
// collective algorithms written by users (--coll allreduce=./my-allreduce.ts), and their check
export { Schedule, userAlgorithm, type Part, type UserAlgorithmModule } from './runtime/mpi/coll/schedule.ts';
export { checkCollective, type CheckResult } from './runtime/coll-check.ts';
export type { Dmapp, MallocOptions, SymmetricSegment } from './runtime/dmapp/dmapp.ts';
export { DmappError } from './runtime/dmapp/dmapp.ts';
export { DeadlockError, RankError } from './fabric/engine/engine.ts';
export { ShmemGlobalExit } from './runtime/shmem/shmem.ts';
export { apps, findApp } from './apps/index.ts';
export type { App, AppResult, Row } from './apps/app.ts';
export { presets } from './fabric/machines/index.ts';
export { machineSpec, resolveMachine, buildMachine, machineTopology, type MachineTopology } from './fabric/machine.ts';
export type { MachineSpec, ParamDef } from './fabric/machines/spec.ts';
export { machineToYaml, machineToJson, parseMachineFile } from './fabric/machines/file.ts';
export { PARAM_SCHEMA, paramErrors, validateParams } from './fabric/machines/schema.ts';
// one app on several machines (phit compare), matrices of runs (phit sweep)
export { compare, formatCompare, type CompareOptions, type CompareResult, type CompareRow } from './cli/compare.ts';
export { parseSweep, planSweep, loadSweep, runSweep, sweepCsv, sweepJson, sweepReport, type SweepSpec, type SweepPlan, type SweepRow } from './cli/sweep.ts';
// synthetic traffic (phit traffic) and what a run measured
export { runTraffic, sweepTraffic, PATTERNS, type Pattern, type TrafficOptions, type TrafficRow } from './fabric/traffic.ts';
export { collectFabricMetrics } from './fabric/metrics.ts';
export type { RunMetrics, FabricMetrics, RankTime, CallStats, Histogram } from './runtime/metrics.ts';
// HTML reports (--report)
export { renderReport, type ReportDoc, type ReportSection } from './cli/report.ts';
export { runReport, type RunReportInput } from './cli/run-report.ts';
