// A visitors API whose calls the test answers one by one: for the tests of the page memory and of
// the panel, where what matters is the order in which requests start, end or are given up.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import type { CallOptions } from '../../src/api/client';
import type { VisitorsQuery } from '../../src/api/inputs';
import type { VisitorsPage } from '../../src/api/schemas';

/** A visitors API whose every call waits until the test answers it. */
export class HeldApi {
  readonly calls: { projectId: string; query: VisitorsQuery; signal: AbortSignal | undefined; answer(page: VisitorsPage): void; fail(error: Error): void }[] =
    [];

  readonly fetch = (projectId: string, query: VisitorsQuery, { signal }: CallOptions) =>
    new Promise<VisitorsPage>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new ApiError('cancelled', 'aborted')), { once: true });
      this.calls.push({ projectId, query, signal, answer: resolve, fail: reject });
    });

  /** Answers call `index` with `count` rows named after its project and offset. */
  answer(index: number, { count = 50, hasMore = true }: { count?: number; hasMore?: boolean } = {}): void {
    const call = this.calls[index];
    assert.ok(call, `request ${index} was made`);
    const offset = call.query.offset ?? 0;
    call.answer({
      totals: { human: 10, ai: 5, total: 12 },
      visitors: Array.from({ length: count }, (_, i) => ({
        path: `/${call.projectId}/${call.query.dateFrom ?? 'all'}/${offset + i}`,
        human: 1,
        ai: 1,
        total: 1,
      })),
      hasMore,
    });
  }
}
