// The evidence block of a prompt or a tool's answer, found as a model is told to find it: the begin
// marker names the nonce, and the block ends only at the end marker with that nonce. No vscode.
import assert from 'node:assert/strict';
import { evidenceMarkers, type EvidenceMarkers } from '../../src/prompt/quotedEvidence';

export interface FoundBlock {
  markers: EvidenceMarkers;
  /** The text before the begin marker's line (the note included). */
  before: string;
  /** The lines between the markers. */
  lines: string[];
  /** The text after the end marker's line ('' when the block ends the text). */
  after: string;
}

const BEGIN = /^<<<READER-EVIDENCE ([0-9a-f]{16,})>>>$/gm;

/** The one evidence block of `text`; fails the test when there is not exactly one begin marker, or no end marker with its nonce. */
export function evidenceBlock(text: string): FoundBlock {
  const begins = [...text.matchAll(BEGIN)];
  assert.equal(begins.length, 1, `one begin marker line in: ${text.slice(0, 300)}`);
  const markers = evidenceMarkers(begins[0][1]);
  const start = begins[0].index ?? 0;
  const bodyStart = start + markers.begin.length + 1;
  const endLine = text.indexOf(`\n${markers.end}`, start);
  assert.ok(endLine >= 0, 'the block has its end marker');
  const afterEnd = endLine + 1 + markers.end.length;
  assert.ok(afterEnd === text.length || text[afterEnd] === '\n', 'the end marker is a line of its own');
  return { markers, before: text.slice(0, start), lines: text.slice(bodyStart, endLine).split('\n'), after: text.slice(afterEnd + 1) };
}

/** `text` with its evidence block's nonce written as `<nonce>`: two builds of the same evidence compare equal. */
export function withoutNonce(text: string): string {
  const nonce = /^<<<READER-EVIDENCE ([0-9a-f]{16,})>>>$/m.exec(text)?.[1];
  return nonce ? text.split(nonce).join('<nonce>') : text;
}

/** The reader text of a list item of the block (`- "…" (…)`), read back from its JSON string; undefined for any other line. */
export function quotedItem(line: string): string | undefined {
  const quoted = /^- ("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
  return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
}
