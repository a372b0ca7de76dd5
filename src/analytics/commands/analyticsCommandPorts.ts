// What the analytics commands take (`AnalyticsCommandPorts`): this window's one panel and the
// exporter the panel shares with them, and the guard every command is registered with. Each command
// is a file of its own beside this one; registerAnalytics.ts only wires them.
import type { Settings } from '../../config';
import type { FailureContext } from '../../errorMessages';
import type { Logger } from '../../log';
import { reportFailure } from '../../reportFailure';
import type { Ui } from '../../ui';
import { background } from '../../util/background';
import type { AnalyticsPanel } from '../analyticsPanel';
import type { VisitorsExporter } from '../export';

export interface AnalyticsCommandPorts {
  settings: Settings;
  ui: Ui;
  log: Logger;
  exporter: Pick<VisitorsExporter, 'run'>;
  /** The panel of this window, if one is open. */
  panel: () => AnalyticsPanel | undefined;
  /** Opens this window's panel, when none is open. */
  createPanel: () => AnalyticsPanel;
}

/** No rejected promise escapes a command: the user gets a short message (Retry runs the command again), the log the details. */
export function guard<R>(
  { ui, log }: AnalyticsCommandPorts,
  what: FailureContext,
  run: (...args: unknown[]) => R | Promise<R>,
): (...args: unknown[]) => Promise<R | undefined> {
  const guarded = async (...args: unknown[]): Promise<R | undefined> => {
    try {
      return await run(...args);
    } catch (error) {
      background(reportFailure({ ui, log }, error, { context: what, on: { retry: () => guarded(...args) } }), log, 'the failure message');
      return undefined;
    }
  };
  return guarded;
}
