// The writer sees and edits the whole prompt before it is sent, through the same preview as "Ask
// the Agent About This…" (src/agent): the prompt opens in an editor and what is sent is that
// editor's text when the writer chooses a new job or a follow-up. Sending goes through Start New
// Job / Send Follow-up, so a failed send is reported, kept as a draft and never repeated unasked.
import type { JobStore } from '../jobs/jobStore';
import { previewAndSend } from '../agent/askAboutThis';
import type { Ui } from '../ui';

/**
 * What became of the previewed prompt. `sent`: the job it reached, exactly: the id the create call
 * answered with, or the job the writer chose for a follow-up. `unknown`: the answer was lost, so
 * whether (and which) job got it cannot be told. `failed`: it certainly reached no job.
 */
export type PreviewChoice = { outcome: 'sent'; jobId: string; prompt: string } | { outcome: 'unknown'; prompt: string } | { outcome: 'failed'; prompt: string };

export interface PromptSender {
  /** Shows `prompt` for editing, then sends it; undefined when the writer stopped before sending. */
  previewAndSend(prompt: string): Promise<PreviewChoice | undefined>;
}

export function agentPromptSender(ui: Ui, store: JobStore): PromptSender {
  return {
    async previewAndSend(prompt) {
      const result = await previewAndSend(ui, store, prompt);
      if (!result) return undefined;
      const { sent } = result;
      if (sent.sent) return { outcome: 'sent', jobId: sent.jobId, prompt: result.prompt };
      return sent.outcomeUnknown ? { outcome: 'unknown', prompt: result.prompt } : { outcome: 'failed', prompt: result.prompt };
    },
  };
}
