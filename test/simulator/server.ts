// An HTTP simulator of the Mintlify admin API (agent jobs) and analytics API (unique visitors),
// written from the OpenAPI documents in /work/shared/spec as an independent oracle: node's http
// module only, nothing shared with the extension's own code.
//
// Order of checks for every request (see README.md):
//   record -> fault -> route (404/405) -> auth (401) -> read-only key on POST (403) -> project (404)
//   -> body/query (413/400) -> rate limit (429) -> job (404) -> answer.
// So 401/403/404-project/400 answers never take a rate-limit slot, and neither does a 429; a
// follow-up to an unknown job does (the job is looked up after the slot is taken).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brokenVisitorsReply, deliverBadly, FaultRules, isDeliveryFault, malformedJsonReply, rateLimitFaultReply, statusFaultReply } from './faults';
import { errorReply, jsonReply, splitPath, type Reply } from './http';
import { JobStore } from './jobs';
import { SlidingWindowLimiter } from './rateLimit';
import { matchRoute, type Route } from './routes';
import { DEFAULT_SIGNALS, SignalsDataSet } from './signals';
import { answerSignals, answerThread, checkSignalsQuery } from './signalsRoutes';
import type {
  AddJobInit,
  Fault,
  FaultRule,
  JobOutcome,
  RecordedRequest,
  SimJob,
  Simulator,
  SimulatorOptions,
  SignalsTruth,
  AssistantThread,
  VisitorCounts,
  VisitorRow,
  VisitorsRange,
} from './types';
import { checkPromptBody, checkRange, checkVisitorsQuery, DAY_MS } from './validate';
import { pageOf, VisitorsDataSet } from './visitors';
import { endlessPage, isListRoute } from './endlessPaging';
import { PreviewDeployments } from './previews';

export type * from './types';

export const DEFAULT_PROJECT = 'demo-project';
/** Bodies above this get 413 (the spec sets no prompt maximum; this only protects the test process). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The visitors limit is per organisation, and the whole simulator is one organisation. */
const ORGANISATION = 'organisation';

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = new SimulatorServer(options);
  await simulator.listen(options.port ?? 0);
  return simulator;
}

interface Incoming {
  record: RecordedRequest;
  route: Route | undefined;
  params: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  bodyTooLarge: boolean;
}

type Auth = { ok: true; key: string } | { ok: false; error: string };

class SimulatorServer implements Simulator {
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly faults = new FaultRules();
  /** Answers each list route gave under `pagingNeverEnds` since the faults were last cleared. */
  private readonly endlessServed = new Map<string, number>();
  private readonly revoked = new Set<string>();
  private readonly readOnly: ReadonlySet<string>;
  private readonly jobs: JobStore;
  private readonly visitors: VisitorsDataSet;
  private signalsData: SignalsDataSet | undefined;
  private readonly signalsSeed: number;
  private readonly docsSite: string | undefined;
  private readonly signalsSizes: SimulatorOptions['signals'];
  private readonly agentLimiter: SlidingWindowLimiter;
  private readonly analyticsLimiter: SlidingWindowLimiter;
  readonly previews: PreviewDeployments;
  private readonly clock: () => number;
  private readonly latencyMs: number;
  private port = 0;
  private closing: Promise<void> | undefined;

  constructor(options: SimulatorOptions) {
    this.clock = options.now ?? Date.now;
    this.latencyMs = nonNegative('latencyMs', options.latencyMs ?? 0);
    const projects = options.projects ?? [DEFAULT_PROJECT];
    if (projects.some((id) => typeof id !== 'string' || id === '')) throw new Error('project ids must be non-empty strings');
    this.jobs = new JobStore(projects, this.clock, nonNegative('jobDurationMs', options.jobDurationMs ?? 30_000), options.newJobSource);
    this.visitors = new VisitorsDataSet({
      seed: options.seed ?? 42,
      pathCount: options.pathCount ?? 3000,
      topPaths: options.topPaths,
      days: options.days ?? 120,
      today: options.today ?? new Date(this.now()).toISOString().slice(0, 10),
    });
    this.signalsSeed = options.seed ?? 42;
    this.docsSite = options.docsSite;
    this.signalsSizes = options.signals ?? DEFAULT_SIGNALS;
    this.agentLimiter = new SlidingWindowLimiter(nonNegative('agentPostLimitPerHour', options.agentPostLimitPerHour ?? 100));
    this.analyticsLimiter = new SlidingWindowLimiter(nonNegative('analyticsLimitPerHour', options.analyticsLimitPerHour ?? 100));
    this.readOnly = new Set(options.readOnlyKeys ?? []);
    this.previews = new PreviewDeployments(this.clock, options.previews);

    this.server = createServer((req, res) => this.onRequest(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(port: number): Promise<void> {
    await this.previews.listen();
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0..65535, got ${port}`);
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        const address = this.server.address();
        this.port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      this.server.close(() => resolve());
      // Keep-alive connections would hold server.close() open until they time out.
      for (const socket of this.sockets) socket.destroy();
    }).then(() => this.previews.close());
    return this.closing;
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  now(): number {
    return this.clock();
  }

  addFault(rule: FaultRule): void {
    this.faults.add(rule);
  }

  clearFaults(): void {
    this.faults.clear();
    this.endlessServed.clear();
  }

  revokeKey(key: string): void {
    this.revoked.add(key);
  }

  addJob(projectId: string, init: AddJobInit = {}): SimJob {
    return this.jobs.add(projectId, init);
  }

  peekJob(projectId: string, id: string): SimJob | undefined {
    return this.jobs.get(projectId, id);
  }

  setOutcome(projectId: string, id: string, outcome: JobOutcome): void {
    this.jobs.setOutcome(projectId, id, outcome);
  }

  archiveJob(projectId: string, id: string): void {
    this.jobs.archive(projectId, id);
  }

  deleteJob(projectId: string, id: string): void {
    this.jobs.delete(projectId, id);
  }

  setRawJob(projectId: string, id: string, raw: Record<string, unknown> | undefined): void {
    this.jobs.setRaw(projectId, id, raw);
  }

  setNewJobSource(source: { repository: string; ref: string } | undefined): void {
    this.jobs.newJobSource = source;
  }

  resetRateLimits(): void {
    this.agentLimiter.reset();
    this.analyticsLimiter.reset();
    this.previews.reset();
  }

  visitorsFor(projectId: string, range: VisitorsRange): { totals: VisitorCounts; visitors: VisitorRow[] } {
    if (!this.jobs.hasProject(projectId)) throw new Error(`Unknown project ${JSON.stringify(projectId)}`);
    const checked = checkRange(range);
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const result = this.visitors.query(checked.value.fromMs, checked.value.toMs);
    return { totals: { ...result.totals }, visitors: result.rows.map((row) => ({ ...row })) };
  }

  signalsFor(projectId: string, range: VisitorsRange): SignalsTruth {
    if (!this.jobs.hasProject(projectId)) throw new Error(`Unknown project ${JSON.stringify(projectId)}`);
    const checked = checkRange(range);
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const { fromMs, toMs } = checked.value;
    const signals = this.signals();
    const feedback = signals.feedbackIn(fromMs, toMs);
    const searches = signals.searchesIn(fromMs, toMs);
    const views = this.visitors.queryViews(fromMs, toMs);
    return structuredClone({
      byPage: signals.byPage(feedback),
      feedback,
      assistant: signals.turnsIn(fromMs, toMs),
      searches: [...searches.rows],
      totalSearches: searches.totalSearches,
      views: { totals: views.totals, views: [...views.rows] },
    });
  }

  assistantThreadFor(threadId: string): AssistantThread | undefined {
    const thread = this.signals().thread(threadId);
    return thread && structuredClone(thread);
  }

  /** Built on first use: the large site's 20,000 turns are not worth building for a jobs test. */
  private signals(): SignalsDataSet {
    const endMs = this.visitors.startMs + this.visitors.dayCount * DAY_MS;
    this.signalsData ??= new SignalsDataSet(
      this.signalsSeed,
      this.visitors.paths,
      this.visitors.startMs,
      endMs,
      this.signalsSizes ?? DEFAULT_SIGNALS,
      this.docsSite,
    );
    return this.signalsData;
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
    const params = new URLSearchParams(queryStart < 0 ? '' : url.slice(queryStart + 1));
    const { segments, decoded } = splitPath(rawPath);
    const method = req.method ?? 'GET';
    const record: RecordedRequest = { method, rawPath, segments, query: Object.fromEntries(params), status: 0, at: this.now() };
    if (req.headers.authorization !== undefined) record.authorization = req.headers.authorization;
    if (req.headers['user-agent'] !== undefined) record.userAgent = req.headers['user-agent'];
    this.requests.push(record);

    const route = decoded ? matchRoute(segments) : undefined;
    const fault = this.faults.take({ method, rawPath, decodedPath: segments.join('/'), isVisitors: route?.name === 'visitors', isList: isListRoute(route) });
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }

    readBody(req).then(
      ({ text, tooLarge }) => {
        if (text !== '') record.body = parseOrRaw(text);
        const incoming: Incoming = { record, route, params, headers: req.headers, body: text, bodyTooLarge: tooLarge };
        // Never answered: not served either, the socket stays open until the client gives up.
        if (fault?.kind === 'noAnswer') return;
        const delay = this.latencyMs + (fault?.kind === 'latency' ? fault.ms : 0);
        this.later(delay, () => {
          const reply = this.answer(incoming, fault);
          if (isDeliveryFault(fault) && !res.destroyed) {
            record.status = reply.status;
            deliverBadly(res, reply, fault, (ms, action) => this.later(ms, action));
          } else send(res, record, reply);
        });
      },
      () => {
        // The client went away before sending its body: there is no one to answer.
      },
    );
  }

  private later(delayMs: number, action: () => void): void {
    if (delayMs <= 0) {
      action();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    this.timers.add(timer);
  }

  private answer(incoming: Incoming, fault: Fault | undefined): Reply {
    const faulted = fault && this.faultReply(fault, incoming);
    if (faulted) return faulted;

    const { route, record, headers } = incoming;
    if (!route) return errorReply(404, 'Not found');
    if (record.method !== route.method) return errorReply(405, 'Method not allowed', undefined, { Allow: route.method });
    const auth = this.authenticate(headers.authorization);
    if (!auth.ok) return errorReply(401, auth.error);
    if (route.method === 'POST' && this.readOnly.has(auth.key)) return errorReply(403, 'This API key is read-only');
    if (route.name === 'updateStatus') return this.previews.status(route.statusId);
    if (!this.jobs.hasProject(route.projectId)) return errorReply(404, 'Project not found');

    switch (route.name) {
      case 'createJob':
      case 'sendMessage': {
        if (incoming.bodyTooLarge) return errorReply(413, 'Request body too large');
        const prompt = checkPromptBody(headers['content-type'], incoming.body);
        if (!prompt.ok) return errorReply(400, 'Invalid request', prompt.errors);
        const slot = this.agentLimiter.take(route.projectId, this.now());
        if (!slot.ok) return rateLimited(slot.retryAfterSeconds);
        if (route.name === 'createJob') return jsonReply(201, this.jobs.create(route.projectId, prompt.value));
        const job = this.jobs.followUp(route.projectId, route.jobId, prompt.value);
        return job ? jsonReply(200, job) : errorReply(404, 'Job not found');
      }
      case 'getJob': {
        const raw = this.jobs.raw(route.projectId, route.jobId);
        if (raw) return jsonReply(200, raw);
        const job = this.jobs.get(route.projectId, route.jobId);
        return job ? jsonReply(200, job) : errorReply(404, 'Job not found');
      }
      case 'visitors': {
        const query = checkVisitorsQuery(incoming.params);
        if (!query.ok) return errorReply(400, 'Invalid query parameters', query.errors);
        const slot = this.analyticsLimiter.take(ORGANISATION, this.now());
        if (!slot.ok) return rateLimited(slot.retryAfterSeconds);
        const { fromMs, toMs, limit, offset } = query.value;
        return jsonReply(200, pageOf(this.visitors.query(fromMs, toMs), limit, offset));
      }
      case 'views':
      case 'feedback':
      case 'feedbackByPage':
      case 'assistant':
      case 'searches': {
        const query = checkSignalsQuery(route.name, incoming.params);
        if (!query.ok) return errorReply(400, 'Invalid query parameters', query.errors);
        const slot = this.analyticsLimiter.take(ORGANISATION, this.now());
        if (!slot.ok) return rateLimited(slot.retryAfterSeconds);
        return answerSignals(route.name, query.value, this.signals(), this.visitors);
      }
      case 'createPreview':
        if (incoming.bodyTooLarge) return errorReply(413, 'Request body too large');
        return this.previews.create(route.projectId, headers['content-type'], incoming.body);
      case 'assistantThread': {
        const slot = this.analyticsLimiter.take(ORGANISATION, this.now());
        if (!slot.ok) return rateLimited(slot.retryAfterSeconds);
        return answerThread(this.signals(), route.threadId);
      }
    }
  }

  /** The answer a fault replaces the normal one with; undefined when the request is served normally. */
  private faultReply(fault: Fault, { route, params }: Incoming): Reply | undefined {
    const successStatus = route?.name === 'createJob' ? 201 : route?.name === 'createPreview' ? 202 : 200;
    switch (fault.kind) {
      case 'latency':
      case 'drop':
      case 'noAnswer':
      case 'stallAfterHeaders':
      case 'trickle':
      case 'answerThenReset':
        return undefined;
      case 'status':
        return statusFaultReply(fault);
      case 'rateLimit':
        return rateLimitFaultReply(fault);
      case 'malformedJson':
        return malformedJsonReply(successStatus, route?.name === 'visitors');
      case 'schemaBreak':
        return route?.name === 'visitors' ? brokenVisitorsReply() : jsonReply(successStatus, this.brokenJob(route));
      case 'pagingNeverEnds': {
        if (!isListRoute(route)) return undefined;
        const served = this.endlessServed.get(route.name) ?? 0;
        this.endlessServed.set(route.name, served + 1);
        return endlessPage(route.name, fault.how, params, served);
      }
      case 'emptyPageHasMore': {
        // Real totals need a valid range; with an invalid query the normal 400 is more useful.
        const query = checkVisitorsQuery(params);
        if (!query.ok) return undefined;
        const { totals } = this.visitors.query(query.value.fromMs, query.value.toMs);
        return jsonReply(200, { totals, visitors: [], hasMore: true });
      }
    }
  }

  /** The job the request names (or a made-up one) with a number for its id. */
  private brokenJob(route: Route | undefined): Record<string, unknown> {
    const existing = route && 'jobId' in route ? this.jobs.get(route.projectId, route.jobId) : undefined;
    if (route?.name === 'createPreview' || route?.name === 'updateStatus') return { statusId: 12345, status: 'success' };
    const job = existing ?? {
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/agent-broken' },
      model: 'sonnet',
      prLink: null,
      createdAt: new Date(this.now()).toISOString(),
      archivedAt: null,
    };
    return { ...job, id: 12345 };
  }

  /** Admin keys only: 'mint_' but not the public ('mint_dsc_') or user ('mint_us_') kinds. Messages never echo the key. */
  private authenticate(header: string | undefined): Auth {
    if (header === undefined) return { ok: false, error: 'Missing Authorization header' };
    const key = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (key === undefined) return { ok: false, error: 'Authorization header must be "Bearer <API key>"' };
    if (key.startsWith('mint_dsc_') || key.startsWith('mint_us_')) return { ok: false, error: 'An admin API key is required' };
    if (!key.startsWith('mint_') || key.length === 'mint_'.length) return { ok: false, error: 'Invalid API key' };
    if (this.revoked.has(key)) return { ok: false, error: 'API key has been revoked' };
    return { ok: true, key };
  }
}

function rateLimited(retryAfterSeconds: number): Reply {
  return errorReply(429, 'Rate limit exceeded', undefined, { 'Retry-After': String(retryAfterSeconds) });
}

function send(res: ServerResponse, record: RecordedRequest, reply: Reply): void {
  // The client may have given up (timeout, abort) while the answer was delayed.
  if (res.destroyed || res.writableEnded) return;
  record.status = reply.status;
  res.writeHead(reply.status, {
    'Content-Type': reply.contentType,
    'Content-Length': Buffer.byteLength(reply.body),
    'Cache-Control': 'no-store',
    ...reply.headers,
  });
  res.end(reply.body);
}

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
    // After 'end' this is a no-op; before it, the client has gone.
    req.on('close', () => reject(new Error('request closed before its body ended')));
  });
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${value}`);
  return value;
}
