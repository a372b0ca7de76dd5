// The Reader Signals view's per-draw index of linked jobs: each signal shows its newest job, and
// only a change to a linked job redraws the view. No vscode import.
import assert from 'node:assert/strict';
import type { SignalJob } from '../../../src/signals/signalJobs';
import { indexSignalJobs } from '../../../src/signals/signalsModel';

const link = (jobId: string, signalIds: string[]): SignalJob => ({ jobId, signalIds, path: undefined, searches: [], askedAt: '2026-11-20T10:00:00.000Z' });

describe('signal job index', () => {
  it('gives each signal the newest job that addresses it, as the links are kept (newest first)', () => {
    const newest = link('job_new', ['page:/quickstart', 'search:install']);
    const older = link('job_old', ['page:/quickstart', 'page:/api']);
    const index = indexSignalJobs([newest, older]);
    assert.equal(index.bySignal.get('page:/quickstart'), newest, 'the newer job wins a signal both address');
    assert.equal(index.bySignal.get('search:install'), newest);
    assert.equal(index.bySignal.get('page:/api'), older, 'an older job still shows where no newer one addresses the signal');
    assert.equal(index.bySignal.get('page:/other'), undefined);
    assert.equal(index.bySignal.size, 3);
  });

  it('names every linked job, and no other, so only their changes redraw the view', () => {
    const index = indexSignalJobs([link('job_a', ['page:/a']), link('job_b', ['page:/a'])]);
    assert.deepEqual([...index.jobIds].sort(), ['job_a', 'job_b'], 'a job whose signals a newer job took over still counts: its link is kept');
    assert.equal(index.jobIds.has('job_unlinked'), false);
    assert.equal(indexSignalJobs([]).bySignal.size, 0);
  });
});
