/** The project the untrusted folder's `.vscode/settings.json` names (written by test/run.ts). */
export const RESTRICTED_PROJECT = 'demo-project';
/**
 * What the untrusted folder's settings raise (written by test/run.ts): both above their defaults,
 * both restricted settings, so neither may count until the folder is trusted.
 */
export const RAISED_SETTINGS = { 'mintlifyAgent.readers.maxPages': 100, 'mintlifyAgent.signals.backgroundShare': 60 } as const;
