// The `vscode` module of the team figure's own process (bench/teamRun.ts, bundled by bench/build.mjs
// with `vscode` aliased to this file): just what the extension's modules the figure builds on
// reach for at run time, for ten machines in one plain node process. Events fire as VS Code's do;
// files are node's (every `file:` URI lives in a machine's own temporary folder); the settings are
// the defaults of package.json except the API address and the project, the same for every
// machine; every window is focused (a working writer's). No dialog: the figure's Ui answers those.
import { promises as fs } from 'node:fs';
import { posix } from 'node:path';
import { l10n as benchL10n } from '../test/support/l10n';

export class Disposable {
  constructor(private readonly callOnDispose: () => void) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callOnDispose();
  }
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  readonly event: Event<T> = (listener, thisArgs) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    this.listeners.add(bound);
    return new Disposable(() => this.listeners.delete(bound));
  };
  fire(data: T): void {
    for (const listener of [...this.listeners]) listener(data);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** An event that never fires. */
const never: Event<never> = () => new Disposable(() => undefined);

/** `file:` URIs only: the figure's files are all on this machine's disk. */
export class Uri {
  readonly scheme = 'file';
  private constructor(readonly path: string) {}
  static file(path: string): Uri {
    return new Uri(posix.normalize(path));
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(posix.join(base.path, ...segments));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `file://${this.path}`;
  }
}

export class RelativePattern {
  constructor(
    readonly base: Uri | string,
    readonly pattern: string,
  ) {}
}

export class FileSystemError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** node's errors as VS Code's file system says them: a missing file is FileNotFound. */
async function asVscode<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileSystemError(String(error), 'FileNotFound');
    throw error;
  }
}

export enum FileType {
  File = 1,
  Directory = 2,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

/** The defaults of package.json, but for these user values (set once by the figure). */
const userValues = new Map<string, unknown>();

export function setUserSetting(key: string, value: unknown): void {
  userValues.set(key, value);
}

export const workspace = {
  isTrusted: true,
  workspaceFolders: undefined as undefined | { uri: Uri; name: string; index: number }[],
  workspaceFile: undefined,
  getWorkspaceFolder: () => undefined,
  getConfiguration: (section?: string) => {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: <T>(key: string, fallback?: T) => (userValues.has(full(key)) ? (userValues.get(full(key)) as T) : fallback),
      inspect: <T>(key: string) => ({ key: full(key), globalValue: userValues.get(full(key)) as T | undefined }),
      has: (key: string) => userValues.has(full(key)),
    };
  },
  onDidChangeConfiguration: never,
  onDidChangeWorkspaceFolders: never,
  onDidGrantWorkspaceTrust: never,
  createFileSystemWatcher: () => ({ onDidChange: never, onDidCreate: never, onDidDelete: never, dispose: () => undefined }),
  fs: {
    readFile: (uri: Uri) => asVscode(fs.readFile(uri.fsPath).then((b) => new Uint8Array(b))),
    writeFile: (uri: Uri, data: Uint8Array) => asVscode(fs.writeFile(uri.fsPath, data)),
    createDirectory: (uri: Uri) => asVscode(fs.mkdir(uri.fsPath, { recursive: true }).then(() => undefined)),
    delete: (uri: Uri) => asVscode(fs.rm(uri.fsPath, { recursive: true })),
    rename: (from: Uri, to: Uri) => asVscode(fs.rename(from.fsPath, to.fsPath)),
    readDirectory: async (uri: Uri) =>
      (await asVscode(fs.readdir(uri.fsPath, { withFileTypes: true }))).map((d) => [d.name, d.isDirectory() ? FileType.Directory : FileType.File] as const),
  },
};

export const window = {
  state: { focused: true, active: true },
  activeTextEditor: undefined,
  onDidChangeWindowState: never,
  onDidChangeActiveTextEditor: never,
};

export const env = { language: 'en' };

export const l10n = benchL10n;

export const commands = {
  executeCommand: () => Promise.resolve(undefined),
};

export const version = 'bench';
