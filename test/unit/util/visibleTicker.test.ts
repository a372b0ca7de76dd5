// The jobs tree's relative times are redrawn on a timer that runs only while the view is visible.
import assert from 'node:assert/strict';
import { tickWhileVisible, type Visible } from '../../../src/util/visibleTicker';
import { FakeClock } from '../../support/fakeClock';

class FakeView implements Visible {
  visible = false;
  private listeners: (() => void)[] = [];
  onDidChangeVisibility(listener: () => void) {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }
  set(visible: boolean): void {
    this.visible = visible;
    for (const listener of this.listeners) listener();
  }
}

describe('tickWhileVisible (jobs tree relative times)', () => {
  it('runs a timer only while the view is visible, and catches up as it shows again', () => {
    const view = new FakeView();
    const timer = new FakeClock();
    let ticks = 0;
    const ticker = tickWhileVisible(view, 30_000, () => ticks++, timer);
    assert.equal(timer.pending, 0, 'hidden: no timer');
    view.set(true);
    assert.equal(ticks, 1, 'redrawn as it shows');
    assert.equal(timer.pending, 1);
    timer.fireAll();
    timer.fireAll();
    assert.equal(ticks, 3);
    view.set(false);
    assert.equal(timer.pending, 0, 'hidden again: the timer stops');
    timer.fireAll();
    assert.equal(ticks, 3);
    view.set(true);
    assert.equal(timer.pending, 1, 'one timer, not two');
    ticker.dispose();
    assert.equal(timer.pending, 0, 'disposed: no timer left');
  });
  it('starts at once for a view that is already visible', () => {
    const view = new FakeView();
    view.visible = true;
    const timer = new FakeClock();
    tickWhileVisible(view, 1_000, () => undefined, timer);
    assert.equal(timer.pending, 1);
  });
});
