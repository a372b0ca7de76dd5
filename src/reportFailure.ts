// The one way a failure reaches the writer: reportFailure() words it as the table in
// errorMessages.ts says, logs it in one format, and shows only the buttons that can be honoured: the
// ones that open a command (Set API Key, Set Project ID, Track Job, Open Git Settings, Manage
// Workspace Trust, Set Assistant Key, Set Site Domain, Show Log) run it here; the others (Retry, Send
// Again, Open Job, Stop Tracking, Open Pull Request, Tell Me When It Finishes) are offered only when
// the caller hands their handler. A Retry after a 429 waits out Retry-After first, where the writer
// can see it. showNotice() is the same for a message that is no failure but has a button.
import * as vscode from 'vscode';
import { ApiError } from './api';
import { type FailureContext, failureView, type FailureView } from './errorMessages';
import { actionLabel, type FailureAction } from './failureActions';
import type { Logger } from './log';
import type { MessageLevel, Ui } from './ui';
import { COMMANDS, type CommandId } from './commands';
import { background } from './util/background';
import { errorText } from './util/errorText';

/** The buttons that open a command: ours, and VS Code's own (with their argument). */
type CommandAction = 'setApiKey' | 'setProjectId' | 'trackJob' | 'gitSettings' | 'manageTrust' | 'setAssistantKey' | 'setSiteDomain' | 'showLog';
const ACTION_COMMANDS: Record<CommandAction, [command: CommandId | 'workbench.action.openSettings' | 'workbench.trust.manage', ...args: string[]]> = {
  setApiKey: [COMMANDS.setApiKey],
  setProjectId: [COMMANDS.setProjectId],
  trackJob: [COMMANDS.trackJob],
  gitSettings: ['workbench.action.openSettings', 'git.enabled'],
  manageTrust: ['workbench.trust.manage'],
  setAssistantKey: [COMMANDS.setAssistantKey],
  setSiteDomain: [COMMANDS.setSiteDomain],
  showLog: [COMMANDS.showLog],
};

/** The buttons only the caller can honour, each offered only when its handler is given. */
type CallerAction = Exclude<FailureAction, CommandAction>;

export interface FailurePorts {
  ui: Ui;
  log: Pick<Logger, 'warn' | 'error'>;
}

interface FailureReport {
  /** What failed, as the failure table names it: its words and buttons. */
  context: FailureContext;
  /** What was being done, for the log (the context when omitted). */
  doing?: string;
  /** The message shown, from the table's: an action adds what it knows (how far an export got). */
  message?: (view: FailureView) => string;
  /** The failure is about a job this window tracks (the table words it so). */
  tracked?: boolean;
  /** The handlers of the buttons only the caller can honour; each button shows only with its handler. */
  on?: Partial<Record<CallerAction, () => unknown>>;
}

/**
 * Tells the writer what failed and runs the button they pick: resolves with what a caller's handler
 * returned (a Retry's outcome), else undefined. A failure the table says nothing about (a cancel) shows nothing.
 */
export async function reportFailure(ports: FailurePorts, error: unknown, report: FailureReport): Promise<unknown> {
  // Taken now, so a 429's wait counts from the answer, not from the click.
  const notBefore = error instanceof ApiError && error.kind === 'rateLimited' ? Date.now() + (error.retryAfterMs ?? 0) : 0;
  const view = failureView(error, report.context, vscode.l10n, { tracked: report.tracked === true });
  if (view.severity === 'none') return undefined;
  const line = `${report.doing ?? report.context}: ${errorText(error)}`;
  if (view.severity === 'error') ports.log.error(line);
  else ports.log.warn(line);
  const on = report.on ?? {};
  const actions = view.actions.filter((action) => action in ACTION_COMMANDS || on[action as CallerAction]);
  const choice = await show(ports.ui, view.severity, report.message?.(view) ?? view.message, actions);
  const handler = choice && on[choice as CallerAction];
  if (!handler) return undefined;
  if (choice === 'retry' && !(await waitOutRateLimit(ports.ui, notBefore))) return undefined;
  return handler();
}

/** A message with buttons that is no failure: a table's button (Show Log, Set Project ID…) or one of the caller's. */
type NoticeAction = FailureAction | { label: string; run: () => unknown };

/** Shows a message whose buttons run when picked; nobody awaits the answer (a failing button is logged). */
export function showNotice(ports: FailurePorts, level: MessageLevel, message: string, ...actions: NoticeAction[]): void {
  const custom = actions.filter((action): action is { label: string; run: () => unknown } => typeof action === 'object');
  const table = actions.filter((action): action is FailureAction => typeof action === 'string');
  const shown = show(ports.ui, level, message, table, custom).then((choice) => (typeof choice === 'object' ? choice.run() : undefined));
  background(shown, ports.log, 'a notice’s button');
}

async function show(
  ui: Ui,
  level: MessageLevel,
  message: string,
  actions: readonly FailureAction[],
  custom: readonly { label: string; run: () => unknown }[] = [],
): Promise<FailureAction | { label: string; run: () => unknown } | undefined> {
  const labels = [...actions.map((action) => actionLabel(action, vscode.l10n)), ...custom.map((action) => action.label)];
  const label = await ui.showMessage(level, message, ...labels);
  const index = label === undefined ? -1 : labels.indexOf(label);
  if (index < 0) return undefined;
  if (index >= actions.length) return custom[index - actions.length];
  const choice = actions[index];
  const command = choice in ACTION_COMMANDS ? ACTION_COMMANDS[choice as CommandAction] : undefined;
  if (command) await vscode.commands.executeCommand(...command);
  return choice;
}

/** After a 429: a countdown the writer can cancel; resolves true once `notBefore` (epoch ms) has passed. Nothing is sent before. */
async function waitOutRateLimit(ui: Ui, notBefore: number): Promise<boolean> {
  if (Date.now() >= notBefore) return true;
  return ui.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Rate limit reached'), cancellable: true },
    (progress, token) =>
      new Promise<boolean>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const tick = () => {
          const left = notBefore - Date.now();
          if (left <= 0) return resolve(true);
          progress.report({ message: vscode.l10n.t('Sending in {0} s…', Math.ceil(left / 1000)) });
          // Wake on the next whole second of the countdown, or at the end.
          timer = setTimeout(tick, Math.min(left, ((left - 1) % 1000) + 1));
        };
        token.onCancellationRequested(() => {
          clearTimeout(timer);
          resolve(false);
        });
        tick();
      }),
  );
}
