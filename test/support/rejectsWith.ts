// The API client's failures as tests check them: the call fails, with an ApiError of this kind.
import assert from 'node:assert/strict';
import { ApiError, type ApiErrorKind } from '../../src/api';

/** Awaits `promise` and returns its ApiError, failing the test unless it rejected with one of `kind`. */
export async function rejectsWith(promise: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.kind, kind, `expected kind ${kind}, got ${error.kind}: ${error.message}`);
    return error;
  }
  assert.fail(`expected the call to fail with ${kind}`);
}
