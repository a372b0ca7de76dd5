// Long-lived objects own their listeners and timers and let go of all of them in dispose().
import type * as vscode from 'vscode';
import { timerDelay } from './clock';

export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}

/** A `setTimeout` that is a disposable, so it cannot outlive its owner. */
export function timeout(ms: number, callback: () => void): vscode.Disposable {
  const handle = setTimeout(callback, timerDelay(ms));
  return { dispose: () => clearTimeout(handle) };
}
