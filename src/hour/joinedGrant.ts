// One fetch several actions share goes with their grants joined (hourGate.ts grants each).
import type { Grant, Reservation } from '../api/client';

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

  async reserve(): Promise<Reservation | undefined> {
    for (const grant of this.grants) {
      const reservation = await grant.reserve();
      if (reservation) return reservation;
    }
    this.refusedOnce = true;
    return undefined;
  }
}
