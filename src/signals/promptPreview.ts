// The writer sees and edits the whole prompt before it is sent, through the same preview as "Ask
// the Agent About This…" (src/agent): the prompt opens in an editor and what is sent is that
// editor's text when the writer chooses a new job or a follow-up. Sending goes through Start New
// Job / Send Follow-up, so a failed send is reported, kept as a draft and never repeated unasked.
import type { JobStore } from '../jobs/jobStore';
import { previewAndSend } from '../agent/askAboutThis';
import type { Ui } from '../ui';

export interface PreviewChoice {
  /** The tracked job the prompt went to. */
  jobId: string;
  /** Exactly what was sent. */
  prompt: string;
}

export interface PromptSender {
  /** Shows `prompt` for editing, then sends it; undefined when the writer stopped or the send failed. */
  previewAndSend(prompt: string): Promise<PreviewChoice | undefined>;
}

export function agentPromptSender(ui: Ui, store: JobStore): PromptSender {
  return {
    async previewAndSend(prompt) {
      const sent = await previewAndSend(ui, store, prompt);
      if (!sent) return undefined;
      // A new job is the tracked job whose history holds exactly this prompt; none when the send failed.
      const holds = (id: string) => store.get(id)?.prompts.some((p) => p.text === sent.prompt) === true;
      const jobId = sent.jobId ?? store.all().find((t) => holds(t.id))?.id;
      return jobId && holds(jobId) ? { jobId, prompt: sent.prompt } : undefined;
    },
  };
}
