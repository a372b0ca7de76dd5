// Formats like vscode.l10n.t with no bundle (English), so unit tests see the text a user would.
import type { L10n } from '../../src/errorMessages';

export const l10n = {
  t: (message: string, ...args: (string | number | boolean)[]) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])),
} as L10n;
