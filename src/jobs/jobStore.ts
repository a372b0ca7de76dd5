// The tracked jobs of the current project: what the server last said about each, and what only
// we know (the prompts we sent, an unsent prompt). Persisted in globalState per project so they
// survive reloads and restarts; the last error of each job lives in memory only.
import * as vscode from 'vscode';
import type { AgentJob, ApiError } from '../api';
import { Disposable } from '../util/lifecycle';

export interface PromptEntry {
  text: string;
  /** ISO date-time. */
  sentAt: string;
}

export interface TrackedJob {
  id: string;
  /** The server's last answer; undefined until the first read succeeds. */
  job?: AgentJob;
  prompts: PromptEntry[];
  /** A prompt that failed to send, offered again in the next prompt box. */
  unsentPrompt?: string;
  /** ISO date-times. */
  trackedAt: string;
  checkedAt?: string;
  /** The server answered 404 for this job: kept so the user decides, never polled. */
  notFound?: boolean;
}

const TERMINAL = new Set(['completed', 'archived', 'failed']);

/** Terminal jobs are not polled; a follow-up makes a job active again. */
export function isTerminal(tracked: TrackedJob): boolean {
  return tracked.notFound === true || (tracked.job !== undefined && isTerminalStatus(tracked.job.status));
}

export function isTerminalStatus(status: string): boolean {
  return TERMINAL.has(status);
}

export function jobLabel(tracked: TrackedJob): string {
  // The first paragraph: a prompt from Ask the Agent About This… continues with the page it quotes.
  const first = tracked.prompts[0]?.text.trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim();
  if (!first) return `Job ${tracked.id}`;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function storageKey(projectId: string): string {
  return `mintlifyAgent.trackedJobs/${projectId}`;
}

function isTrackedJob(value: unknown): value is TrackedJob {
  const v = value as Partial<TrackedJob> | null;
  return typeof v?.id === 'string' && Array.isArray(v.prompts) && typeof v.trackedAt === 'string';
}

export class JobStore extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<TrackedJob | undefined>());
  /** Fires with the job that changed, or undefined when the whole list changed. */
  readonly onDidChange = this.emitter.event;
  private tracked: TrackedJob[] = [];
  private readonly errors = new Map<string, ApiError>();
  private project: string | undefined;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  get projectId(): string | undefined {
    return this.project;
  }

  /** Switches to another project's list (or none). */
  load(projectId: string | undefined): void {
    this.project = projectId;
    this.errors.clear();
    const stored = projectId ? this.state.get<unknown[]>(storageKey(projectId), []) : [];
    this.tracked = Array.isArray(stored) ? stored.filter(isTrackedJob) : [];
    this.emitter.fire(undefined);
  }

  all(): readonly TrackedJob[] {
    return this.tracked;
  }

  get(id: string): TrackedJob | undefined {
    return this.tracked.find((t) => t.id === id);
  }

  errorOf(id: string): ApiError | undefined {
    return this.errors.get(id);
  }

  /** Adds the job at the top, or updates it in place. */
  async upsert(id: string, change: (current: TrackedJob) => TrackedJob): Promise<TrackedJob> {
    const existing = this.get(id);
    const next = change(existing ?? { id, prompts: [], trackedAt: new Date().toISOString() });
    this.tracked = existing ? this.tracked.map((t) => (t.id === id ? next : t)) : [next, ...this.tracked];
    await this.save();
    this.emitter.fire(existing ? next : undefined);
    return next;
  }

  /**
   * Adds or updates a job in the list of `projectId`, which may no longer be the current project:
   * an answer that arrives after the project changed is filed where its request was sent.
   */
  async upsertIn(projectId: string, id: string, change: (current: TrackedJob) => TrackedJob): Promise<TrackedJob> {
    if (projectId === this.project) return this.upsert(id, change);
    const stored = this.state.get<unknown[]>(storageKey(projectId), []);
    const list = Array.isArray(stored) ? stored.filter(isTrackedJob) : [];
    const existing = list.find((t) => t.id === id);
    const next = change(existing ?? { id, prompts: [], trackedAt: new Date().toISOString() });
    await this.state.update(storageKey(projectId), existing ? list.map((t) => (t.id === id ? next : t)) : [next, ...list]);
    return next;
  }

  async remove(id: string): Promise<void> {
    this.tracked = this.tracked.filter((t) => t.id !== id);
    this.errors.delete(id);
    await this.save();
    this.emitter.fire(undefined);
  }

  setError(id: string, error: ApiError | undefined): void {
    if (error) this.errors.set(id, error);
    else if (!this.errors.delete(id)) return;
    const tracked = this.get(id);
    if (tracked) this.emitter.fire(tracked);
  }

  private async save(): Promise<void> {
    if (this.project) await this.state.update(storageKey(this.project), this.tracked);
  }
}
