// One LogOutputChannel ("Mintlify Agent & Analytics"); the user picks the level in the Output view.
// Components log through a prefix, e.g. `[poller]`. Nothing secret is ever passed here: the API
// client only reports method, path, status and duration.
import * as vscode from 'vscode';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
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
    error: (m) => channel.error(typeof m === 'string' ? tag(m) : tag(m.stack ?? m.message)),
    scoped: (component) => createLogger(channel, prefix ? `${prefix}:${component}` : component),
  };
}
