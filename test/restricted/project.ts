/** The project the untrusted folder's `.vscode/settings.json` names (written by test/run.ts). */
export const RESTRICTED_PROJECT = 'demo-project';
