// The writer sees and edits the whole prompt before it is sent, through the same preview as "Ask
// the Agent About This…" (src/agent): the prompt opens in an editor and what is sent is that
// editor's text when the writer chooses a new job or a follow-up. Sending goes through Start New
// Job / Send Follow-up, so a failed send is reported, kept as a draft and never repeated unasked.
import type { JobStore } from '../jobs/jobStore';
import type { PromptSent } from '../jobs/jobCommands';
import { previewAndSend } from '../prompt/promptPreview';
import type { Ui } from '../ui';

export interface PromptSender {
  /**
   * Shows `prompt` for editing, then sends it: the text sent and what became of it (the job it
   * reached, exactly, or whether it is unknown that it reached none); undefined when the writer
   * stopped before sending.
   */
  previewAndSend(prompt: string, options?: PreviewOptions): Promise<{ prompt: string; sent: PromptSent } | undefined>;
}

interface PreviewOptions {
  /** Shown above the preview's first line and in its notification, not part of the prompt: its cost. */
  notes?: readonly string[];
}

export function agentPromptSender(ui: Ui, jobs: JobStore): PromptSender {
  return { previewAndSend: (prompt, options) => previewAndSend(ui, jobs, prompt, options?.notes) };
}
