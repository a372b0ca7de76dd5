/**
 * The API calls each window's extension host logged. Every page of the workbench gets its own
 * remote extension host, and the server gives each its own log folder (`exthost1`, `exthost2`, …
 * in the order pages loaded); the extension logs every call it sends there (method, path, outcome,
 * never a header). That tells which window sent a request, which the simulator cannot see: the
 * windows share one key, one user agent and one address.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface LoggedCall {
  /** The extension host's number: the n-th page load of this server. */
  host: number;
  /** When the call ended, by the server's clock (ms since the epoch). */
  at: number;
  method: string;
  path: string;
  /** The outcome as logged: `200`, `404`, or the message of a call that failed. */
  outcome: string;
}

const LOG_NAME = 'Mintlify Agent & Analytics.log';
// 2026-11-23 12:51:03.195 [info] [api] GET /v2/agent/demo-project/job/job_x → 200 (13 ms)
const LINE = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] \[api\] (GET|POST|PUT|DELETE) (\S+) → (.*) \(\d+ ms\)$/;

/** Every API call logged by every extension host of the server whose --user-data-dir is `userDataDir`. */
export function loggedCalls(userDataDir: string): LoggedCall[] {
  const logs = path.join(userDataDir, 'logs');
  const calls: LoggedCall[] = [];
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
    for (const dir of fs.readdirSync(path.join(logs, session))) {
      const host = /^exthost(\d+)$/.exec(dir)?.[1];
      if (!host) continue;
      const extension = fs.readdirSync(path.join(logs, session, dir)).find((name) => name.startsWith('mintlify-agent-analytics.'));
      const file = extension && path.join(logs, session, dir, extension, LOG_NAME);
      if (!file || !fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const match = LINE.exec(line.trim());
        // The server logs in its local time, as this process reads it.
        if (match) calls.push({ host: Number(host), at: new Date(`${match[1]}T${match[2]}`).getTime(), method: match[3], path: match[4], outcome: match[5] });
      }
    }
  }
  return calls.sort((x, y) => x.at - y.at);
}

/** How many extension hosts of the server whose --user-data-dir is `userDataDir` have logged the extension's activation. */
export function activationsLogged(userDataDir: string): number {
  const logs = path.join(userDataDir, 'logs');
  let count = 0;
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
    for (const dir of fs.readdirSync(path.join(logs, session)).filter((name) => /^exthost\d+$/.test(name))) {
      const extension = fs.readdirSync(path.join(logs, session, dir)).find((name) => name.startsWith('mintlify-agent-analytics.'));
      const file = extension && path.join(logs, session, dir, extension, LOG_NAME);
      if (file && fs.existsSync(file) && /\[info\] activated /.test(fs.readFileSync(file, 'utf8'))) count++;
    }
  }
  return count;
}
