// The "Reader Signals" view: three groups (pages with 👎 or pending comments, searches that found
// no click, unanswered assistant questions), each node with its evidence in the tooltip (built on
// hover) and, when an agent job addresses it, the job's state beside it (and what other features
// note of it: src/search, what the site's search returns for a term). Built from the kept
// snapshot only: showing the view never sends a request. A draw reads the setting and the linked
// jobs once, for all its rows.
import * as vscode from 'vscode';
import { formatCount } from '../readers/readersText';
import { commandLink } from '../util/commandLink';
import type { JobStore } from '../jobs/jobStore';
import { Disposable } from '../util/lifecycle';
import { MAX_ITEMS } from '../prompt/quotedEvidence';
import { appendPageHealth } from './healthTooltip';
import { jobBadge, type SignalJobs } from './signalJobs';
import { buildInbox, indexSignalJobs, pageHealth, type Inbox, type SignalJobIndex, type PageSignal, type QuestionGroup, type SearchGap } from './signalsModel';
import type { SignalRef } from './signalRef';
import type { SignalsStore } from './signalsStore';
import type { SignalsSnapshot, UnansweredQuestion } from './snapshot';
import { COMMANDS } from '../commands';
import { oneLine, showInvisible } from '../util/visibleText';

const fmt = formatCount;

type GroupId = 'pages' | 'searches' | 'questions';

export type SignalNode =
  /** The searches' group carries the ref of its most searched terms (Ask the Agent to Address This). */
  | { type: 'group'; id: GroupId; count: number; ref?: SignalRef }
  | { type: 'page'; signal: PageSignal; ref: SignalRef }
  | { type: 'search'; signal: SearchGap; ref: SignalRef }
  | { type: 'questionGroup'; group: QuestionGroup; ref: SignalRef }
  | { type: 'question'; question: UnansweredQuestion };

/** What one draw of the view reads once, shared by every node: not once per node. */
interface Draw {
  snapshot: SignalsSnapshot;
  inbox: Inbox;
  /** The setting the inbox was ranked by, so each page's description matches its rank. */
  rankByAiShare: boolean;
  jobs: SignalJobIndex;
}

/** What another feature adds to a signal's row (src/search: what a term's check found), by the signal's id (`group:searches` for that group). */
interface SignalRowNotes {
  noteOf(id: string): { text: string; tooltip: string } | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export class SignalsTreeProvider extends Disposable implements vscode.TreeDataProvider<SignalNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<SignalNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private draw: Draw | undefined;
  private readonly notes: SignalRowNotes[] = [];

  constructor(
    private readonly store: SignalsStore,
    private readonly jobs: JobStore,
    private readonly links: SignalJobs,
    private readonly options: { rankByAiShare: () => boolean; projectId: () => string | undefined },
  ) {
    super();
    const rebuild = () => this.refresh();
    this.register(store.onDidChange(rebuild));
    // A job's new state shows beside the signals it addresses; other jobs change nothing here.
    // With no draw since the last rebuild, the next draw reads every job afresh anyway.
    this.register(jobs.onDidChange((changed) => (!changed || changed.some((job) => this.draw?.jobs.jobIds.has(job.id))) && rebuild()));
    this.register(links.onDidChange(rebuild));
  }

  /** Adds another feature's notes to the rows, redrawn when they change. */
  addNotes(notes: SignalRowNotes): void {
    this.notes.push(notes);
    this.register(notes.onDidChange(() => this.emitter.fire(undefined)));
    this.emitter.fire(undefined);
  }

  private noteOf(id: string): { text: string; tooltip: string } | undefined {
    const notes = this.notes.flatMap((n) => n.noteOf(id) ?? []);
    return notes.length ? { text: notes.map((n) => n.text).join(' · '), tooltip: notes.map((n) => n.tooltip).join('\n\n') } : undefined;
  }

  /** Ranks, links or the snapshot changed: the next draw reads them again. */
  refresh(): void {
    this.draw = undefined;
    this.emitter.fire(undefined);
  }

  /** Where a draw starts (the root, a group's children): checks the snapshot shown is still the kept one. */
  private currentDraw(): Draw | undefined {
    const snapshot = this.store.current();
    if (!snapshot) return undefined;
    if (this.draw?.snapshot === snapshot) return this.draw;
    const rankByAiShare = this.options.rankByAiShare();
    const projectId = this.options.projectId();
    this.draw = { snapshot, inbox: buildInbox(snapshot, { rankByAiShare }), rankByAiShare, jobs: indexSignalJobs(projectId ? this.links.all(projectId) : []) };
    return this.draw;
  }

  /** The draw a row came from: its rows read nothing again (the kept snapshot's check reads the project setting). */
  private rowDraw(): Draw | undefined {
    return this.draw ?? this.currentDraw();
  }

  getChildren(node?: SignalNode): SignalNode[] {
    const inbox = this.currentDraw()?.inbox;
    if (!inbox) return [];
    if (!node) {
      return [
        { type: 'group', id: 'pages', count: inbox.pages.length },
        {
          type: 'group',
          id: 'searches',
          count: inbox.searches.length,
          ...(inbox.searches.length && { ref: { kind: 'searches', searchQueries: inbox.searches.slice(0, MAX_ITEMS).map((s) => s.searchQuery) } }),
        },
        { type: 'group', id: 'questions', count: inbox.questions.reduce((n, g) => n + g.questions.length, 0) },
      ];
    }
    if (node.type === 'group' && node.id === 'pages') return inbox.pages.map((signal) => ({ type: 'page', signal, ref: { kind: 'page', path: signal.path } }));
    if (node.type === 'group' && node.id === 'searches')
      return inbox.searches.map((signal) => ({ type: 'search', signal, ref: { kind: 'search', searchQuery: signal.searchQuery } }));
    if (node.type === 'group')
      return inbox.questions.map((group) => ({ type: 'questionGroup', group, ref: { kind: 'questions', group: group.kind, key: group.key } }));
    if (node.type === 'questionGroup') return node.group.questions.map((question) => ({ type: 'question', question }));
    return [];
  }

  /** Everything a row shows but its tooltip, which VS Code asks for on hover (resolveTreeItem). */
  getTreeItem(node: SignalNode): vscode.TreeItem {
    const draw = this.rowDraw();
    switch (node.type) {
      case 'group': {
        const item = groupItem(node.id, node.count);
        const note = this.noteOf(`group:${node.id}`);
        if (note) item.description = `${String(item.description)} · ${note.text}`;
        return item;
      }
      case 'page': {
        const { signal } = node;
        const item = new vscode.TreeItem(showInvisible(signal.path), vscode.TreeItemCollapsibleState.None);
        item.id = signal.id;
        const parts = [vscode.l10n.t('{0} not helpful', fmt(signal.thumbsDown))];
        if (signal.pendingComments)
          parts.push(signal.pendingComments === 1 ? vscode.l10n.t('1 comment') : vscode.l10n.t('{0} comments', fmt(signal.pendingComments)));
        if (signal.codeComments)
          parts.push(signal.codeComments === 1 ? vscode.l10n.t('1 on a code block') : vscode.l10n.t('{0} on code blocks', fmt(signal.codeComments)));
        parts.push(vscode.l10n.t('{0} views', fmt(signal.readers)));
        if (draw?.rankByAiShare) parts.push(vscode.l10n.t('{0}% AI', Math.round(signal.aiShare * 100)));
        item.description = this.withJob(draw, parts.join(' · '), signal.id);
        item.iconPath = new vscode.ThemeIcon('file', new vscode.ThemeColor('charts.red'));
        item.contextValue = 'signal:page';
        item.command = { command: COMMANDS.openSignalPage, title: vscode.l10n.t('Open Page'), arguments: [signal.path] };
        return item;
      }
      case 'search': {
        const { signal } = node;
        const item = new vscode.TreeItem(`"${showInvisible(signal.searchQuery)}"`, vscode.TreeItemCollapsibleState.None);
        item.id = signal.id;
        const note = this.noteOf(signal.id);
        item.description = this.withJob(draw, vscode.l10n.t('{0} searches · no click', fmt(signal.hits)) + (note ? ` · ${note.text}` : ''), signal.id);
        item.iconPath = new vscode.ThemeIcon('search');
        item.contextValue = 'signal:search';
        return item;
      }
      case 'questionGroup': {
        const { group } = node;
        const label =
          group.kind === 'page'
            ? showInvisible(group.key ?? '')
            : group.kind === 'category'
              ? vscode.l10n.t('Category: {0}', showInvisible(group.key ?? ''))
              : vscode.l10n.t('No page or category');
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = group.id;
        item.description = this.withJob(draw, vscode.l10n.t('{0} unanswered', fmt(group.questions.length)), group.id);
        item.iconPath = new vscode.ThemeIcon('comment-unresolved');
        item.contextValue = 'signal:questions';
        return item;
      }
      case 'question': {
        const { question } = node;
        const item = new vscode.TreeItem(shorten(question.query.text, 80), vscode.TreeItemCollapsibleState.None);
        item.id = `question:${question.id}`;
        item.description = question.timestamp.slice(0, 10);
        item.contextValue = 'signal:question';
        return item;
      }
    }
  }

  /**
   * The node's evidence, built when VS Code asks for it on hover, so a draw of thousands of rows
   * never scans the snapshot for each page's health.
   */
  resolveTreeItem(item: vscode.TreeItem, node: SignalNode): vscode.TreeItem {
    item.tooltip = this.tooltip(node);
    return item;
  }

  private tooltip(node: SignalNode): vscode.MarkdownString | undefined {
    const draw = this.rowDraw();
    if (!draw) return undefined;
    switch (node.type) {
      case 'group': {
        const note = this.noteOf(`group:${node.id}`);
        return note && new vscode.MarkdownString().appendText(note.tooltip);
      }
      case 'page': {
        const md = trusted();
        md.appendMarkdown('**').appendText(showInvisible(node.signal.path)).appendMarkdown('**\n\n');
        appendPageHealth(md, pageHealth(draw.snapshot, node.signal.path), draw.snapshot, { jobStatus: this.jobLine(draw, node.signal.id) });
        return md;
      }
      case 'search': {
        const { signal } = node;
        const md = trusted();
        md.appendText(
          vscode.l10n.t(
            '"{0}" was searched {1} times and no result was clicked. The API has no "no results" flag: readers may have found nothing, or nothing worth a click.',
            showInvisible(signal.searchQuery),
            fmt(signal.hits),
          ),
        );
        if (signal.lastSearchedAt) md.appendMarkdown('\n\n').appendText(vscode.l10n.t('Last searched {0}.', signal.lastSearchedAt.slice(0, 10)));
        const note = this.noteOf(signal.id);
        if (note) md.appendMarkdown('\n\n').appendText(note.tooltip);
        this.appendJob(md, draw, signal.id);
        md.appendMarkdown(`\n\n${askLink(node.ref)}`);
        return md;
      }
      case 'questionGroup': {
        const { group } = node;
        const md = trusted();
        md.appendText(vscode.l10n.t('{0} assistant questions asked here went unanswered. Newest:', fmt(group.questions.length)));
        md.appendMarkdown('\n\n');
        for (const question of group.questions.slice(0, 3)) md.appendMarkdown('> ').appendText(shorten(question.query.text)).appendMarkdown('\n\n');
        this.appendJob(md, draw, group.id);
        md.appendMarkdown(`\n\n${askLink(node.ref)}`);
        return md;
      }
      case 'question': {
        const { question } = node;
        const md = new vscode.MarkdownString('', true);
        md.appendText(showInvisible(question.query.text.length > 1_000 ? `${question.query.text.slice(0, 1_000)}…` : question.query.text));
        md.appendMarkdown('\n\n').appendText(vscode.l10n.t('Right-click › Show Full Thread reads the whole conversation (one request).'));
        return md;
      }
    }
  }

  /** The job addressing this signal, from the draw's index, when it has something to show. */
  private jobOf(draw: Draw | undefined, id: string): { jobId: string; badge: string } | undefined {
    const link = draw?.jobs.bySignal.get(id);
    const badge = link && jobBadge(this.jobs.get(link.jobId));
    return link && badge ? { jobId: link.jobId, badge } : undefined;
  }

  private jobLine(draw: Draw | undefined, id: string): string | undefined {
    const job = this.jobOf(draw, id);
    return job && vscode.l10n.t('Agent job {0}: {1}', job.jobId, job.badge);
  }

  private withJob(draw: Draw | undefined, description: string, id: string): string {
    const job = this.jobOf(draw, id);
    return job ? `${description} · ${job.badge}` : description;
  }

  private appendJob(md: vscode.MarkdownString, draw: Draw | undefined, id: string): void {
    const line = this.jobLine(draw, id);
    if (line) md.appendMarkdown('\n\n').appendText(line);
  }
}

function groupItem(id: GroupId, count: number): vscode.TreeItem {
  const labels: Record<GroupId, string> = {
    pages: vscode.l10n.t('Pages voted down or with pending comments'),
    searches: vscode.l10n.t('Searches that found no click'),
    questions: vscode.l10n.t('Unanswered assistant questions'),
  };
  // The pages group opens; the others stay one click away so all three headings show at once.
  const state = !count
    ? vscode.TreeItemCollapsibleState.None
    : id === 'pages'
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(labels[id], state);
  item.id = `group:${id}`;
  item.description = fmt(count);
  item.contextValue = `signalGroup:${id}`;
  return item;
}

function trusted(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: [COMMANDS.askToAddress] };
  return md;
}

function askLink(ref: SignalRef): string {
  return commandLink(vscode.l10n.t('Ask the Agent to Address This'), COMMANDS.askToAddress, [ref]);
}

function shorten(text: string, max = 160): string {
  return oneLine(text, max);
}
