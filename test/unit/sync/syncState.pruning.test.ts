// The pruning that bounds the shared files (the areas' prune in src/sync/syncState.ts): old
// tombstones, cleared drafts, hidden prompts and links go, everything newer or shown stays.
import assert from 'node:assert/strict';
import { emptyState, HybridClock, pruneState, SHARED_HISTORY_MAX_AGE_MS } from '../../../src/sync/syncState';
import { setDraft, setSignalLink } from '../../support/stateWrites';
import { applyJobChange } from '../../../src/sync/jobChanges';

const link = (jobId: string, signal: string, askedAt = new Date().toISOString()) => ({
  jobId,
  signalIds: [signal],
  path: signal.slice(5),
  searches: [],
  askedAt,
});

describe('shared store: pruning', () => {
  const DAY = 86_400_000;
  const now = 1_800_000_000_000;

  it(`drops tombstones, cleared drafts, hidden prompts and links older than ${SHARED_HISTORY_MAX_AGE_MS / DAY} days, and keeps everything newer or shown`, () => {
    let t = now - SHARED_HISTORY_MAX_AGE_MS - DAY;
    const clock = new HybridClock('w', () => t);
    const state = emptyState();
    applyJobChange(state, 'p', 'old_stopped', { track: true, addPrompts: [{ text: 'x', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'old_stopped', { track: false }, clock);
    applyJobChange(state, 'p', 'old_tracked', { track: true, addPrompts: [{ text: 'shown', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'retracked', { track: true, addPrompts: [{ text: 'before removal', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'retracked', { track: false }, clock);
    setDraft(state, 'p', 'create', undefined, clock);
    setDraft(state, 'p', 'job:kept', 'typed long ago', clock);
    setSignalLink(state, 'p', link('job_old', 'page:/old', new Date(t).toISOString()), clock);
    t = now - DAY;
    applyJobChange(state, 'p', 'new_stopped', { track: true }, clock);
    applyJobChange(state, 'p', 'new_stopped', { track: false }, clock);
    applyJobChange(state, 'p', 'retracked', { track: true, addPrompts: [{ text: 'after', sentAt: 'now' }] }, clock);
    setSignalLink(state, 'p', link('job_new', 'page:/new', new Date(t).toISOString()), clock);

    pruneState(state, now);

    assert.deepEqual(Object.keys(state.jobs.p ?? {}).sort(), ['new_stopped', 'old_tracked', 'retracked']);
    assert.deepEqual(
      Object.values(state.jobs.p?.old_tracked?.p ?? {}).map((p) => p.text),
      ['shown'],
    );
    assert.deepEqual(
      Object.values(state.jobs.p?.retracked?.p ?? {}).map((p) => p.text),
      ['after'],
    );
    assert.deepEqual(Object.keys(state.drafts.p ?? {}), ['job:kept']);
    assert.deepEqual(Object.keys(state.links.p ?? {}), ['job_new']);
  });

  it('keeps a link whose job finished recently though it was asked long ago', () => {
    const state = emptyState();
    const clock = new HybridClock('w', () => 0);
    setSignalLink(
      state,
      'p',
      { ...link('job', 'page:/a', new Date(now - 2 * SHARED_HISTORY_MAX_AGE_MS).toISOString()), finishedAt: new Date(now - DAY).toISOString() },
      clock,
    );
    pruneState(state, now);
    assert.ok(state.links.p?.job);
  });
});
