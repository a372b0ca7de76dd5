// The argument of "Open Visitor Analytics" when a docs page asks for it (the readers tooltip's link):
// the page's site path and the readers' range. Any extension can run the command with anything, so
// the argument is parsed; one that is not a target opens the panel as it is.
import * as z from 'zod/mini';
import { MAX_PATH_LENGTH, PRESETS } from '../shared/protocol';

const OpenTarget = z.object({ path: z.string().check(z.minLength(1), z.maxLength(MAX_PATH_LENGTH)), preset: z.optional(z.enum(PRESETS)) });
export type OpenTarget = z.infer<typeof OpenTarget>;

export function parseOpenTarget(raw: unknown): OpenTarget | undefined {
  const result = z.safeParse(OpenTarget, raw);
  return result.success ? result.data : undefined;
}
