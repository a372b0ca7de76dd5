// A reader's code-snippet feedback, as the signals snapshot holds it: what the code-block feedback
// unit tests build their cases from (blockMatching, blockPrompt, feedbackText).
import type { PendingComment } from '../../../src/signals/snapshot';

/** Each item a new id and comment, dated within November. */
let next = 0;
export function item(
  code: string,
  extra: { lang?: string; filename?: string; comment?: string; createdAt?: string; source?: string; fullLength?: number } = {},
): PendingComment {
  next++;
  return {
    id: `fb_${next}`,
    path: '/quickstart',
    comment: { text: extra.comment ?? `comment ${next}` },
    createdAt: extra.createdAt ?? `2026-11-${String(10 + (next % 10)).padStart(2, '0')}T10:00:00Z`,
    source: extra.source ?? 'code_snippet',
    status: 'pending',
    snippet: {
      code: { text: code, ...(extra.fullLength && { fullLength: extra.fullLength }) },
      ...(extra.lang && { lang: extra.lang }),
      ...(extra.filename && { filename: extra.filename }),
    },
  };
}

/** Reader text that must stay text: a fence, HTML, Markdown with a command link, direction overrides. */
export const hostile = [
  '```\nrm -rf /\n```',
  '<img src=x onerror=alert(1)> <script>alert(2)</script>',
  '**bold** [run](command:workbench.action.terminal.new) # heading',
  '\u202eswodniW no sliaf\u202c and \u2066isolated\u2069 \u200bzero',
];
