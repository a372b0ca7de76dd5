// One fetch several actions share goes with their grants joined (hourGate.ts grants each), and
// ends for each of them alone when it cancels: the fetch itself stops only when all have.
import type { Grant, Reservation } from '../api/client';
import { ApiError } from '../api/errors';

/**
 * The grant one fetch goes with when several actions share it (the readers' snapshot of a range,
 * analytics/visitorsSnapshot.ts): the grants of everyone who asked for it while it was on its way,
 * each in turn; `background` while only background work asked (then a 429 part way through keeps
 * the pages before it; once a writer has joined, the 429 is theirs to see).
 */
export class JoinedGrant implements Grant {
  private readonly grants: Grant[] = [];
  private onlyBackground = true;
  private refusedOnce = false;
  private readonly abandoned = new AbortController();
  /** Joiners waiting for the fetch who have not cancelled (one that cannot cancel always waits). */
  private waiting = 0;

  constructor(grant: Grant, background: boolean) {
    this.join(grant, background);
  }

  join(grant: Grant, background: boolean): void {
    this.grants.push(grant);
    if (!background) this.onlyBackground = false;
  }

  get background(): boolean {
    return this.onlyBackground;
  }

  /** A reservation was asked and none of the grants had room: the fetch was cut short by the hour. */
  get refused(): boolean {
    return this.refusedOnce;
  }

  /** Aborted once every joiner has cancelled its wait: the fetch is nobody's any more, and stops. */
  get signal(): AbortSignal {
    return this.abandoned.signal;
  }

  async reserve(): Promise<Reservation | undefined> {
    for (const grant of this.grants) {
      const reservation = await grant.reserve();
      if (reservation) return reservation;
    }
    this.refusedOnce = true;
    return undefined;
  }

  /**
   * One joiner's wait for the shared fetch: with no `signal`, the fetch itself; else it ends with an
   * ApiError 'cancelled' as soon as `signal` aborts, while the fetch goes on for the others (its grant
   * ends with its action, so the fetch spends the others' grants only).
   */
  wait<T>(fetching: Promise<T>, signal?: AbortSignal): Promise<T> {
    this.waiting++;
    if (!signal) return fetching;
    return new Promise<T>((resolve, reject) => {
      const cancel = () => {
        if (--this.waiting === 0) this.abandoned.abort();
        reject(new ApiError('cancelled', 'Cancelled.', { reached: 'maybe' }));
      };
      if (signal.aborted) cancel();
      else signal.addEventListener('abort', cancel);
      void fetching.then(resolve, reject).finally(() => signal.removeEventListener('abort', cancel));
    });
  }
}
