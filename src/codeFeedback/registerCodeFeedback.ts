// Readers' feedback on a code block, at the block's lines: the Problems entries (blockPlaces.ts),
// a CodeLens above the block ("3 readers flagged this block · Ask the Agent to Fix It · Fix with
// the Editor's AI"), a hover quoting each comment as text, and the two ways to fix it. Building
// sends nothing: every place comes from the reader signals already kept.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { DocsLocator } from '../docs/docsLocator';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { SignalsHandle } from '../signals/registerSignals';
import { HOURLY_LIMIT } from '../hour/ledger';
import type { Ui } from '../ui';
import { markdownEscaped } from '../util/markdownText';
import { COMMANDS, type RegisterCommand } from '../commands';
import { blockInstruction, buildBlockPrompt } from './blockPrompt';
import { BlockPlaces, type FlaggedPlace, type PagePlaces } from './blockPlaces';
import { goneLensTitle, hoverEntries, lensTitle, twinsText } from './feedbackText';

const DOCS = [{ pattern: '**/*.{md,mdx}' }];
/** The chat VS Code opens with a prefilled question (not sent until the writer sends it). */
const CHAT_OPEN = 'workbench.action.chat.open';

export interface CodeFeedbackPorts {
  command: RegisterCommand;
  /** The reader signals: the kept snapshot the places come from, the sender a prompt goes through (swappable by tests), Did It Help?'s notes. */
  signals: Pick<SignalsHandle, 'store' | 'sender' | 'impactNotes'>;
  docs: Pick<DocsLocator, 'pageOf' | 'onDidChange' | 'fileOf'>;
  settings: Settings;
  jobs: JobStore;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  ui: Ui;
  log: Logger;
}

/** The editor's chat, prefilled with a prompt and not sent; false when this editor has no chat. */
export interface EditorChat {
  open(prompt: string): Promise<boolean>;
}

/** VS Code's chat (Copilot Chat or another), when one is installed. */
const vscodeChat: EditorChat = {
  async open(prompt) {
    if (!(await vscode.commands.getCommands(true)).includes(CHAT_OPEN)) return false;
    // Prefilled, not sent: the writer reads the evidence and sends it from the chat.
    await vscode.commands.executeCommand(CHAT_OPEN, { query: prompt, isPartialQuery: true });
    return true;
  },
};

/** The pieces, for the tests. */
export interface CodeFeedbackHandle {
  places: BlockPlaces;
  /** Swappable by tests, like the Ui. */
  chat: EditorChat;
  /** The prompt for the block at `uri`'s `line` (0-based, any line of it), as Ask the Agent to Fix It composes it. */
  promptFor(uri: vscode.Uri, line: number): Promise<string | undefined>;
}

/** A CodeLens's argument: the block's file and its opening fence's line (0-based). */
interface BlockRef {
  uri: string;
  line: number;
}

export function registerCodeFeedback(context: vscode.ExtensionContext, ports: CodeFeedbackPorts): CodeFeedbackHandle {
  const { command, ...deps } = ports;
  const log = deps.log.scoped('codeFeedback');
  const places = new BlockPlaces(deps.signals.store, deps.docs, deps.settings, log);
  const lensChanged = new vscode.EventEmitter<void>();

  const find = (uri: vscode.Uri, line: number) => places.blocksIn(uri).find(({ place }) => place.startLine <= line && line <= place.endLine);

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses(document) {
      if (!deps.settings.codeFeedback.enabled) return [];
      const result: vscode.CodeLens[] = [];
      const page = places.pageOf(document.uri);
      if (page?.gone.length)
        result.push(new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: goneLensTitle(page.gone.length, vscode.l10n, page.generatedApi), command: '' }));
      for (const { place } of places.blocksIn(document.uri)) {
        const at = new vscode.Range(place.startLine, 0, place.startLine, 0);
        const ref: BlockRef = { uri: document.uri.toString(), line: place.startLine };
        result.push(
          new vscode.CodeLens(at, { title: lensTitle(place.comments.length, vscode.l10n), command: '' }),
          new vscode.CodeLens(at, { title: vscode.l10n.t('Ask the Agent to Fix It'), command: COMMANDS.askAgentToFixBlock, arguments: [ref] }),
        );
        // Not offered while the user has turned VS Code's AI features off (the agent is not the editor's AI: it stays).
        if (!deps.settings.editorAiOff)
          result.push(new vscode.CodeLens(at, { title: vscode.l10n.t("Fix with the Editor's AI"), command: COMMANDS.fixBlockWithEditorAi, arguments: [ref] }));
      }
      return result;
    },
  };

  const hovers: vscode.HoverProvider = {
    provideHover(document, position) {
      if (!deps.settings.codeFeedback.enabled) return undefined;
      const found = find(document.uri, position.line);
      const page = places.pageOf(document.uri);
      if (found)
        return new vscode.Hover(
          hoverText(
            vscode.l10n.t('Readers’ feedback on this code block'),
            found.place.comments,
            found.place.twins ? twinsText(found.place.twins, vscode.l10n) : undefined,
          ),
          new vscode.Range(found.place.startLine, 0, found.place.endLine, 0),
        );
      if (position.line === 0 && page?.gone.length)
        return new vscode.Hover(hoverText(goneLensTitle(page.gone.length, vscode.l10n, page.generatedApi), page.gone));
      return undefined;
    },
  };

  /** The block a command is about: the CodeLens's, else the one under the cursor. */
  const refOf = (arg: unknown): { uri: vscode.Uri; line: number } | undefined => {
    const ref = arg as Partial<BlockRef> | undefined;
    if (typeof ref?.uri === 'string' && typeof ref.line === 'number') return { uri: vscode.Uri.parse(ref.uri), line: ref.line };
    const editor = vscode.window.activeTextEditor;
    return editor && { uri: editor.document.uri, line: editor.selection.active.line };
  };

  const handle: CodeFeedbackHandle = { places, chat: vscodeChat, promptFor: (uri, line) => promptFor(uri, line) };

  const promptFor = async (uri: vscode.Uri, line: number): Promise<string | undefined> => {
    const found = find(uri, line);
    return found && composed(found.place, found.page);
  };

  const composed = (place: FlaggedPlace, page: PagePlaces): string => {
    const file = vscode.workspace.asRelativePath(place.uri, false);
    const block = {
      file,
      page: page.page.sitePath,
      startLine: place.startLine + 1,
      endLine: place.endLine + 1,
      code: place.code,
      comments: place.comments,
      range: page.range,
    };
    return buildBlockPrompt(blockInstruction(block), block).prompt;
  };

  const noBlock = () =>
    void deps.ui.showMessage('info', vscode.l10n.t('Put the cursor in a code block readers flagged (it has a CodeLens saying so), then try again.'));

  command(COMMANDS.askAgentToFixBlock, async (arg?: unknown) => {
    const ref = refOf(arg);
    const prompt = ref && (await promptFor(ref.uri, ref.line));
    if (!prompt) return noBlock();
    const project = deps.jobs.projectId ?? '';
    const used = deps.ledger.agentRequestsThisHour(project);
    const cost = vscode.l10n.t(
      "A new job or a follow-up: 1 agent request of the project's hour ({0} of {1} used, {2} left).",
      used,
      HOURLY_LIMIT,
      Math.max(0, HOURLY_LIMIT - used),
    );
    return deps.signals.sender.previewAndSend(prompt, { notes: [cost] });
  });

  command(COMMANDS.fixBlockWithEditorAi, async (arg?: unknown) => {
    const ref = refOf(arg);
    if (deps.settings.editorAiOff) {
      return void deps.ui.showMessage(
        'info',
        vscode.l10n.t("The editor's AI features are turned off (the chat.disableAIFeatures setting). Ask the Agent to Fix It works without them."),
      );
    }
    const prompt = ref && (await promptFor(ref.uri, ref.line));
    if (!prompt) return noBlock();
    if (!(await handle.chat.open(prompt))) {
      void deps.ui.showMessage(
        'info',
        vscode.l10n.t(
          "Fix with the Editor's AI needs a chat in the editor (GitHub Copilot Chat, for example), and this editor has none. Ask the Agent to Fix It works without one.",
        ),
      );
    }
  });

  // Did It Help? on a page: feedback on a block the page no longer has is a sign the block was changed.
  deps.signals.impactNotes.push(async (path) => {
    const uri = await deps.docs.fileOf(path);
    const found = uri && (await places.placesOfFile(uri));
    if (!found?.gone.length) return undefined;
    const all = found.gone.length + found.blocks.reduce((n, b) => n + b.comments.length, 0);
    return vscode.l10n.t(
      '{0} of the {1} pending comments on its code blocks are about a block that is no longer on the page: it changed since.',
      found.gone.length,
      all,
    );
  });

  context.subscriptions.push(
    places,
    lensChanged,
    places.onDidChange(() => lensChanged.fire()),
    deps.settings.onDidChangeEditorAi(() => lensChanged.fire()),
    vscode.languages.registerCodeLensProvider(DOCS, lenses),
    vscode.languages.registerHoverProvider(DOCS, hovers),
  );
  return handle;
}

/**
 * A hover: the title, then each comment's date, status and author, and the comment as one escaped
 * line. Everything from the API is escaped for Markdown (markdownEscaped); nothing is trusted, no HTML.
 */
function hoverText(title: string, comments: FlaggedPlace['comments'], note?: string): vscode.MarkdownString {
  const { entries, more } = hoverEntries(comments, vscode.l10n);
  const lines = [`**${markdownEscaped(title)}**`, ''];
  if (note) lines.push(markdownEscaped(note), '');
  for (const entry of entries) lines.push(`${markdownEscaped(entry.about)}  `, `> ${markdownEscaped(entry.comment)}`, '');
  if (more) lines.push(markdownEscaped(vscode.l10n.t('({0} more not shown)', more)));
  const md = new vscode.MarkdownString(lines.join('\n'));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
