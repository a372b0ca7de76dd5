// An event and its emitter without vscode, so what lives below the window's glue (the shared
// state's parts, src/sync/) can be built in the unit tests. Its event has the shape of vscode.Event:
// a listener added returns what removes it. A listener that throws does not stop the others; its
// error goes to `onListenerError`, as VS Code's own emitter reports it rather than throwing at the
// code that fired.

export type Listen<T> = (listener: (value: T) => unknown) => { dispose(): void };

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => unknown>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  readonly event: Listen<T> = (listener) => {
    // A wrapper of its own, so the same function added twice is two listeners, each removed by its own dispose.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
