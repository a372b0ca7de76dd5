// Agent jobs in the real VS Code host against the simulator: what the user sees (tree items,
// their icons, descriptions and tooltips, messages) and exactly which requests reached the API.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { DEFAULT_TIMINGS } from '../../src/jobs/pollTimings';
import { applyJobChange } from '../../src/sync/jobChanges';
import type { Simulator } from '../simulator/server';
import {
  EXTENSION_ID,
  KEY,
  PROJECT,
  requestsTo,
  rowCommands,
  ScriptedUser,
  seam,
  setProject,
  setUserSetting,
  waitFor,
  withSimulator,
  FAST_POLL_TIMINGS,
} from './support';

/** The agent hour's tests' own project: its jobs, prompts and reviews never meet another suite's jobs of the same ids. */
const HOUR_PROJECT = 'agent-hour-project';

interface ShownItem {
  id: string;
  label: string;
  description: string;
  icon: string;
  color: string | undefined;
  contextValue: string;
  tooltip: string;
}

/** What an input box's validation shows, whichever form validateInput returned it in. */
function validationText(result: string | vscode.InputBoxValidationMessage | null | undefined): string {
  return typeof result === 'string' ? result : (result?.message ?? '');
}

async function treeItems(s: TestSeam): Promise<ShownItem[]> {
  const nodes = s.tree.getChildren() ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = s.tree.getTreeItem(node);
      const icon = item.iconPath as vscode.ThemeIcon;
      return {
        id: String(item.id),
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: String(item.description ?? ''),
        icon: icon.id,
        color: icon.color?.id,
        contextValue: String(item.contextValue),
        // appendText escapes Markdown and keeps spaces as &nbsp;: read it back as the user sees it.
        tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value.replace(/&nbsp;/g, ' ') : String(item.tooltip ?? ''),
      };
    }),
  );
}

async function jobItem(s: TestSeam, jobId: string): Promise<ShownItem | undefined> {
  return (await treeItems(s)).find((i) => i.id === `job:${jobId}`);
}

describe('agent jobs', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;

  before(async () => {
    s = await seam();
    sim = await withSimulator({ jobDurationMs: 1_000, projects: [PROJECT, HOUR_PROJECT] });
    s.tracker.poller.setTimings(FAST_POLL_TIMINGS);
  });
  after(async () => {
    // The next suite polls at the real pace.
    s.tracker.poller.setTimings(DEFAULT_TIMINGS);
    await vscode.commands.executeCommand('mintlifyAgent.clearApiKey');
    await sim.close();
  });
  beforeEach(async () => {
    user = new ScriptedUser(s.ui);
    sim.clearFaults();
    sim.resetRateLimits();
    // A fresh server's limits: the shared ledger's count and 429 wait (src/sync/ledger.ts) go too.
    await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
  });
  afterEach(() => user.restore());

  describe('credentials and project', () => {
    it('refuses keys of the wrong kind with a sentence that says which key is needed', async () => {
      await setProject(undefined);
      let validate: vscode.InputBoxOptions['validateInput'];
      user.type((options) => {
        validate = options.validateInput?.bind(options);
        assert.equal(options.password, true, 'the key is typed into a password box');
        return undefined;
      });
      await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
      assert.ok(validate);
      assert.match(validationText(await validate('mint_dsc_123')), /not an admin API key.*mint_dsc_.*API keys page/);
      assert.match(validationText(await validate('mint_us_123')), /not an admin API key.*mint_us_/);
      assert.match(validationText(await validate('sk_live_123')), /starts with "mint_"/);
      assert.equal(await validate(KEY), undefined);
    });

    it('keeps the key in secret storage only and turns the welcome into the next step', async () => {
      user.type(KEY);
      await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
      await waitFor('the key to be seen', async () => s.tree.getChildren() !== undefined && user.messages.some((m) => /saved/.test(m.message)));
      const everySetting = JSON.stringify(vscode.workspace.getConfiguration('mintlifyAgent'));
      assert.ok(!everySetting.includes(KEY), 'the key is not in any setting');
      assert.deepEqual(await treeItems(s), [], 'no project yet: the welcome view shows');
    });

    it('asks for the project before the prompt, and its Set Project ID button sets it', async () => {
      user.answerMessage = (m) => (m.actions.includes('Set Project ID') ? 'Set Project ID' : undefined);
      // The only input box is the project's: the command stopped before asking for a prompt.
      user.type((options) => {
        assert.match(String(options.title ?? options.prompt), /project/i);
        return PROJECT;
      });
      await vscode.commands.executeCommand('mintlifyAgent.startJob');
      const shown = user.messages.find((m) => /No Mintlify project ID/.test(m.message));
      assert.ok(shown, 'the user was told');
      assert.equal(user.inputBoxes.length, 1, 'no prompt box before the project is set');
      await waitFor('the store to switch project', () => s.jobs.projectId === PROJECT);
    });
  });

  describe('start, follow up, poll', () => {
    let jobId: string;

    it('starts a job: one POST, a spinning node labelled with the prompt, the status bar counts it', async () => {
      sim.clearRequests();
      user.type('Document the new webhooks page');
      await vscode.commands.executeCommand('mintlifyAgent.startJob');
      const posts = requestsTo(sim, 'POST', '/job');
      assert.equal(posts.length, 1);
      assert.deepEqual(posts[0]?.body, { prompt: 'Document the new webhooks page' });
      const version = String((vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { version?: unknown }).version);
      assert.equal(posts[0]?.userAgent, `mintlify-agent-analytics/${version} (VS Code ${vscode.version})`);
      jobId = s.jobs.all()[0].id;
      const item = await jobItem(s, jobId);
      assert.equal(item?.label, 'Document the new webhooks page');
      assert.equal(item?.icon, 'sync~spin');
      assert.match(String(item?.description), /^active/);
      assert.equal(item?.contextValue, 'job active');
      assert.ok(rowCommands(item?.contextValue).includes('mintlifyAgent.sendFollowUp'));
      assert.ok(!rowCommands(item?.contextValue).includes('mintlifyAgent.openPullRequest'), 'no pull request yet');
      assert.equal(s.statusBar.text, '$(sync~spin) 1 agent job active');
    });

    it('polls it fast until it completes, notifies, shows the PR action, then never polls it again', async () => {
      const sentinel = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      user.answerMessage = () => undefined;
      user.type(sentinel.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      const completed = await waitFor('the job to complete in the tree', async () => {
        const item = await jobItem(s, jobId);
        return item?.icon === 'pass' ? item : undefined;
      });
      assert.equal(completed.contextValue, 'job completed pr');
      assert.ok(rowCommands(completed.contextValue).includes('mintlifyAgent.openPullRequest'));
      assert.match(completed.description, /completed · PR ready/);
      assert.match(completed.tooltip, /github\.com\/acme\/docs\/pull\//);
      const note = await waitFor('the notification', () => user.messages.find((m) => /completed: its pull request is ready/.test(m.message)));
      assert.deepEqual(note.actions, ['Open Pull Request', 'Send Follow-up']);
      const polls = requestsTo(sim, 'GET', `/job/${jobId}`);
      assert.ok(polls.length >= 1);
      // (The spacing of polls is the scheduler's, tested with a fake clock in test/unit/jobs/jobPoller.test.ts.)
      // Never polled while terminal: the sentinel keeps being polled meanwhile.
      const sentinelBefore = requestsTo(sim, 'GET', `/job/${sentinel.id}`).length;
      await waitFor('three more polls of the sentinel', () => requestsTo(sim, 'GET', `/job/${sentinel.id}`).length >= sentinelBefore + 3);
      assert.equal(requestsTo(sim, 'GET', `/job/${jobId}`).length, polls.length, 'no GET after the job completed');
      assert.equal(s.tracker.poller.isWatching(jobId), false);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', sentinel.id);
    });

    it('opens the pull request (a web link only)', async () => {
      await vscode.commands.executeCommand('mintlifyAgent.openPullRequest', jobId);
      assert.match(String(user.opened[0]), /^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/);
    });

    it('sends a follow-up from the palette: pick shows the state, history grows, polling restarts fast then slows', async () => {
      sim.clearRequests();
      let pickedFrom: readonly vscode.QuickPickItem[] = [];
      user.pick((items) => {
        pickedFrom = items;
        return items.find((i) => (i as { jobId?: string }).jobId === jobId);
      });
      let validate: vscode.InputBoxOptions['validateInput'];
      user.type((options) => {
        validate = options.validateInput?.bind(options);
        return 'Also add a changelog entry';
      });
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp');
      assert.equal(pickedFrom.find((i) => (i as { jobId?: string }).jobId === jobId)?.description, 'completed');
      assert.ok(pickedFrom.some((i) => /Enter another job ID/.test(i.label)));
      assert.ok(validate);
      assert.match(validationText(await validate('   \n ')), /empty prompt cannot be sent/);
      assert.deepEqual(
        requestsTo(sim, 'POST', `/job/${jobId}/message`).map((r) => r.body),
        [{ prompt: 'Also add a changelog entry' }],
      );
      assert.deepEqual(
        s.jobs.get(jobId)?.prompts.map((p) => p.text),
        ['Document the new webhooks page', 'Also add a changelog entry'],
      );
      const item = await jobItem(s, jobId);
      assert.equal(item?.icon, 'sync~spin');
      assert.match(String(item?.tooltip), /Also add a changelog entry/);
      await waitFor('the job to complete again', async () => (await jobItem(s, jobId))?.icon === 'pass');
      const polls = requestsTo(sim, 'GET', `/job/${jobId}`);
      assert.ok(polls.length >= 2, 'polled while active');
    });
  });

  describe('rows stay put while jobs change', () => {
    it('a change to two jobs at once redraws their two rows, never the whole list', async () => {
      // While VS Code asks for a whole list again, a command run from a row's context menu gets no
      // job: Stop Tracking clicked at that moment did nothing. Only adding, removing or reordering
      // jobs may redraw the list.
      const ids = [sim.addJob(PROJECT, { status: 'completed' }).id, sim.addJob(PROJECT, { status: 'completed' }).id];
      // Which jobs' rows VS Code has been handed, seen where it asks the tree for them.
      const drawn = new Set<string>();
      const getChildren = s.tree.getChildren.bind(s.tree);
      s.tree.getChildren = (node) => {
        const nodes = getChildren(node);
        for (const child of nodes) if ('tracked' in child) drawn.add(child.tracked.id);
        return nodes;
      };
      for (const id of ids) {
        user.type(id);
        await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      }
      // The view on screen, so VS Code draws the rows (and would redraw them).
      await vscode.commands.executeCommand('mintlifyAgent.jobs.focus');
      await waitFor('the view to draw both jobs', () => ids.every((id) => drawn.has(id))).finally(
        () => delete (s.tree as { getChildren?: unknown }).getChildren,
      );
      const redrawn: string[] = [];
      const listening = s.tree.onDidChangeTreeData((changed) => {
        for (const node of changed === undefined ? [undefined] : Array.isArray(changed) ? changed : [changed]) {
          redrawn.push(node && 'tracked' in node ? node.tracked.id : 'the whole list');
        }
      });
      try {
        const checkedAt = new Date(Date.now() + 60_000).toISOString();
        // One write that touches both jobs, as a merged read of another window's file does.
        await s.sync.jobs.change((jobs, stamp) => ids.forEach((id) => applyJobChange({ jobs }, PROJECT, id, { fields: { checkedAt } }, { next: stamp })));
        await waitFor('both jobs to show the change', () => ids.every((id) => s.jobs.get(id)?.checkedAt === checkedAt));
      } finally {
        listening.dispose();
        await vscode.commands.executeCommand('workbench.action.closeSidebar');
      }
      // Other jobs of earlier tests may be redrawn meanwhile; these two are, one row each, and the list is not.
      assert.deepEqual(redrawn.filter((id) => !id.startsWith('job_') || ids.includes(id)).sort(), [...ids].sort());
    });

    it('Stop Tracking from the palette (or from a row that handed over no job) asks which job', async () => {
      const [stay, go] = [sim.addJob(PROJECT, { status: 'completed' }).id, sim.addJob(PROJECT, { status: 'completed' }).id];
      for (const id of [stay, go]) {
        user.type(id);
        await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      }
      let offered: readonly vscode.QuickPickItem[] = [];
      user.pick((items) => ((offered = items), items.find((i) => i.detail === go)));
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking');
      assert.ok(!offered.some((i) => /Enter another job ID/.test(i.label)), 'only tracked jobs can be stopped');
      assert.equal(s.jobs.get(go), undefined);
      assert.ok(s.jobs.get(stay));
    });
  });

  describe('poll timing after a follow-up', () => {
    // The scheduler's timing is unit-tested with a fake clock; here, that the follow-up puts the job
    // on the fast schedule: its next poll is one fast interval after the answer, not a steady one.
    it('schedules the next poll one fast interval after the follow-up, and polls until the job finishes', async () => {
      const job = sim.addJob(PROJECT, { status: 'completed', prLink: 'https://github.com/acme/docs/pull/5', activeForMs: 1_000 });
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      s.tracker.poller.setTimings({ ...FAST_POLL_TIMINGS, fastIntervalMs: 60_000, intervalMs: 3_600_000 });
      try {
        user.type('Make the steps numbered');
        const before = Date.now();
        await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', job.id);
        const due = s.tracker.poller.nextDueAt(job.id);
        assert.ok(due !== undefined && due >= before + 60_000 && due <= Date.now() + 60_000, 'due one fast interval after the answer');
      } finally {
        s.tracker.poller.setTimings(FAST_POLL_TIMINGS);
      }
      await waitFor('the job to complete', async () => (await jobItem(s, job.id))?.icon === 'pass');
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });
  });

  describe('a server that stalls', () => {
    it('three stalled polls in a row and polling goes on: the job’s change shows within the timeout plus the backoff', async () => {
      await setUserSetting('requestTimeoutSeconds', 1);
      const job = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      try {
        user.type(job.id);
        await vscode.commands.executeCommand('mintlifyAgent.trackJob');
        sim.clearRequests();
        sim.addFault({ fault: { kind: 'stallAfterHeaders' }, times: 3, method: 'GET', pathIncludes: job.id });
        const stalled = () => requestsTo(sim, 'GET', `/job/${job.id}`).length >= 3;
        // Each stalled poll ends at the 1 s deadline, then backs off (at most backoffMaxMs); generous for a loaded machine.
        const perPoll = 1_000 + FAST_POLL_TIMINGS.backoffMaxMs + FAST_POLL_TIMINGS.intervalMs;
        await waitFor('three stalled polls', stalled, 3 * perPoll + 10_000).catch((error: Error) => {
          // Should it time out: what the client tried, what the simulator got, and when the next poll was due.
          const tried = s.requests.slice(-6).map((r) => `${r.method} ${r.path} ${r.sent ? (r.status ?? r.error?.message) : `not sent: ${r.error?.message}`}`);
          throw new Error(
            `${error.message}; the simulator got ${requestsTo(sim, 'GET', `/job/${job.id}`).length} polls; the client's last calls: ${tried.join(' | ') || 'none'}; next poll due in ${String((s.tracker.poller.nextDueAt(job.id) ?? Number.NaN) - Date.now())} ms`,
          );
        });
        sim.archiveJob(PROJECT, job.id);
        await waitFor('the archived job in the tree', async () => /archived/.test((await jobItem(s, job.id))?.description ?? ''), perPoll + 10_000);
        assert.ok(requestsTo(sim, 'GET', `/job/${job.id}`).length >= 4, 'a fourth poll got through');
      } finally {
        await setUserSetting('requestTimeoutSeconds', undefined);
        await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
      }
    });
  });

  describe('results land where they were asked', () => {
    it('a job created while the project setting changes is filed under the project it was sent to', async () => {
      const prompt = 'Explain the SDK quickstart';
      sim.addFault({ fault: { kind: 'latency', ms: 1_500 }, times: 1, method: 'POST' });
      user.answerMessage = () => undefined;
      user.type(prompt);
      const running = vscode.commands.executeCommand('mintlifyAgent.startJob');
      await waitFor('the POST to reach the server', () => requestsTo(sim, 'POST', `/${PROJECT}/job`).some((r) => JSON.stringify(r.body).includes(prompt)));
      await setProject('other-project');
      await waitFor('the other project', () => s.jobs.projectId === 'other-project');
      await running;
      assert.ok(!s.jobs.all().some((t) => t.prompts[0]?.text === prompt), 'not filed under the project current when the answer came');
      await setProject(PROJECT);
      await waitFor('the project again', () => s.jobs.projectId === PROJECT);
      const filed = s.jobs.all().find((t) => t.prompts[0]?.text === prompt);
      assert.ok(filed, 'filed under the project the request was sent to');
      assert.ok(sim.peekJob(PROJECT, filed.id), 'the server made it in that project');
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', filed.id);
    });
  });

  describe('finish notifications', () => {
    async function finish(outcome: 'noChanges' | 'fail' | 'pr', notify: string) {
      await vscode.workspace.getConfiguration('mintlifyAgent').update('jobs.notify', notify, vscode.ConfigurationTarget.Global);
      const job = sim.addJob(PROJECT, { outcome, activeForMs: 1_500 });
      user.answerMessage = () => undefined;
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      // Seen active, so its finish is a change the poller sees (a job already finished when tracked notifies nothing).
      assert.ok(s.tracker.poller.isWatching(job.id), 'tracked while active');
      await waitFor('the job to finish', () => !s.tracker.poller.isWatching(job.id));
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
      return user.messages.filter((m) => /^Agent job/.test(m.message));
    }
    after(() => vscode.workspace.getConfiguration('mintlifyAgent').update('jobs.notify', undefined, vscode.ConfigurationTarget.Global));

    it('says only that there is no pull request when a job completed without one: it may have committed directly', async () => {
      const [note] = await finish('noChanges', 'all');
      assert.match(
        String(note?.message),
        /^Agent job “.+” completed without a pull request: it changed nothing, or committed directly to mintlify\/agent-\w+\.$/,
      );
      assert.doesNotMatch(String(note?.message), /no files changed|no changes/);
      // Not a clone of the job's repository here: nothing to look in.
      assert.deepEqual(note?.actions, ['Send Follow-up']);
    });
    it('"failures" notifies a failure but not a completion', async () => {
      assert.deepEqual(await finish('pr', 'failures'), []);
      const [note] = await finish('fail', 'failures');
      assert.equal(note?.level, 'error');
      assert.match(String(note?.message), /failed/);
    });
    it('"off" never notifies', async () => {
      assert.deepEqual(await finish('fail', 'off'), []);
    });
  });

  describe('failures lose nothing', () => {
    let jobId: string;
    before(async () => {
      jobId = sim.addJob(PROJECT, { status: 'completed', prLink: null, outcome: 'noChanges' }).id;
      user = new ScriptedUser(s.ui);
      user.type(jobId);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      user.restore();
    });

    it('a 500 with an HTML body: the job cannot tell, so it may have arrived; no plain Retry; the next prompt box has the text', async () => {
      sim.clearRequests();
      sim.addFault({ fault: { kind: 'status', status: 500, html: true }, times: 1 });
      user.answerMessage = () => undefined;
      user.type('Rewrite the intro');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', jobId);
      const shown = user.lastMessage();
      assert.equal(shown?.level, 'warning');
      assert.match(String(shown?.message), /may have arrived: the Mintlify API answered 500/);
      assert.deepEqual(shown?.actions, ['Open Job', 'Send Again (may duplicate)']);
      assert.equal(requestsTo(sim, 'GET', `/job/${jobId}`).length, 1, 'the job was read once to check');
      assert.equal(requestsTo(sim, 'POST', `/job/${jobId}/message`).length, 1, 'sent once');
      let offered: string | undefined;
      user.type((options) => {
        offered = options.value;
        return undefined;
      });
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', jobId);
      assert.equal(offered, 'Rewrite the intro');
    });

    it('a follow-up to a job id typed in (not tracked) keeps its unsent text too', async () => {
      const other = sim.addJob(PROJECT, { status: 'completed', prLink: null, outcome: 'noChanges' });
      sim.addFault({ fault: { kind: 'status', status: 503, html: true }, times: 1 });
      user.pick((items) => items.find((i) => /Enter another job ID/.test(i.label)));
      user.type(other.id);
      user.type('Please retitle the page');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp');
      assert.match(String(user.lastMessage()?.message), /503/);
      let offered: string | undefined;
      user.type((options) => {
        offered = options.value;
        return undefined;
      });
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', other.id);
      assert.equal(offered, 'Please retitle the page');
      assert.equal(s.jobs.get(other.id), undefined, 'nothing was tracked');
    });

    it('a follow-up the server took but whose answer was lost is sent once, and the user is told it arrived', async () => {
      const done = sim.addJob(PROJECT, { status: 'completed', prLink: null, outcome: 'noChanges' });
      user.type(done.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      sim.clearRequests();
      sim.addFault({ fault: { kind: 'answerThenReset' }, times: 1, method: 'POST' });
      user.answerMessage = () => undefined;
      user.type('Add a troubleshooting section');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', done.id);
      assert.equal(requestsTo(sim, 'POST', `/job/${done.id}/message`).length, 1, 'exactly one POST');
      const told = user.lastMessage();
      assert.equal(told?.level, 'info');
      assert.match(String(told?.message), /Follow-up sent to .*the job shows it arrived/);
      assert.deepEqual(
        s.jobs.get(done.id)?.prompts.map((p) => p.text),
        ['Add a troubleshooting section'],
      );
      assert.equal(s.jobs.get(done.id)?.unsentPrompt, undefined);
      assert.equal(s.tracker.poller.isWatching(done.id), true, 'polled again as after a success');
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', done.id);
    });

    it('when the job cannot tell, Send Again says it may duplicate and sends once more only when pressed', async () => {
      const busy = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      user.type(busy.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      sim.clearRequests();
      sim.addFault({ fault: { kind: 'drop' }, times: 1, method: 'POST' });
      let pressed = false;
      user.answerMessage = (m) => (m.actions.includes('Send Again (may duplicate)') && !pressed ? ((pressed = true), 'Send Again (may duplicate)') : undefined);
      user.type('Rewrite the intro, shorter');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', busy.id);
      const warned = user.messages.find((m) => /may have arrived/.test(m.message));
      assert.ok(warned && !warned.actions.includes('Retry'), 'never a plain Retry');
      const posts = requestsTo(sim, 'POST', `/job/${busy.id}/message`);
      assert.deepEqual(
        posts.map((p) => p.status),
        [0, 200],
      );
      assert.deepEqual(posts[1]?.body, { prompt: 'Rewrite the intro, shorter' });
      assert.equal(s.jobs.get(busy.id)?.unsentPrompt, undefined);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', busy.id);
    });

    it('a new job whose answer was lost: says one may have been created and offers Track Job, never Retry', async () => {
      sim.clearRequests();
      sim.addFault({ fault: { kind: 'answerThenReset' }, times: 1, method: 'POST' });
      user.answerMessage = (m) => (m.actions.includes('Track Job…') ? 'Track Job…' : undefined);
      user.type('Add a glossary page');
      let trackBox: vscode.InputBoxOptions | undefined;
      user.type((options) => {
        trackBox = options;
        return undefined;
      });
      await vscode.commands.executeCommand('mintlifyAgent.startJob');
      const warned = user.messages.find((m) => /may have been created/.test(m.message));
      assert.ok(warned, 'told that a job may exist');
      assert.ok(!warned.actions.includes('Retry'));
      assert.match(String(trackBox?.title), /Track Agent Job/, 'Track Job opened its box');
      assert.equal(requestsTo(sim, 'POST', `/${PROJECT}/job`).length, 1, 'sent once');
    });

    it('after a 429 with Retry-After: 20, an immediate Retry sends nothing for 20 s, counting down, then sends', async function () {
      this.timeout(90_000);
      sim.clearRequests();
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 20 }, times: 1, method: 'POST' });
      let clicked = false;
      user.answerMessage = (m) => (m.actions.includes('Retry') && !clicked ? ((clicked = true), 'Retry') : undefined);
      user.type('Mention the rate limit');
      const running = vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', jobId);
      await waitFor('the Retry click', () => clicked);
      const first = requestsTo(sim, 'POST', `/job/${jobId}/message`);
      assert.equal(first.length, 1);
      await running;
      const posts = requestsTo(sim, 'POST', `/job/${jobId}/message`);
      assert.deepEqual(
        posts.map((p) => p.status),
        [429, 200],
        'sent once more, after the wait',
      );
      assert.ok(posts[1].at - posts[0].at >= 20_000, `the second POST waited out Retry-After (${posts[1].at - posts[0].at} ms)`);
      assert.ok(
        user.progressReports.some((r) => /Sending in \d+ s/.test(r)),
        'the wait was shown as a countdown',
      );
    });

    it('a 429 says when to try again', async () => {
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 42 }, times: 1 });
      user.type('One more thing');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', jobId);
      assert.match(String(user.lastMessage()?.message), /rate limit.*Try again in 42 s/);
      assert.equal(s.jobs.get(jobId)?.unsentPrompt, 'One more thing');
    });

    it('a 404 offers Stop Tracking', async () => {
      const gone = sim.addJob(PROJECT, { status: 'failed' });
      user.type(gone.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      sim.deleteJob(PROJECT, gone.id);
      user.answerMessage = (m) => (m.actions.includes('Stop Tracking') ? 'Stop Tracking' : undefined);
      user.type('Try again please');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', gone.id);
      assert.ok(user.messages.some((m) => m.actions.includes('Stop Tracking')));
      assert.equal(s.jobs.get(gone.id), undefined, 'Stop Tracking removed it');
    });

    it('tracking an unknown id (with / ? # and non-ASCII) names the project and tracks nothing', async () => {
      sim.clearRequests();
      const count = s.jobs.all().length;
      user.type('no/such?job#ü');
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      assert.match(String(user.lastMessage()?.message), /No agent job "no\/such\?job#ü" in project "demo-project"/);
      assert.equal(s.jobs.all().length, count);
      assert.deepEqual(sim.requests[0]?.segments.slice(-2), ['job', 'no/such?job#ü']);
    });

    it('tracks a job from a pasted dashboard link', async () => {
      const job = sim.addJob(PROJECT, { status: 'completed', prLink: 'https://github.com/acme/docs/pull/9' });
      user.type(`https://dashboard.mintlify.com/acme/docs/agent/${job.id}`);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      assert.equal(s.jobs.get(job.id)?.job?.prLink, 'https://github.com/acme/docs/pull/9');
    });

    it('a status it does not know shows as unknown and keeps the job', async () => {
      const job = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      sim.setRawJob(PROJECT, job.id, { id: job.id, status: 'paused' });
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      const item = await jobItem(s, job.id);
      assert.equal(item?.icon, 'question');
      assert.match(String(item?.description), /unknown status “paused”/);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });

    it('a job deleted on the server while polled turns "not found" and is no longer polled', async () => {
      const job = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      sim.deleteJob(PROJECT, job.id);
      const item = await waitFor('the not-found state', async () => {
        const i = await jobItem(s, job.id);
        return i?.contextValue === 'job notFound' ? i : undefined;
      });
      assert.match(item.description, /not found/);
      assert.equal(s.tracker.poller.isWatching(job.id), false);
      assert.ok(s.jobs.get(job.id), 'still listed: the user decides');
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });

    it('a 401 in the middle of polling stops all polling until the key changes', async () => {
      const job = sim.addJob(PROJECT, { activeForMs: 3_600_000 });
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      sim.revokeKey(KEY);
      await waitFor('polling to stop', () => s.tracker.poller.isPaused);
      const items = await treeItems(s);
      assert.equal(items[0]?.id, 'notice');
      assert.match(items[0].label, /API key was not accepted/);
      const count = sim.requests.length;
      assert.equal(s.tracker.poller.nextDueAt(job.id), undefined, 'nothing is scheduled');
      const newKey = 'mint_integration_second_key';
      user.type(newKey);
      await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
      await waitFor('polling to resume with the new key', () =>
        sim.requests.slice(count).some((r) => r.authorization === `Bearer ${newKey}` && r.status === 200),
      );
      assert.equal(s.tracker.poller.isPaused, false);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });

    it('keeps tracked jobs per project: another project shows its own (none), and coming back restores them', async () => {
      const before = s.jobs.all().map((t) => ({ id: t.id, prompts: t.prompts.map((p) => p.text) }));
      assert.ok(before.length > 0);
      await setProject('other-project');
      await waitFor('the other project', () => s.jobs.projectId === 'other-project');
      assert.deepEqual(await treeItems(s), []);
      await setProject(PROJECT);
      await waitFor('the project again', () => s.jobs.projectId === PROJECT);
      assert.deepEqual(
        s.jobs.all().map((t) => ({ id: t.id, prompts: t.prompts.map((p) => p.text) })),
        before,
      );
    });
  });

  describe('the agent hour counts what the platform counts: sends', () => {
    before(async () => {
      const setKey = new ScriptedUser(s.ui);
      setKey.type('mint_integration_hour_key');
      await vscode.commands.executeCommand('mintlifyAgent.setApiKey').then(() => setKey.restore());
      await setProject(HOUR_PROJECT);
      await waitFor('the project', () => s.jobs.projectId === HOUR_PROJECT);
    });
    after(async () => {
      await setProject(PROJECT);
      await waitFor('the project again', () => s.jobs.projectId === PROJECT);
    });

    it('two follow-ups and a hundred status reads: "2 of 100" in the view and status bar, and in the review preview\'s cost line', async () => {
      const job = sim.addJob(HOUR_PROJECT, { activeForMs: 3_600_000 });
      await s.tracker.track(job.id);
      await s.tracker.sendFollowUp(job.id, 'First follow-up');
      await s.tracker.sendFollowUp(job.id, 'Second follow-up');
      for (let i = 0; i < 100; i++) await s.tracker.track(job.id);
      assert.ok(requestsTo(sim, 'GET', `/job/${job.id}`).length >= 101, 'the reads reached the API');
      assert.equal(requestsTo(sim, 'POST', `/job/${job.id}/message`).length, 2);
      assert.equal(s.sync.ledger.agentRequestsThisHour(HOUR_PROJECT), 2);
      await waitFor('the status bar to count the two sends', () => s.statusBar.tooltip?.includes('2 of 100 agent requests this hour'));

      // The cost line above a review's preview reads the same hour.
      const comment = s.reviewComments.model.newId();
      await s.reviewComments.model.put(job.id, comment, {
        path: 'docs/a.mdx',
        commit: 'c0ffee',
        startLine: 1,
        endLine: 1,
        lines: ['# A'],
        body: 'Shorter.',
        createdAt: Date.now(),
      });
      let lenses: string[] = [];
      user.type('');
      user.answerMessage = async (m) => {
        if (!m.actions.includes('Send Review')) return undefined;
        const preview = vscode.window.activeTextEditor!.document;
        const shown = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview.uri);
        lenses = shown.map((l) => l.command?.title ?? '');
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        return undefined;
      };
      await vscode.commands.executeCommand('mintlifyAgent.sendReview', job.id);
      assert.match(lenses[0] ?? '', /1 agent request of the project's hour \(2 of 100 used, 98 left\)\.$/);
      assert.equal(requestsTo(sim, 'POST', `/job/${job.id}/message`).length, 2, 'the preview closed: nothing sent');
      await s.reviewComments.model.remove(job.id, comment);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });

    it('ten active jobs keep being polled past 60 reads in the hour', async () => {
      const jobs = Array.from({ length: 10 }, () => sim.addJob(HOUR_PROJECT, { activeForMs: 3_600_000 }));
      sim.clearRequests();
      for (const job of jobs) await s.tracker.track(job.id);
      const reads = () => sim.requests.filter((r) => r.method === 'GET' && jobs.some((j) => r.rawPath.endsWith(`/job/${j.id}`)));
      await waitFor('120 reads of the ten jobs', () => reads().length >= 120, 45_000);
      const late = reads().slice(60);
      assert.equal(new Set(late.map((r) => r.rawPath)).size, 10, 'every job is still read after the 60th read');
      assert.equal(s.sync.ledger.agentRequestsThisHour(HOUR_PROJECT), 0, 'reads are not sends');
      for (const job of jobs) await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });
  });

  describe('an operation the platform withdrew (a 410, or a router’s 404 page): said calmly, then not asked again', () => {
    const GONE_PROJECT = 'withdrawn-project';
    let gone: Simulator;
    before(async () => {
      // Its own API address: what this platform withdrew stays withdrawn for that address only.
      gone = await withSimulator({ jobDurationMs: 1_000, projects: [GONE_PROJECT] });
      await setProject(GONE_PROJECT);
      await waitFor('the project', () => s.jobs.projectId === GONE_PROJECT);
    });
    after(async () => {
      await setUserSetting('apiBaseUrl', sim.url);
      await setProject(PROJECT);
      await waitFor('the project again', () => s.jobs.projectId === PROJECT);
      await gone.close();
    });

    it('a follow-up answered 410 says so as information, once sent, never again this session; the job is not called gone', async () => {
      const job = gone.addJob(GONE_PROJECT, { status: 'completed', prLink: null });
      await s.tracker.track(job.id);
      gone.addFault({ fault: { kind: 'status', status: 410 }, pathIncludes: '/message' });
      user.answerMessage = () => undefined;
      user.type('Retitle the page');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', job.id);
      const said = user.lastMessage();
      assert.equal(said?.level, 'info');
      assert.match(String(said?.message), /^Sending the follow-up: the Mintlify API no longer offers this \(410\)\. It is not offered again in this window/);
      assert.deepEqual(said?.actions, ['Show Log'], 'no Retry: nothing to try again');
      user.type('Retitle the page');
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', job.id);
      assert.match(String(user.lastMessage()?.message), /no longer offers this \(it said so earlier\)/);
      assert.equal(requestsTo(gone, 'POST', `/job/${job.id}/message`).length, 1, 'sent once, never again');
      assert.notEqual(s.jobs.get(job.id)?.notFound, true);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });

    it('a job read answered by a router’s 404 page stops polling, keeps the job as it was, and Refresh sends nothing more', async () => {
      const job = gone.addJob(GONE_PROJECT, { activeForMs: 3_600_000 });
      await s.tracker.track(job.id);
      assert.ok(s.tracker.poller.isWatching(job.id));
      gone.addFault({ fault: { kind: 'status', status: 404, html: true }, method: 'GET', pathIncludes: `/job/${job.id}` });
      await vscode.commands.executeCommand('mintlifyAgent.refreshJob', job.id);
      await waitFor('polling to stop', () => !s.tracker.poller.isWatching(job.id));
      const tracked = s.jobs.get(job.id)!;
      assert.equal(tracked.job?.status, 'active', 'kept as it was last read');
      assert.notEqual(tracked.notFound, true, 'not a missing job: the operation is gone');
      const reads = requestsTo(gone, 'GET', `/job/${job.id}`).length;
      await vscode.commands.executeCommand('mintlifyAgent.refreshJob', job.id);
      await waitFor('the refusal', () => s.jobs.errorOf(job.id)?.reached === 'no');
      assert.equal(requestsTo(gone, 'GET', `/job/${job.id}`).length, reads, 'nothing more sent');
      const row = await jobItem(s, job.id);
      assert.match(String(row?.tooltip), /Last error:\*\* Reading the job: the Mintlify API no longer offers this/);
      await vscode.commands.executeCommand('mintlifyAgent.stopTracking', job.id);
    });
  });
});
