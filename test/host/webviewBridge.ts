/**
 * Lets host-tier tests (mocha inside the extension host) act on a webview as a person does. The
 * extension host cannot reach the browser that shows the workbench; this launcher holds it (a
 * Playwright page). So the launcher serves a few page operations over HTTP on 127.0.0.1, on a free
 * port it passes to the extension host in MINTLIFY_WEBVIEW_BRIDGE; the tests call them through
 * test/integration/webview.ts.
 *
 * Protocol: `POST /` with one JSON operation; the answer is `{ ok: true, value }` or
 * `{ ok: false, error }`. Every operation acts inside the one webview panel's document
 * (`iframe.webview` → `#active-frame`), on the first element that matches a CSS selector, and
 * every wait is bounded (Playwright's own waits, at most `timeoutMs`).
 *   click   { selector }                     a real mouse click (the element must be enabled)
 *   fill    { selector, value }              types into an input (replaces its value)
 *   select  { selector, value }              picks an <option> of a <select> by value
 *   read    { selector }                     { text, visible, disabled } once it is attached
 *   count   { selector }                     how many elements match now
 *   texts   { selector }                     the text of every element that matches now
 *   expect  { selector, pattern, timeoutMs } waits until its text matches the RegExp source
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Page } from 'playwright-core';

export const BRIDGE_ENV = 'MINTLIFY_WEBVIEW_BRIDGE';

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_BODY = 64 * 1024;

export type BridgeOperation =
  | { op: 'click'; selector: string }
  | { op: 'fill'; selector: string; value: string }
  | { op: 'select'; selector: string; value: string }
  | { op: 'read'; selector: string }
  | { op: 'count'; selector: string }
  | { op: 'texts'; selector: string }
  | { op: 'expect'; selector: string; pattern: string; timeoutMs?: number };

export interface ElementRead {
  text: string;
  visible: boolean;
  disabled: boolean;
}

export interface WebviewBridge {
  port: number;
  /** Operations wait for the page until it is given (the tests may start before startHost returns). */
  setPage(page: Page): void;
  close(): Promise<void>;
}

export async function startWebviewBridge(): Promise<WebviewBridge> {
  let givePage: (page: Page) => void = () => undefined;
  const page = new Promise<Page>((resolve) => (givePage = resolve));
  const server = http.createServer((request, response) => {
    void answer(request, page).then((body) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    setPage: givePage,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // an operation still waiting for a page that never came
      }),
  };
}

async function answer(request: http.IncomingMessage, page: Promise<Page>): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  try {
    const operation = JSON.parse(await readBody(request)) as BridgeOperation;
    return { ok: true, value: await run(webview(await page), operation) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('#active-frame');
}

async function run(frame: FrameLocator, operation: BridgeOperation): Promise<unknown> {
  const timeout = DEFAULT_TIMEOUT_MS;
  const element = frame.locator(operation.selector).first();
  switch (operation.op) {
    case 'click':
      return element.click({ timeout });
    case 'fill':
      return element.fill(operation.value, { timeout });
    case 'select':
      return element.selectOption(operation.value, { timeout });
    case 'read': {
      await element.waitFor({ state: 'attached', timeout });
      return element.evaluate((node): ElementRead => ({
        text: node.textContent ?? '',
        visible: !(node as HTMLElement).hidden && (node as HTMLElement).offsetParent !== null,
        disabled: (node as HTMLButtonElement).disabled === true,
      }));
    }
    case 'count':
      return frame.locator(operation.selector).count();
    case 'texts':
      return frame.locator(operation.selector).allTextContents();
    case 'expect': {
      const pattern = new RegExp(operation.pattern);
      const wait = operation.timeoutMs ?? timeout;
      try {
        await element.filter({ hasText: pattern }).waitFor({ state: 'attached', timeout: wait });
      } catch {
        const seen = await element.textContent({ timeout: 1_000 }).catch(() => null);
        throw new Error(`${operation.selector}: expected text matching ${String(pattern)}, saw ${JSON.stringify(seen)} after ${wait / 1000} s`);
      }
      return element.textContent({ timeout });
    }
    default:
      throw new Error(`unknown operation ${JSON.stringify((operation as { op?: unknown }).op)}`);
  }
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) request.destroy(new Error('operation too large'));
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}
