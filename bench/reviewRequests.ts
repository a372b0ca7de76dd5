// Figure 14: agent requests for a review of N comments on the agent's branch. Send Review to Agent
// sends the whole review as one follow-up (src/review/reviewPrompt.ts composes it); without it, a
// writer sends one follow-up per comment. Both go through the real ApiClient's sendMessage to the
// real simulator over HTTP, and the requests are counted there (POST …/message received). The
// comments quote realistic lines (a sentence each, a range of 1 to 12 lines), and one run has
// comments on whole pages, so the review is cut per comment to the prompt's limit.
import { createApiClient } from '../src/api';
import { composeReviewPrompt, REVIEW_PROMPT_MAX_CHARS, type ReviewCommentInput } from '../src/review/reviewPrompt';
import { startSimulator } from '../test/simulator/server';
import { API_KEY, PROJECT } from './pollingClients';

export const REVIEW_REQUESTS_TEXT =
  "Agent requests (POST …/message received by the simulator) for a review of N comments on the agent's branch: Send Review to Agent " +
  '(one follow-up composed of every comment) against one follow-up per comment, each sent through the real ApiClient. ' +
  'Each comment quotes 1 to 12 lines of about 60 characters and says a sentence; in the "whole pages" run each quotes 200 lines, ' +
  `so the review is cut per comment to ${REVIEW_PROMPT_MAX_CHARS.toLocaleString('en-US')} characters.`;

export interface ReviewRequestsRun {
  label: string;
  comments: number;
  /** Requests the review took, as the simulator counted them. */
  review: number;
  /** Requests one follow-up per comment took. */
  perComment: number;
  /** Characters of the review's prompt, and how many comments it cut. */
  promptChars: number;
  shortened: number;
}

function comments(n: number, linesEach: (i: number) => number): ReviewCommentInput[] {
  return Array.from({ length: n }, (_, i) => {
    const count = linesEach(i);
    const start = 1 + ((i * 7) % 90);
    return {
      path: `docs/guides/page-${String(i % 9).padStart(2, '0')}.mdx`,
      startLine: start,
      endLine: start + count - 1,
      lines: Array.from({ length: count }, (_, l) => `Line ${start + l} of the page, as the agent wrote it, about sixty chars.`),
      body: `Comment ${i + 1}: say this more plainly, and link the reference page for the option it names.`,
    };
  });
}

async function run(label: string, list: ReviewCommentInput[]): Promise<ReviewRequestsRun> {
  const sim = await startSimulator({ projects: [PROJECT], agentPostLimitPerHour: 10_000 });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
    const job = sim.addJob(PROJECT, { status: 'completed', prompt: 'Write the guides' });
    const posts = () => sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith(`/job/${job.id}/message`)).length;
    const composed = composeReviewPrompt({ branch: 'mintlify/agent-guides', commit: '0123456789abcdef', comments: list });
    await api.sendMessage(PROJECT, job.id, composed.prompt);
    const review = posts();
    for (const comment of list) await api.sendMessage(PROJECT, job.id, composeReviewPrompt({ comments: [comment] }).prompt);
    return { label, comments: list.length, review, perComment: posts() - review, promptChars: composed.prompt.length, shortened: composed.shortened };
  } finally {
    await sim.close();
  }
}

export async function measureReviewRequests(): Promise<ReviewRequestsRun[]> {
  const runs: ReviewRequestsRun[] = [];
  for (const n of [1, 5, 20, 50])
    runs.push(
      await run(
        `${n} ${n === 1 ? 'comment' : 'comments'}`,
        comments(n, (i) => 1 + (i % 12)),
      ),
    );
  runs.push(
    await run(
      '20 comments on whole pages',
      comments(20, () => 200),
    ),
  );
  return runs;
}

export function reviewRequestsRows(runs: readonly ReviewRequestsRun[]): { figure: string; value: string }[] {
  return runs.map((r) => ({
    figure: `review of ${r.label}: agent requests (one follow-up per comment)`,
    value: `${r.review} (${r.perComment}); the review's prompt ${r.promptChars.toLocaleString('en-US')} characters${r.shortened ? `, ${r.shortened} comments shortened` : ''}`,
  }));
}

export function reviewRequestsSection(runs: readonly ReviewRequestsRun[] | undefined): string {
  return `## 14. Send Review to Agent: agent requests for a review

${REVIEW_REQUESTS_TEXT}${runs?.length ? '' : ' Not measured in this run.'}
A review costs one of the project's 100 agent requests an hour whatever its size; comment by comment it costs one each, so
a review of 50 comments sent that way would take half the project's hour. Reading the branch (the diff, the quoted lines,
following comments to the next round) is git, never the API.

Reproduce: \`npm run bench\` (it runs with \`--no-host\` too).
`;
}
