// Agent jobs of the simulator. A job's status is never stored: it is computed from now() whenever the
// job is read, so jobs "move by themselves" without timers and a fake clock controls them fully.

import { mix32 } from './random';
import type { AddJobInit, JobOutcome, JobStatus, SimJob } from './types';

export const DEFAULT_REPOSITORY = 'https://github.com/acme/docs';
export const DEFAULT_MODEL = 'sonnet';

interface JobRecord {
  id: string;
  repository: string;
  ref: string | null;
  model: string;
  createdAt: number;
  /** The current (or last) active period ends here; -Infinity for a job created already settled. */
  activeUntil: number;
  /** Length of each active period; undefined = the simulator's jobDurationMs. */
  activeForMs: number | undefined;
  outcome: JobOutcome;
  /** Replaces `outcome` at the next follow-up. */
  nextOutcome: JobOutcome | undefined;
  /** Explicit PR link for the 'pr' outcome; else `${repository}/pull/${prNumber}`. */
  prLink: string | undefined;
  prNumber: number;
  archivedAt: number | null;
  nextRound: ((prompt: string) => void) | undefined;
}

/** The prompt convention: 'fail' anywhere -> fail, 'no changes' anywhere -> noChanges (case-insensitive). */
export function outcomeFromPrompt(prompt: string): JobOutcome | undefined {
  const text = prompt.toLowerCase();
  if (text.includes('fail')) return 'fail';
  if (text.includes('no changes')) return 'noChanges';
  return undefined;
}

export class JobStore {
  private readonly jobs = new Map<string, Map<string, JobRecord>>();
  private readonly rawJobs = new Map<string, Map<string, Record<string, unknown>>>();
  private idCounter = 0;
  private prCounter = 100;

  constructor(
    projectIds: readonly string[],
    private readonly now: () => number,
    private readonly jobDurationMs: number,
    /** Repository and branch of jobs created through the API (a test's local bare repository). */
    public newJobSource?: { repository: string; ref: string },
  ) {
    for (const projectId of projectIds) {
      this.jobs.set(projectId, new Map());
      this.rawJobs.set(projectId, new Map());
    }
  }

  hasProject(projectId: string): boolean {
    return this.jobs.has(projectId);
  }

  /** POST .../job: a new active job. The answer shows it active even if its period is 0 ms. */
  create(projectId: string, prompt: string): SimJob {
    const record = this.insert(projectId, { prompt, ...(this.newJobSource && { source: this.newJobSource }) });
    return this.view(record, true);
  }

  /** Simulator.addJob: any initial state; throws on an unknown project, a taken id or a contradiction. */
  add(projectId: string, init: AddJobInit): SimJob {
    return this.view(this.insert(projectId, init));
  }

  get(projectId: string, id: string): SimJob | undefined {
    const record = this.jobs.get(projectId)?.get(id);
    return record && this.view(record);
  }

  raw(projectId: string, id: string): Record<string, unknown> | undefined {
    return this.rawJobs.get(projectId)?.get(id);
  }

  /** POST .../message: the job (archived ones too) starts a new active period. Undefined if unknown. */
  followUp(projectId: string, id: string, prompt: string): SimJob | undefined {
    const record = this.jobs.get(projectId)?.get(id);
    if (!record) return undefined;
    record.outcome = outcomeFromPrompt(prompt) ?? record.nextOutcome ?? record.outcome;
    record.nextOutcome = undefined;
    record.archivedAt = null;
    record.activeUntil = this.now() + (record.activeForMs ?? this.jobDurationMs);
    record.nextRound?.(prompt);
    return this.view(record, true);
  }

  setOutcome(projectId: string, id: string, outcome: JobOutcome): void {
    const record = this.require(projectId, id);
    // A settled job keeps what it became; the new outcome is for its next active period.
    if (this.now() >= record.activeUntil || record.archivedAt !== null) record.nextOutcome = outcome;
    else record.outcome = outcome;
  }

  archive(projectId: string, id: string): void {
    this.require(projectId, id).archivedAt = this.now();
  }

  delete(projectId: string, id: string): void {
    this.require(projectId, id);
    this.jobs.get(projectId)?.delete(id);
    this.rawJobs.get(projectId)?.delete(id);
  }

  /** Works for ids without a job too, so a test can serve any body for any id. */
  setRaw(projectId: string, id: string, raw: Record<string, unknown> | undefined): void {
    const raws = this.rawJobs.get(projectId);
    if (!raws) throw new Error(`Unknown project ${JSON.stringify(projectId)}`);
    if (raw === undefined) raws.delete(id);
    else raws.set(id, raw);
  }

  private require(projectId: string, id: string): JobRecord {
    const record = this.jobs.get(projectId)?.get(id);
    if (!record) throw new Error(`No job ${JSON.stringify(id)} in project ${JSON.stringify(projectId)}`);
    return record;
  }

  /** 'job_' + 14 base-36 characters. The first 7 come from a bijective hash of the counter: unique. */
  private nextId(jobs: Map<string, JobRecord>): string {
    for (;;) {
      const n = ++this.idCounter;
      const id = `job_${mix32(n).toString(36).padStart(7, '0')}${mix32(n ^ 0x2545f491)
        .toString(36)
        .padStart(7, '0')}`;
      if (!jobs.has(id)) return id;
    }
  }

  private insert(projectId: string, init: AddJobInit): JobRecord {
    const jobs = this.jobs.get(projectId);
    if (!jobs) throw new Error(`Unknown project ${JSON.stringify(projectId)}`);
    const id = init.id ?? this.nextId(jobs);
    if (jobs.has(id)) throw new Error(`Job ${JSON.stringify(id)} already exists`);
    const now = this.now();
    const status: JobStatus = init.status ?? 'active';
    const outcome = init.outcome ?? inferOutcome(init);
    checkConsistent(status, outcome, init.prLink);
    const record: JobRecord = {
      id,
      repository: init.source?.repository ?? DEFAULT_REPOSITORY,
      ref: init.source ? init.source.ref : `mintlify/agent-${id.replace(/^job_/, '').slice(0, 8)}`,
      model: init.model ?? DEFAULT_MODEL,
      createdAt: init.createdAt === undefined ? now : parseTime('createdAt', init.createdAt),
      activeUntil: status === 'active' ? now + (init.activeForMs ?? this.jobDurationMs) : Number.NEGATIVE_INFINITY,
      activeForMs: init.activeForMs,
      outcome,
      nextOutcome: init.outcomeAfterFollowUp,
      prLink: typeof init.prLink === 'string' ? init.prLink : undefined,
      prNumber: ++this.prCounter,
      archivedAt: status !== 'archived' ? null : init.archivedAt ? parseTime('archivedAt', init.archivedAt) : now,
      nextRound: init.nextRound,
    };
    jobs.set(id, record);
    return record;
  }

  /** The API view at now(). `justStarted` forces 'active' for the answer to a create or follow-up. */
  private view(record: JobRecord, justStarted = false): SimJob {
    const now = this.now();
    let status: JobStatus;
    let prLink: string | null = null;
    if (record.archivedAt !== null) {
      status = 'archived';
      // An archived job keeps the PR it had made before it was archived.
      if (record.archivedAt >= record.activeUntil) prLink = this.finishedPrLink(record);
    } else if (justStarted || now < record.activeUntil) {
      status = 'active';
    } else if (record.outcome === 'fail') {
      status = 'failed';
    } else {
      status = 'completed';
      prLink = this.finishedPrLink(record);
    }
    return {
      id: record.id,
      status,
      source: { repository: record.repository, ref: record.ref },
      model: record.model,
      prLink,
      createdAt: new Date(record.createdAt).toISOString(),
      archivedAt: record.archivedAt === null ? null : new Date(record.archivedAt).toISOString(),
    };
  }

  private finishedPrLink(record: JobRecord): string | null {
    if (record.outcome !== 'pr') return null;
    return record.prLink ?? `${record.repository}/pull/${record.prNumber}`;
  }
}

/** Outcome of an added job when none is given: from its settled state, else its prompt, else 'pr'. */
function inferOutcome(init: AddJobInit): JobOutcome {
  if (init.status === 'failed') return 'fail';
  if ((init.status === 'completed' || init.status === 'archived') && init.prLink === null) return 'noChanges';
  if (init.prompt !== undefined) return outcomeFromPrompt(init.prompt) ?? 'pr';
  return 'pr';
}

/** A settled job's status and prLink must agree with its outcome. */
function checkConsistent(status: JobStatus, outcome: JobOutcome, prLink: string | null | undefined): void {
  const consistent =
    status === 'failed'
      ? outcome === 'fail'
      : status !== 'completed' || (outcome !== 'fail' && (prLink === undefined || (prLink === null) === (outcome === 'noChanges')));
  if (!consistent) throw new Error(`A ${status} job with prLink ${String(prLink)} cannot have the outcome ${outcome}`);
}

function parseTime(name: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`${name} must be an ISO 8601 date-time, got ${JSON.stringify(text)}`);
  return ms;
}
