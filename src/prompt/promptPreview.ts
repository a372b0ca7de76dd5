// The editor a prompt is previewed in before it is sent (askAboutThis.ts previewAndSend): how the
// writer says "send it", and how the preview closes. Two ways to send, the same outcome: the
// notification's button, which hides itself after a few seconds, and **Send to Agent…** in the
// preview's title bar, there for as long as the preview is open. The title action shows only on a
// preview (the `resource in mintlifyAgent.promptPreviews` when clause, from the context key set here).
import * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { PromptSent } from '../jobs/jobCommands';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Ui } from '../ui';
import { background, type BackgroundLog } from '../util/background';

const PREVIEWS_KEY = 'mintlifyAgent.promptPreviews';

/** The previews waiting for a send, by URI: each maps to what the title action calls. */
const waiting = new Map<string, () => void>();
let log: BackgroundLog | undefined;

function publish(): void {
  const keys = [...waiting.keys()];
  if (log) background(vscode.commands.executeCommand('setContext', PREVIEWS_KEY, keys), log, 'showing Send to Agent… on the previews');
}

/** Registers the title action; `uri` is the editor it was clicked on (none from elsewhere: the active editor). */
export function registerPreviewSend(command: RegisterCommand, ui: Ui, backgroundLog: BackgroundLog): void {
  log = backgroundLog;
  command(COMMANDS.sendPreview, (uri?: vscode.Uri) => {
    const key = (uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri)?.toString();
    const send = key === undefined ? undefined : waiting.get(key);
    if (send) return send();
    return void ui.showMessage(
      'info',
      vscode.l10n.t('Send to Agent… sends a prompt preview: open one with Ask the Agent About This… or Ask the Agent to Address This.'),
    );
  });
}

/**
 * Resolves true when the writer chose to send `preview` (the notification's button or the title
 * action, whichever comes first), false when the preview was closed first. Dismissing the
 * notification does not end it: the title action stays. `ask` words the notification for a
 * preview whose destination is already known (Send Review to Agent: its job, and the cost).
 */
export function chooseToSend(ui: Ui, preview: vscode.TextDocument, ask?: { message: string; button: string }): Promise<boolean> {
  const key = preview.uri.toString();
  return new Promise<boolean>((resolve) => {
    let done = false;
    const finish = (send: boolean) => {
      if (done) return;
      done = true;
      waiting.delete(key);
      closed.dispose();
      publish();
      resolve(send);
    };
    const closed = vscode.workspace.onDidCloseTextDocument((document) => document === preview && finish(false));
    waiting.set(key, () => finish(true));
    publish();
    const choose = ask?.button ?? vscode.l10n.t('Choose Where to Send…');
    const question = ask?.message ?? vscode.l10n.t('This is exactly what the agent will get (edit it in the editor if you like). Send it?');
    const answered = ui.showMessage('info', question, choose).then((answer) => {
      // Dismissed (the preview and its title action stay), or already sent from the title action.
      if (answer !== choose || done) return;
      // A preview closed (and so discarded) before the click is not what the user chose to send.
      if (preview.isClosed) return void ui.showMessage('info', vscode.l10n.t('The preview was closed, so nothing was sent.'));
      finish(true);
    });
    if (log) background(answered, log, "the preview's notification");
  });
}

/**
 * Closes the preview's own tab, without a "save?" question (its text now lives in the job, or as
 * its unsent prompt) and without touching any other editor: whatever has the focus now (the
 * writer may have gone back to their own file) stays as it is. An untitled editor emptied is no
 * longer dirty, so closing it asks nothing.
 */
export async function closePreview(document: vscode.TextDocument): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === document.uri.toString());
  if (!tabs.length || document.isClosed) return;
  const edit = new vscode.WorkspaceEdit();
  edit.delete(document.uri, new vscode.Range(0, 0, document.lineCount, 0));
  await vscode.workspace.applyEdit(edit);
  await vscode.window.tabGroups.close(tabs, true);
}

/**
 * Notes about a preview (its cost) above its first line, as CodeLenses: beside the text for as long
 * as the preview is open, and not part of it. The first one sends, as the title action does.
 */
export function previewNotes(preview: vscode.TextDocument, notes: readonly string[]): vscode.Disposable {
  const top = new vscode.Range(0, 0, 0, 0);
  return vscode.languages.registerCodeLensProvider(
    { scheme: preview.uri.scheme, language: 'markdown' },
    {
      provideCodeLenses: (document) =>
        document.uri.toString() !== preview.uri.toString()
          ? []
          : notes.map(
              (note, i) =>
                new vscode.CodeLens(
                  top,
                  i === 0 ? { title: `$(send) ${note}`, command: COMMANDS.sendPreview, arguments: [preview.uri] } : { title: `$(info) ${note}`, command: '' },
                ),
            ),
    },
  );
}

interface TargetItem extends vscode.QuickPickItem {
  jobId?: string;
}

/**
 * The preview every "ask the agent" flow shares (this one and the reader signals' Ask the Agent to
 * Address This): the prompt opens in an editor, the user may change any of it, and what is sent is
 * that editor's text once they choose where to send it. Resolves with the text and what became of
 * it (`sent`: the created job's id from the API's answer, or the follow-up's job; else whether the
 * outcome is unknown), or undefined when they stopped before sending. `notes` (its cost) show above
 * the preview's first line and in the notification, and are not sent.
 */
export async function previewAndSend(
  ui: Ui,
  jobs: JobStore,
  prompt: string,
  notes: readonly string[] = [],
): Promise<{ prompt: string; sent: PromptSent } | undefined> {
  const preview = await vscode.workspace.openTextDocument({ language: 'markdown', content: prompt });
  await vscode.window.showTextDocument(preview, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const lenses = notes.length ? previewNotes(preview, notes) : undefined;
  const ask = notes.length
    ? {
        message: `${notes.join(' ')} ${vscode.l10n.t('This is exactly what the agent will get (edit it in the editor if you like). Send it?')}`,
        button: vscode.l10n.t('Choose Where to Send…'),
      }
    : undefined;
  let send: boolean;
  try {
    send = await chooseToSend(ui, preview, ask);
  } finally {
    lenses?.dispose();
  }
  if (!send) return undefined; // the preview was closed: nothing to send
  const text = preview.getText();
  if (!text.trim()) return void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent.'));
  const target = await pickTarget(ui, jobs);
  if (!target) return undefined;
  const sent = target.jobId
    ? await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, target.jobId, text)
    : await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.startJob, text);
  await closePreview(preview);
  // The commands resolve with a result whenever they were given a prompt; a missing one is a failure reported there.
  return { prompt: text, sent: sent ?? { sent: false, outcomeUnknown: false } };
}

async function pickTarget(ui: Ui, jobs: JobStore): Promise<TargetItem | undefined> {
  const items: TargetItem[] = [{ label: vscode.l10n.t('$(rocket) New job'), description: vscode.l10n.t('The agent opens a pull request when it is done') }];
  const all = jobs.all();
  if (all.length) items.push({ label: vscode.l10n.t('Follow-up to a tracked job'), kind: vscode.QuickPickItemKind.Separator });
  for (const tracked of all) {
    const status = tracked.notFound
      ? vscode.l10n.t('not found')
      : tracked.job?.status === 'unknown'
        ? tracked.job.reportedStatus
        : (tracked.job?.status ?? vscode.l10n.t('not checked yet'));
    const active = tracked.job?.status === 'active';
    items.push({
      label: `${active ? '$(sync~spin) ' : ''}${jobLabel(tracked)}`,
      description: active ? vscode.l10n.t('{0} · still working', status) : status,
      detail: tracked.id,
      jobId: tracked.id,
    });
  }
  return ui.showQuickPick(items, { title: vscode.l10n.t('Send to the agent as…'), placeHolder: vscode.l10n.t('A new job, or a follow-up to a tracked job') });
}
