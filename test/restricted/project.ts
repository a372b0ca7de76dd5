/** The project the untrusted folder's `.vscode/settings.json` names (written by test/run.ts). */
export const RESTRICTED_PROJECT = 'demo-project';
/**
 * What the untrusted folder's settings raise (written by test/run.ts): each above its default (a team
 * of 1 would give this machine the whole background ceiling, 60 an hour, not 6), all restricted
 * settings, so none may count until the folder is trusted.
 */
export const RAISED_SETTINGS = {
  'mintlifyAgent.readers.maxPages': 100,
  'mintlifyAgent.signals.backgroundShare': 60,
  'mintlifyAgent.analytics.teamSize': 1,
} as const;
