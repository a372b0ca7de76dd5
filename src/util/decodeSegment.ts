// One segment of a URL's path, percent-decoded, for the job links people paste and the page URLs the
// API sends. No vscode import.

/** A segment with a broken escape (a lone `%`, `%E0`) is kept as it is: `%` is a character like any other. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
