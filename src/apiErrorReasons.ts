// The reason an ApiError gives, in the user's words, for the failure table (errorMessages.ts): a
// refused input, the server's own message, a connection that failed. vscode is imported for its
// types only; the caller passes `vscode.l10n`.
import type * as vscode from 'vscode';
import { type ApiError, MAX_PAGE_SIZE, MAX_SEARCH_QUERY, SEARCH_MAX_PAGE_SIZE } from './api';

type L10n = Pick<typeof vscode.l10n, 't'>;

export function inputProblem(error: ApiError, l10n: L10n): string {
  const value = error.subject ?? '';
  switch (error.problem) {
    case 'emptyProjectId':
      return l10n.t('The project ID is empty.');
    case 'badProjectId':
      return l10n.t('"{0}" is not a valid project ID.', value);
    case 'emptyJobId':
      return l10n.t('The job ID is empty.');
    case 'badJobId':
      return l10n.t('"{0}" is not a valid job ID.', value);
    case 'badStatusId':
      return l10n.t('"{0}" is not a valid deployment status ID.', value);
    case 'emptyBranch':
      return l10n.t('The job names no branch to deploy.');
    case 'emptyPrompt':
      return l10n.t('The prompt is empty. Type an instruction for the agent.');
    case 'emptyDomain':
      return l10n.t('The site’s domain identifier is empty. Run “Mintlify: Set Site Domain”.');
    case 'badDomain':
      return l10n.t('"{0}" is not a site domain identifier (the end of the dashboard’s URL, as in acme for acme.mintlify.site).', value);
    case 'emptySearchQuery':
      return l10n.t('The search term is empty.');
    case 'longSearchQuery':
      return l10n.t('The search term is longer than {0} characters: it is not checked.', MAX_SEARCH_QUERY);
    case 'searchPageSize':
      return l10n.t('A search’s page size must be a whole number from 1 to {0} (got {1}).', SEARCH_MAX_PAGE_SIZE, value);
    case 'pageSize':
      return l10n.t('Page size must be a whole number from 1 to {0} (got {1}).', MAX_PAGE_SIZE, value);
    case 'offset':
      return l10n.t('Offset must be a whole number of 0 or more (got {0}).', value);
    case 'startDate':
      return l10n.t('"{0}" is not a valid start date (use YYYY-MM-DD).', value);
    case 'endDate':
      return l10n.t('"{0}" is not a valid end date (use YYYY-MM-DD).', value);
    case 'dateOrder':
      return l10n.t('The start date must be before the end date.');
    case undefined:
      return error.message; // worded, and localised, by the caller that raised it
  }
}

/**
 * ": what the server said", to go before the sentence's own period: a message that ends its
 * sentence ("…on your current plan.") loses that period, or the sentence would end in two.
 */
export function serverSaid(error: ApiError): string {
  const said = error.serverMessage?.replace(/[\s.]+$/, '');
  return said ? `: ${said}` : '';
}

export function networkReason(error: ApiError, l10n: L10n): string {
  if (error.status !== undefined) return l10n.t('The connection closed before the answer was complete.');
  return error.code
    ? l10n.t('Could not reach the Mintlify API ({0}). Check your connection.', error.code)
    : l10n.t('Could not reach the Mintlify API. Check your connection.');
}
