// The one gate for the organisation's analytics hour (src/sync/hourGate.ts), over a real ledger
// state (src/sync/ledger.ts, src/sync/syncState.ts): what is left, the true wait until N requests
// are free, the one wording of a cost, what an asked spend is granted, background work held to the
// ceiling and its share, and every grant held request by request, together, to what the hour has left.
import assert from 'node:assert/strict';
import { BACKGROUND_CEILING } from '../../../src/sync/ledger';
import { recordAnalytics429, TEAMMATES_BELOW } from '../../../src/sync/sharedWaits';
import type { SyncState } from '../../../src/sync/syncState';
import { CONFIRM_ABOVE_REQUESTS, HourGate } from '../../../src/sync/hourGate';
import { HOUR_MS } from '../../../src/util/clock';
import { memoryLedger } from '../../support/memoryLedger';

const l10n = { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) } as never;
const NOW = Date.parse('2026-11-26T12:00:00Z');

/** A window's shared state and the gate over it; `sent(n, at)` records what other windows sent. */
/** A 429 that came while this machine's own count was low: teammates spend the hour (ledger.ts). */
const teammates429 = (state: SyncState, until: number) => recordAnalytics429(state.waits, until, 0, until - 1);

function window({ now = () => NOW, answer = undefined as string | undefined, teamSize = 10 } = {}) {
  const { state, account, sent } = memoryLedger(now);
  const asked: { message: string; actions: string[] }[] = [];
  const ui = {
    showMessage: async (_level: string, message: string, ...actions: string[]) => {
      asked.push({ message, actions });
      return answer === 'first' ? actions[0] : answer;
    },
  };
  const gate = new HourGate(account, ui, l10n, now, () => teamSize);
  /** What the client does: a reservation first (the ledger counts it from then), then the request, then the reservation ends. */
  const send = async (grant: { reserve(): Promise<{ end(sent: boolean): void } | undefined> }) => {
    const reservation = await grant.reserve();
    if (!reservation) return false;
    reservation.end(true);
    return true;
  };
  return { state, sent, gate, asked, send };
}

describe('the hour’s gate (src/sync/hourGate.ts)', () => {
  it('counts what is left from every window’s ledger entries of the hour, this window’s reservations included', async () => {
    const w = window();
    w.sent(30, NOW - 10 * 60_000);
    w.sent(5, NOW - HOUR_MS - 1); // older than the hour: free again
    assert.equal(w.gate.left(), 70);
    const grant = w.gate.granted(3);
    const reservations = [grant.reserve(), grant.reserve()];
    assert.equal(w.gate.left(), 68, 'two reserved before either is sent');
    (await Promise.all(reservations)).forEach((reservation) => reservation?.end(false));
    assert.equal(w.gate.left(), 70, 'released: never sent');
    assert.equal(grant.sent, 0);
  });

  it('names the true wait until N requests are free, not the wait for one', () => {
    const w = window();
    // 88 requests: 40 sent 50 minutes ago, 48 sent 10 minutes ago. 12 are left.
    w.sent(40, NOW - 50 * 60_000);
    w.sent(48, NOW - 10 * 60_000);
    assert.equal(w.gate.freesInMs(12), 0);
    assert.equal(w.gate.freesInMs(13), 10 * 60_000, 'one more: when the oldest leaves');
    assert.equal(w.gate.freesInMs(30), 10 * 60_000, '18 must leave, all of the oldest 40');
    assert.equal(w.gate.freesInMs(52), 10 * 60_000, '40 must leave: the oldest 40 are enough');
    assert.equal(w.gate.freesInMs(53), 50 * 60_000, '41 must leave: one of the newer ones too');
  });

  it('an asked spend that fits is granted without a question; a large one asks first when its caller wants a yes', async () => {
    const w = window({ answer: 'first' });
    assert.equal((await w.gate.ask({ what: 'Loading a page', estimate: 1 }))?.allowed, 1);
    assert.equal((await w.gate.ask({ what: 'Comparing', estimate: CONFIRM_ABOVE_REQUESTS, confirm: 'Compare' }))?.allowed, CONFIRM_ABOVE_REQUESTS);
    assert.equal(w.asked.length, 0);
    const grant = await w.gate.ask({ what: 'Comparing', estimate: 9, confirm: 'Compare' });
    assert.equal(grant?.allowed, 9);
    assert.deepEqual(w.asked, [
      {
        message: 'Comparing takes about 9 analytics requests, of the 100 left this hour on this machine’s count (teammates on other machines also spend it).',
        actions: ['Compare'],
      },
    ]);
  });

  it('with fewer left than it may need, asks once in the one wording and grants what fits; no grant when refused', async () => {
    const yes = window({ answer: 'first' });
    yes.sent(94, NOW - 30 * 60_000);
    const grant = await yes.gate.ask({ what: 'Exporting visitors', estimate: 40, upTo: true });
    assert.equal(grant?.allowed, 6);
    assert.equal(yes.asked.length, 1);
    assert.equal(
      yes.asked[0].message,
      'Exporting visitors needs up to 40 analytics requests; 6 are left this hour on this machine’s count (teammates on other machines also spend it), and all 40 are free in 30 min. Fetch the 6 that fit now and see what was left out, or try again then.',
    );
    assert.deepEqual(yes.asked[0].actions, ['Fetch 6']);

    const no = window({ answer: undefined });
    no.sent(94, NOW - 30 * 60_000);
    assert.equal(await no.gate.ask({ what: 'Exporting visitors', estimate: 40, upTo: true }), undefined);
  });

  it('with nothing left, says so with the wait and grants nothing', async () => {
    const w = window({ answer: 'first' });
    w.sent(100, NOW - 45 * 60_000);
    assert.equal(await w.gate.ask({ what: 'Reading the whole thread', estimate: 1 }), undefined);
    assert.deepEqual(w.asked, [
      {
        message:
          'Reading the whole thread needs 1 analytics request, and none are left this hour on this machine’s count (teammates on other machines also spend it); one is free in 15 min.',
        actions: [],
      },
    ]);
  });

  it('holds a grant request by request: never more than granted, never past what is left when other windows spend meanwhile', async () => {
    const w = window();
    w.sent(90, NOW - 5 * 60_000);
    const grant = w.gate.granted(8);
    let sent = 0;
    while (await w.send(grant)) {
      sent++;
      if (sent === 3) w.sent(5); // another window spends five meanwhile
    }
    assert.equal(sent, 5, '3 before the other window, then the 2 left');
    assert.equal(w.gate.left(), 0);
  });

  it('two grants at once that together exceed the hour stay within it, each request reserved before it is sent', async () => {
    const w = window();
    w.sent(94, NOW - 5 * 60_000);
    const a = w.gate.granted(6);
    const b = w.gate.granted(6);
    // Reservations asked for at once, none sent yet.
    const asked = [];
    for (let i = 0; i < 6; i++) asked.push(a.reserve(), b.reserve());
    const given = (await Promise.all(asked)).filter((t) => t !== undefined);
    assert.equal(given.length, 6, 'six between them: what was left');
    assert.equal(a.sent + b.sent, 6);
  });

  it('holds background work to the ceiling and its share in this window', async () => {
    // A writer alone (the hint), so the machine's share is not what stops it.
    const w = window({ teamSize: 1 });
    w.sent(BACKGROUND_CEILING - 3, NOW - 60_000);
    assert.ok(w.gate.background('readers', 3));
    assert.equal(w.gate.background('readers', 4), undefined, 'would pass the ceiling');
    const grant = w.gate.background('readers', 1);
    assert.ok(grant);
    let sent = 0;
    while (await w.send(grant)) sent++;
    assert.equal(sent, 3, 'a fetch bigger than its estimate stops at the ceiling');

    const shared = window({ teamSize: 1 });
    const signals = shared.gate.background('signals', 2, 2);
    assert.ok(signals);
    assert.ok((await shared.send(signals)) && (await shared.send(signals)));
    assert.equal(await shared.send(signals), false, 'this window’s share of 2 is spent');
    assert.equal(shared.gate.background('signals', 1, 2), undefined);
    assert.ok(shared.gate.background('readers', 1), 'another purpose has its own share');
  });

  it('holds this machine’s background work to its share of the team’s hour once teammates’ 429 was seen (2 for a team of 10, 20 for a writer alone): none during the wait, then half, growing back an hour at a time', async () => {
    let now = NOW;
    const w = window({ now: () => now });
    teammates429(w.state, NOW - 2 * HOUR_MS); // a 429's wait that ended two hours ago
    const grant = w.gate.background('readers', 1);
    assert.ok(grant);
    let sent = 0;
    while (await w.send(grant)) sent++;
    assert.equal(sent, 2, 'the share of a team of ten: ten machines take at most 20 of the hour, with 98 of it left');
    assert.equal(w.gate.background('signals', 1), undefined, 'every purpose of the machine shares it');
    const alone = window({ now: () => now, teamSize: 1 });
    teammates429(alone.state, NOW - 30 * HOUR_MS);
    assert.equal(alone.gate.backgroundShare(), 20, 'the hint of a team of one');

    const later = window({ now: () => now });
    teammates429(later.state, NOW + 5 * 60_000); // a 429 named a wait of five minutes
    assert.equal(later.gate.backgroundShare(), 0);
    assert.equal(later.gate.background('readers', 1), undefined, 'nothing while the wait runs');
    now = NOW + 5 * 60_000;
    assert.equal(later.gate.backgroundShare(), 1, 'then half');
    now = NOW + 5 * 60_000 + 10 * HOUR_MS;
    assert.equal(later.gate.backgroundShare(), 2, 'and whole again, no more');
  });

  it('a machine that has seen no teammates’ 429 starts at the ceiling’s share (6 for ten) and doubles it each half hour up to the ceiling; after one it keeps to the team’s share; a week later it grows again', () => {
    let now = NOW;
    const alone = window({ now: () => now });
    assert.equal(alone.gate.backgroundShare(), 6, 'the first half hour: the ceiling divided among a team of ten');
    now = NOW + HOUR_MS / 2;
    assert.equal(alone.gate.backgroundShare(), 12, 'no 429 for half an hour: twice as much');
    now = NOW + HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), 24);
    now = NOW + 20 * HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), BACKGROUND_CEILING, 'never past the ceiling');

    teammates429(alone.state, now + 60_000); // a 429 (any window of the machine) named a wait of a minute
    assert.equal(alone.gate.backgroundShare(), 0, 'none while the wait runs');
    now += 60_000;
    assert.equal(alone.gate.backgroundShare(), 1, 'then half of the team’s share, not of what it had grown to');
    now += 30 * HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), 2, 'back to the team’s share, and no further: teammates fill the hour');
    now = alone.state.waits.analytics + 7 * 24 * HOUR_MS + HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), 24, 'a week without a 429: it grows again');
  });

  it('a 429 this machine caused itself (its own count near the hour) stops background work for its wait, then lets it grow again from the start: it says nothing of a team', () => {
    let now = NOW;
    const alone = window({ now: () => now });
    now = NOW + 20 * HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), BACKGROUND_CEILING);
    recordAnalytics429(alone.state.waits, now + 60_000, TEAMMATES_BELOW, now); // a writer alone who spent the hour
    assert.equal(alone.gate.backgroundShare(), 0, 'none while the wait runs');
    now += 60_000;
    assert.equal(alone.gate.backgroundShare(), 6, 'then the starting share, not the team’s 1 or 2');
    now += HOUR_MS;
    assert.equal(alone.gate.backgroundShare(), 24, 'and it doubles each half hour again');
  });

  it('an unknown count holds background work and the editor’s AI closed, and a writer’s question says so', async () => {
    const asked: string[] = [];
    const unknown = new HourGate(
      memoryLedger(
        () => NOW,
        undefined,
        () => undefined,
      ).account,
      { showMessage: async (_l: string, message: string, ...actions: string[]) => (asked.push(message), actions[0]) },
      l10n,
      () => NOW,
    );
    assert.equal(unknown.background('readers', 1), undefined, 'an unknown count is a full one for background work');
    assert.equal(await unknown.granted(5, true).reserve(), undefined, 'and for the editor’s AI, whatever its dialog allowed');
    assert.equal(unknown.question({ what: 'Fetching the visitors', estimate: 3, forModel: true }).fits, 0);
    const grant = await unknown.ask({ what: 'Exporting visitors', estimate: 40, upTo: true });
    assert.match(asked[0] ?? '', /The hour’s count is not known in this window .* background work and the editor’s AI are held until it is\./);
    assert.ok(await grant?.reserve(), 'what a writer asked, after the question, goes');
  });

  it('an estimate over the platform’s hour says it can never all fit', () => {
    const w = window();
    w.sent(1, NOW - 60_000);
    assert.match(w.gate.question({ what: 'Drawing the trend', estimate: 120 }).message, /it can never all fit in one hour \(the platform allows 100\)/);
  });

  it('an "about" estimate that fits is granted up to its own cap, within what is left: a site grown since its last fetch is not cut short', async () => {
    const w = window();
    w.sent(90, NOW - 10 * 60_000);
    assert.equal((await w.gate.ask({ what: 'Fetching reader signals', estimate: 3, cap: 40 }))?.allowed, 10, 'the cap of 40, held to the 10 left');
    assert.equal(w.gate.question({ what: 'x', estimate: 3, cap: 5 }).fits, 5);
    assert.equal(w.asked.length, 0, 'it fit: nothing asked');
  });

  it('holds the editor’s AI to the first 60 of the hour, and says the rest is the writer’s', async () => {
    const w = window();
    w.sent(56, NOW - 10 * 60_000);
    const question = w.gate.question({ what: 'Fetching the visitors', estimate: 20, upTo: true, forModel: true });
    assert.equal(question.fits, 4);
    assert.equal(
      question.message,
      'Fetching the visitors needs up to 20 analytics requests; 44 are left this hour on this machine’s count (teammates on other machines also spend it), and the editor’s AI may use 4 of them: the last 40 of the hour are kept for what you ask in the views. Fetch the 4 that fit now and see what was left out, or try again later.',
    );
    const grant = w.gate.granted(20, true);
    let sent = 0;
    while (await w.send(grant)) sent++;
    assert.equal(sent, 4, 'held to the ceiling request by request, though the dialog allowed 20');
    assert.equal(w.gate.question({ what: 'x', estimate: 1, forModel: true }).fits, 0);
    assert.equal(w.gate.question({ what: 'x', estimate: 1 }).fits, 1, 'a writer’s own ask may still use the 40');
  });
});
