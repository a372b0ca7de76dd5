// A demo data set for manual testing and screenshots: jobs in every state, some still moving.

import type { AddJobInit, SimJob, Simulator } from './types';

/** Any 'mint_' key works against the simulator; this one is printed by the CLI for copy-paste. */
export const DEMO_API_KEY = 'mint_demo_key_simulator_local';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DOCS = 'https://github.com/acme/docs';
const PORTAL = 'https://github.com/acme/developer-portal';
const SDK_DOCS = 'https://github.com/acme/sdk-docs';

/** Each job was created `ago` ms before now. */
function demoJobs(now: number): (AddJobInit & { ago: number; note?: string })[] {
  return [
    {
      // Long-running: stays active for the whole demo session, then opens a PR.
      ago: 4 * MINUTE,
      prompt: 'Rewrite the quickstart for the new CLI install flow and add a troubleshooting section',
      source: { repository: DOCS, ref: 'mintlify/agent-quickstart-cli' },
      activeForMs: 20 * MINUTE,
    },
    {
      // Finishes with a PR after the simulator's usual job duration.
      ago: 1 * MINUTE,
      prompt: 'Add Python and Go code samples to /api-reference/projects/create',
      source: { repository: PORTAL, ref: 'mintlify/agent-code-samples' },
    },
    {
      // Visibly fails while the demo runs.
      ago: 2 * MINUTE,
      prompt: 'Translate the whole guides section into Japanese',
      source: { repository: DOCS, ref: 'mintlify/agent-ja-guides' },
      activeForMs: 45_000,
      outcome: 'fail',
    },
    {
      // Found nothing to change; a follow-up makes it work ~60 s and open a PR.
      ago: 35 * MINUTE,
      note: 'send it a follow-up: it opens a PR about a minute later',
      prompt: 'Fix the broken links in the 2025 changelog entries',
      source: { repository: DOCS, ref: 'mintlify/agent-changelog-links' },
      status: 'completed',
      prLink: null,
      activeForMs: 60_000,
      outcomeAfterFollowUp: 'pr',
    },
    {
      ago: 3 * HOUR,
      prompt: 'Migrate every code sample to the v3 SDK',
      source: { repository: SDK_DOCS, ref: 'mintlify/agent-sdk-v3' },
      status: 'failed',
    },
    {
      ago: 5 * HOUR,
      prompt: 'Document the new webhook retry policy and its backoff schedule',
      source: { repository: DOCS, ref: 'mintlify/agent-webhook-retries' },
      status: 'completed',
      prLink: `${DOCS}/pull/214`,
    },
    {
      ago: 1 * DAY,
      prompt: 'Check that every page has a description in its frontmatter',
      source: { repository: PORTAL, ref: 'mintlify/agent-frontmatter-audit' },
      status: 'completed',
      prLink: null,
    },
    {
      ago: 6 * DAY,
      prompt: 'Update the pricing page for the new Team plan',
      source: { repository: DOCS, ref: 'mintlify/agent-team-plan' },
      status: 'archived',
      prLink: `${DOCS}/pull/198`,
      archivedAt: new Date(now - 2 * DAY).toISOString(),
    },
  ];
}

/** A seeded job as the simulator first shows it, with the prompt it was created with. */
export interface DemoJob {
  job: SimJob;
  prompt: string;
  /** What is worth trying with it, for the demo's instructions. */
  note?: string;
}

/** Adds the demo jobs to `projectId` (which must be one of the simulator's projects) and returns them. */
export function seedDemo(sim: Simulator, projectId: string): DemoJob[] {
  const now = sim.now();
  return demoJobs(now).map(({ ago, note, ...init }) => ({
    job: sim.addJob(projectId, { ...init, createdAt: new Date(now - ago).toISOString() }),
    prompt: init.prompt ?? '',
    note,
  }));
}
