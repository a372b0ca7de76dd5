// The tracked jobs of the current project: what the server last said about each, and what only
// we know (the prompts we sent, an unsent prompt). Kept in the shared store (src/sync/), so every
// window of the profile sees the same jobs and every change is merged per field, never
// overwritten; the last error of each job lives in this window's memory only. Every change shows in
// this window at once; its write to the shared store is the promise each method returns, which a
// caller may await or let go (util/background.ts) without losing the change here.
import * as vscode from 'vscode';
import type { AgentJob, ApiError } from '../api';
import type { WindowSync } from '../sync/windowSync';
import type { JobRecord } from '../sync/syncState';
import { applyJobChange, type JobChange as SharedJobChange, visiblePrompts } from '../sync/jobChanges';
import { Disposable } from '../util/lifecycle';

interface PromptEntry {
  text: string;
  /** ISO date-time. */
  sentAt: string;
}

/** A job as this window now shows it, and the write that shares it with the other windows. */
interface JobChange {
  tracked: TrackedJob;
  written: Promise<void>;
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
  const first = tracked.prompts[0]?.text
    .trim()
    .split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, ' ')
    .trim();
  if (!first) return vscode.l10n.t('Job {0}', tracked.id);
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

/** Fields of TrackedJob kept as last-writer-wins registers (prompts are a union, see syncState). */
const FIELDS = ['job', 'checkedAt', 'notFound', 'unsentPrompt', 'trackedAt'] as const;

function newJob(id: string): TrackedJob {
  return { id, prompts: [], trackedAt: new Date().toISOString() };
}

function toTracked(id: string, record: JobRecord): TrackedJob {
  const v = (name: string) => record.f[name]?.v ?? undefined;
  const tracked: TrackedJob = {
    id,
    prompts: visiblePrompts(record),
    trackedAt: (v('trackedAt') as string | undefined) ?? new Date(record.tracked.s.t).toISOString(),
  };
  for (const name of FIELDS) {
    if (name === 'trackedAt') continue;
    const value = v(name);
    if (value !== undefined) (tracked as unknown as Record<string, unknown>)[name] = value;
  }
  return tracked;
}

/** The parts of the shared state the jobs use: their area, the drafts', and the lease (which project this window shows). */
export type JobsSync = Pick<WindowSync, 'jobs' | 'drafts' | 'lease' | 'ready'>;

export class JobStore extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<readonly TrackedJob[] | undefined>());
  /**
   * Fires with the jobs that changed, or with undefined when the list itself changed (a job added,
   * removed or moved). Views redraw those rows only then: a whole-list redraw in the middle of a
   * click on a row would hand its command no job.
   */
  readonly onDidChange = this.emitter.event;
  private tracked: TrackedJob[] = [];
  private readonly errors = new Map<string, ApiError>();
  private project: string | undefined;

  constructor(private readonly sync: JobsSync) {
    super();
    // A change of the jobs, here or in another window (or the first read of the store), redraws the rows that changed.
    this.register(sync.jobs.onDidChange(() => this.reread()));
  }

  get projectId(): string | undefined {
    return this.project;
  }

  /** Switches to another project's list (or none). */
  load(projectId: string | undefined): void {
    this.project = projectId;
    this.errors.clear();
    this.sync.lease.setProject(projectId);
    this.reread(true);
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

  /** When another window (or this one) opened a fast phase for the job, in ms since the epoch. */
  fastUntil(id: string): number | undefined {
    const value = this.project ? this.sync.jobs.value[this.project]?.[id]?.f.fastUntil?.v : undefined;
    return typeof value === 'number' ? value : undefined;
  }

  /** Tells every window that the job is in a fast phase until `until` (after a prompt). */
  markFast(id: string, until: number): Promise<void> {
    const project = this.project;
    if (!project) return Promise.resolve();
    return this.change(project, id, { fields: { fastUntil: until } });
  }

  /** Text typed and not sent: `create` for "Start New Job", `job:<id>` for a job not tracked. */
  draft(key: string): string | undefined {
    return this.project ? (this.sync.drafts.value[this.project]?.[key]?.v ?? undefined) : undefined;
  }

  setDraft(key: string, text: string | undefined): Promise<void> {
    const project = this.project;
    if (!project || this.draft(key) === text) return Promise.resolve();
    return this.sync.drafts.change((drafts, stamp) => ((drafts[project] ??= {})[key] = { v: text ?? null, s: stamp() }));
  }

  /**
   * Updates a tracked job in place (a poll result, an unsent prompt). Only what `change` changed is
   * written (each field with its own stamp, new prompts added to the history), so it cannot undo
   * another window's change to another field, another job or the same job's prompts; and it never
   * tracks the job again: a poll answer that lands after another window stopped tracking the job
   * must not bring it back (its stamp would be the later one).
   */
  upsert(id: string, change: (current: TrackedJob) => TrackedJob): JobChange {
    return this.project ? this.upsertIn(this.project, id, change, { track: false }) : { tracked: change(newJob(id)), written: Promise.resolve() };
  }

  /**
   * Adds the job at the top, or updates it, in the list of `projectId` (which may no longer be the
   * current project: an answer that arrives after the project changed is filed where its request
   * was sent). Tracks it, unless `track` is false: only what the user asked for (track, start,
   * follow up) tracks a job.
   */
  upsertIn(projectId: string, id: string, change: (current: TrackedJob) => TrackedJob, { track = true } = {}): JobChange {
    const record = this.sync.jobs.value[projectId]?.[id];
    const existing = record?.tracked.v ? toTracked(id, record) : undefined;
    const current = existing ?? newJob(id);
    const next = change(current);
    const fields: Record<string, unknown> = {};
    for (const name of FIELDS) {
      if (!existing || JSON.stringify(current[name]) !== JSON.stringify(next[name])) fields[name] = next[name];
    }
    const known = new Set(current.prompts.map((p) => `${p.sentAt}\u0000${p.text}`));
    const addPrompts = next.prompts.filter((p) => !known.has(`${p.sentAt}\u0000${p.text}`));
    const written = this.change(projectId, id, { ...(track && { track: true }), fields, addPrompts });
    return { tracked: (projectId === this.project ? this.get(id) : undefined) ?? next, written };
  }

  async remove(id: string): Promise<void> {
    const project = this.project;
    this.errors.delete(id);
    if (!project || !this.get(id)) return;
    await this.change(project, id, { track: false });
  }

  /** One job's change, stamped by the jobs' area (each field its own register, new prompts added to the union). */
  private change(project: string, id: string, change: SharedJobChange): Promise<void> {
    return this.sync.jobs.change((jobs, stamp) => applyJobChange({ jobs }, project, id, change, { next: stamp }));
  }

  setError(id: string, error: ApiError | undefined): void {
    if (error) this.errors.set(id, error);
    else if (!this.errors.delete(id)) return;
    const tracked = this.get(id);
    if (tracked) this.emitter.fire([tracked]);
  }

  /** Rebuilds the list from the shared state; fires only when something a user sees changed. */
  private reread(force = false): void {
    const records = this.project ? (this.sync.jobs.value[this.project] ?? {}) : {};
    const next = Object.entries(records)
      .filter(([, r]) => r.tracked.v)
      .map(([id, r]) => toTracked(id, r))
      .sort((a, b) => (a.trackedAt < b.trackedAt ? 1 : a.trackedAt > b.trackedAt ? -1 : 0));
    if (!force && JSON.stringify(next) === JSON.stringify(this.tracked)) return;
    const before = this.tracked;
    this.tracked = next;
    const sameList = !force && before.length === next.length && before.every((t, i) => t.id === next[i]?.id);
    this.emitter.fire(sameList ? next.filter((t, i) => JSON.stringify(t) !== JSON.stringify(before[i])) : undefined);
  }
}
