// The tool get_mintlifySearchChecks: the site's own search as a writer's checks and the agent jobs'
// replays found it, as kept (searchTexts.ts words it).
import * as vscode from 'vscode';
import { searchChecksText } from './searchTexts';
import { textInput, type TextTool, type ToolPorts } from './toolPorts';

export function searchChecksTool(ports: ToolPorts): TextTool {
  return {
    // Read-only: the checks a writer made and the jobs' replays, as kept; the tool never searches.
    invoke: async (input) => {
      const domain = ports.searches?.searchable();
      if (!ports.searches || !domain)
        return vscode.l10n.t(
          'The site’s own search is not set up here: the writer sets an assistant API key ("Mintlify: Set Assistant Key", a key starting with mint_dsc_) and the site’s domain identifier. Nothing was sent.',
        );
      const term = textInput(input, 'term');
      const checks = ports.searches.checks.all().filter(([t]) => term === undefined || t === term);
      const jobs = ports.settings.projectId ? ports.searches.replays.all(ports.settings.projectId) : [];
      return searchChecksText(
        domain,
        checks,
        jobs.filter(([, replay]) => term === undefined || Object.hasOwn(replay.terms, term)),
      );
    },
  };
}
