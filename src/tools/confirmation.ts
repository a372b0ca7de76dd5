// "A confirmation is a contract": what an acting tool's dialog shows the writer (the project, the
// job, the prompt, the cost) is kept when VS Code prepares the call, and is exactly what its invoke
// sends; if any of it reads differently when the writer has said yes, nothing is sent.
//
// Pairing prepareInvocation with its invoke: VS Code calls the two for one tool call, but each gets
// its own copy of the input (it crosses the extension host's RPC twice), and VS Code 1.100 gives no
// call id to either, so neither object identity nor an id can pair them. The key is a hash of the
// tool's name and its input (as canonical JSON): the same call always finds its own capture, another
// tool or any other input never does. A capture is consumed by the invoke that takes it, so one yes
// sends once. A dialog the writer cancelled leaves its capture behind (VS Code says nothing to the
// tool); a newer dialog for the same input is the one answered, so take() returns the newest, and
// at most MAX_CAPTURES are kept in all (the oldest dropped). An invoke with no capture (nothing was
// shown for it) sends nothing. Pure: no vscode; test/unit/tools/confirmation.test.ts.
import { createHash } from 'node:crypto';

/** What the dialog showed, field by field (what will be sent, and what it costs). */
export type Terms = Readonly<Record<string, string | number | boolean | undefined>>;

/** Why nothing can be sent (no key, no project, an empty prompt): said in the dialog, and again by invoke. */
export class Blocked {
  constructor(readonly reason: string) {}
}

/** What invoke may do with the call it was given. */
type Verdict<T extends Terms> =
  /** Send exactly these terms: the ones the writer confirmed, still true. */
  | { kind: 'send'; terms: T }
  /** No dialog was shown for this call. */
  | { kind: 'notConfirmed' }
  /** The dialog said nothing could be sent, or nothing can be now. */
  | { kind: 'blocked'; reason: string }
  /** These fields read differently now than in the dialog. */
  | { kind: 'changed'; fields: (keyof T & string)[]; shown: T; now: T };

export const MAX_CAPTURES = 32;

interface Capture {
  key: string;
  terms: Terms | Blocked;
}

/** The captures of one set of tools (the acting tools share one). */
export class Confirmations {
  private readonly captures: Capture[] = [];

  /** prepareInvocation: keeps what this call's dialog shows. */
  shown<T extends Terms>(tool: string, input: unknown, terms: T | Blocked): void {
    this.captures.push({ key: callKey(tool, input), terms });
    if (this.captures.length > MAX_CAPTURES) this.captures.splice(0, this.captures.length - MAX_CAPTURES);
  }

  /**
   * invoke: compares what the newest dialog of this exact call showed with `now` (the same terms
   * read again; only the `bound` fields, when given: a cost the hour may have changed since is held
   * by the gate instead), consuming that capture: send only on a verdict of 'send', and then those terms.
   */
  verdict<T extends Terms>(tool: string, input: unknown, now: T | Blocked, bound?: readonly (keyof T & string)[]): Verdict<T> {
    const key = callKey(tool, input);
    const at = this.captures.map((c) => c.key).lastIndexOf(key);
    if (at < 0) return { kind: 'notConfirmed' };
    const [{ terms: shown }] = this.captures.splice(at, 1);
    if (shown instanceof Blocked) return { kind: 'blocked', reason: shown.reason };
    if (now instanceof Blocked) return { kind: 'blocked', reason: now.reason };
    const fields = changedFields(shown as T, now).filter((field) => !bound || bound.includes(field));
    return fields.length ? { kind: 'changed', fields, shown: shown as T, now } : { kind: 'send', terms: shown as T };
  }

  /** Captures kept (the tests). */
  get size(): number {
    return this.captures.length;
  }
}

/** The fields of either side whose values differ. */
function changedFields<T extends Terms>(shown: T, now: T): (keyof T & string)[] {
  const names = [...new Set([...Object.keys(shown), ...Object.keys(now)])];
  return names.filter((name) => shown[name] !== now[name]);
}

/** A hash of the tool and its input, whatever the order of the input's keys. */
export function callKey(tool: string, input: unknown): string {
  return createHash('sha256').update(tool).update('\n').update(canonicalJson(input)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
