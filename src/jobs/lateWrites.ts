// The shared store's writes of what the user did after the API said yes (a job created, a
// follow-up sent, a job tracked). This window already shows the change when the write starts, so
// a write that fails or times out only makes it late for the other windows: it is logged, tried
// again with a bounded backoff (WindowSync.writeAgain), and the user is warned once, until a write
// succeeds again, that the other windows may not see the job yet. It never fails the send.
import * as vscode from 'vscode';
import type { Logger } from '../log';
import { showNotice } from '../reportFailure';
import type { WindowSync } from '../sync/windowSync';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { errorText } from '../util/errorText';

export class LateWrites {
  /** The shared store's count of good writes when the user was last warned. */
  private warnedAtWrites: number | undefined;

  constructor(
    private readonly sync: Pick<WindowSync, 'writeAgain' | 'writes'>,
    private readonly ui: Ui,
    private readonly log: Logger,
  ) {}

  /** Lets `written` finish in the background; `what` names the change in the log. */
  share(written: Promise<void>, what: string): void {
    const retried = written.catch(async (error: unknown) => {
      this.log.warn(`${what}: the shared store could not be written (${errorText(error)}); this window has it, the other windows may not yet: trying again`);
      this.warnOnce();
      if ((await this.sync.writeAgain()) === 'done') this.log.info(`${what}: written to the shared store on a later try`);
    });
    background(retried, this.log, `${what}: every write to the shared store`);
  }

  private warnOnce(): void {
    const writes = this.sync.writes;
    if (this.warnedAtWrites === writes) return;
    this.warnedAtWrites = writes;
    const message = vscode.l10n.t(
      'Other VS Code windows may not see this job yet: this window could not save it to the folder the windows share. It is tracked here, and saving is tried again.',
    );
    showNotice({ ui: this.ui, log: this.log }, 'warning', message, 'showLog');
  }
}
