// One LogOutputChannel ("Mintlify Agent & Analytics"); the user picks the level in the Output view.
// Components log through a prefix, e.g. `[poller]`. Nothing secret is ever passed here: the API
// client only reports method, path, status and duration.
import * as vscode from 'vscode';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  /** A message, or a caught value: an Error is logged with its stack, anything else as text. */
  error(message: unknown): void;
  /** Another logger whose lines start with `[component]`. */
  scoped(component: string): Logger;
}

export function createLogger(channel: vscode.LogOutputChannel, prefix = ''): Logger {
  const tag = (message: string) => (prefix ? `[${prefix}] ${message}` : message);
  return {
    trace: (m) => channel.trace(tag(m)),
    debug: (m) => channel.debug(tag(m)),
    info: (m) => channel.info(tag(m)),
    warn: (m) => channel.warn(tag(m)),
    error: (m) => channel.error(tag(m instanceof Error ? (m.stack ?? m.message) : String(m))),
    scoped: (component) => createLogger(channel, prefix ? `${prefix}:${component}` : component),
  };
}
