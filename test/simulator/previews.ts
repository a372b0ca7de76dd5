// Preview deployments of the External API (`POST /v1/project/preview/{projectId}`, `GET
// /v1/project/update-status/{statusId}`), and the small rendered site their preview URL points at.
// A deployment's status is computed from the clock on each read (as jobs are): queued, then
// in_progress, then its outcome, success or failure with logs. The site is a second server on
// 127.0.0.1: every path is a page whose heading names it, and it records what it served (a test
// checks that nothing reached it with an Authorization header).
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply, jsonReply, type Reply } from './http';
import { SlidingWindowLimiter } from './rateLimit';

export interface PreviewOutcome {
  status: 'success' | 'failure';
  summary?: string;
  logs?: string[];
  /** The commit's changed files, as the platform lists them (paths in the repository); default: quickstart.mdx modified. */
  files?: { added: string[]; modified: string[]; removed: string[] };
}

export interface SimPreview {
  statusId: string;
  projectId: string;
  branch: string;
  previewUrl: string;
  sha: string;
  createdAt: number;
}

export interface PreviewSiteRequest {
  path: string;
  authorization?: string;
}

export interface PreviewOptions {
  /** How long a deployment is queued, then how long it builds (ms of the simulator's clock). */
  queuedMs?: number;
  buildMs?: number;
  /** The organisation's deployments a minute (the platform's 5). */
  limitPerMinute?: number;
}

const FAILURE_LOGS = [
  'Cloning the repository',
  'Installing dependencies',
  'Building 14 pages',
  'error: quickstart.mdx:12:1: Expected a closing tag for <Note> (12:1-12:7) before the end of paragraph',
  'error: the build failed: 1 page could not be parsed',
];

/** A deterministic 40-digit hex commit for a branch that no test named one for. */
function fakeSha(seed: string): string {
  let h = 2166136261;
  let out = '';
  while (out.length < 40) {
    for (const c of seed + out.length) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}

export class PreviewDeployments {
  private readonly deployments = new Map<string, SimPreview>();
  private readonly outcomes = new Map<string, PreviewOutcome>();
  private readonly commits = new Map<string, string>();
  private readonly unseen = new Set<string>();
  private readonly limiter: SlidingWindowLimiter;
  private readonly queuedMs: number;
  private readonly buildMs: number;
  private counter = 0;
  /** False: the organisation's plan has no previews (403). */
  plan = true;
  readonly siteRequests: PreviewSiteRequest[] = [];
  private readonly site: Server;
  private readonly sockets = new Set<Socket>();
  private sitePort = 0;

  constructor(
    private readonly now: () => number,
    options: PreviewOptions = {},
  ) {
    this.queuedMs = options.queuedMs ?? 1_000;
    this.buildMs = options.buildMs ?? 3_000;
    this.limiter = new SlidingWindowLimiter(options.limitPerMinute ?? 5, 60_000);
    this.site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      this.siteRequests.push({ path, ...(req.headers.authorization !== undefined && { authorization: req.headers.authorization }) });
      const page = renderPage(path);
      res.writeHead(page.status, { 'Content-Type': page.contentType, 'Content-Length': Buffer.byteLength(page.body), 'Cache-Control': 'no-store' });
      res.end(page.body);
    });
    this.site.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get siteUrl(): string {
    return `http://127.0.0.1:${this.sitePort}`;
  }

  listen(): Promise<void> {
    return new Promise((resolve) => {
      this.site.listen(0, '127.0.0.1', () => {
        const address = this.site.address();
        this.sitePort = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.site.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  /** What the next deployment of `branch` ends as (default: success). */
  setOutcome(branch: string, outcome: PreviewOutcome | undefined): void {
    if (outcome) this.outcomes.set(branch, outcome);
    else this.outcomes.delete(branch);
  }

  /** The commit the platform builds for `branch` (default: one made up from its name). */
  setCommit(branch: string, sha: string): void {
    this.commits.set(branch, sha);
  }

  /** The platform cannot see this branch (its repository is not the connected one): 400. */
  hideBranch(branch: string): void {
    this.unseen.add(branch);
  }

  all(): SimPreview[] {
    return [...this.deployments.values()];
  }

  reset(): void {
    this.limiter.reset();
  }

  /** POST /v1/project/preview/{projectId}, its body already read; the project is known. */
  create(projectId: string, contentType: string | undefined, body: string): Reply {
    if (!this.plan) return errorReply(403, 'Preview deployments are not available on your current plan.');
    let branch: unknown;
    try {
      branch = (JSON.parse(body) as { branch?: unknown } | null)?.branch;
    } catch {
      branch = undefined;
    }
    if (!/^application\/json\b/i.test(contentType ?? '') || typeof branch !== 'string' || branch === '')
      return errorReply(400, 'Invalid request. The `branch` field is required.');
    if (this.unseen.has(branch)) return errorReply(400, `Branch "${branch}" was not found in the repository connected to this project.`);
    const slot = this.limiter.take('organisation', this.now());
    if (!slot.ok) return errorReply(429, 'Rate limit exceeded', undefined, { 'Retry-After': String(slot.retryAfterSeconds) });
    const statusId = `st_${(++this.counter).toString(36).padStart(8, '0')}`;
    const slug = branch.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const deployment: SimPreview = {
      statusId,
      projectId,
      branch,
      previewUrl: `${this.siteUrl}/${slug}`,
      sha: this.commits.get(branch) ?? fakeSha(branch),
      createdAt: this.now(),
    };
    this.deployments.set(statusId, deployment);
    // The outcome is fixed when the deployment starts, as a build's would be.
    this.outcomes.set(statusId, this.outcomes.get(branch) ?? { status: 'success' });
    return jsonReply(202, { statusId, previewUrl: deployment.previewUrl });
  }

  /** GET /v1/project/update-status/{statusId}. */
  status(statusId: string): Reply {
    const d = this.deployments.get(statusId);
    if (!d) return errorReply(404, 'Status not found');
    const age = this.now() - d.createdAt;
    const outcome = this.outcomes.get(statusId) ?? { status: 'success' };
    const status = age < this.queuedMs ? 'queued' : age < this.queuedMs + this.buildMs ? 'in_progress' : outcome.status;
    const ended = status === 'success' || status === 'failure';
    const logs =
      status === 'queued'
        ? []
        : status === 'in_progress'
          ? ['Cloning the repository', 'Installing dependencies']
          : (outcome.logs ?? (status === 'failure' ? FAILURE_LOGS : ['Cloning the repository', 'Installing dependencies', 'Building 14 pages', 'Deployed']));
    const summary =
      status === 'queued'
        ? 'Waiting for a builder'
        : status === 'in_progress'
          ? 'Building'
          : (outcome.summary ?? (status === 'failure' ? 'The build failed: 1 page could not be parsed' : 'Deployed'));
    return jsonReply(200, {
      _id: statusId,
      projectId: d.projectId,
      createdAt: new Date(d.createdAt).toISOString(),
      ...(ended && { endedAt: new Date(d.createdAt + this.queuedMs + this.buildMs).toISOString() }),
      status,
      summary,
      logs,
      subdomain: d.branch.replace(/[^a-z0-9]+/gi, '-').toLowerCase(),
      ...(status === 'success' && {
        screenshot: `${d.previewUrl}/_screenshots/light.png`,
        screenshotLight: `${d.previewUrl}/_screenshots/light.png`,
        screenshotDark: `${d.previewUrl}/_screenshots/dark.png`,
      }),
      author: null,
      commit: {
        sha: d.sha,
        ref: d.branch,
        message: `Agent changes on ${d.branch}`,
        filesChanged: outcome.files ?? { added: [], modified: ['quickstart.mdx'], removed: [] },
      },
      source: 'api',
    });
  }
}

/** Enough of a docs theme for the rendered page to read as one (the README's screenshot shows it). */
const SITE_STYLE = [
  'body{margin:0;font:15px/1.6 system-ui,sans-serif;color:#0f172a;background:#fff;display:grid;grid-template-columns:180px 1fr;grid-template-rows:48px 1fr}',
  'header{grid-column:1/3;display:flex;align-items:center;gap:8px;padding:0 20px;border-bottom:1px solid #e2e8f0;font-weight:600}',
  'header span{font-size:11px;color:#0d9373;border:1px solid #0d9373;border-radius:9px;padding:0 6px}',
  'nav{padding:16px;display:flex;flex-direction:column;gap:6px;font-size:13px;color:#475569}nav .on{color:#0d9373;font-weight:600}',
  'main{padding:20px 28px}h1{margin:0 0 8px;font-size:26px}',
  '.callout{border:1px solid #bae6fd;background:#f0f9ff;border-radius:8px;padding:10px 14px;margin:12px 0}',
  'pre{background:#0f172a;color:#e2e8f0;border-radius:8px;padding:12px 14px}.path{color:#94a3b8;font-size:12px}',
].join('');

/** A 1x1 PNG: what the screenshots are. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function renderPage(path: string): { status: number; contentType: string; body: string | Buffer } {
  if (path.endsWith('.png')) return { status: 200, contentType: 'image/png', body: PIXEL };
  const page = path.split('/').filter(Boolean).slice(1).join('/') || 'index';
  const title =
    page
      .replace(/[^a-z0-9/-]/gi, '')
      .split('/')
      .pop()
      ?.replace(/-/g, ' ') ?? 'index';
  const heading = title.charAt(0).toUpperCase() + title.slice(1);
  return {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><title>${heading} - Preview</title><style>${SITE_STYLE}</style></head><body><header>Acme Docs <span>preview</span></header><nav><a>Introduction</a><a class="on">${heading}</a><a>Guides</a><a>API reference</a></nav><main><h1>${heading}</h1><p>Get started in five minutes: install the CLI, then preview your docs locally.</p><div class="callout">Install the CLI first.</div><pre><code>npm i -g mint\nmint dev</code></pre><p class="path">Rendered page /${page}</p></main></body></html>`,
  };
}
