// Review Changes and Check Out Branch for an agent job (not the review comments on it: src/review),
// wired. The git work is in branchReview.ts; each command is a function of its ports in commands/
// (reviewChanges.ts, checkOutBranch.ts), run through the guard they share (reviewChangesPorts.ts),
// and Tell Me When It Finishes's notice is commands/finishNotice.ts.
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { jobIdOf } from '../jobs/jobPick';
import { checkOutBranchCommand } from './commands/checkOutBranch';
import { finishNotice } from './commands/finishNotice';
import { reviewChangesCommand } from './commands/reviewChanges';
import { type ReviewChangesPorts, runOnJob } from './commands/reviewChangesPorts';

export type { ReviewResult } from './commands/reviewChanges';

/** Registers Review Changes and Check Out Branch (the agent's branch in this workspace's clone). */
export function registerReviewChanges(context: vscode.ExtensionContext, ports: ReviewChangesPorts): void {
  const git: ReviewChangesPorts = { ...ports, log: ports.log.scoped('git') };
  /** The jobs whose Tell Me When It Finishes was picked, until each finishes. */
  const waiting = new Set<string>();
  context.subscriptions.push(ports.jobs.onDidChange(finishNotice(git, waiting)));
  const review = reviewChangesCommand(git);
  const checkOut = checkOutBranchCommand(git);
  ports.command(COMMANDS.reviewChanges, (arg: unknown) => runOnJob(git, waiting, jobIdOf(arg), review));
  ports.command(COMMANDS.checkOutBranch, (arg: unknown) => runOnJob(git, waiting, jobIdOf(arg), checkOut));
}
