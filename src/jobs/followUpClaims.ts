// A follow-up the extension composes for a job (a review: src/review; a fix of the build:
// src/preview) is sent from one window at a time, across every window of the profile. As the hour's
// account reserves a request (src/hour/hourAccount.ts), a window's claim is written to its own file
// first, then every window's file is read back, and the window sends only if no other window's claim
// stands beside it. Of two windows claiming at once the one that reads later sees both claims; the
// one that read first may have seen only its own and sent. So a window that sees another claim steps
// back, unless its own is the first of them: then it waits (bounded) for the others to step back,
// and sends only if by then no other window is sending and nothing the caller watches (`doubt`: a
// send that lost its answer, one sent meanwhile) changed. Sending, the mark `sending` shows it to
// every window; both end with the outcome the caller records (`ending`), or with release().
// The marks live in the feature's own area of the shared state; this is the protocol over them.
import type { ReviewSending, Stamp, Versioned } from '../sync/sharedSchema';
import type { WindowLease } from '../sync/windowLease';
import type { Listen } from '../util/emitter';

/** A send under way: the window sending, when it began (ms), and the send's own id. */
export type Sending = ReviewSending;

/** The marks a record holds: the send under way, and every window's claim to send (null once ended). */
interface ClaimMarks {
  sending?: Versioned<Sending | null>;
  claims?: Record<string, Versioned<Sending | null>>;
}

/** This window may send now (release() when the send ended without an outcome to record), or another send is under way. */
export type SendClaim = { release(): Promise<void> } | { busy: Sending };

/** An edit that ends this window's claim, and the mark its outcome ends, in the write that records the outcome. */
type EndClaim = (marks: ClaimMarks, stamp: () => Stamp) => void;

/**
 * The longest the first of several windows that claimed a follow-up at once waits for the others to
 * step back (each does as soon as it has read the claims back, so about one read of the shared
 * folder): a bound on a wait for a condition, never a settle time. Past it, no window sends.
 */
const CLAIM_WAIT_MS = 10_000;

/**
 * A send's mark older than this is not a send under way, even from a window still open: its
 * outcome was never recorded (no send waits this long for its answer), so it may have arrived.
 */
const SENDING_MAX_MS = 10 * 60_000;

interface FollowUpClaimsHost {
  lease: Pick<WindowLease, 'windowId' | 'isLive' | 'peersOn'>;
  /** Reads every window's file now. */
  refresh(): Promise<void>;
  /** Fires when the area holding the marks changed, here or in another window. */
  onDidChange: Listen<void>;
  /** The current project. */
  project(): string | undefined;
  /** The job's marks in the project, if it has any. */
  marks(project: string, jobId: string): ClaimMarks | undefined;
  /** One write of the job's record in the project (made if absent), its marks edited by `edit`. */
  change(project: string, jobId: string, edit: EndClaim): Promise<void>;
}

export class FollowUpClaims {
  private seq = 0;
  /** Job id → this window's claim to send, until the send's outcome is recorded. */
  private readonly claimed = new Map<string, string>();

  constructor(private readonly host: FollowUpClaimsHost) {}

  /** A mark whose send can no longer record its outcome: its window closed, or it is too old. */
  orphaned(sending: Sending): boolean {
    const { lease } = this.host;
    return (sending.window !== lease.windowId && !lease.isLive(sending.window)) || Date.now() - sending.at > SENDING_MAX_MS;
  }

  /** When a send began whose outcome can no longer be recorded (it may have arrived), if there is one. */
  orphanedAt(jobId: string): number | undefined {
    const sending = this.marks(jobId)?.sending?.v;
    return sending && this.orphaned(sending) ? sending.at : undefined;
  }

  /** A send under way, in this window or another, if any. */
  inFlight(jobId: string): Sending | undefined {
    const sending = this.marks(jobId)?.sending?.v ?? undefined;
    return sending && !this.orphaned(sending) ? sending : undefined;
  }

  /** A send under way in another window, if any. */
  elsewhere(jobId: string): Sending | undefined {
    const sending = this.inFlight(jobId);
    return sending?.window !== this.host.lease.windowId ? sending : undefined;
  }

  /**
   * Claims the job's follow-up for this window to send (see the top of this file). `doubt` is read
   * before the claim and after its read-back: a change (a send lost its answer, or was recorded,
   * meanwhile) stands against the claim. A failed write of the claim throws when another window of
   * the project could not see it (sending could make two sends).
   */
  async claim(jobId: string, doubt: () => unknown = () => undefined): Promise<SendClaim> {
    const { host } = this;
    const project = host.project();
    await host.refresh();
    const busy = this.elsewhere(jobId) ?? this.claimsOf(jobId).find((c) => c.window !== host.lease.windowId);
    if (busy) return { busy };
    const before = doubt();
    const mark: Sending = { window: host.lease.windowId, at: Date.now(), id: `${host.lease.windowId}.${Date.now().toString(36)}.${++this.seq}` };
    this.claimed.set(jobId, mark.id);
    const release = async () => {
      if (this.claimed.get(jobId) === mark.id) this.claimed.delete(jobId);
      await this.endClaim(jobId, mark);
    };
    const others = () => (project ? host.lease.peersOn(project).length : 0);
    const write = async (edit: EndClaim) => {
      if (!project) return;
      try {
        await host.change(project, jobId, edit);
      } catch (error) {
        if (!others()) return;
        await release().catch(() => undefined);
        throw error;
      }
    };
    await write((marks, stamp) => ((marks.claims ??= {})[mark.id] = { v: mark, s: stamp() }));
    // Read back: every window's claims, this one's among them.
    await host.refresh();
    const rival = await this.contest(jobId, mark);
    const stands = rival ?? this.elsewhere(jobId) ?? (doubt() !== before ? mark : undefined);
    if (stands) {
      await release().catch(() => undefined);
      return { busy: stands };
    }
    await write((marks, stamp) => (marks.sending = { v: mark, s: stamp() }));
    return { release };
  }

  /**
   * What ends this window's claim, and the job's sending mark if the outcome recorded now ends it
   * (this window's, or an orphaned one), in the caller's write of that outcome; undefined when there
   * is nothing to end. Taken once: the claim is no longer this window's.
   */
  ending(jobId: string): EndClaim | undefined {
    const sending = this.marks(jobId)?.sending?.v;
    const mine = !!sending && (sending.window === this.host.lease.windowId || this.orphaned(sending));
    const claim = this.claimed.get(jobId);
    this.claimed.delete(jobId);
    if (!mine && !claim) return undefined;
    return (marks, stamp) => {
      if (mine) marks.sending = { v: null, s: stamp() };
      if (claim) (marks.claims ??= {})[claim] = { v: null, s: stamp() };
    };
  }

  /** Claims that may still be acted on: not ended, from a window still open, not older than SENDING_MAX_MS. */
  private claimsOf(jobId: string): Sending[] {
    return Object.values(this.marks(jobId)?.claims ?? {}).flatMap((c) => (c.v && !this.orphaned(c.v) ? [c.v] : []));
  }

  /**
   * The claim that stands against `mark` after it was read back, if any: one before it (the earlier
   * claim, the id breaking a tie), or one that did not step back within CLAIM_WAIT_MS while no other
   * window was sending.
   */
  private async contest(jobId: string, mark: Sending): Promise<Sending | undefined> {
    const seen = this.claimsOf(jobId).filter((c) => c.id !== mark.id);
    const first = seen.find((c) => c.at < mark.at || (c.at === mark.at && c.id < mark.id));
    if (first || !seen.length) return first;
    const ids = new Set(seen.map((c) => c.id));
    const standing = () => this.claimsOf(jobId).filter((c) => ids.has(c.id));
    await until(this.host.onDidChange, () => !standing().length || this.elsewhere(jobId) !== undefined, CLAIM_WAIT_MS);
    return standing()[0];
  }

  /** Ends this window's claim, and its mark if it is the one that stands, in one write. */
  private endClaim(jobId: string, mark: Sending): Promise<void> {
    const project = this.host.project();
    if (!project) return Promise.resolve();
    const marked = this.marks(jobId)?.sending?.v?.id === mark.id;
    return this.host.change(project, jobId, (marks, stamp) => {
      (marks.claims ??= {})[mark.id] = { v: null, s: stamp() };
      if (marked) marks.sending = { v: null, s: stamp() };
    });
  }

  private marks(jobId: string): ClaimMarks | undefined {
    const project = this.host.project();
    return project ? this.host.marks(project, jobId) : undefined;
  }
}

/** Resolves true once `done()` holds (checked now and at each `changed`), false if it still does not after `ms`. */
function until(changed: Listen<void>, done: () => boolean, ms: number): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      listener.dispose();
      clearTimeout(timer);
      resolve(ok);
    };
    const listener = changed(() => done() && finish(true));
    const timer = setTimeout(() => finish(done()), ms);
  });
}
