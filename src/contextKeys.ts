// The `when`-clause keys behind the welcome views and menus: mintlifyAgent.hasApiKey,
// mintlifyAgent.hasProject (and projectUnconfirmed: an untrusted folder's project waiting for the
// user's yes), mintlifyAgent.hasJobs, mintlifyAgent.withdrawn.<endpoint> for an operation the
// platform said is gone (its menus stop offering it; another API address starts afresh), and for
// the site's search mintlifyAgent.hasAssistantKey and mintlifyAgent.searchReady (the assistant key
// and the site's domain). Each is set only when its value changes.
import * as vscode from 'vscode';
import type { EndpointName } from './api';
import type { ApiKeyStore } from './auth/apiKey';
import type { Settings } from './config';
import type { JobStore } from './jobs/jobStore';

interface ContextKeysPorts {
  keys: Pick<ApiKeyStore, 'hasKey' | 'onDidChange'>;
  assistantKeys: Pick<ApiKeyStore, 'hasKey' | 'onDidChange'>;
  settings: Settings;
  jobs: JobStore;
  /** The API client's word that an endpoint's operation is gone. */
  withdrawn: vscode.Event<EndpointName>;
}

export function registerContextKeys(context: vscode.ExtensionContext, ports: ContextKeysPorts): void {
  const { keys, assistantKeys, settings, jobs } = ports;
  const last = new Map<string, boolean>();
  const set = (name: string, value: boolean) => {
    if (last.get(name) === value) return;
    last.set(name, value);
    void vscode.commands.executeCommand('setContext', `mintlifyAgent.${name}`, value);
  };
  const update = () => {
    set('hasApiKey', keys.hasKey);
    set('hasProject', Boolean(settings.projectId));
    set('projectUnconfirmed', Boolean(settings.unconfirmedProject));
    set('hasJobs', jobs.all().length > 0);
    set('hasAssistantKey', assistantKeys.hasKey);
    set('searchReady', assistantKeys.hasKey && settings.search.siteDomain !== undefined);
  };
  const gone = new Set<EndpointName>();
  let baseUrl = settings.apiBaseUrl;
  context.subscriptions.push(
    keys.onDidChange(update),
    assistantKeys.onDidChange(update),
    settings.onDidChange(update),
    jobs.onDidChange(update),
    ports.withdrawn((endpoint) => {
      gone.add(endpoint);
      set(`withdrawn.${endpoint}`, true);
    }),
    settings.onDidChange(() => {
      if (settings.apiBaseUrl === baseUrl) return;
      baseUrl = settings.apiBaseUrl;
      for (const endpoint of gone) set(`withdrawn.${endpoint}`, false);
      gone.clear();
    }),
  );
  update();
}
