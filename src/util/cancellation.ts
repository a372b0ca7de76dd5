// VS Code's cancellation as the web platform's: the one bridge from a CancellationToken (a
// notification's Cancel, a chat's stop) to the AbortSignal that fetch, git and our loops take.
import type * as vscode from 'vscode';

/** A signal aborted once any of `tokens` is cancelled (at once if one already is); dispose it when the work ends. */
export function toAbortSignal(...tokens: (vscode.CancellationToken | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const subscriptions = tokens.flatMap((token) => (token ? [token.onCancellationRequested(() => controller.abort())] : []));
  if (tokens.some((token) => token?.isCancellationRequested)) controller.abort();
  return {
    signal: controller.signal,
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
