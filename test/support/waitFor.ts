// The one bounded wait of the tests: look at a condition until it holds, and fail with what was
// awaited once the bound passes. A slow machine makes it look more often, never a test pass that
// should fail: the bound is on the wait, never on the outcome.
import assert from 'node:assert/strict';

/**
 * Resolves with `condition`'s first truthy value. `what` names what is awaited in the failure; a
 * function is called only then, so it can say what was seen instead. The default bound is generous
 * for a loaded 2-core machine; `everyMs` is how often to look (the next look, not a wait for an outcome).
 */
export async function waitFor<T>(what: string | (() => string), condition: () => T | Promise<T>, timeoutMs = 15_000, everyMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
