// Check Live Search: a term, the inbox's group of them, or one typed, asked of the site's own search
// as readers search (a large check says its cost first); one term's results open in a pick.
import * as vscode from 'vscode';
import { ApiError } from '../../api';
import { COMMANDS } from '../../commands';
import { buildInbox } from '../../signals/signalsModel';
import type { SearchCheck } from '../../sync/searchState';
import { withCancellableProgress } from '../../ui';
import { LARGE_CHECK } from '../searchChecks';
import { gapSentence } from '../searchText';
import { openSearchPageCommand } from './openSearchPage';
import type { ResultItem, SearchCommandPorts } from './searchCommandPorts';

/** The command: `arg` is a term's row, the searches group's row, or nothing (a term is typed). */
export function checkSearchCommand(ports: SearchCommandPorts) {
  const { checks, ui } = ports;
  return async (arg?: unknown): Promise<void> => {
    if (!(await ready(ports))) return;
    const terms = await termsOf(ports, arg);
    if (!terms?.length) return;
    const domain = ports.searchable() ?? '';
    const expect = await ports.expectedPage();
    // A check of one term asks again (the writer asked); a group reuses what was checked in the last day.
    const fresh = terms.length === 1;
    const cost = checks.cost(terms, fresh);
    if (cost > LARGE_CHECK) {
      const go = vscode.l10n.t('Check {0} Searches', cost);
      const asked = vscode.l10n.t(
        'Checking {0} searches is {0} requests of the site’s search of “{1}” ({2} more were checked in the last day and are reused). Its limit is 10,000 an hour for the organisation; the analytics hour is not touched.',
        cost,
        domain,
        terms.length - cost,
      );
      if ((await ui.showMessage('info', asked, go)) !== go) return;
    }
    const run = await withCancellableProgress(ui, vscode.l10n.t('Checking the live search of “{0}”…', domain), (signal) =>
      checks.check(terms, { fresh, signal, ...(expect && { expect }) }),
    );
    if (run.error && !(run.error instanceof ApiError && run.error.kind === 'cancelled')) ports.fail(vscode.l10n.t('Checking the live search'), run.error);
    ports.log.info(`checked ${run.checks.size} of ${terms.length} searches (${run.requests} requests)`);
    if (terms.length === 1) {
      const [term] = terms;
      const check = run.checks.get(term);
      if (check) await showResults(ports, term, check);
      return;
    }
    if (!run.checks.size) return;
    const nothing = [...run.checks.values()].filter((c) => !c.hits.length).length;
    void ui.showMessage(
      'info',
      vscode.l10n.t(
        'Checked {0} of {1} searches readers gave up on ({2} requests): {3} find nothing (content gaps), {4} find pages readers did not click. Each row of Reader Signals says what its search found.',
        run.checks.size,
        terms.length,
        run.requests,
        nothing,
        run.checks.size - nothing,
      ),
    );
  };
}

/** Says what is missing (the key, the site), with the command that sets it; true when search can be used. */
async function ready(ports: SearchCommandPorts): Promise<boolean> {
  const { settings, ui } = ports;
  if (ports.searchable()) return true;
  const key = vscode.l10n.t('Set Assistant Key');
  const site = vscode.l10n.t('Set Site Domain');
  const noDomain = settings.search.siteDomain === undefined;
  const choice = await ui.showMessage(
    'info',
    vscode.l10n.t(
      'Checking searches against the live site needs the site’s assistant API key (it starts with "mint_dsc_") and its domain identifier. Nothing was sent.',
    ),
    ...(noDomain ? [key, site] : [key]),
  );
  if (choice === key) await vscode.commands.executeCommand(COMMANDS.setAssistantKey);
  if (choice === site) await vscode.commands.executeCommand(COMMANDS.setSiteDomain);
  return false;
}

/** The terms a check is about: the node's term, every term of the inbox's group, or one the writer types. */
async function termsOf({ signals, ui }: SearchCommandPorts, arg: unknown): Promise<string[] | undefined> {
  const node = arg as { type?: string; id?: string; signal?: { searchQuery?: unknown } } | undefined;
  if (node?.type === 'search' && typeof node.signal?.searchQuery === 'string') return [node.signal.searchQuery];
  if (node?.type === 'group' && node.id === 'searches') {
    const snapshot = signals.store.current();
    return snapshot ? buildInbox(snapshot).searches.map((s) => s.searchQuery) : [];
  }
  const typed = await ui.showInputBox({
    title: vscode.l10n.t('Check Live Search'),
    prompt: vscode.l10n.t('A search term, as readers type it. The site’s search is asked once (one request), as readers search.'),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type a search term.')),
  });
  return typed?.trim() ? [typed.trim()] : undefined;
}

/** A term's results, best first: picking one opens its page. */
async function showResults(ports: SearchCommandPorts, term: string, check: SearchCheck): Promise<void> {
  const { ui } = ports;
  const gap = await ports.gapFor(check);
  if (!check.hits.length) return void ui.showMessage('info', `“${term}”: ${gapSentence(gap)}`);
  const items: ResultItem[] = await Promise.all(
    check.hits.map(async (hit, i) => ({
      label: `${i + 1}. ${hit.p || '?'}`,
      description: (await ports.docs.fileOf(hit.p)) ? vscode.l10n.t('in this workspace') : vscode.l10n.t('on the site'),
      ...(hit.c && { detail: hit.c }),
      path: hit.p,
    })),
  );
  const picked = await ui.showQuickPick(items, { title: `“${term}”: ${gapSentence(gap)}`, placeHolder: vscode.l10n.t('Open a result’s page') });
  if (picked?.path) await openSearchPageCommand(ports)(picked.path);
}
