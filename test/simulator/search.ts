// The site's own search (the discovery API's `POST /discovery/v1/search/{domain}`), over an index of
// the simulated site with ground truth: every page of the visitors data set is a document made of its
// path's words, and each search term that readers click is in the page its clicks land on (the terms
// nobody clicks are in no page, so some find nothing and some find pages that only share a word). A
// simulated deploy (`deploy`) adds, changes or removes pages; the index changes when it lands (at
// once, or `landsInMs` of the simulator's clock later). `resultsFor` is what the endpoint answers.
// Authenticated with an assistant key (`mint_dsc_…`); an admin key is refused. Its own limit:
// 10,000 searches an hour for the organisation. Only the site's own domain is indexed: any other
// (a preview's, which the platform does not document as searchable) answers 404.
import { errorReply, jsonReply, type Reply } from './http';
import { SlidingWindowLimiter } from './rateLimit';

export interface SiteSearchOptions {
  /** The site's domain identifier (`<domain>.mintlify.site`); default `acme-docs`. */
  domain?: string;
  /** Searches an hour for the organisation; default 10,000. */
  limitPerHour?: number;
}

/** One result as the endpoint answers it. */
export interface SearchHit {
  content: string;
  path: string;
  metadata: { title: string; score: number };
}

interface Deploy {
  at: number;
  pages: Record<string, string>;
  removed: readonly string[];
}

/** Each term's occurrences in a page count up to this (a page that repeats a term does not drown the rest). */
const MAX_OCCURRENCES = 3;
const DEFAULT_PAGE_SIZE = 10;

export class SiteSearch {
  readonly domain: string;
  private readonly limiter: SlidingWindowLimiter;
  private index: Map<string, string> | undefined;
  private readonly deploys: Deploy[] = [];
  private readonly refused = new Set<string>();

  constructor(
    private readonly now: () => number,
    /** The site's pages and the terms readers click, each with its page: read when the index is first needed. */
    private readonly site: () => { paths: readonly string[]; clicked: readonly { searchQuery: string; page: string }[] },
    options: SiteSearchOptions = {},
  ) {
    this.domain = options.domain ?? 'acme-docs';
    this.limiter = new SlidingWindowLimiter(options.limitPerHour ?? 10_000);
  }

  /**
   * A deploy of the site: `pages` (site path → its text) are added or replaced, `removed` go. The
   * index changes when it lands: now, or `landsInMs` later on the simulator's clock.
   */
  deploy(pages: Record<string, string>, options: { removed?: readonly string[]; landsInMs?: number } = {}): void {
    this.deploys.push({ at: this.now() + (options.landsInMs ?? 0), pages: { ...pages }, removed: [...(options.removed ?? [])] });
  }

  /** The text of a page as the index has it now, or undefined. */
  pageText(path: string): string | undefined {
    return this.documents().get(path);
  }

  /** Ground truth: what a search of `query` answers now (no request recorded, no slot taken). */
  resultsFor(query: string, pageSize = DEFAULT_PAGE_SIZE): SearchHit[] {
    const terms = tokens(query);
    if (!terms.length) return [];
    const scored: { path: string; text: string; score: number }[] = [];
    for (const [path, text] of this.documents()) {
      const words = tokens(text);
      let score = 0;
      for (const term of new Set(terms)) score += Math.min(MAX_OCCURRENCES, words.filter((w) => w === term).length);
      if (score > 0) scored.push({ path, text, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const best = MAX_OCCURRENCES * new Set(terms).size;
    return scored.slice(0, pageSize).map(({ path, text, score }, i) => ({
      content: text.slice(0, 200),
      // Half the answers name the page by its site path without the leading slash, half by its URL.
      path: i % 2 === 0 ? path.replace(/^\//, '') : `https://${this.domain}.mintlify.site${encodeURI(path)}`,
      metadata: { title: titleOf(path), score: Math.round((score / best) * 1000) / 1000 },
    }));
  }

  /** From now on that key gets 403 (a key the organisation turned off for search). */
  forbid(key: string): void {
    this.refused.add(key);
  }

  reset(): void {
    this.limiter.reset();
    this.refused.clear();
  }

  /** The answer to a request of the route (after faults; before anything else). */
  answer(domain: string, authorization: string | undefined, contentType: string | undefined, body: string, revoked: ReadonlySet<string>): Reply {
    const key = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    if (!key) return errorReply(401, authorization === undefined ? 'Missing Authorization header' : 'Authorization header must be "Bearer <API key>"');
    if (!key.startsWith('mint_dsc_') || key.length === 'mint_dsc_'.length) return errorReply(401, 'An assistant API key is required');
    if (revoked.has(key)) return errorReply(401, 'API key has been revoked');
    if (this.refused.has(key)) return errorReply(403, 'This key may not search this deployment');
    if (domain !== this.domain) return errorReply(404, 'Deployment not found');
    const checked = checkSearchBody(contentType, body);
    if (!checked.ok) return errorReply(400, 'Invalid request', checked.errors);
    const slot = this.limiter.take('organisation', this.now());
    if (!slot.ok) return errorReply(429, 'Rate limit exceeded', undefined, { 'Retry-After': String(slot.retryAfterSeconds) });
    return jsonReply(200, this.resultsFor(checked.query, checked.pageSize));
  }

  /** The site as the deploys that have landed made it. */
  private documents(): Map<string, string> {
    if (!this.index) {
      const { paths, clicked } = this.site();
      this.index = new Map(paths.map((path) => [path, words(path)]));
      for (const { searchQuery, page } of clicked) {
        const text = this.index.get(page);
        // In its title and a heading: the page readers click ranks above pages that only share a word with it.
        if (text !== undefined) this.index.set(page, `${text} ${searchQuery} ${searchQuery}`);
      }
    }
    const now = this.now();
    while (this.deploys.length && (this.deploys[0]?.at ?? Infinity) <= now) {
      const landed = this.deploys.shift() as Deploy;
      for (const path of landed.removed) this.index.delete(path);
      for (const [path, text] of Object.entries(landed.pages)) this.index.set(path, text);
    }
    return this.index;
  }
}

function checkSearchBody(contentType: string | undefined, body: string): { ok: true; query: string; pageSize: number } | { ok: false; errors: string[] } {
  if (!/^application\/json\b/i.test(contentType ?? '')) return { ok: false, errors: ['Content-Type must be application/json'] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, errors: ['The body is not valid JSON'] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, errors: ['The body must be an object'] };
  const { query, pageSize, scoreThreshold, filter } = value as Record<string, unknown>;
  const errors: string[] = [];
  if (typeof query !== 'string' || !query.trim()) errors.push('query: a non-empty string is required');
  if (pageSize !== undefined && (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50))
    errors.push('pageSize: an integer from 1 to 50');
  if (scoreThreshold !== undefined && (typeof scoreThreshold !== 'number' || scoreThreshold < 0 || scoreThreshold > 1))
    errors.push('scoreThreshold: a number from 0 to 1');
  if (filter !== undefined && (typeof filter !== 'object' || filter === null || Array.isArray(filter))) errors.push('filter: an object');
  if (errors.length) return { ok: false, errors };
  return { ok: true, query: query as string, pageSize: (pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE };
}

/** Lower-case words and numbers. */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A page's text in the index: its path's words (`/guides/custom-domain` → `guides custom domain`). */
function words(path: string): string {
  return tokens(path).join(' ');
}

function titleOf(path: string): string {
  const last = path.split('/').filter(Boolean).pop() ?? 'Home';
  return last.replace(/[-_]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}
