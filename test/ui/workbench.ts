/**
 * Drives VS Code's web workbench as a person does: clicks on what is on screen, keys, typed text.
 * Never a command id, never the extension's test seam. Every wait is a Playwright locator wait
 * with a bound, so something that does not show up fails with what was expected instead of hanging.
 *
 * Selectors are the workbench's own (VS Code 1.100): roles and labels where it has them, its
 * stable class names (`.quick-input-widget`, `.monaco-list-row`) where it does not.
 */
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';

export const TIMEOUTS = {
  /** The workbench answering a click or a key; generous for a loaded 2-core machine. */
  ui: 30_000,
  /**
   * A change that waits for one of the extension's polls: every 5 s in a job's first minute, the
   * first retry 5 to 10 s after a failure; four times slower if the window counts as unfocused.
   */
  poll: 90_000,
  /**
   * How long a click may go without its effect before it counts as lost, if what was clicked is
   * still on screen: a menu item clicked the instant its menu opened stays highlighted and the
   * menu stays open (seen 3 runs in 3 on a loaded 2-core machine).
   */
  lostClick: 8_000,
} as const;

/** A line on the test run's output, indented under the test it belongs to. */
function note(line: string): void {
  process.stdout.write(`      (${line})\n`);
}

/** What a click does: something shows, or something goes (a dialog closing, a notification acted on). */
export type Effect = Locator | { gone: Locator };

/** Whether `effect` happens within `timeout`; never throws. */
function happens(effect: Effect, timeout: number): Promise<boolean> {
  const [locator, state] = 'gone' in effect ? [effect.gone, 'hidden' as const] : [effect, 'visible' as const];
  return locator.waitFor({ state, timeout: Math.max(1, timeout) }).then(
    () => true,
    () => false,
  );
}

/** Matches an element whose whole text is `text` (Playwright's `hasText` alone matches a substring). */
export function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Waits for `locator` to be visible; the error says what a person would have missed. */
export async function expectVisible(what: string, locator: Locator, timeout: number = TIMEOUTS.ui): Promise<void> {
  try {
    await locator.waitFor({ state: 'visible', timeout });
  } catch (error) {
    throw new Error(`${what}: not on screen after ${timeout / 1000} s (${waitedFor(error)}).`);
  }
}

/** Waits for `locator` (one element) to read exactly `expected`; the error says what it read instead. */
export async function expectText(what: string, locator: Locator, expected: string | RegExp, timeout: number = TIMEOUTS.ui): Promise<void> {
  try {
    await locator.filter({ hasText: typeof expected === 'string' ? exactly(expected) : expected }).waitFor({ state: 'visible', timeout });
  } catch {
    const seen = await locator.textContent({ timeout: 1_000 }).then(
      (text) => JSON.stringify(text?.trim()),
      () => 'nothing (not on screen)',
    );
    throw new Error(`${what}: expected ${typeof expected === 'string' ? JSON.stringify(expected) : String(expected)}, saw ${seen} after ${timeout / 1000} s.`);
  }
}

/** The selector Playwright was waiting for, from its call log (without its terminal colours). */
function waitedFor(error: unknown): string {
  // eslint-disable-next-line no-control-regex -- strips the terminal colour codes Playwright puts in its messages
  const lines = (error instanceof Error ? error.message : String(error)).replace(/\u001b\[\d+m/g, '').split('\n');
  return (lines.find((line) => line.includes('waiting for')) ?? lines[0] ?? '').trim().replace(/^- /, '');
}

export class Workbench {
  constructor(
    readonly page: Page,
    private readonly screenshotDir: string,
  ) {}

  // ---- Places on screen -------------------------------------------------------------------------

  get sidebar(): Locator {
    return this.page.locator('.part.sidebar');
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** The text field of the quick input: the palette's filter, an input box, the simple file dialog's path. */
  get quickInputField(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  /** The tabs of the open editors. */
  get editorTabs(): Locator {
    return this.page.locator('.part.editor .tabs-container .tab');
  }

  /** The welcome text of the view shown in the sidebar. */
  get welcome(): Locator {
    return this.sidebar.locator('.welcome-view-content');
  }

  /** The rows of a tree view in the sidebar, by the view's name. */
  treeRows(viewName: string): Locator {
    return this.sidebar.locator(`.monaco-list[aria-label="${viewName}"] .monaco-list-row`);
  }

  /** The hover (tooltip) widget on screen. */
  get hover(): Locator {
    return this.page.locator('.monaco-hover');
  }

  /** A notification toast whose text contains `text`. */
  notification(text: string | RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text });
  }

  /** The document inside the (only) webview panel: VS Code nests it in `iframe.webview` → `#active-frame`. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview').frameLocator('#active-frame');
  }

  // ---- What a person does -----------------------------------------------------------------------

  /**
   * The one way the UI tier clicks a control of the workbench (a menu item, a quick pick's row, a
   * notification's or a dialog's button, a view's action): once `click` is on screen, click it and
   * wait for `then`, what the click does. A click the workbench did not act on is made once more,
   * with a line on the output: one whose effect has not shown after `TIMEOUTS.lostClick` while
   * the control is still on screen. A click that was acted on takes its control away (the menu
   * closes, the pick is accepted, the notification closes), so a merely slow effect is waited
   * for and never clicked twice: nothing is sent twice.
   */
  async clickAndExpect(step: { what: string; click: Locator; then: Effect; shows: string; button?: 'left' | 'right'; timeout?: number }): Promise<void> {
    const timeout = step.timeout ?? TIMEOUTS.ui;
    await expectVisible(step.what, step.click);
    await step.click.click({ button: step.button, timeout: TIMEOUTS.ui });
    if (await happens(step.then, Math.min(TIMEOUTS.lostClick, timeout))) return;
    if (await step.click.isVisible()) {
      note(`the click on ${step.what} was not acted on within ${TIMEOUTS.lostClick / 1000} s: clicking it again`);
      // It may go between the look and the click (the first click was only slow): then there is nothing to click.
      await step.click.click({ button: step.button, timeout: TIMEOUTS.lostClick }).catch(() => undefined);
    }
    if (!(await happens(step.then, timeout))) throw new Error(`${step.shows}: not seen ${timeout / 1000} s after clicking ${step.what}.`);
  }

  /**
   * Right-clicks `target`, then clicks the menu's item `item` and waits for `then`. A menu that did
   * not open is opened again; an item click the menu ignored is made again (clickAndExpect).
   */
  async chooseFromContextMenu(target: Locator, item: string | RegExp, then: Effect, shows: string): Promise<void> {
    const menuItem = this.page.getByRole('menuitem', { name: item }).first();
    await target.click({ button: 'right', timeout: TIMEOUTS.ui });
    if (!(await happens(menuItem, TIMEOUTS.lostClick))) {
      note(`no context menu with ${String(item)} within ${TIMEOUTS.lostClick / 1000} s of the right-click: opening it again`);
      await this.page.keyboard.press('Escape');
      await target.click({ button: 'right', timeout: TIMEOUTS.ui });
    }
    await this.clickAndExpect({ what: `the menu item ${String(item)}`, click: menuItem, then, shows });
  }

  /**
   * Opens another window of this workbench at `url`: a new page of the same browser context (one
   * profile, so one shared store), with its own extension host. Ready once the workbench shows.
   */
  async openWindow(url: string): Promise<Workbench> {
    const page = await this.page.context().newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: TIMEOUTS.poll });
    await page.waitForSelector('.monaco-workbench', { timeout: TIMEOUTS.poll });
    return new Workbench(page, this.screenshotDir);
  }

  /**
   * Developer: Reload Window, as a person reloads: the workbench shuts down as it does for a reload
   * (it saves which editors are open), then the page loads again with a new extension host. Done when
   * the workbench shows again. The document before the reload carries a mark the reloaded one does
   * not: its going is the evidence that the reload ran, so the command is run once.
   */
  async reloadWindow(): Promise<void> {
    const reloaded = this.page.waitForEvent('domcontentloaded', { timeout: TIMEOUTS.poll });
    await this.page.evaluate(() => document.body.setAttribute('data-before-reload', ''));
    await this.runCommand('Developer: Reload Window', {
      then: { gone: this.page.locator('body[data-before-reload]') },
      shows: 'the window reloading',
      once: true,
    });
    await reloaded;
    await this.page.locator('.monaco-workbench').waitFor({ timeout: TIMEOUTS.poll });
  }

  /** Reloads this window (a new extension host) and waits for the workbench to show again. */
  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'domcontentloaded' });
    await this.page.waitForSelector('.monaco-workbench', { timeout: TIMEOUTS.poll });
  }

  /**
   * Hides the secondary side bar if the window shows one: today's VS Code opens its Chat view there
   * at first start, which takes a quarter of the width the diffs, previews and the analytics table
   * are read in. Decided on what is on screen once the Mintlify icon is there (the workbench has laid
   * out its parts by then); a window without one is left as it is.
   */
  async hideSecondarySideBarIfShown(): Promise<void> {
    await this.page.locator('.part.activitybar').getByRole('tab', { name: 'Mintlify', exact: true }).waitFor({ timeout: TIMEOUTS.poll });
    const bar = this.page.locator('.part.auxiliarybar');
    if (!(await bar.isVisible())) return;
    await this.clickAndExpect({
      what: 'Hide Secondary Side Bar',
      click: bar.getByRole('button', { name: /^Hide Secondary Side Bar/ }),
      then: { gone: bar },
      shows: 'the secondary side bar hidden',
    });
  }

  /** Tracks an agent job by its ID from the command palette (Mintlify: Track Job…). */
  async trackJob(id: string): Promise<void> {
    await this.runCommandForBox('Mintlify: Track Job…', 'Track Agent Job');
    await this.typeInto('Track Agent Job', id);
    await this.pressEnterAndWaitForClose();
  }

  /** Clicks a view container's icon in the activity bar and waits for its title in the sidebar. */
  async openFromActivityBar(name: string): Promise<void> {
    await this.page.locator('.part.activitybar').getByRole('tab', { name, exact: true }).click({ timeout: TIMEOUTS.ui });
    await this.sidebar.locator('.composite.title').filter({ hasText: name }).waitFor({ timeout: TIMEOUTS.ui });
  }

  /**
   * Shows the Mintlify container unless the window restored it open (a click would then close it)
   * and stores `apiKey` with Set API Key: secrets are per page in the web build, so every window needs it.
   */
  async signInToMintlify(apiKey: string): Promise<void> {
    // The container's title names the view while it is alone; beside Reader Signals, the view's own header does.
    const title = this.sidebar
      .locator('.composite.title, .pane-header')
      .filter({ hasText: /Agent Jobs/i })
      .first();
    const tab = this.page.locator('.part.activitybar').getByRole('tab', { name: 'Mintlify', exact: true });
    await tab.waitFor({ timeout: TIMEOUTS.poll });
    for (let attempt = 0; attempt < 4 && !(await title.isVisible()); attempt++) {
      if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click({ timeout: TIMEOUTS.ui });
      await title.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    await expectVisible('the Agent Jobs view', title);
    await this.runCommandForBox('Mintlify: Set API Key', 'Mintlify: Set API Key');
    await this.typeInto('Mintlify: Set API Key', apiKey);
    await this.pressEnterAndWaitForClose();
  }

  /**
   * Mintlify: Set Project ID from the palette, as a person does; done when the Agent Jobs welcome
   * no longer asks for the project (the setting was saved and the extension saw it). A box that
   * closed without the project being saved is tried once more, with a line on the output and a
   * screenshot of what was on screen.
   */
  async setProjectId(projectId: string): Promise<void> {
    const asking = this.welcome.filter({ hasText: 'Set the Mintlify project ID' });
    for (let attempt = 1; ; attempt++) {
      await this.runCommandForBox('Mintlify: Set Project ID', 'Mintlify: Set Project ID');
      await this.typeInto('Mintlify: Set Project ID', projectId);
      await this.pressEnterAndWaitForClose();
      if (await happens({ gone: asking }, TIMEOUTS.ui)) {
        // The view names the project once the jobs follow it (the welcome can go before: today's VS
        // Code redraws it first); a command run before that would find no project.
        const named = this.sidebar
          .locator('.composite.title, .pane-header')
          .filter({ hasText: /Agent Jobs/i })
          .filter({ hasText: projectId });
        if (!(await happens(named.first(), TIMEOUTS.ui))) note(`the Agent Jobs view does not name the project "${projectId}" yet: going on`);
        return;
      }
      await this.screenshot(`set-project-did-not-take-${attempt}`).catch(() => undefined);
      if (attempt === 2) throw new Error(`the project ID "${projectId}": the Agent Jobs welcome still asks for it after setting it twice.`);
      note('the project ID box closed, but the Agent Jobs welcome still asks for the project: setting it again');
    }
  }

  /**
   * After a failed flow: closes what it may have left open (a menu, a box, a dialog, the
   * notifications, the editors, unsaved ones without saving), then stores the key and sets the
   * project again, so that the next flow starts from a signed-in window whatever the failure left.
   */
  async recoverAfterFailure(apiKey: string, projectId: string): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
    const dialog = this.page.locator('.monaco-dialog-box');
    const dismiss = async (): Promise<void> => {
      if (await happens(dialog, 2_000))
        await dialog
          .getByRole('button', { name: /^(Cancel|Don't Save)$/ })
          .last()
          .click({ timeout: TIMEOUTS.ui });
    };
    await dismiss();
    await this.clearNotifications();
    // An unsaved editor keeps every tab open behind "Do you want to save…": Don't Save.
    await this.runCommand('View: Close All Editors', {
      then: { gone: this.editorTabs.first() },
      shows: 'no editor open',
      once: true,
      timeout: TIMEOUTS.lostClick,
    }).catch(() => undefined);
    await dismiss();
    await this.signInToMintlify(apiKey);
    await this.runCommandForBox('Mintlify: Set Project ID', 'Mintlify: Set Project ID');
    await this.typeInto('Mintlify: Set Project ID', projectId);
    await this.pressEnterAndWaitForClose();
  }

  /** Drags the sash on the sidebar's right edge until the sidebar is `width` pixels wide. */
  async resizeSidebar(width: number): Promise<void> {
    const box = await this.sidebar.boundingBox({ timeout: TIMEOUTS.ui });
    if (!box) throw new Error('The sidebar is not on screen.');
    // The sash is a few pixels wide and straddles the edge.
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width - 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 5 });
    await this.page.mouse.up();
    await this.page.waitForFunction(
      (expected) => Math.abs((document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) - expected) <= 4,
      width,
      { timeout: TIMEOUTS.ui },
    );
  }

  /** One of the buttons in the sidebar's title bar (a view's title actions), by its tooltip. */
  viewTitleButton(label: string): Locator {
    // A container's only view keeps its actions in the container's title; beside another view they sit in its own header.
    return this.sidebar.locator('.composite.title .title-actions, .pane-header .actions').getByRole('button', { name: label, exact: true }).first();
  }

  /** Clicks a view's title button whose effect is the quick input titled `title` (Start New Job…, Track Job…). */
  async clickViewTitleButton(label: string, then: Effect, shows: string): Promise<void> {
    await this.clickAndExpect({ what: `the "${label}" button`, click: this.viewTitleButton(label), then, shows });
  }

  /** The quick input titled `title`, on screen. */
  quickInputTitled(title: string | RegExp): Locator {
    return this.quickInput.locator('.quick-input-title').filter({ hasText: title });
  }

  /**
   * Runs the palette command `title` and waits for `then`, what it does (a panel, a box, a view, a
   * notification gone). The palette closing proves nothing: it also closes without running anything
   * when the workbench takes the focus back (a walkthrough re-rendering the step it just ticked).
   * So a command whose effect has not shown within `TIMEOUTS.lostClick` is run once more, with a
   * line on the output: only for a command that is safe to run twice (opening a view, a panel or a
   * box, clearing, closing). One that is not (`once`: a reload, a command whose second run would
   * find it gone) is run once and waited for on its evidence alone, as `clickAndExpect` waits for a click.
   */
  async runCommand(title: string, step: { then: Effect; shows: string; once?: boolean; timeout?: number }): Promise<void> {
    const timeout = step.timeout ?? TIMEOUTS.ui;
    await this.invokeFromPalette(title);
    if (!step.once && !(await happens(step.then, Math.min(TIMEOUTS.lostClick, timeout)))) {
      note(`${step.shows} not seen ${TIMEOUTS.lostClick / 1000} s after "${title}" left the palette: running it again`);
      await this.invokeFromPalette(title);
    }
    if (!(await happens(step.then, timeout))) throw new Error(`${step.shows}: not seen ${timeout / 1000} s after running "${title}" from the command palette.`);
  }

  /**
   * Runs a command that opens the box titled `box` (an input box, a pick) and waits for the box: safe to run
   * twice, a second box replaces the first and sends nothing.
   */
  async runCommandForBox(command: string, box: string | RegExp): Promise<void> {
    await this.runCommand(command, { then: this.quickInputTitled(box), shows: `the box titled ${String(box)}` });
  }

  /**
   * Opens the command palette filtered by `filter` (nothing run: Escape closes it) and returns its
   * row for the command titled exactly `title`, for each title asked.
   */
  async paletteFilteredBy(filter: string): Promise<(title: string) => Locator> {
    await this.openQuickInput('F1');
    await this.quickInputField.fill(`>${filter}`, { timeout: TIMEOUTS.ui });
    return (title) => this.quickInput.locator('.monaco-list-row').filter({ has: this.page.locator('.label-name').filter({ hasText: exactly(title) }) });
  }

  /** View: Close All Editors, done when no editor tab is left. */
  async closeAllEditors(): Promise<void> {
    await this.runCommand('View: Close All Editors', { then: { gone: this.editorTabs.first() }, shows: 'no editor open' });
  }

  /**
   * F1, then the command's title, then Enter once the palette has put that command first; done
   * when the palette has let go of the command (it closed, or the command's own box replaced it),
   * which does not mean it ran (`runCommand` waits for that). An Enter the palette did not take
   * is pressed once more.
   */
  private async invokeFromPalette(title: string): Promise<void> {
    const offered = this.quickInput.locator('.monaco-list-row.focused').filter({ has: this.page.locator('.label-name').filter({ hasText: exactly(title) }) });
    for (let attempt = 1; ; attempt++) {
      await this.openQuickInput('F1');
      // The palette closes when the workbench takes the focus back (a walkthrough re-rendering the
      // step it just ticked does): then nothing was typed or run, and it is opened once more.
      const typed = await this.quickInputField.fill(`>${title}`, { timeout: TIMEOUTS.lostClick }).then(
        () => true,
        () => false,
      );
      if (typed && (await happens(offered, TIMEOUTS.ui))) break;
      if (attempt === 2) throw new Error(`"${title}" first in the command palette: not seen after opening it twice.`);
      note(`the command palette closed before "${title}" was typed or offered: opening it again`);
    }
    await this.quickInputField.press('Enter', { timeout: TIMEOUTS.ui });
    if (
      await offered.waitFor({ state: 'hidden', timeout: TIMEOUTS.lostClick }).then(
        () => true,
        () => false,
      )
    )
      return;
    note(`the palette still offered "${title}" ${TIMEOUTS.lostClick / 1000} s after Enter: pressing it again`);
    await this.quickInputField.press('Enter', { timeout: TIMEOUTS.ui });
    await offered.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui }).catch(() => {
      throw new Error(`the command palette did not run "${title}": still offered after ${TIMEOUTS.ui / 1000} s.`);
    });
  }

  /**
   * Ctrl+P, the file's name, and Enter (Ctrl+Enter: to the side) once Go to File has put it first;
   * done when the box has closed.
   */
  async goToFile(name: string, options: { toSide?: boolean } = {}): Promise<void> {
    await this.openQuickInput('Control+P');
    await this.quickInputField.fill(name);
    // A row shows the file's name, its folder beside it.
    await expectVisible(`${name} first in Go to File`, this.quickInput.locator('.monaco-list-row.focused').filter({ hasText: path.basename(name) }));
    await this.quickInputField.press(options.toSide ? 'Control+Enter' : 'Enter', { timeout: TIMEOUTS.ui });
    await this.quickInput.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
  }

  /**
   * Presses the shortcut that opens the quick input (F1, Ctrl+P) and waits for its field. A key
   * the workbench did not get (focus inside a frame that kept it, as a walkthrough's step media
   * takes it while it renders) is pressed once more with the focus back on the workbench.
   */
  private async openQuickInput(shortcut: string): Promise<void> {
    await this.page.keyboard.press(shortcut);
    if (await happens(this.quickInputField, TIMEOUTS.lostClick)) return;
    note(`no quick input ${TIMEOUTS.lostClick / 1000} s after ${shortcut}: moving the focus back to the workbench and pressing it again`);
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.keyboard.press(shortcut);
    await expectVisible(`the quick input opened by ${shortcut}`, this.quickInputField);
  }

  /** Waits for the quick input titled `title` (an input box, a pick, the save dialog) to be on screen. */
  async waitForQuickInput(title: string | RegExp): Promise<void> {
    await expectVisible(`the quick input titled ${String(title)}`, this.quickInputTitled(title));
  }

  /** Types into the input box titled `title`; Enter is left to the caller (a screenshot may come first). */
  async typeInto(title: string | RegExp, text: string): Promise<void> {
    await this.waitForQuickInput(title);
    await this.quickInputField.fill(text);
  }

  /**
   * Enter in the quick input's field, and wait for it to close (the box accepted what was typed).
   * Pressed on the field, not the page: the workbench may move focus meanwhile (a walkthrough
   * advancing to its next step does), and Enter must still reach the box.
   */
  async pressEnterAndWaitForClose(): Promise<void> {
    const deadline = Date.now() + TIMEOUTS.ui;
    for (;;) {
      await this.quickInputField.press('Enter', { timeout: TIMEOUTS.ui });
      const closed = await this.quickInput
        .waitFor({ state: 'hidden', timeout: Math.min(2_000, Math.max(1, deadline - Date.now())) })
        .then(() => true)
        .catch(() => false);
      if (closed) return;
      // Still open. With the field focused, the box is still checking what was typed: wait for it.
      // Without focus, the Enter went elsewhere: a walkthrough that re-renders a step it just ticked
      // takes focus back between the field's focus and the key (seen about once in five runs), and
      // the box, kept open on focus loss, never saw the Enter. Press it again.
      const focused = await this.quickInputField.evaluate((field) => field === document.activeElement).catch(() => false);
      if (focused || Date.now() >= deadline) break;
      note('the Enter went elsewhere: focus had left the input box; pressing it again');
    }
    await this.quickInput.waitFor({ state: 'hidden', timeout: Math.max(1, deadline - Date.now()) });
  }

  /**
   * Types a full file path into this workbench's save dialog (VS Code's simple file dialog: a quick
   * input holding a path). The dialog fills in its suggested name only once it has listed the
   * folder, overwriting anything typed before, so this waits for that name first.
   */
  async typeIntoSaveDialog(title: string | RegExp, filePath: string): Promise<void> {
    await this.waitForQuickInput(title);
    await this.page.waitForFunction(
      (selector) => /[^/]\.\w+$/.test(document.querySelector<HTMLInputElement>(selector)?.value ?? ''),
      '.quick-input-widget .quick-input-box input',
      { timeout: TIMEOUTS.ui },
    );
    await this.quickInputField.fill(filePath);
  }

  /**
   * Clicks the item of the open quick pick whose label contains `label`; done when the pick has
   * taken it (the pick closed, or the next box replaced it). A row click the pick did not take
   * is made once more.
   */
  async pickItem(title: string | RegExp, label: string): Promise<void> {
    await this.waitForQuickInput(title);
    const row = this.quickInput.locator('.monaco-list-row').filter({ hasText: label }).first();
    await this.clickAndExpect({ what: `"${label}" in the pick ${String(title)}`, click: row, then: { gone: row }, shows: 'the pick taking the item' });
  }

  /** Hovers a tree row (inline actions show on hover) and returns its inline action button by tooltip. */
  async inlineAction(row: Locator, label: string): Promise<Locator> {
    await row.hover({ timeout: TIMEOUTS.ui });
    return row.locator('.actions').getByRole('button', { name: label, exact: true });
  }

  /** Closes every notification toast, so that the next screenshot shows what is under them. */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications', {
      then: { gone: this.page.locator('.notifications-toasts .notification-toast').first() },
      shows: 'no notification on screen',
    });
  }

  async screenshot(name: string): Promise<string> {
    const file = path.join(this.screenshotDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
