// Every dialog, notification and progress the extension shows goes through here. The default
// is VS Code's own window; the integration tests swap in a scripted one (a seam we own) so they
// can answer prompts and read exactly what a user would have been told.
import * as vscode from 'vscode';
import { toAbortSignal } from './util/cancellation';
import { plainText } from './util/plainText';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface Ui {
  // Function-typed properties, not methods: a test swaps one out and puts it back unbound.
  showMessage: (level: MessageLevel, message: string, ...actions: string[]) => Thenable<string | undefined>;
  showInputBox: (options: vscode.InputBoxOptions) => Thenable<string | undefined>;
  showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions) => Thenable<T | undefined>;
  showSaveDialog: (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;
  withProgress: <R>(
    options: vscode.ProgressOptions,
    task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
  ) => Thenable<R>;
  openExternal: (uri: vscode.Uri) => Thenable<boolean>;
  writeClipboard: (text: string) => Thenable<void>;
}

export const vscodeUi: Ui = {
  showMessage(level, raw, ...actions) {
    const message = plainText(raw);
    if (level === 'error') return vscode.window.showErrorMessage(message, ...actions);
    if (level === 'warning') return vscode.window.showWarningMessage(message, ...actions);
    return vscode.window.showInformationMessage(message, ...actions);
  },
  showInputBox: (options) => vscode.window.showInputBox(options),
  showQuickPick: (items, options) => vscode.window.showQuickPick(items, options),
  showSaveDialog: (options) => vscode.window.showSaveDialog(options),
  // A progress title can quote a job's label or branch: links are broken there too.
  withProgress: (options, task) => vscode.window.withProgress(options.title ? { ...options, title: plainText(options.title) } : options, task),
  openExternal: (uri) => vscode.env.openExternal(uri),
  writeClipboard: (text) => vscode.env.clipboard.writeText(text),
};

/** A fresh object per activation: a test may replace its methods and put them back. */
export function createUi(): Ui {
  return { ...vscodeUi };
}

type ProgressReport = vscode.Progress<{ message?: string; increment?: number }>;

/**
 * A notification with Cancel, its task given a signal that Cancel aborts (and `also`, a caller's own
 * token: a chat's stop for a tool's send). The one way a cancellable action shows its progress.
 */
export function withCancellableProgress<R>(
  ui: Ui,
  title: string,
  task: (signal: AbortSignal, progress: ProgressReport) => Promise<R>,
  also?: vscode.CancellationToken,
): Thenable<R> {
  return ui.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const cancel = toAbortSignal(token, also);
    try {
      return await task(cancel.signal, progress);
    } finally {
      cancel.dispose();
    }
  });
}
