// The buttons a failure message can carry, and their labels.
import assert from 'node:assert/strict';
import { actionLabel, FAILURE_ACTIONS } from '../../src/failureActions';
import { l10n } from '../support/l10n';

describe('failure buttons', () => {
  it('every button has a label of its own', () => {
    const labels = FAILURE_ACTIONS.map((action) => actionLabel(action, l10n));
    for (const label of labels) assert.ok(label.length > 2, label);
    assert.equal(new Set(labels).size, labels.length);
  });
});
