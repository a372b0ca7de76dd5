// Typed settings with their defaults and sane bounds, and one event for every change that matters.
import * as vscode from 'vscode';
import { DEFAULT_BASE_URL } from './api';

const SECTION = 'mintlifyAgent';

export type NotifyLevel = 'all' | 'failures' | 'off';

export const POLL_INTERVAL_FLOOR_SECONDS = 15;
export const DEFAULT_PAGE_SIZE = 50;

export class Settings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when any `mintlifyAgent.*` setting changes. */
  readonly onDidChange = this.emitter.event;
  private readonly listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) this.emitter.fire();
  });

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

  get projectId(): string | undefined {
    const value = this.config.get<string>('projectId');
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  }

  async setProjectId(projectId: string): Promise<void> {
    const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await this.config.update('projectId', projectId.trim(), target);
  }

  get requestTimeoutMs(): number {
    return clamp(this.config.get<number>('requestTimeoutSeconds'), 1, 300, 30) * 1000;
  }

  get pollIntervalMs(): number {
    return clamp(this.config.get<number>('jobs.pollIntervalSeconds'), POLL_INTERVAL_FLOOR_SECONDS, 3600, 60) * 1000;
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

  dispose(): void {
    this.listener.dispose();
    this.emitter.dispose();
  }
}

function clamp(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}
