// The tool get_mintlifyAgentJobs: the tracked agent jobs, or one of them with its reviews, as the
// Agent Jobs view keeps them (no request).
import * as vscode from 'vscode';
import { textInput, type TextTool, type ToolPorts } from './toolPorts';
import { agentJobsText, agentJobText } from './toolTexts';

export function agentJobsTool(ports: ToolPorts): TextTool {
  return {
    invoke: async (input) => {
      const projectId = ports.settings.projectId;
      if (!projectId) return vscode.l10n.t('No project ID: run "Mintlify: Set Project ID" first.');
      const jobId = textInput(input, 'jobId');
      if (!jobId) return agentJobsText(projectId, ports.jobs.all());
      const tracked = ports.jobs.get(jobId);
      return tracked
        ? agentJobText(tracked, ports.reviews?.factsOf(jobId))
        : vscode.l10n.t('Job "{0}" is not tracked here: the tool reads only the jobs in the Agent Jobs view ("Mintlify: Track Agent Job" adds one).', jobId);
    },
  };
}
