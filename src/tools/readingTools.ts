// The reading tools: a page's reader evidence, the gap inbox, visitors, agent jobs. Each answers
// from what the extension keeps, at no cost: the reader signals snapshot (never fetched here:
// fetching it is the acting tool fetch_mintlifyReaderSignals), the tracked jobs, and the readers'
// visitors snapshot. When no fresh visitors are kept, the tool asks the writer first, in its
// confirmation dialog (the cost and what the hour has left), and fetches only after that yes, held
// to what the dialog offered; nothing the model does spends the organisation's hour unasked.
import * as vscode from 'vscode';
import { resolvePreset } from '../analytics/dateRange';
import type { VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import { isApiError } from '../api';
import { failureView } from '../errorMessages';
import { normalizeSitePath } from '../docs/sitePaths';
import { PausedError, type RangeNow } from '../readers/pageReaders';
import { isFreshFor } from '../analytics/visitorsSnapshot';
import { PRESETS, type PresetId } from '../shared/protocol';
import { MOST_REQUESTS } from '../signals/snapshot';
import { localToday } from '../util/days';
import { Blocked, type Confirmations } from './confirmation';
import { notGrantedText, missingSetup, modelNotGranted, textInput, type ToolPorts, type ToolInput, type ToolTable } from './toolPorts';
import { TOOLS } from './toolNames';
import { agentJobsText, agentJobText, gapInboxText, readerEvidenceText, TOP_ROWS, visitorsText } from './toolTexts';
import { searchChecksText } from './searchTexts';

/** `confirmations`: what a dialog offered, so that only its own invoke spends it (confirmation.ts). */
export function readingTools(
  deps: ToolPorts,
  confirmations: Confirmations,
): Pick<ToolTable, typeof TOOLS.readerEvidence | typeof TOOLS.gapInbox | typeof TOOLS.visitors | typeof TOOLS.agentJobs | typeof TOOLS.searchChecks> {
  /** The kept reader signals of the project, or why there are none (no request either way). */
  const keptSignals = async () => {
    const snapshot = await deps.signals.load();
    if (snapshot) return snapshot;
    return vscode.l10n.t(
      'No reader signals are kept for project "{0}" yet. Ask the writer to fetch them: the tool {1} (or "Mintlify: Fetch Reader Signals") uses up to {2} analytics requests.',
      deps.settings.projectId ?? '',
      TOOLS.fetchReaderSignals,
      MOST_REQUESTS,
    );
  };

  return {
    [TOOLS.readerEvidence]: {
      invoke: async (input) => {
        const missing = missingSetup(deps);
        if (missing) return missing;
        const page = await pageOf(deps, input);
        if (typeof page === 'string') return page;
        const snapshot = await keptSignals();
        if (typeof snapshot === 'string') return snapshot;
        return readerEvidenceText(snapshot, page.sitePath, page.files);
      },
    },

    [TOOLS.gapInbox]: {
      invoke: async () => {
        const missing = missingSetup(deps);
        if (missing) return missing;
        const snapshot = await keptSignals();
        return typeof snapshot === 'string' ? snapshot : gapInboxText(snapshot, deps.settings.signals.rankByAiShare);
      },
    },

    [TOOLS.visitors]: {
      prepareInvocation: (input) => {
        // No dialog when nothing would be sent: the capture says so, so this call's invoke spends nothing.
        const none = (reason: string) => void confirmations.shown(TOOLS.visitors, input, new Blocked(reason));
        const ask = visitorsAsk(deps, input);
        if (typeof ask === 'string' || missingSetup(deps) || ask.fresh) return none('no request'); // nothing to confirm
        const question = deps.gate.question({
          what: vscode.l10n.t('Fetching the visitors of {0} for the editor’s AI', ask.now.range.label),
          ...deps.visitors.estimate(ask.now.key),
          forModel: true,
        });
        if (question.fits === 0) return none('not granted'); // invoke() says why (notGrantedText); nothing is sent
        confirmations.shown(TOOLS.visitors, input, { project: ask.now.key.projectId, range: ask.preset, allowed: question.fits });
        return {
          invocationMessage: vscode.l10n.t('Fetching visitors…'),
          confirmationMessages: { title: vscode.l10n.t('Fetch visitors?'), message: question.message },
        };
      },
      invoke: async (input) => {
        const missing = missingSetup(deps);
        if (missing) return missing;
        const ask = visitorsAsk(deps, input);
        if (typeof ask === 'string') return ask;
        const { now, preset, top, kept } = ask;
        if (kept && ask.fresh) return visitorsText(kept, preset, top, false);
        // Only what the writer said yes to in this call's dialog is spent, for the project and range it named.
        const verdict = confirmations.verdict(TOOLS.visitors, input, { project: now.key.projectId, range: preset, allowed: 0 }, ['project', 'range']);
        if (verdict.kind !== 'send') {
          if (modelNotGranted(deps)) return notGrantedText(deps);
          return vscode.l10n.t(
            'No visitors fetched in the last hour are kept for {0}, and nothing was sent: a fetch is confirmed by the writer in this tool’s dialog. Call the tool again to be asked.',
            now.range.label,
          );
        }
        let snapshot: VisitorsSnapshot;
        try {
          // The dialog's yes is this call's: the load makes its grant of it, and ends it with the load.
          snapshot = await deps.visitors.load(now, { allowedForModel: verdict.terms.allowed });
        } catch (error) {
          if (isApiError(error) && error.kind === 'notGranted') return notGrantedText(deps);
          if (error instanceof PausedError)
            return vscode.l10n.t(
              'The last visitors request for this range failed; the readers try again after {0}. Nothing was sent.',
              new Date(error.until).toISOString(),
            );
          if (isApiError(error)) return failureView(error, 'analytics', vscode.l10n).message;
          throw error;
        }
        return visitorsText(snapshot, preset, top, snapshot !== kept);
      },
    },

    [TOOLS.searchChecks]: {
      // Read-only: the checks a writer made and the jobs' replays, as kept; the tool never searches.
      invoke: async (input) => {
        const domain = deps.searches?.searchable();
        if (!deps.searches || !domain)
          return vscode.l10n.t(
            'The site’s own search is not set up here: the writer sets an assistant API key ("Mintlify: Set Assistant Key", a key starting with mint_dsc_) and the site’s domain identifier. Nothing was sent.',
          );
        const term = textInput(input, 'term');
        const checks = deps.searches.checks.all().filter(([t]) => term === undefined || t === term);
        const jobs = deps.settings.projectId ? deps.searches.replays.all(deps.settings.projectId) : [];
        return searchChecksText(
          domain,
          checks,
          jobs.filter(([, replay]) => term === undefined || Object.hasOwn(replay.terms, term)),
        );
      },
    },

    [TOOLS.agentJobs]: {
      invoke: async (input) => {
        const projectId = deps.settings.projectId;
        if (!projectId) return vscode.l10n.t('No project ID: run "Mintlify: Set Project ID" first.');
        const jobId = textInput(input, 'jobId');
        if (!jobId) return agentJobsText(projectId, deps.jobs.all());
        const tracked = deps.jobs.get(jobId);
        return tracked
          ? agentJobText(tracked, deps.reviews?.factsOf(jobId))
          : vscode.l10n.t('Job "{0}" is not tracked here: the tool reads only the jobs in the Agent Jobs view ("Mintlify: Track Agent Job" adds one).', jobId);
      },
    },
  };
}

/** The visitors tool's range, its kept snapshot and whether that is fresh (no request), or why the input is not one. */
function visitorsAsk(
  deps: ToolPorts,
  input: ToolInput,
): { now: RangeNow; preset: PresetId; top: number; kept: VisitorsSnapshot | undefined; fresh: boolean } | string {
  const asked = textInput(input, 'range');
  if (asked !== undefined && !(PRESETS as readonly string[]).includes(asked))
    return vscode.l10n.t('Unknown range "{0}": use one of {1}.', asked, PRESETS.join(', '));
  const preset = (asked as PresetId | undefined) ?? deps.visitors.preset;
  const range = resolvePreset(preset, localToday(), vscode.l10n);
  const now: RangeNow = { preset, range, key: { projectId: deps.settings.projectId ?? '', dateFrom: range.dateFrom, dateTo: range.dateTo } };
  const top = typeof input.top === 'number' && Number.isFinite(input.top) ? Math.floor(input.top) : TOP_ROWS;
  const kept = deps.snapshots.cached(now.key);
  return { now, preset, top, kept, fresh: kept !== undefined && isFreshFor(kept, Date.now()) };
}

/**
 * The page the evidence is about: the one named (a site path such as "/quickstart", or a file in
 * the workspace such as "docs/quickstart.mdx"), else the open one; with its files in the
 * workspace, relative, so no path outside the workspace is ever answered.
 */
async function pageOf(deps: ToolPorts, input: ToolInput): Promise<{ sitePath: string; files: string[] } | string> {
  const named = textInput(input, 'page');
  let sitePath: string | undefined;
  if (named === undefined) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    sitePath = uri && (await deps.docs.pageOf(uri))?.sitePath;
    if (!sitePath)
      return vscode.l10n.t(
        'No docs page is open: open one in the editor, or name a page by its site path ("/quickstart") or its file in the workspace ("docs/quickstart.mdx").',
      );
  } else if (named.startsWith('/') && !named.startsWith('//')) {
    sitePath = normalizeSitePath(named);
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0];
    // Only a relative path inside the workspace: never an absolute one, a drive, or a way up.
    if (!folder || /^[a-z]+:|^[\\/]|(^|[\\/])\.\.([\\/]|$)/i.test(named)) return notAPage(named);
    sitePath = (await deps.docs.pageOf(vscode.Uri.joinPath(folder.uri, named)))?.sitePath;
    if (!sitePath) return notAPage(named);
  }
  const file = await deps.docs.fileOf(sitePath);
  const files = file && vscode.workspace.getWorkspaceFolder(file) ? [vscode.workspace.asRelativePath(file, false)] : [];
  return { sitePath, files };
}

function notAPage(named: string): string {
  return vscode.l10n.t(
    '"{0}" is not a docs page of this workspace: name a page by its site path ("/quickstart") or by its .mdx file relative to the workspace ("docs/quickstart.mdx").',
    named.slice(0, 200),
  );
}
