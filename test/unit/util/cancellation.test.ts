// toAbortSignal() (src/util/cancellation.ts): a notification's Cancel or a chat's stop reaches the
// fetch or git it started, including a token cancelled before the work began.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { toAbortSignal } from '../../../src/util/cancellation';

/** A CancellationToken as VS Code's CancellationTokenSource hands out, with its listener count visible. */
function tokenSource(): { token: vscode.CancellationToken; cancel(): void; listeners(): number } {
  const listeners = new Set<() => void>();
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => void) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  } as unknown as vscode.CancellationToken & { isCancellationRequested: boolean };
  return {
    token,
    cancel: () => {
      (token as { isCancellationRequested: boolean }).isCancellationRequested = true;
      for (const listener of listeners) listener();
    },
    listeners: () => listeners.size,
  };
}

describe('cancellation', () => {
  it('aborts when any token is cancelled, and not before', () => {
    const cancel = tokenSource();
    const chat = tokenSource();
    const bridge = toAbortSignal(cancel.token, undefined, chat.token);
    assert.equal(bridge.signal.aborted, false);
    chat.cancel();
    assert.equal(bridge.signal.aborted, true);
  });

  it('is aborted at once for a token already cancelled (a Cancel clicked before the work began)', () => {
    const cancel = tokenSource();
    cancel.cancel();
    assert.equal(toAbortSignal(cancel.token).signal.aborted, true);
  });

  it('lets go of the tokens once disposed', () => {
    const cancel = tokenSource();
    const bridge = toAbortSignal(cancel.token);
    assert.equal(cancel.listeners(), 1);
    bridge.dispose();
    assert.equal(cancel.listeners(), 0);
  });
});
