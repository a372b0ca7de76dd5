// The docs site's search MCP server, offered to the editor's AI. Mintlify serves one for every
// published docs site at `<site>/mcp`; where VS Code has MCP server definition providers (1.101+)
// the site named by mintlifyAgent.docsSiteUrl is listed in VS Code's own MCP UI (MCP: List Servers,
// the Extensions view's MCP servers). Listing it contacts nothing: VS Code connects only once the
// user starts the server there. Nothing is listed while the user has turned VS Code's AI features
// off. On an older VS Code (the engine floor, 1.100) this registers nothing and nothing is lost.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { errorText } from '../util/errorText';

/** The provider's id, as package.json's contributes.mcpServerDefinitionProviders declares it. */
const SITE_MCP_PROVIDER_ID = 'mintlifyAgent.docsSiteSearch';

/** VS Code 1.101's MCP API, which @types/vscode 1.100 (the engine floor) does not declare. */
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpProvider): vscode.Disposable;
}
interface McpProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(): unknown[];
}
type McpHttpServerDefinition = new (label: string, uri: vscode.Uri) => unknown;

interface SiteSearchMcpPorts {
  settings: Pick<Settings, 'docsSite' | 'editorAiOff' | 'onDidChange' | 'onDidChangeEditorAi'>;
  ui: Ui;
  log: Logger;
}

/** Offers the docs site's search MCP server where this VS Code can; returns whether it can. */
export function registerSiteSearchMcp(context: vscode.ExtensionContext, ports: SiteSearchMcpPorts): boolean {
  const log = ports.log.scoped('siteMcp');
  const lm = vscode.lm as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpHttpServerDefinition?: McpHttpServerDefinition }).McpHttpServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') {
    log.info(`VS Code ${vscode.version} has no MCP server definitions (1.101+): the docs site's search server is not offered`);
    return false;
  }
  const { settings, ui } = ports;
  const changed = new vscode.EventEmitter<void>();
  let warnedAbout: string | undefined;

  const definitions = (): unknown[] => {
    if (settings.editorAiOff) return [];
    const site = settings.docsSite;
    if (site.invalid !== undefined && warnedAbout !== site.invalid) {
      warnedAbout = site.invalid;
      void ui.showMessage(
        'warning',
        vscode.l10n.t(
          'The setting "mintlifyAgent.docsSiteUrl" is "{0}", which is not the https address of a docs site (http only to 127.0.0.1 or localhost), so its search server is not offered to the editor\'s AI.',
          site.invalid,
        ),
      );
    }
    if (!site.url) return [];
    const uri = vscode.Uri.parse(`${site.url}/mcp`);
    log.info(`offering ${uri.toString()} to the editor's AI (not contacted until it is started in VS Code's MCP list)`);
    return [new Definition(vscode.l10n.t('Mintlify docs search: {0}', uri.authority), uri)];
  };

  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(SITE_MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: definitions,
    });
  } catch (error) {
    // VS Code 1.100 has the function as a preview that wants another contribution point: it refuses ours.
    changed.dispose();
    log.info(`VS Code ${vscode.version} refused the docs site's search server (${errorText(error)}): it is not offered`);
    return false;
  }
  context.subscriptions.push(
    changed,
    registration,
    settings.onDidChange((change) => (change.affects('docsSiteUrl') || change.affects('search.siteDomain')) && changed.fire()),
    settings.onDidChangeEditorAi(() => changed.fire()),
  );
  return true;
}
