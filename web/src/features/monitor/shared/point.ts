/** A time series point: epoch ms and value. */
export type Point = [number, number];
