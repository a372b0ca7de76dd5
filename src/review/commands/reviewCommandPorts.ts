// What the review commands take (`ReviewCommandPorts`: the shared reviews, their comment threads, and
// what Send Review to Agent needs besides), and what they share: a failure told in the background,
// as the failure table says it. Each command is a file beside this one (the comment commands one
// file); registerReviewComments.ts only wires them.
import type { FailureContext } from '../../errorMessages';
import type { JobStore } from '../../jobs/jobStore';
import type { Logger } from '../../log';
import { reportFailure } from '../../reportFailure';
import type { Ui } from '../../ui';
import { background } from '../../util/background';
import type { ReviewModel } from '../reviewModel';
import type { ReviewThreads } from '../reviewThreads';

export interface ReviewCommandPorts {
  model: ReviewModel;
  threads: ReviewThreads;
  jobs: JobStore;
  ui: Ui;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  log: Logger;
}

/** A handler of a rejection that tells the user what failed (`what` names it in the log), without waiting for the message. */
export const failed =
  ({ ui, log }: Pick<ReviewCommandPorts, 'ui' | 'log'>, context: FailureContext, what: string) =>
  (error: unknown): void => {
    background(reportFailure({ ui, log }, error, { context, doing: what }), log, `${what}: the failure message`);
  };
