// Fault injection: rules that replace (or delay) the simulator's normal answer.

import { STATUS_CODES, type ServerResponse } from 'node:http';
import { errorReply, jsonReply, type Reply } from './http';
import type { Fault, FaultRule } from './types';

export interface FaultTarget {
  method: string;
  rawPath: string;
  decodedPath: string;
  isVisitors: boolean;
  /** A list route (what `pagingNeverEnds` applies to). */
  isList: boolean;
}

export class FaultRules {
  private rules: { rule: FaultRule; left: number }[] = [];

  add(rule: FaultRule): void {
    const { times } = rule;
    if (times !== undefined && (!Number.isInteger(times) || times < 1)) throw new Error('times must be a positive integer');
    const { fault } = rule;
    if (fault.kind === 'status' && (!Number.isInteger(fault.status) || fault.status < 200 || fault.status > 599)) {
      throw new Error('a status fault needs a status in 200..599');
    }
    if (fault.kind === 'latency' && !(fault.ms >= 0)) throw new Error('a latency fault needs ms >= 0');
    if (fault.kind === 'trickle' && fault.intervalMs !== undefined && !(fault.intervalMs > 0)) throw new Error('a trickle fault needs intervalMs > 0');
    this.rules.push({ rule, left: times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if a rule matches; that rule's count goes down by one. */
  take(target: FaultTarget): Fault | undefined {
    const entry = this.rules.find(({ rule, left }) => left > 0 && matches(rule, target));
    if (!entry) return undefined;
    entry.left--;
    return entry.rule.fault;
  }
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== target.method.toUpperCase()) return false;
  if (rule.pathIncludes !== undefined && !target.rawPath.includes(rule.pathIncludes) && !target.decodedPath.includes(rule.pathIncludes)) {
    return false;
  }
  if (rule.fault.kind === 'pagingNeverEnds') return target.isList;
  // Only the visitors endpoint has pages.
  return rule.fault.kind !== 'emptyPageHasMore' || target.isVisitors;
}

export function statusFaultReply(fault: Extract<Fault, { kind: 'status' }>): Reply {
  const reason = STATUS_CODES[fault.status] ?? 'Error';
  if (fault.html) {
    // What a reverse proxy in front of the API answers when the service behind it is down.
    const title = `${fault.status} ${reason}`;
    const body = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    return { status: fault.status, contentType: 'text/html', body };
  }
  return fault.body === undefined ? errorReply(fault.status, reason) : jsonReply(fault.status, fault.body);
}

export function rateLimitFaultReply(fault: Extract<Fault, { kind: 'rateLimit' }>): Reply {
  const headers = fault.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(fault.retryAfterSeconds) };
  return errorReply(429, 'Rate limit exceeded', undefined, headers);
}

/** A body cut off mid-way, as from a connection that broke while the answer streamed. */
export function malformedJsonReply(status: number, isVisitors: boolean): Reply {
  const body = isVisitors ? '{"totals":{"human":1204,"ai":318,"total":1390},"visitors":[{"path":"/quickstart","hum' : '{"id":"job_0000000","status":"act';
  return { status, contentType: 'application/json; charset=utf-8', body };
}

/** Valid JSON that breaks the schema: a visitors body whose `visitors` is an object and no `hasMore`. */
export function brokenVisitorsReply(): Reply {
  return jsonReply(200, {
    totals: { human: 1204, ai: 318, total: 1390 },
    visitors: { '/quickstart': { human: 12, ai: 3, total: 14 } },
  });
}

/** The faults that change how an answer is delivered rather than what it says. */
export type DeliveryFault = Extract<Fault, { kind: 'stallAfterHeaders' | 'trickle' | 'answerThenReset' }>;

export function isDeliveryFault(fault: Fault | undefined): fault is DeliveryFault {
  return fault?.kind === 'stallAfterHeaders' || fault?.kind === 'trickle' || fault?.kind === 'answerThenReset';
}

/**
 * Writes the headers (with the full Content-Length, so the client waits for the rest) and then
 * misbehaves. `later` runs a callback on a timer the simulator clears when it closes.
 */
export function deliverBadly(res: ServerResponse, reply: Reply, fault: DeliveryFault, later: (ms: number, action: () => void) => void): void {
  const body = Buffer.from(reply.body);
  res.writeHead(reply.status, { 'Content-Type': reply.contentType, 'Content-Length': body.length, 'Cache-Control': 'no-store', ...reply.headers });
  const half = Math.max(1, Math.floor(body.length / 2));
  switch (fault.kind) {
    case 'stallAfterHeaders':
      res.write(body.subarray(0, half));
      return;
    case 'answerThenReset':
      res.write(body.subarray(0, half), () => res.destroy());
      return;
    case 'trickle': {
      const intervalMs = fault.intervalMs ?? 1000;
      const next = (at: number) => {
        if (res.destroyed) return;
        if (at >= body.length) return void res.end();
        res.write(body.subarray(at, at + 1));
        later(intervalMs, () => next(at + 1));
      };
      res.flushHeaders();
      later(intervalMs, () => next(0));
      return;
    }
  }
}
