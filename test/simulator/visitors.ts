// The deterministic visitors data set behind GET /v1/analytics/{projectId}/visitors, and its queries.
// Pure: no HTTP, no clock.
//
// Unique visitors cannot be summed over days or pages, so the data set models visitor identities:
// every (path, day) record is a small list of visitor ids. Each id has a fixed kind (human, AI, or
// both: e.g. a person who also reads through an AI assistant on the same device), so for any range
//   human = distinct ids of kind human|both, ai = distinct ids of kind ai|both, total = distinct ids,
// per path and site-wide. Ids come from a site-wide pool (people who read many pages) and a per-path
// pool, which makes the site total far smaller than the sum of the page totals. Every record with an
// AI-only id also holds a 'both' id, so total < human + ai whenever a range has any AI traffic.

import { mix32, mulberry32, pick, randomInt } from './random';
import type { VisitorCounts, VisitorRow } from './types';
import { DAY_MS } from './validate';

export interface VisitorsDataSetOptions {
  seed: number;
  pathCount: number;
  /** Records cover [today - days, today], i.e. days + 1 days. */
  days: number;
  /** 'YYYY-MM-DD', UTC. */
  today: string;
  /** Paths at ranks 0, 1, … (counted in pathCount), before the head paths. */
  topPaths?: readonly string[];
}

export interface VisitorsResult {
  totals: VisitorCounts;
  /** Sorted: total desc, then path asc (UTF-16 code units); rows with no visitor omitted. */
  rows: readonly VisitorRow[];
}

export interface VisitorsPage {
  totals: VisitorCounts;
  visitors: VisitorRow[];
  hasMore: boolean;
}

const HUMAN = 1;
const AI = 2;
const BOTH = HUMAN | AI;
/** HUMAN, AI or BOTH (a bit set). */
type Kind = number;

/** Site-wide pool, split by kind. */
const SITE_HUMAN = 32_000;
const SITE_AI = 6_000;
const SITE_BOTH = 2_000;
/** Expected daily visits of the most popular page; the others follow Zipf (peak / rank). */
const PEAK_DAILY_VISITS = 600;
/** Share of visits drawn from the site-wide pool rather than the page's own pool. */
const SITE_SHARE = 0.55;
const CACHE_SIZE = 64;

/** Ids of one kind: `count` consecutive ids starting at `base`. */
interface IdRange {
  base: number;
  count: number;
}

type Pools = Record<Kind, IdRange>;

interface Compiled {
  /** Record (path p, day d) holds ids[offsets[p * dayCount + d] .. offsets[p * dayCount + d + 1]). */
  offsets: Uint32Array;
  ids: Uint32Array;
  kinds: Uint8Array;
  /** Dedup marks, reused by every query. */
  seenOnPath: Uint32Array;
  seenOnSite: Uint8Array;
  stamp: number;
}

export class VisitorsDataSet {
  readonly paths: readonly string[];
  /** 00:00 UTC of the first day. */
  readonly startMs: number;
  readonly dayCount: number;
  private compiled: Compiled | undefined;
  private readonly cache = new Map<string, VisitorsResult>();

  constructor(private readonly options: VisitorsDataSetOptions) {
    const today = /^(\d{4})-(\d{2})-(\d{2})$/.exec(options.today);
    const todayMs = today ? Date.UTC(Number(today[1]), Number(today[2]) - 1, Number(today[3])) : Number.NaN;
    if (!today || new Date(todayMs).toISOString().slice(0, 10) !== options.today) {
      throw new Error(`today must be a real YYYY-MM-DD day, got ${JSON.stringify(options.today)}`);
    }
    for (const name of ['pathCount', 'days'] as const) {
      if (!Number.isSafeInteger(options[name]) || options[name] < 0) throw new Error(`${name} must be a non-negative integer`);
    }
    this.dayCount = options.days + 1;
    this.startMs = todayMs - options.days * DAY_MS;
    this.paths = makePaths(options.seed, options.pathCount, options.topPaths);
  }

  /**
   * Visitors of records whose day starts in [fromMs, toMs) (undefined = unbounded): a record of day D
   * stands for the instant D 00:00 UTC, so a plain date is inclusive as dateFrom and exclusive as dateTo.
   * Cached per day window; do not mutate the result.
   */
  query(fromMs?: number, toMs?: number): VisitorsResult {
    const clampDay = (ms: number | undefined, fallback: number): number =>
      ms === undefined ? fallback : Math.min(this.dayCount, Math.max(0, Math.ceil((ms - this.startMs) / DAY_MS)));
    const first = clampDay(fromMs, 0);
    const end = clampDay(toMs, this.dayCount);
    const key = `${first}:${end}`;
    let result = this.cache.get(key);
    if (!result) {
      result = this.compute(first, end);
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, result);
    }
    return result;
  }

  /**
   * View events (GET /views) of the same records: every visit is one event, a person's (human or
   * both) counts as human, an AI-only one as AI, and total = human + ai. Same range rule, order and
   * paging as visitors, so views >= unique visitors on every row. Not cached: a plain sum is cheap.
   */
  queryViews(fromMs?: number, toMs?: number): VisitorsResult {
    const clampDay = (ms: number | undefined, fallback: number): number =>
      ms === undefined ? fallback : Math.min(this.dayCount, Math.max(0, Math.ceil((ms - this.startMs) / DAY_MS)));
    const first = clampDay(fromMs, 0);
    const end = clampDay(toMs, this.dayCount);
    const { offsets, ids, kinds } = (this.compiled ??= this.compile());
    const totals = { human: 0, ai: 0, total: 0 };
    const rows: VisitorRow[] = [];
    if (end <= first) return { totals, rows };
    this.paths.forEach((path, p) => {
      let human = 0;
      let ai = 0;
      const from = offsets[p * this.dayCount + first] ?? 0;
      const to = offsets[p * this.dayCount + end] ?? 0;
      for (let i = from; i < to; i++) {
        if ((kinds[ids[i] ?? 0] ?? 0) & HUMAN) human++;
        else ai++;
      }
      if (human + ai > 0) rows.push({ path, human, ai, total: human + ai });
      totals.human += human;
      totals.ai += ai;
    });
    totals.total = totals.human + totals.ai;
    rows.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { totals, rows };
  }

  private compute(firstDay: number, endDay: number): VisitorsResult {
    const data = (this.compiled ??= this.compile());
    const { offsets, ids, kinds, seenOnPath, seenOnSite } = data;
    seenOnSite.fill(0);
    const totals = { human: 0, ai: 0, total: 0 };
    const rows: VisitorRow[] = [];
    if (endDay <= firstDay) return { totals, rows };

    this.paths.forEach((path, p) => {
      if (data.stamp === 0xffffffff) {
        seenOnPath.fill(0);
        data.stamp = 0;
      }
      const stamp = ++data.stamp;
      let human = 0;
      let ai = 0;
      let total = 0;
      const from = offsets[p * this.dayCount + firstDay] ?? 0;
      const to = offsets[p * this.dayCount + endDay] ?? 0;
      for (let i = from; i < to; i++) {
        const id = ids[i] ?? 0;
        const kind = kinds[id] ?? 0;
        if (seenOnPath[id] !== stamp) {
          seenOnPath[id] = stamp;
          total++;
          if (kind & HUMAN) human++;
          if (kind & AI) ai++;
        }
        if (seenOnSite[id] === 0) {
          seenOnSite[id] = 1;
          totals.total++;
          if (kind & HUMAN) totals.human++;
          if (kind & AI) totals.ai++;
        }
      }
      if (total > 0) rows.push({ path, human, ai, total });
    });
    rows.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { totals, rows };
  }

  /** Draws every record. Each record has its own PRNG seeded by (seed, rank, calendar day), so the
   * value of a day does not depend on `today` or `days`, and a smaller pathCount is a prefix. */
  private compile(): Compiled {
    const { seed } = this.options;
    const pathCount = this.paths.length;
    const dayCount = this.dayCount;
    const firstEpochDay = Math.round(this.startMs / DAY_MS);

    const site: Pools = {
      [HUMAN]: { base: 0, count: SITE_HUMAN },
      [AI]: { base: SITE_HUMAN, count: SITE_AI },
      [BOTH]: { base: SITE_HUMAN + SITE_AI, count: SITE_BOTH },
    };
    let nextId = SITE_HUMAN + SITE_AI + SITE_BOTH;
    const pathPools: Pools[] = [];
    const dailyVisits: number[] = [];
    const aiShares: number[] = [];
    this.paths.forEach((path, rank) => {
      const expected = PEAK_DAILY_VISITS / (rank + 1);
      dailyVisits.push(expected);
      aiShares.push(aiShareOf(path));
      // A page's own readership grows with its popularity.
      const size = Math.max(6, Math.ceil(expected * 5));
      const both = Math.max(1, Math.round(size * 0.05));
      const ai = Math.max(1, Math.round(size * 0.15));
      const human = Math.max(1, size - both - ai);
      const pools: Pools = {
        [HUMAN]: { base: nextId, count: human },
        [AI]: { base: nextId + human, count: ai },
        [BOTH]: { base: nextId + human + ai, count: both },
      };
      nextId += human + ai + both;
      pathPools.push(pools);
    });

    const kinds = new Uint8Array(nextId);
    for (const pools of [site, ...pathPools]) {
      for (const kind of [HUMAN, AI, BOTH] as const) kinds.fill(kind, pools[kind].base, pools[kind].base + pools[kind].count);
    }

    const offsets = new Uint32Array(pathCount * dayCount + 1);
    const ids = new GrowableUint32(Math.ceil(dailyVisits.reduce((a, b) => a + b, 0) * dayCount * 1.1) + 1024);
    for (let p = 0; p < pathCount; p++) {
      const pools = pathPools[p];
      const expected = dailyVisits[p] ?? 0;
      const aiShare = aiShares[p] ?? 0;
      for (let d = 0; d < dayCount; d++) {
        const epochDay = firstEpochDay + d;
        const rng = mulberry32(mix32(seed ^ mix32(Math.imul(p + 1, 0x9e3779b1) ^ mix32(epochDay))));
        const visits = poisson(rng, expected * dayFactor(epochDay));
        let aiOnly = false;
        let both = false;
        for (let v = 0; v < visits; v++) {
          const kind: Kind = rng() < aiShare ? (rng() < 0.15 ? BOTH : AI) : rng() < 0.04 ? BOTH : HUMAN;
          const range = (rng() < SITE_SHARE ? site : pools)[kind];
          ids.push(range.base + randomInt(rng, range.count));
          if (kind === AI) aiOnly = true;
          if (kind === BOTH) both = true;
        }
        if (aiOnly && !both) ids.push(pools[BOTH].base + randomInt(rng, pools[BOTH].count));
        offsets[p * dayCount + d + 1] = ids.length;
      }
    }
    return {
      offsets,
      ids: ids.done(),
      kinds,
      seenOnPath: new Uint32Array(nextId),
      seenOnSite: new Uint8Array(nextId),
      stamp: 0,
    };
  }
}

/** One page of a result: the server's paging, so tests and server cannot disagree. */
export function pageOf(result: VisitorsResult, limit: number, offset: number): VisitorsPage {
  return {
    totals: { ...result.totals },
    visitors: result.rows.slice(offset, offset + limit).map((row) => ({ ...row })),
    hasMore: offset + limit < result.rows.length,
  };
}

/** Weekends are quieter, and traffic drifts over a quarter. */
function dayFactor(epochDay: number): number {
  const weekday = (epochDay + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const weekend = weekday === 0 || weekday === 6 ? 0.55 : 1;
  return weekend * (1 + 0.15 * Math.sin((2 * Math.PI * epochDay) / 91));
}

/** API reference pages are what AI crawlers and assistants read most. */
function aiShareOf(path: string): number {
  if (path.startsWith('/api-reference/')) return 0.4;
  if (path.startsWith('/sdks/')) return 0.25;
  return 0.12;
}

function poisson(rng: () => number, mean: number): number {
  if (mean <= 0) return 0;
  if (mean < 30) {
    const limit = Math.exp(-mean);
    let k = 0;
    let product = rng();
    while (product > limit) {
      k++;
      product *= rng();
    }
    return k;
  }
  // Normal approximation: exact enough for large means and far cheaper.
  const gauss = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return Math.max(0, Math.round(mean + Math.sqrt(mean) * gauss));
}

class GrowableUint32 {
  private buffer: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.buffer.length) {
      const bigger = new Uint32Array(this.buffer.length * 2);
      bigger.set(this.buffer);
      this.buffer = bigger;
    }
    this.buffer[this.length++] = value;
  }

  done(): Uint32Array {
    return this.buffer.slice(0, this.length);
  }
}

// ---- Paths ---------------------------------------------------------------------------------------

const HEAD_PATHS = [
  '/introduction',
  '/quickstart',
  '/api-reference/introduction',
  '/installation',
  '/api-reference/authentication',
  '/guides/deploy-to-production',
  '/concepts/projects',
  '/sdks/typescript/getting-started',
  '/changelog',
  '/guides/custom-domains',
];

/** Paths that break naive rendering, CSV export or URL handling. Placed among the popular ranks so
 * they show up on the first page. */
const AWKWARD_PATHS = [
  '/<img src=x onerror=alert(1)>',
  '/guides/say-"hello",-world',
  '/=cmd',
  `/reference/${'deeply-nested-section/'.repeat(226)}`.padEnd(5000, 'x'), // exactly 5000 characters
  '/+x',
  '/guides/café-über-日本語',
  '/-x',
  '/@x',
  '/guides/100%-uptime',
  '/guides/a b?c#d',
];

const RESOURCES = [
  'projects',
  'deployments',
  'pages',
  'users',
  'teams',
  'api-keys',
  'webhooks',
  'domains',
  'analytics',
  'feedback',
  'search',
  'assistant',
  'agent',
  'jobs',
  'navigation',
  'snippets',
  'redirects',
  'versions',
  'languages',
  'themes',
  'integrations',
  'audit-logs',
  'billing',
  'invoices',
  'previews',
  'comments',
];
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'export', 'archive'];
const TOPICS = [
  'authentication',
  'pagination',
  'rate-limits',
  'errors',
  'webhooks',
  'versioning',
  'caching',
  'search',
  'navigation',
  'theming',
  'custom-components',
  'code-blocks',
  'openapi',
  'migration',
  'localization',
  'analytics',
  'seo',
  'redirects',
  'previews',
  'ci-cd',
  'monorepos',
  'access-control',
  'sso',
  'embeds',
  'images',
  'videos',
  'tables',
  'callouts',
  'tabs',
  'accordions',
  'snippets',
  'variables',
  'changelogs',
  'feedback',
  'assistant',
  'llms-txt',
  'mcp-server',
  'github-sync',
  'gitlab-sync',
  'broken-links',
];
const QUALIFIERS = ['', 'advanced-', 'introduction-to-', 'troubleshooting-', 'best-practices-for-', 'migrating-'];
const LANGUAGES = ['typescript', 'python', 'go', 'ruby', 'java', 'php', 'rust', 'csharp'];
const VENDORS = [
  'github',
  'gitlab',
  'bitbucket',
  'vercel',
  'netlify',
  'cloudflare',
  'segment',
  'posthog',
  'amplitude',
  'mixpanel',
  'intercom',
  'slack',
  'discord',
  'zapier',
  'algolia',
  'google-analytics',
  'hotjar',
  'plausible',
];

/** `count` distinct paths in popularity order (rank 0 first), deterministic for a seed. */
function makePaths(seed: number, count: number, top: readonly string[] = []): string[] {
  const rng = mulberry32(mix32(seed ^ 0x5eed));
  const seen = new Set<string>();
  const paths: string[] = [];
  const add = (path: string): boolean => {
    if (seen.has(path)) return false;
    seen.add(path);
    paths.push(path);
    return true;
  };
  for (const path of top.slice(0, count)) add(path);
  const awkward = [...AWKWARD_PATHS];
  const head = [...HEAD_PATHS];
  while (paths.length < count) {
    const rank = paths.length;
    // Awkward paths at ranks 3, 7, 11, ...; the head paths fill the top ranks in between.
    if (rank % 4 === 3 && awkward.length) {
      add(awkward.shift() as string);
      continue;
    }
    if (head.length) {
      add(head.shift() as string);
      continue;
    }
    let added = false;
    for (let attempt = 0; attempt < 20 && !added; attempt++) added = add(randomPath(rng));
    if (!added) add(`/pages/page-${rank}`);
  }
  return paths;
}

function randomPath(rng: () => number): string {
  switch (randomInt(rng, 6)) {
    case 0:
      return `/api-reference/${pick(rng, RESOURCES)}/${pick(rng, VERBS)}`;
    case 1:
      return `/guides/${pick(rng, QUALIFIERS)}${pick(rng, TOPICS)}`;
    case 2:
      return `/sdks/${pick(rng, LANGUAGES)}/${pick(rng, TOPICS)}`;
    case 3:
      return `/integrations/${pick(rng, VENDORS)}${rng() < 0.5 ? '' : `/${pick(rng, TOPICS)}`}`;
    case 4: {
      const day = new Date(Date.UTC(2021, 0, 1) + randomInt(rng, 2000) * DAY_MS).toISOString().slice(0, 10);
      return `/changelog/${day}`;
    }
    default:
      return `/concepts/${pick(rng, TOPICS)}`;
  }
}
