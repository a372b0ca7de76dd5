// The analytics webview as a person uses it, from a host-tier test: clicks, typing and reading in
// its real document in the workbench's browser, through the launcher's bridge
// (test/host/webviewBridge.ts). What these return is what is on screen.
import assert from 'node:assert/strict';
import { BRIDGE_ENV, type BridgeOperation, type ElementRead } from '../host/webviewBridge';

async function call<T>(operation: BridgeOperation): Promise<T> {
  const port = process.env[BRIDGE_ENV];
  assert.ok(port, `${BRIDGE_ENV} is not set: these tests need the code-server launcher (node out/test/run.js host)`);
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    body: JSON.stringify(operation),
    // Longer than any wait of the bridge itself, so the bridge's message (what it saw) wins.
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json()) as { ok: true; value: T } | { ok: false; error: string };
  if (!body.ok) throw new Error(`webview ${operation.op} ${operation.selector}: ${body.error}`);
  return body.value;
}

export const webview = {
  click: (selector: string) => call<void>({ op: 'click', selector }),
  fill: (selector: string, value: string) => call<void>({ op: 'fill', selector, value }),
  select: (selector: string, value: string) => call<void>({ op: 'select', selector, value }),
  read: (selector: string) => call<ElementRead>({ op: 'read', selector }),
  text: async (selector: string) => (await call<ElementRead>({ op: 'read', selector })).text.trim(),
  count: (selector: string) => call<number>({ op: 'count', selector }),
  /** Waits (bounded) until the element's text matches; returns the text. */
  expect: (selector: string, pattern: RegExp, timeoutMs?: number) => call<string>({ op: 'expect', selector, pattern: pattern.source, timeoutMs }),
  texts: (selector: string) => call<string[]>({ op: 'texts', selector }),
  /** The paths of the table's rows, in the order shown. */
  paths: () => call<string[]>({ op: 'texts', selector: '#rows button.path' }),
};
