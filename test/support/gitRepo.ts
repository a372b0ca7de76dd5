// Real git for the tests: a bare repository on disk as the `file://` remote, with `main` holding the
// workspace fixture and an agent branch whose commits add, change, delete and rename files. The
// host tier's workspace is a clone of it (test/run.ts), so Review Changes has a real branch to fetch.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The agent branch every test repository has. */
export const AGENT_BRANCH = 'mintlify/agent-review';

/** What the agent branch does, relative to the repository root. */
export const AGENT_BRANCH_CHANGES = {
  added: 'docs/guides/sdks.mdx',
  modified: 'docs/quickstart.mdx',
  deleted: 'docs/snippets/beta-note.mdx',
  renamedFrom: 'docs/guides/webhooks.md',
  renamedTo: 'docs/guides/webhook-events.md',
} as const;

const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main'];

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Who makes a commit, and when (epoch ms; default now): the Mintlify agent commits as its GitHub App. */
export interface Committer {
  name: string;
  email: string;
  at?: number;
}

/** The Mintlify agent's identity on GitHub: its commits' author and committer. */
export const MINTLIFY_BOT: Committer = { name: 'mintlify[bot]', email: '109931778+mintlify[bot]@users.noreply.github.com' };

function commitEnv(as: Committer | undefined): NodeJS.ProcessEnv | undefined {
  if (!as) return undefined;
  const date = as.at === undefined ? undefined : `@${Math.floor(as.at / 1000)} +0000`;
  return {
    ...process.env,
    GIT_AUTHOR_NAME: as.name,
    GIT_AUTHOR_EMAIL: as.email,
    GIT_COMMITTER_NAME: as.name,
    GIT_COMMITTER_EMAIL: as.email,
    ...(date && { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
  };
}

export interface TestRepository {
  /** The bare repository's `file://` URL: the workspace's origin and the jobs' `source.repository`. */
  url: string;
  bare: string;
}

/**
 * Makes the bare remote from `fixture` and clones it into `workspaceFolder` (which must be empty or
 * absent). The clone ignores `.vscode/` (the tests write workspace settings) so its tree stays clean.
 */
export function makeTestRepository(fixture: string, workspaceFolder: string): TestRepository {
  const root = mkdtempSync(join(tmpdir(), 'mintlify-remote-'));
  const bare = join(root, 'docs.git');
  git(root, 'init', '--bare', '--initial-branch=main', bare);
  const url = pathToFileURL(bare).href;
  const seed = join(root, 'seed');
  cpSync(fixture, seed, { recursive: true });
  writeFile(seed, AGENT_BRANCH_CHANGES.deleted, '<Note>This feature is in beta.</Note>\n');
  git(seed, 'init', '--initial-branch=main');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-m', 'Docs as they are');
  git(seed, 'remote', 'add', 'origin', url);
  git(seed, 'push', 'origin', 'main');
  git(seed, 'checkout', '-b', AGENT_BRANCH);
  writeFile(seed, AGENT_BRANCH_CHANGES.added, '---\ntitle: SDKs\n---\n\nUse the TypeScript or Python SDK.\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-m', 'Add an SDK page');
  const quickstart = join(seed, AGENT_BRANCH_CHANGES.modified);
  writeFileSync(quickstart, `${readFileSync(quickstart, 'utf8')}\nThe agent added this line.\n`);
  rmSync(join(seed, AGENT_BRANCH_CHANGES.deleted));
  git(seed, 'commit', '-am', 'Clarify the quickstart, drop the beta note');
  renameSync(join(seed, AGENT_BRANCH_CHANGES.renamedFrom), join(seed, AGENT_BRANCH_CHANGES.renamedTo));
  git(seed, 'add', '-A');
  git(seed, 'commit', '-m', 'Rename the webhooks guide');
  git(seed, 'push', 'origin', AGENT_BRANCH);
  rmSync(seed, { recursive: true, force: true });
  git(dirname(workspaceFolder), 'clone', '--quiet', url, workspaceFolder);
  writeFileSync(join(workspaceFolder, '.git', 'info', 'exclude'), '.vscode/\n');
  git(workspaceFolder, 'config', 'user.name', 'Test');
  git(workspaceFolder, 'config', 'user.email', 'test@example.com');
  return { url, bare };
}

/** Pushes a new branch made from `main` by `change` (run in a scratch clone), e.g. 50 changed files. */
export function pushBranch(repo: Pick<TestRepository, 'url'>, branch: string, change: (clone: string) => void): void {
  const scratch = mkdtempSync(join(tmpdir(), 'mintlify-scratch-'));
  try {
    git(scratch, 'clone', '--quiet', repo.url, 'clone');
    const clone = join(scratch, 'clone');
    git(clone, 'checkout', '-b', branch);
    change(clone);
    git(clone, 'add', '-A');
    git(clone, 'commit', '-m', `Agent work on ${branch}`);
    git(clone, 'push', 'origin', branch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Pushes one more commit made by `change` on top of `branch` (the agent's next round): the branch
 * moves. `as`: who commits and when (default the tests' identity, now). Returns the new commit.
 */
export function pushCommit(repo: Pick<TestRepository, 'url'>, branch: string, message: string, change: (clone: string) => void, as?: Committer): string {
  const scratch = mkdtempSync(join(tmpdir(), 'mintlify-scratch-'));
  try {
    git(scratch, 'clone', '--quiet', '--branch', branch, repo.url, 'clone');
    const clone = join(scratch, 'clone');
    change(clone);
    git(clone, 'add', '-A');
    execFileSync('git', [...IDENTITY, 'commit', '-m', message], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'], env: commitEnv(as) });
    git(clone, 'push', 'origin', branch);
    return git(clone, 'rev-parse', 'HEAD');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function writeFile(root: string, relative: string, text: string): void {
  mkdirSync(dirname(join(root, relative)), { recursive: true });
  writeFileSync(join(root, relative), text);
}
