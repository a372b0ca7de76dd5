// A follow-up the extension composes (a review, a fix of the build) sent through Send Follow-up from
// one window at a time (followUpClaims.ts): the claim, the check that nothing was sent meanwhile, the
// outcome recorded as each try's is known, a Retry or Send Again claiming again. What differs (the
// claim, what counts as sent meanwhile, what an outcome records, the words) is the caller's.
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import type { Logger } from '../../log';
import type { Ui } from '../../ui';
import { background } from '../../util/background';
import type { SendClaim } from '../followUpClaims';
import { NOTHING_SENT, type PromptSent, type SendWatch } from './jobCommandPorts';

/** The parts of one claimed send that are the caller's. */
interface ClaimedSend {
  claim(): Promise<SendClaim>;
  /** What the writer is told when another window is sending (since `at`). */
  busy(at: number): string;
  /** What the writer is told when something was sent since the prompt was composed; undefined: nothing was. */
  sentMeanwhile(): string | undefined;
  /** Records a try that was sent or may have arrived, which ends the claim. */
  record(outcome: PromptSent): void;
  /** The send as the log names it ("the review of <job>"). */
  what: string;
}

/**
 * Sends `text` to the job unless another window is sending it, or something was sent meanwhile; and
 * so does each Retry or Send Again the writer picks from the failure message. Each try's outcome is
 * recorded the moment it is known, which ends the claim: sent or maybe arrived (`record`), or refused
 * (nothing arrived: the claim ends at once, not when the failure message is answered). Undefined:
 * nothing was sent, and the writer was told why.
 */
export async function claimedSend({ ui, log }: { ui: Ui; log: Logger }, jobId: string, text: string, send: ClaimedSend): Promise<PromptSent | undefined> {
  /** This try's claim, until its outcome is recorded. */
  let claim: { release(): Promise<void> } | undefined;
  const take = async (): Promise<boolean> => {
    const got = await send.claim();
    if ('busy' in got) {
      void ui.showMessage('info', send.busy(got.busy.at));
      return false;
    }
    const meanwhile = send.sentMeanwhile();
    if (meanwhile !== undefined) {
      background(got.release(), log, `ending the send of ${send.what}`);
      void ui.showMessage('info', meanwhile);
      return false;
    }
    claim = got;
    return true;
  };
  if (!(await take())) return undefined;
  const watch: SendWatch = {
    onOutcome: (outcome) => {
      const held = claim;
      claim = undefined;
      if (outcome.sent || outcome.outcomeUnknown) send.record(outcome);
      else if (held) background(held.release(), log, `ending the refused send of ${send.what}`);
    },
    again: take,
  };
  try {
    return (await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, jobId, text, watch)) ?? NOTHING_SENT;
  } finally {
    // Ended without an outcome (stopped before sending): the claim goes.
    if (claim) background(claim.release(), log, `ending the send of ${send.what}`);
  }
}
