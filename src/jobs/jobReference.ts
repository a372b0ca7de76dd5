// "Track Job…" takes a job id or a pasted dashboard link. Pure, so it is unit-tested.
import { decodeSegment } from '../util/decodeSegment';

const JOB_QUERY_KEYS = ['jobId', 'job', 'id', 'sessionId'];
const JOB_PATH_MARKERS = new Set(['job', 'jobs', 'agent', 'agents', 'session', 'sessions']);

/** The job id in `input`, or undefined when there is none. */
export function parseJobReference(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  if (!/^https?:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  for (const key of JOB_QUERY_KEYS) {
    const value = url.searchParams.get(key)?.trim();
    if (value) return value;
  }
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSegment);
  // The segment after the last "job"/"agent"/… marker, else the last segment.
  for (let i = segments.length - 2; i >= 0; i--) {
    if (JOB_PATH_MARKERS.has(segments[i].toLowerCase())) return segments[i + 1];
  }
  return segments.at(-1);
}
