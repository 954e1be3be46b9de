import { isCancel } from './api.ts';

/** Do not retry a request that a newer one to the same address cancelled (spec §7). */
export const retryUnlessCancelled = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

/** Changes are never cancelled by a later change to the same address. */
export const change = { keepEarlier: true } as const;

/** Pickers may ask the same address as a list at the same moment: neither cancels the other. */
export const picker = { keepEarlier: true } as const;

/** An empty or blank text becomes undefined (the server treats it as "not given"). */
export const blankToUndefined = (v: string | null | undefined): string | undefined =>
  v && v.trim() ? v.trim() : undefined;

/** A nullable number from the server as a form value. */
export const nn = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
