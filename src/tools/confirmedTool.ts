// An acting tool whose confirmation is a contract (src/tools/confirmation.ts): it always confirms,
// its dialog shows the terms read when VS Code prepares the call (or why nothing can be sent), and
// invoke sends those terms only if they still read the same, else sends nothing and says why.
import * as vscode from 'vscode';
import { oneLine } from '../util/visibleText';
import { Blocked, type Confirmations, type Terms } from './confirmation';
import type { TextTool, ToolInput } from './toolPorts';
import type { ToolName } from './toolNames';

interface ConfirmedToolSpec<T extends Terms> {
  /** What this call would send now, or why nothing can be sent: read when the dialog is prepared and again when the writer said yes. */
  terms(input: ToolInput): T | Blocked;
  /** The dialog for those terms; for Blocked it says the reason (Yes then sends nothing). */
  dialog(terms: T | Blocked): { invocationMessage: string; title: string; message: string | vscode.MarkdownString };
  /** Each field as a sentence names it when it changed ("the project"). */
  fieldNames: Record<keyof T & string, string>;
  /** Sends exactly the confirmed terms. */
  send(terms: T, token: vscode.CancellationToken): Promise<string>;
}

export function confirmedTool<T extends Terms>(name: ToolName, confirmations: Confirmations, spec: ConfirmedToolSpec<T>): TextTool {
  return {
    prepareInvocation: (input) => {
      const terms = spec.terms(input);
      confirmations.shown(name, input, terms);
      const { invocationMessage, title, message } = spec.dialog(terms);
      return { invocationMessage, confirmationMessages: { title, message } };
    },
    invoke: async (input, token) => {
      const verdict = confirmations.verdict(name, input, spec.terms(input));
      switch (verdict.kind) {
        case 'send':
          return spec.send(verdict.terms, token);
        case 'blocked':
          return vscode.l10n.t('Nothing was sent: {0}', verdict.reason);
        case 'notConfirmed':
          return vscode.l10n.t('Nothing was sent: no confirmation was shown to the writer for this call. Call the tool again; VS Code asks the writer first.');
        case 'changed': {
          const what = verdict.fields.map((field) =>
            vscode.l10n.t('{0} (confirmed: {1}; now: {2})', spec.fieldNames[field], shown(verdict.shown[field]), shown(verdict.now[field])),
          );
          return vscode.l10n.t(
            'Nothing was sent: {0} changed after the writer confirmed. Call the tool again, so the writer confirms what would be sent now.',
            what.join('; '),
          );
        }
      }
    },
  };
}

/** A value as the refusal names it: one quoted line, its invisible characters escaped. */
function shown(value: string | number | boolean | undefined): string {
  return value === undefined ? vscode.l10n.t('none') : `"${oneLine(String(value), 80)}"`;
}
