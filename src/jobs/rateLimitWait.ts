// After a 429, Retry waits out Retry-After where the user can see it: a notification that counts
// down and can be cancelled. Nothing is sent before the server said it may be.
import * as vscode from 'vscode';
import type { Ui } from '../ui';

/** Resolves true when `notBefore` (epoch ms) has passed, false when the user cancelled first. */
export async function waitOutRateLimit(ui: Ui, notBefore: number): Promise<boolean> {
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
