// "$(sync~spin) 2 agent jobs active" in the status bar while any job runs; hidden otherwise.
import * as vscode from 'vscode';
import { Disposable } from '../util/lifecycle';
import type { JobStore } from './jobStore';

export class JobsStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('mintlifyAgent.activeJobs', vscode.StatusBarAlignment.Left, 50));

  constructor(private readonly store: JobStore) {
    super();
    this.item.name = vscode.l10n.t('Mintlify Agent Jobs');
    this.item.command = 'mintlifyAgent.jobs.focus';
    this.register(store.onDidChange(() => this.update()));
    this.update();
  }

  private detail: string | undefined;

  get text(): string | undefined {
    return this.item.text || undefined;
  }

  /** The tooltip as shown while a job runs. */
  get tooltip(): string | undefined {
    const tooltip = this.item.tooltip;
    return !this.item.text ? undefined : typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  }

  /** A second line for the tooltip (the shared request ledger's count). */
  setDetail(detail: string | undefined): void {
    if (detail === this.detail) return;
    this.detail = detail;
    this.update();
  }

  private update(): void {
    const active = this.store.all().filter((t) => t.job?.status === 'active' && !t.notFound).length;
    if (!active) {
      this.item.text = '';
      this.item.hide();
      return;
    }
    // The icon stays outside the translated text: a translator must not be able to break it.
    const count = active === 1 ? vscode.l10n.t('1 agent job active') : vscode.l10n.t('{0} agent jobs active', active);
    this.item.text = `$(sync~spin) ${count}`;
    this.item.tooltip = [vscode.l10n.t('Mintlify agent jobs in progress. Click to show them.'), this.detail].filter(Boolean).join('\n');
    this.item.show();
  }
}
