// One fetch several callers share (src/hour/joinedGrant.ts): a caller's cancel ends its own wait
// only, and the fetch is aborted once every caller waiting for it has cancelled.
import assert from 'node:assert/strict';
import { JoinedGrant } from '../../../src/hour/joinedGrant';
import { rejectsWith } from '../../support/rejectsWith';
import { unlimited } from '../../support/grants';

/** A fetch on its way, answered when the test says. */
function pending<T>(): { fetching: Promise<T>; answer: (value: T) => void } {
  let answer!: (value: T) => void;
  const fetching = new Promise<T>((resolve) => (answer = resolve));
  return { fetching, answer };
}

describe('JoinedGrant: one fetch, each caller’s own cancel', function () {
  it('a cancelled caller’s wait ends at once; the other still gets the answer, and the fetch is not aborted', async () => {
    const { fetching, answer } = pending<string>();
    const joined = new JoinedGrant(unlimited, false);
    joined.join(unlimited, false);
    const first = new AbortController();
    const second = new AbortController();
    const firstWait = joined.wait(fetching, first.signal);
    const secondWait = joined.wait(fetching, second.signal);

    first.abort();
    await rejectsWith(firstWait, 'cancelled');
    assert.equal(joined.signal.aborted, false, 'the other caller still waits for the fetch');

    answer('the snapshot');
    assert.equal(await secondWait, 'the snapshot');
    assert.equal(joined.signal.aborted, false);
  });

  it('aborts the fetch once every caller has cancelled, and not before', async () => {
    const { fetching } = pending<string>();
    const joined = new JoinedGrant(unlimited, false);
    joined.join(unlimited, false);
    const first = new AbortController();
    const second = new AbortController();
    const waits = [joined.wait(fetching, first.signal), joined.wait(fetching, second.signal)];

    first.abort();
    assert.equal(joined.signal.aborted, false);
    second.abort();
    assert.equal(joined.signal.aborted, true);
    for (const wait of waits) await rejectsWith(wait, 'cancelled');
  });

  it('a caller with no signal (a page shown) keeps the fetch going whoever else cancels', async () => {
    const { fetching, answer } = pending<string>();
    const joined = new JoinedGrant(unlimited, true);
    joined.join(unlimited, false);
    const shown = joined.wait(fetching);
    assert.equal(shown, fetching, 'the fetch itself, as before');
    const asked = new AbortController();
    const askedWait = joined.wait(fetching, asked.signal);
    asked.abort();
    await rejectsWith(askedWait, 'cancelled');
    assert.equal(joined.signal.aborted, false);
    answer('the snapshot');
    assert.equal(await shown, 'the snapshot');
  });

  it('a caller already cancelled when it joins ends at once, and alone aborts the fetch', async () => {
    const { fetching } = pending<string>();
    const joined = new JoinedGrant(unlimited, false);
    await rejectsWith(joined.wait(fetching, AbortSignal.abort()), 'cancelled');
    assert.equal(joined.signal.aborted, true);
  });
});
