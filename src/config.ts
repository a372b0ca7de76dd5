// The settings hub: every `mintlifyAgent.*` setting of package.json has its typed getter here, with
// its default and bounds, and one event says what changed. Features read settings only through
// this (test/unit/config.test.ts checks that no other module reads the configuration).
import * as vscode from 'vscode';
import { checkBaseUrl, DEFAULT_BASE_URL, ENDPOINTS } from './api';
import { DEFAULT_MAX_PAGES } from './api/paging';

const SECTION = 'mintlifyAgent';

type NotifyLevel = 'all' | 'failures' | 'off';
type ExplorerMarks = 'off' | 'top' | 'all';

/**
 * Where the project ID in use is written: the user's own settings, or the workspace's (a folder's
 * `.vscode/settings.json`, a `.code-workspace` file), which come with whatever folder is opened.
 */
export interface ConfiguredProject {
  projectId: string;
  from: 'user' | 'workspace' | 'folder';
  /** The folder whose settings were read (undefined with no folder open). */
  folder: vscode.WorkspaceFolder | undefined;
}

/** globalState: "<folder or workspace file URI> <project ID>" for each workspace project the user confirmed. */
const CONFIRMED_PROJECTS_KEY = 'mintlifyAgent.confirmedProjects';
const MAX_CONFIRMED = 200;

/**
 * VS Code's own switch for its AI features (1.104+; before it, no such setting, so never on). When on,
 * nothing of ours offers the editor's AI; the Mintlify agent, a service the user chose with their own
 * key, stays. package.json's `when` clauses read it too (`config.chat.disableAIFeatures`).
 */
const EDITOR_AI_OFF = 'chat.disableAIFeatures';

/** Whether the user turned VS Code's AI features off: then nothing of ours offers the editor's AI. Readable before the settings hub is built (activate() registers the tools by it). */
export function editorAiOff(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(EDITOR_AI_OFF) === true;
}

/** Calls `listener` when the user turns VS Code's AI features off or on. */
export function onDidChangeEditorAi(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(EDITOR_AI_OFF) && listener());
}

/** What changed: `affects('readers')` or `affects('signals.rankByAiShare')`, a key under `mintlifyAgent.`. */
interface SettingsChange {
  affects(key: string): boolean;
}

const POLL_INTERVAL_FLOOR_SECONDS = 15;
const DEFAULT_PAGE_SIZE = 50;

export class Settings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SettingsChange>();
  /** Fires when any `mintlifyAgent.*` setting changes, or the project follows another folder. */
  readonly onDidChange = this.emitter.event;
  private readonly editorAiEmitter = new vscode.EventEmitter<void>();
  /** Fires when the user turns VS Code's AI features off or on (`editorAiOff`); not a `mintlifyAgent.*` setting, so not in onDidChange. */
  readonly onDidChangeEditorAi = this.editorAiEmitter.event;
  private readonly listeners = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) this.emitter.fire({ affects: (key) => e.affectsConfiguration(`${SECTION}.${key}`) });
    }),
    // In a multi-root workspace the project follows the active docs file's folder.
    vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor?.document.uri)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => this.follow(vscode.window.activeTextEditor?.document.uri)),
    onDidChangeEditorAi(() => this.editorAiEmitter.fire()),
    // A workspace project waiting for confirmation applies once the folder is trusted.
    vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire({ affects: (key) => key === 'projectId' })),
  ];
  /** The folder whose settings name the project, while several are open. */
  private docsFolder: vscode.WorkspaceFolder | undefined;

  /** `confirmations`: where the projects the user confirmed for a folder are remembered (globalState). */
  constructor(private readonly confirmations: vscode.Memento) {
    this.docsFolder = docsFolderOf(vscode.window.activeTextEditor?.document.uri);
  }

  private get config() {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /**
   * Only the user (application/machine) value counts: a cloned workspace must never be able to
   * send the key to another host, even if its settings file names one.
   */
  get apiBaseUrl(): string {
    const value = this.config.inspect<string>('apiBaseUrl')?.globalValue;
    return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_BASE_URL;
  }

  /**
   * The folder the project ID is read for: with one folder open, that folder; with several, the
   * folder of the docs file last active (Markdown, MDX or docs.json), else the first folder.
   */
  get projectFolder(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (this.docsFolder && folders.some((f) => f.uri.toString() === this.docsFolder?.uri.toString())) return this.docsFolder;
    return folders[0];
  }

  /**
   * The project the key acts on. `mintlifyAgent.projectId` is resource-scoped: read for its folder,
   * so each root can name its own. In a folder the user has not trusted, a project ID from the
   * workspace's settings (which come with the clone) is not used until the user confirms it.
   */
  get projectId(): string | undefined {
    const configured = this.configuredProject;
    return configured && !this.awaitsConfirmation(configured) ? configured.projectId : undefined;
  }

  /** The project ID this untrusted workspace's settings name and the user has not confirmed: not used yet. */
  get unconfirmedProject(): ConfiguredProject | undefined {
    const configured = this.configuredProject;
    return configured && this.awaitsConfirmation(configured) ? configured : undefined;
  }

  /** The configured project ID and where it comes from, whether or not it may be used. */
  get configuredProject(): ConfiguredProject | undefined {
    const folder = this.projectFolder;
    // null, not undefined: "no folder" said explicitly, which VS Code does not warn about.
    const values = vscode.workspace.getConfiguration(SECTION, folder?.uri ?? null).inspect<string>('projectId');
    // VS Code's precedence: the folder's value, then the workspace's, then the user's.
    const [from, value] = (
      [
        ['folder', values?.workspaceFolderValue],
        ['workspace', values?.workspaceValue],
        ['user', values?.globalValue],
      ] as const
    ).find(([, v]) => v !== undefined) ?? ['user', undefined];
    return typeof value === 'string' && value.trim() ? { projectId: value.trim(), from, folder } : undefined;
  }

  /** The user confirmed this workspace's project ID: it is used from now on, and in later sessions of this folder. */
  async confirmProject(project: ConfiguredProject): Promise<void> {
    const key = confirmationKey(project);
    const kept = this.confirmations.get<string[]>(CONFIRMED_PROJECTS_KEY, []).filter((k) => k !== key);
    await this.confirmations.update(CONFIRMED_PROJECTS_KEY, [...kept, key].slice(-MAX_CONFIRMED));
    this.emitter.fire({ affects: (k) => k === 'projectId' });
  }

  private awaitsConfirmation(project: ConfiguredProject): boolean {
    if (project.from === 'user' || vscode.workspace.isTrusted) return false;
    return !this.confirmations.get<string[]>(CONFIRMED_PROJECTS_KEY, []).includes(confirmationKey(project));
  }

  /** Written where it is read: the workspace folder in a multi-root workspace, else the workspace. */
  async setProjectId(projectId: string): Promise<void> {
    const folder = this.projectFolder;
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const target = !folder ? vscode.ConfigurationTarget.Global : multiRoot ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    await vscode.workspace.getConfiguration(SECTION, folder?.uri ?? null).update('projectId', projectId.trim(), target);
    // Typed by the user: theirs to use, in a folder they have not trusted too.
    const written = this.unconfirmedProject;
    if (written?.projectId === projectId.trim()) await this.confirmProject(written);
  }

  /** Another docs file became active: if it is in another folder with another project, say so. */
  private follow(uri: vscode.Uri | undefined): void {
    const folder = docsFolderOf(uri);
    if (!folder || folder.uri.toString() === this.docsFolder?.uri.toString()) return;
    const before = this.projectId;
    this.docsFolder = folder;
    if (this.projectId !== before) this.emitter.fire({ affects: (key) => key === 'projectId' });
  }

  get requestTimeoutMs(): number {
    return clamp(this.config.get<number>('requestTimeoutSeconds'), 1, 300, 30) * 1000;
  }

  /** A restricted setting (a machine setting too: no workspace value is ever read). */
  get pollIntervalMs(): number {
    return clamp(userValueIfUntrusted(this.config, 'jobs.pollIntervalSeconds'), POLL_INTERVAL_FLOOR_SECONDS, 3600, 60) * 1000;
  }

  get notify(): NotifyLevel {
    const value = this.config.get<string>('jobs.notify');
    return value === 'failures' || value === 'off' ? value : 'all';
  }

  /** The configured page size, or undefined (with the bad value) when it is not 1..250. */
  get analyticsPageSize(): { value: number; invalid?: unknown } {
    const raw = this.config.get<unknown>('analytics.pageSize');
    if (raw === undefined) return { value: DEFAULT_PAGE_SIZE };
    if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 250) return { value: raw };
    return { value: DEFAULT_PAGE_SIZE, invalid: raw };
  }

  /**
   * A hint of how many machines share the organisation's hour: this machine's background share is
   * divided by it (hourGate.ts). Like apiBaseUrl, only the user's (or remote machine's) value
   * counts, trusted folder or not: a cloned repository must not set every teammate's share.
   */
  get analyticsTeamSize(): number {
    return wholeInRange(this.config.inspect<number>('analytics.teamSize')?.globalValue, 1, 60, 10);
  }

  /** mintlifyAgent.readers.*: the page readers' status item, CodeLens and Explorer marks. */
  readonly readers = readersSettings(() => this.config);

  /** mintlifyAgent.signals.*: the Reader Signals inbox. */
  readonly signals = signalsSettings(() => this.config);

  /** mintlifyAgent.codeFeedback.*: readers' feedback on a code block, at the block's lines. */
  readonly codeFeedback = codeFeedbackSettings(() => this.config);

  /**
   * The path the docs site is served under (`/docs` for example.com/docs; mintlifyAgent.docs.basePath),
   * with one leading slash and none trailing; empty for a site at its domain's root or a value that is no path.
   */
  get docsBasePath(): string {
    const raw = this.config.get<unknown>('docs.basePath');
    const path = typeof raw === 'string' ? raw.trim().replace(/^\/*/, '/').replace(/\/+$/, '') : '';
    return /^(?:\/[^/?#\s]+)+$/.test(path) && !path.split('/').includes('..') ? path : '';
  }

  /** mintlifyAgent.search.*: the site's own search (its domain identifier; the key is the assistant key's slot, src/auth/assistantKey.ts). */
  readonly search = searchSettings(() => this.config);

  /**
   * The published docs site (mintlifyAgent.docsSiteUrl), whose search MCP server is offered to the
   * editor's AI: its https address without a trailing slash (http only to this machine, for tests),
   * or the value that is not one. A restricted setting: a cloned folder cannot name the server.
   * Unset, the site's own address from its domain identifier (mintlifyAgent.search.siteDomain:
   * `https://<domain>.mintlify.site`), where every Mintlify site is served.
   */
  get docsSite(): { url?: string; invalid?: string } {
    const raw = userValueIfUntrusted(this.config, 'docsSiteUrl');
    if (typeof raw !== 'string' || !raw.trim()) {
      // Only a bare identifier names a host under mintlify.site (never `x.evil.com/`).
      const domain = this.search.siteDomain;
      return domain && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(domain) ? { url: `https://${domain.toLowerCase()}.mintlify.site` } : {};
    }
    // The API address's rule (https, http only to this machine, no credentials, query or fragment).
    try {
      return { url: checkBaseUrl(raw) };
    } catch {
      return { invalid: raw.trim() };
    }
  }

  /** Whether the user turned VS Code's AI features off (chat.disableAIFeatures): then nothing of ours offers the editor's AI. */
  get editorAiOff(): boolean {
    return editorAiOff();
  }

  /** How long a fetch of an agent's branch may take (mintlifyAgent.git.fetchTimeoutSeconds, 5 to 600, default 60). */
  get gitFetchTimeoutMs(): number {
    return wholeInRange(this.config.get<number>('git.fetchTimeoutSeconds'), 5, 600, 60) * 1000;
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.emitter.dispose();
    this.editorAiEmitter.dispose();
  }
}

function readersSettings(config: () => vscode.WorkspaceConfiguration) {
  return {
    get codeLens(): boolean {
      return config().get<boolean>('readers.codeLens') === true;
    },
    get explorer(): ExplorerMarks {
      const value = config().get<string>('readers.explorer');
      return value === 'off' || value === 'all' ? value : 'top';
    },
    get explorerTop(): number {
      return wholeInRange(config().get<number>('readers.explorerTop'), 1, 99, 10);
    },
    get markUnread(): boolean {
      return config().get<boolean>('readers.markPagesWithoutReaders') === true;
    },
    /** A restricted setting: it raises what one fetch may spend. */
    get maxPages(): number {
      return wholeInRange(userValueIfUntrusted(config(), 'readers.maxPages'), 1, ENDPOINTS.getVisitors.maxPages, DEFAULT_MAX_PAGES);
    },
  };
}

function signalsSettings(config: () => vscode.WorkspaceConfiguration) {
  return {
    /** Pages read mostly by AI agents first in the inbox. */
    get rankByAiShare(): boolean {
      return config().get<boolean>('signals.rankByAiShare') === true;
    },
    /** Analytics requests an hour this window's background refresh may use (of the ledger's shared ceiling). A restricted setting. */
    get backgroundShare(): number {
      return wholeInRange(userValueIfUntrusted(config(), 'signals.backgroundShare'), 0, 60, 20);
    },
  };
}

function searchSettings(config: () => vscode.WorkspaceConfiguration) {
  return {
    /**
     * The site's domain identifier (`<domain>.mintlify.site`), or undefined. A machine setting, read
     * from the user's own settings only: a cloned workspace cannot point the assistant key at another site.
     */
    get siteDomain(): string | undefined {
      const value = config().inspect<string>('search.siteDomain')?.globalValue;
      return typeof value === 'string' && value.trim() ? value.trim() : undefined;
    },
    /** How long after a job's merge the site is taken as deployed, and its searches are searched again (mintlifyAgent.search.deployWaitMinutes, 0 to 120, default 5). */
    get deployWaitMs(): number {
      return wholeInRange(config().get<number>('search.deployWaitMinutes'), 0, 120, 5) * 60_000;
    },
    /** Written to the user's (machine) settings, where it is read; undefined clears it. */
    async setSiteDomain(domain: string | undefined): Promise<void> {
      await config().update('search.siteDomain', domain, vscode.ConfigurationTarget.Global);
    },
  };
}

function codeFeedbackSettings(config: () => vscode.WorkspaceConfiguration) {
  return {
    /** The CodeLens and hover on a flagged code block (and its Problems entries, see `problems`). On by default. */
    get enabled(): boolean {
      return config().get<boolean>('codeFeedback.enabled') !== false;
    },
    /** Its entries in the Problems panel; off keeps the CodeLens and hover. On by default. */
    get problems(): boolean {
      return config().get<boolean>('codeFeedback.problems') !== false;
    },
  };
}

/**
 * A setting that raises what the extension spends on the organisation's hour or how far it reaches
 * (package.json's restrictedConfigurations lists each one read through here): in a folder the user
 * has not trusted, only the user's own value counts, never the workspace's or a folder's, which come
 * with whatever repository was cloned. VS Code already leaves a restricted setting's workspace value
 * out in Restricted Mode; reading the user's value here keeps that so whatever the manifest lists.
 */
function userValueIfUntrusted(config: vscode.WorkspaceConfiguration, key: string): unknown {
  return vscode.workspace.isTrusted ? config.get<unknown>(key) : config.inspect<unknown>(key)?.globalValue;
}

/** The folder (or the workspace file, for a value written there) and the project ID, as remembered. */
function confirmationKey(project: ConfiguredProject): string {
  const where = project.from === 'workspace' && vscode.workspace.workspaceFile ? vscode.workspace.workspaceFile : project.folder?.uri;
  return `${where?.toString() ?? ''} ${project.projectId}`;
}

/** The workspace folder of a docs page (`.md`, `.mdx`) or docs config (`docs.json`, `mint.json`). */
function docsFolderOf(uri: vscode.Uri | undefined): vscode.WorkspaceFolder | undefined {
  if (!uri || !/\.(mdx?)$|(^|\/)(docs|mint)\.json$/i.test(uri.path)) return undefined;
  return vscode.workspace.getWorkspaceFolder(uri);
}

/** A whole-number setting kept between min and max; anything but a finite number reads as `fallback`. */
function wholeInRange(value: unknown, min: number, max: number, fallback: number): number {
  return Math.round(clamp(value, min, max, fallback));
}

function clamp(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}
