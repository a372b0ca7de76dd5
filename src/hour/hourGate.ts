// The one gate for the organisation's analytics hour. The platform allows 100 analytics requests an
// hour per organisation, shared by every writer, every window and every analytics endpoint; past
// them everyone gets 429s. No analytics request leaves without a reservation from a grant of this
// gate: the API client refuses one that has none (client.ts, 'notGranted'). A grant comes three ways:
//   background(…)  work nobody asked for (a page shown, the signals' hourly refresh): held to the
//                  ledger's background ceiling and the window's share, request by request; never asks.
//   ask(…)         a writer's click: when it may need more than is left (or is large and the caller
//                  wants a yes first), it asks once, in the one wording below, and offers what fits.
//                  `granted(n)` is the same leave for a yes given elsewhere (the trend's Draw, a
//                  language model tool's confirmation dialog).
// Every grant is then held request by request: never more than it was granted, never after its
// action ended (`end()`), and each request reserved in the shared ledger before it is sent, written
// and read back with every window's (hourAccount.ts), so two windows spending at once cannot pass
// the hour. One fetch several actions share (a readers snapshot on its way) goes with their grants
// joined (`JoinedGrant`), each in turn. While the count is unknown (the key's bucket has no name) or
// uncertain (this window's file could not be written or every file read back: hourAccount.ts),
// background work and the editor's AI get nothing; a writer's question says so, and a writer's
// request that goes while it is uncertain is told once (and still held to what is known to be left).
// vscode for its types only (erased): the import is how `npm run l10n` finds the l10n.t calls.
import type * as vscode from 'vscode';
import type { Grant, Reservation } from '../api/client';
import { waitText } from '../waitWords';
import type { Ui } from '../ui';
import { HOUR_MS } from '../util/clock';
import type { HourLedger } from './hourAccount';
import { BACKGROUND_CEILING, freesInMs, HOURLY_LIMIT } from './ledger';
import { TEAMMATES_REMEMBERED_MS } from './sharedWaits';

/**
 * What the whole team's background work may take of the hour: a fifth. What writers ask needs the
 * rest: a writer's day of one export (40 requests on a 10,000-path site), a trend (about 9) and a
 * Reader Signals fetch (18) is 67, so ten writers ask about 670 in an 8½-hour day, 79 an hour on
 * average; 60 for background work (the ceiling) would leave them 40.
 */
const TEAM_BACKGROUND_SHARE = 20;

/**
 * Requests an hour that background work may take on one machine, every window of it together, once
 * a 429 has shown it has teammates: the team's share divided among the team (`analytics.teamSize`,
 * a hint, 10 by default: 2 each). No machine sees another's spend, so only a per-machine bound holds
 * for the team: ten machines at 2 take at most 20 of the hour.
 */
function backgroundShareOf(teamSize: number): number {
  return Math.max(1, Math.floor(TEAM_BACKGROUND_SHARE / Math.max(1, teamSize)));
}

/** A machine's background share when a window opens and no 429 has been seen: the ceiling divided among the team (6 for ten). */
export function startingShareOf(teamSize: number): number {
  return Math.max(backgroundShareOf(teamSize), Math.floor(BACKGROUND_CEILING / Math.max(1, teamSize)));
}

/** After a 429 (any window, any endpoint) background work waits out the named wait, then comes back at half its share, one request more each such span. */
const BACKGROUND_REGROW_MS = HOUR_MS;
/** A machine that has seen no 429 doubles its background share this often, up to the ceiling: it may well be alone. */
const BACKGROUND_DOUBLE_MS = HOUR_MS / 2;

/** Above this many requests an asked spend that wants a yes (Compare, a page's range, the trend) asks even when it fits. */
export const CONFIRM_ABOVE_REQUESTS = 4;

type L10n = Pick<typeof vscode.l10n, 't'>;

/** What an asked spend is for and what it may cost. */
export interface SpendAsk {
  /** What it is for, as the question names it: "Comparing with Last 30 days". */
  what: string;
  /** The requests it may need. */
  estimate: number;
  /** The estimate is a bound, not an expectation: "up to 40" (a cap), or "at least 7" (more if the site is bigger). */
  upTo?: boolean;
  /** One request per 250 paths of a site whose size is not known yet: said so, with where it stops. */
  perPage?: boolean;
  atLeast?: boolean;
  /** The most it can take (the fetch's own cap): an estimate that fits is granted up to it, within what is left, so a site grown since is not cut short. */
  cap?: number;
  /** Ask for a yes even when it fits, when it costs more than a few requests: the button's label. */
  confirm?: string;
  /**
   * The editor's AI asks (a language model tool's dialog): held to the background ceiling too, so the
   * last requests of the hour stay for what the writer asks in the views. A tool's dialog may be
   * answered unseen ("Allow in this Session"), so a model in a loop cannot take the whole hour.
   */
  forModel?: boolean;
}

/** A question about an asked spend, for a caller that shows it itself (the panel's trend). */
interface SpendQuestion {
  message: string;
  /** How many of the estimate fit now: all of it, fewer (offer those), or 0 (nothing to offer). */
  fits: number;
}

export interface HourGrant extends Grant {
  /** Requests reserved by this grant and not released (sent, or on their way). */
  readonly sent: number;
  /** What it was granted. */
  readonly allowed: number;
  /** The action that asked has ended: the grant reserves nothing more (a later click, a joined fetch or a redraw asks anew). */
  end(): void;
}

/** Who a grant is for: what a writer asked, work nobody asked for, or the editor's AI after its dialog. */
type Holder = 'writer' | 'background' | 'model';

export class HourGate {
  /** This window's background requests in the last hour, per purpose, for a purpose's share. */
  private readonly backgroundSent = new Map<string, number[]>();
  /** When this window's gate began: a machine with no 429 seen grows its background share from here. */
  private readonly opened: number;
  /** A writer was told the count is uncertain; told again only after it was certain once more. */
  private toldUncertain = false;

  constructor(
    private readonly ledger: HourLedger,
    private readonly ui: Pick<Ui, 'showMessage'>,
    private readonly l10n: L10n,
    private readonly now: () => number = Date.now,
    /** The team's size as the settings hint it (analytics.teamSize). */
    private readonly teamSize: () => number = () => 10,
  ) {
    this.opened = now();
  }

  /** Requests of the hour so far, every window's reservations included; undefined while the count is unknown or uncertain. */
  used(): number | undefined {
    return this.ledger.certain() ? this.ledger.analyticsTimes()?.length : undefined;
  }

  /** Requests of the hour known to be spent (a lower bound while the count is uncertain); undefined while the key's bucket has no name. */
  private usedAtLeast(): number | undefined {
    return this.ledger.analyticsTimes()?.length;
  }

  /** Requests the organisation has left this hour on this machine's count; undefined while the ledger cannot tell. */
  left(): number | undefined {
    const used = this.used();
    return used === undefined ? undefined : Math.max(0, HOURLY_LIMIT - used);
  }

  /** How long until `wanted` requests are free (capped at the hour's 100); 0 when they are now. */
  freesInMs(wanted: number): number {
    const times = this.ledger.analyticsTimes() ?? [];
    return freesInMs(times, this.now(), Math.min(Math.max(1, wanted), HOURLY_LIMIT), HOURLY_LIMIT);
  }

  /**
   * Leave for background work of `purpose`: undefined when `estimate` more would pass the ceiling
   * (or the purpose's `share` of it in this window), or the ledger cannot tell yet. Each request is
   * held to the ceiling and the share again, so a fetch larger than its estimate stops there.
   */
  background(purpose: string, estimate: number, share = Number.POSITIVE_INFINITY): HourGrant | undefined {
    const fits = (more: number) => {
      const used = this.used();
      const machine = this.ledger.backgroundTimes()?.length;
      return (
        used !== undefined &&
        machine !== undefined &&
        used + more <= BACKGROUND_CEILING &&
        machine + more <= this.backgroundShare() &&
        this.sharedSoFar(purpose) + more <= share
      );
    };
    if (!fits(Math.max(1, estimate))) return undefined;
    const sent = this.backgroundSent.get(purpose) ?? [];
    this.backgroundSent.set(purpose, sent);
    return this.grant(
      Number.POSITIVE_INFINITY,
      'background',
      () => fits(1),
      () => sent.push(this.now()),
      () => sent.pop(),
    );
  }

  /**
   * This machine's background share of the hour now, every window's 429s counted (the ledger shares
   * them): none while a 429's named wait runs. After a 429 that came while this machine's own count
   * was low (teammates spend the hour: ledger.ts TEAMMATES_BELOW), half of backgroundShareOf the team,
   * one more each hour, never above it again for a week. A machine that has seen no such 429 may be
   * alone: its share starts at the ceiling divided among the team (6 for ten) when this window opens,
   * or when its own 429's wait ends, and doubles each half hour up to the ceiling (a writer alone has
   * a 10,000-path site's readers within the hour; a team learns from its first 429).
   */
  backgroundShare(): number {
    const share = backgroundShareOf(this.teamSize());
    const until = this.ledger.rateLimitedUntil();
    const teammates = this.ledger.teammatesSeenUntil();
    const now = this.now();
    if (now < until) return 0;
    if (teammates > 0 && now - teammates < TEAMMATES_REMEMBERED_MS)
      return Math.min(share, Math.ceil(share / 2) + Math.floor((now - teammates) / BACKGROUND_REGROW_MS));
    const quietSince = Math.max(this.opened, until, teammates > 0 ? teammates + TEAMMATES_REMEMBERED_MS : 0);
    return Math.min(BACKGROUND_CEILING, startingShareOf(this.teamSize()) * 2 ** Math.floor(Math.max(0, now - quietSince) / BACKGROUND_DOUBLE_MS));
  }

  /**
   * Leave for what a writer asked: all of `estimate` when it fits, up to its `cap` within what is
   * left (after a yes when `confirm` asks for one and it costs more than a few requests); when it
   * may not fit, asked once what to do, and then what fits; undefined when nothing is left (the
   * writer is told) or the writer said no.
   */
  async ask(spend: SpendAsk): Promise<HourGrant | undefined> {
    const question = this.question(spend);
    const left = this.left();
    const fitsAll = left === undefined || spend.estimate <= left;
    // An unknown count: asked whenever a yes is wanted, the question saying the count is unknown.
    if (fitsAll && !(spend.confirm && spend.estimate > CONFIRM_ABOVE_REQUESTS) && !(left === undefined && spend.estimate > CONFIRM_ABOVE_REQUESTS))
      return this.granted(question.fits);
    if (question.fits === 0) {
      void this.ui.showMessage('warning', question.message);
      return undefined;
    }
    const action = fitsAll ? (spend.confirm ?? this.l10n.t('Fetch')) : this.l10n.t('Fetch {0}', question.fits);
    return (await this.ui.showMessage('warning', question.message, action)) === action ? this.granted(question.fits) : undefined;
  }

  /**
   * Leave for an asked spend the writer said yes to elsewhere: `allowed` requests, each within what
   * is left (and, `forModel`, within the background ceiling: see SpendAsk.forModel).
   */
  granted(allowed: number, forModel = false): HourGrant {
    // An unknown count holds the editor's AI closed; what a writer asked goes, its question said so,
    // within what is known to be left.
    const knownLeft = () => HOURLY_LIMIT - (this.usedAtLeast() ?? 0);
    return forModel ? this.grant(allowed, 'model', () => (this.modelRoom() ?? 0) > 0) : this.grant(allowed, 'writer', () => knownLeft() > 0);
  }

  /** What the editor's AI may still spend this hour: what is left, within the background ceiling (see SpendAsk.forModel). */
  modelRoom(): number | undefined {
    const used = this.used();
    return used === undefined ? undefined : Math.max(0, Math.min(HOURLY_LIMIT, BACKGROUND_CEILING) - used);
  }

  /**
   * The one wording of a spend's cost: what it is for, its estimate, what is left on this machine's
   * count, and, when it does not all fit, when that many are free and that what fits can go now.
   */
  question(spend: SpendAsk): SpendQuestion {
    const t = this.l10n;
    const left = this.left();
    const room = spend.forModel ? this.modelRoom() : left;
    const most = Math.max(spend.estimate, spend.cap ?? spend.estimate);
    // What a yes allows is said: the cost and, when the grant may take more, where it stops.
    const stops = room === undefined ? most : Math.min(most, room);
    const cost = spend.perPage
      ? t.t('one analytics request per 250 paths (the site’s size is not known yet), stopping at {0}', Math.max(1, stops))
      : spend.atLeast
        ? t.t('at least {0} analytics requests', spend.estimate)
        : spend.estimate === 1 && most === 1
          ? t.t('1 analytics request')
          : spend.upTo
            ? t.t('up to {0} analytics requests', spend.estimate)
            : most > spend.estimate && stops > spend.estimate
              ? t.t('about {0} analytics requests, stopping at {1}', spend.estimate, stops)
              : t.t('about {0} analytics requests', spend.estimate);
    const count = t.t('left this hour on this machine’s count (teammates on other machines also spend it)');
    if (room === undefined || left === undefined) {
      const unknown = t.t(
        '{0} takes {1}. The hour’s count is not known in this window (its shared state could not be written or read whole, or the key is not read yet), so background work and the editor’s AI are held until it is.',
        spend.what,
        cost,
      );
      return { message: unknown, fits: spend.forModel ? 0 : most };
    }
    if (spend.estimate <= room || (spend.perPage && room > 0 && room === left))
      return { message: t.t('{0} takes {1}, of the {2} {3}.', spend.what, cost, left, count), fits: stops };
    if (room < left) {
      // The editor's AI stays under the ceiling: the rest of the hour is the writer's.
      const kept = t.t(
        '{0} needs {1}; {2} are {3}, and the editor’s AI may use {4} of them: the last {5} of the hour are kept for what you ask in the views.',
        spend.what,
        cost,
        left,
        count,
        room,
        HOURLY_LIMIT - BACKGROUND_CEILING,
      );
      return { message: room > 0 ? t.t('{0} Fetch the {1} that fit now and see what was left out, or try again later.', kept, room) : kept, fits: room };
    }
    const wait = waitText(Math.max(1_000, this.freesInMs(spend.estimate)), t);
    const free =
      spend.estimate > HOURLY_LIMIT
        ? t.t('it can never all fit in one hour (the platform allows {0})', HOURLY_LIMIT)
        : spend.estimate === 1
          ? t.t('one is free in {0}', wait)
          : t.t('all {0} are free in {1}', spend.estimate, wait);
    if (left === 0) return { message: t.t('{0} needs {1}, and none are {2}; {3}.', spend.what, cost, count, free), fits: 0 };
    return {
      message: t.t(
        '{0} needs {1}; {2} are {3}, and {4}. Fetch the {2} that fit now and see what was left out, or try again then.',
        spend.what,
        cost,
        left,
        count,
        free,
      ),
      fits: left,
    };
  }

  /**
   * A grant: each request checked against what it may take now, then reserved in the shared ledger
   * within its holder's limit (the hour, or the ceiling for background work and the editor's AI),
   * which may still refuse it once every window's reservations are read back.
   */
  private grant(allowed: number, holder: Holder, fits: () => boolean, onReserve?: () => void, onRelease?: () => void): HourGrant {
    let sent = 0;
    let ended = false;
    const limit = holder === 'writer' ? HOURLY_LIMIT : Math.min(HOURLY_LIMIT, BACKGROUND_CEILING);
    const reserve = async (): Promise<Reservation | undefined> => {
      if (ended || sent >= allowed || !fits()) return undefined;
      sent++;
      onReserve?.();
      const hold = await this.ledger.reserve(limit, holder === 'background' ? this.backgroundShare() : undefined);
      const refuse = () => {
        hold?.release();
        sent--;
        onRelease?.();
        return undefined;
      };
      if (!hold || ended) return refuse();
      // An unknown count is a full one for work nobody asked for and for the editor's AI.
      if (!hold.counted && holder !== 'writer') return refuse();
      if (!hold.counted) this.tellUncertain();
      else this.toldUncertain = false;
      let settled = false;
      return {
        end: (wasSent: boolean) => {
          if (settled) return;
          settled = true;
          if (!wasSent) refuse();
        },
      };
    };
    return {
      reserve,
      end: () => void (ended = true),
      get sent() {
        return sent;
      },
      allowed,
    };
  }

  /** A writer's request goes while the count is uncertain: said once, until it is certain again. */
  private tellUncertain(): void {
    if (this.toldUncertain) return;
    this.toldUncertain = true;
    void this.ui.showMessage(
      'warning',
      this.l10n.t(
        'The organisation’s analytics hour cannot be counted for certain in this window: its shared state could not be written or read back whole. What you asked for is fetched; your other windows may not count it until the disk answers again, and background work and the editor’s AI are held until then.',
      ),
    );
  }

  private sharedSoFar(purpose: string): number {
    const times = this.backgroundSent.get(purpose);
    if (!times) return 0;
    const hourAgo = this.now() - HOUR_MS;
    while ((times[0] ?? Infinity) <= hourAgo) times.shift();
    return times.length;
  }
}
