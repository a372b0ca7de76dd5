// Small, explicit statistics: every percentile in the report is the nearest-rank one.

/** Nearest-rank percentile (p in 0..100) of the values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** "12.3 ms (10.1–15.0, n=5)" */
export function formatSpread(s: Spread, unit: string, digits = 1): string {
  return `${s.median.toFixed(digits)} ${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)}, n=${s.n})`;
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function ratio(a: number, b: number): string {
  return b === 0 ? '∞' : `${(a / b).toFixed(2)}×`;
}
