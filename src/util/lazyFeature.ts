// The extension's one deferral: activate() registers every command at once (VS Code may run one
// right after activation, for a command that activated us) and the objects are built on first use
// (the turn after activate(), or that command), so the first call builds the feature before it runs. Building is synchronous,
// so a command never sees a half-built feature. No vscode here: activate() hands in VS Code's
// registrar, so this is unit-tested in plain node.

export type CommandHandler = (...args: never[]) => unknown;
/** What a feature's build uses in place of vscode.commands.registerCommand (`Id`: the ids it may take). */
type CommandRegistrar<Id extends string = string> = (id: Id, handler: CommandHandler) => void;

export interface LazyFeature<T> {
  /** The feature, built now if it was not yet. */
  get(): T;
}

/**
 * `register` takes the feature's command dispatchers: VS Code's (see activate()) for a feature
 * of activate(), or the registrar of the lazy feature it is part of.
 */
export function lazyFeature<T, Id extends string = string>(
  register: CommandRegistrar<Id>,
  commandIds: readonly NoInfer<Id>[],
  build: (command: CommandRegistrar<Id>) => T,
): LazyFeature<T> {
  const handlers = new Map<Id, (...args: unknown[]) => unknown>();
  let feature: { value: T } | undefined;
  // A build that threw is not tried again (it would build its parts twice): every later use says why.
  let failed: { error: unknown } | undefined;
  const get = (): T => {
    if (feature) return feature.value;
    if (failed) throw failed.error;
    let value: T;
    try {
      value = build((id, handler) => {
        if (!commandIds.includes(id)) throw new Error(`${id} is not among the commands this feature declared`);
        handlers.set(id, handler as (...args: unknown[]) => unknown);
      });
      // Said at the build, not when a user first runs the command that has nothing behind it.
      const unhandled = commandIds.filter((id) => !handlers.has(id));
      if (unhandled.length) throw new Error(`${unhandled.join(', ')}: declared, but the feature registered no handler`);
    } catch (error) {
      failed = { error };
      throw error;
    }
    feature = { value };
    return value;
  };
  for (const id of commandIds) {
    register(id, (...args: unknown[]) => {
      get();
      const handler = handlers.get(id);
      if (!handler) throw new Error(`${id} was declared but the feature registered no handler for it`);
      return handler(...args);
    });
  }
  return { get };
}
