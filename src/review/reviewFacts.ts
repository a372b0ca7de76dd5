// A job's review history as the agent jobs tool tells it (src/tools/toolTexts.ts ReviewFacts): each
// review sent, and the comments still pending.
import { type ReviewComment, type ReviewModel } from './reviewModel';
import { inReviewOrder } from './reviewPrompt';

/** A comment as the agent jobs tool tells it. */
interface CommentFacts {
  path: string;
  startLine: number;
  endLine: number;
  commit: string;
  body: string;
}

/** Undefined when the job has no comments. */
export function reviewFacts(
  model: ReviewModel,
  jobId: string,
): { pending: CommentFacts[]; sent: { sentAt: string; comments: CommentFacts[] }[]; lostAt?: string } | undefined {
  const comments = model.comments(jobId);
  if (!comments.length) return undefined;
  const facts = (c: ReviewComment): CommentFacts => ({ path: c.path, startLine: c.startLine, endLine: c.endLine, commit: c.commit, body: c.body });
  const lost = model.lost(jobId);
  return {
    pending: inReviewOrder(model.pending(jobId)).map(facts),
    sent: model.sent(jobId).map((r) => ({ sentAt: new Date(r.sentAt).toISOString(), comments: inReviewOrder(r.comments).map(facts) })),
    ...(lost !== undefined && { lostAt: new Date(lost).toISOString() }),
  };
}
