/** The checks every uGNI call makes of its arguments: of the handles it is given (each gives the failure to return, or undefined), and of integer ranges. */
import { GNI_RC, type GniFailure } from './codes.ts';
import { GniCdm, GniCq, GniEp, GniNic } from './objects.ts';

/** A failure result with its code and message. */
export function fail(rc: GniFailure['rc'], message: string): GniFailure {
  return { rc, message };
}

/** Why `cdm` is not a live domain of rank `rank`, or undefined. */
export function checkCdm(call: string, cdm: GniCdm, rank: number): GniFailure | undefined {
  if (!(cdm instanceof GniCdm) || cdm.rank !== rank) return fail(GNI_RC.INVALID_PARAM, `${call}: not a domain created by rank ${rank}`);
  if (cdm.destroyed) return fail(GNI_RC.INVALID_PARAM, `${call}: the domain was destroyed`);
  return undefined;
}

/** Why `nic` is not a live nic handle of rank `rank`, or undefined. */
export function checkNic(call: string, nic: GniNic, rank: number): GniFailure | undefined {
  if (!(nic instanceof GniNic) || nic.cdm.rank !== rank) return fail(GNI_RC.INVALID_PARAM, `${call}: not a nic handle of rank ${rank}`);
  if (nic.destroyed) return fail(GNI_RC.INVALID_STATE, `${call}: the domain of the nic handle was destroyed`);
  return undefined;
}

/** Why `cq` is not a live completion queue of rank `rank`, or undefined. */
export function checkCq(call: string, cq: GniCq, rank: number): GniFailure | undefined {
  if (!(cq instanceof GniCq)) return fail(GNI_RC.INVALID_PARAM, `${call}: not a completion queue`);
  const bad = checkNic(call, cq.nic, rank);
  if (bad) return bad;
  if (cq.destroyed) return fail(GNI_RC.INVALID_PARAM, `${call}: the completion queue was destroyed`);
  return undefined;
}

/** Why `ep` is not a live endpoint of rank `rank`, or undefined. */
export function checkEp(call: string, ep: GniEp, rank: number): GniFailure | undefined {
  if (!(ep instanceof GniEp)) return fail(GNI_RC.INVALID_PARAM, `${call}: not an endpoint`);
  const bad = checkNic(call, ep.nic, rank);
  if (bad) return bad;
  if (ep.destroyed) return fail(GNI_RC.INVALID_PARAM, `${call}: the endpoint was destroyed`);
  return undefined;
}

/** Why `ep` is not a live endpoint of rank `rank` bound by epBind, or undefined. */
export function checkBoundEp(call: string, ep: GniEp, rank: number): GniFailure | undefined {
  const bad = checkEp(call, ep, rank);
  if (bad) return bad;
  if (!ep.bound) return fail(GNI_RC.INVALID_STATE, `${call}: the endpoint is not bound (epBind first)`);
  return undefined;
}

/** Whether `v` is an integer in 0..limit-1. */
export function isUint(v: number, limit: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < limit;
}
