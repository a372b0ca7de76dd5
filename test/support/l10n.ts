// Formats like vscode.l10n.t with no bundle (English), so unit tests see the text a user would:
// the plain form and the `{ message, args, comment }` form, and a placeholder with no argument
// stays as it is, as vscode.l10n.t leaves it.
import type { L10n } from '../../src/errorMessages';

type Arg = string | number | boolean;

function t(first: string | { message: string; args?: Arg[] | Record<string, Arg> }, ...rest: Arg[]): string {
  const message = typeof first === 'string' ? first : first.message;
  const args: Arg[] | Record<string, Arg> = typeof first === 'string' ? rest : (first.args ?? []);
  return message.replace(/\{(\w+)\}/g, (match: string, key: string) => {
    const value = (args as Record<string, Arg | undefined>)[key];
    return value === undefined ? match : String(value);
  });
}

export const l10n = { t } as L10n;
