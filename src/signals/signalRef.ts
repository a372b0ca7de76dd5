// Which signal a command is about: a page, a search term (or the inbox's group of them), or a group of unanswered questions. It
// arrives from tree nodes and from tooltip links (JSON in a command URI), so it is checked.
// No vscode import.
import { MAX_ITEMS } from '../prompt/quotedEvidence';
import { categoryEvidence, pageEvidence, searchEvidence, searchesEvidence, type Evidence } from './evidencePrompt';
import { signalId } from './signalsModel';
import type { SignalsSnapshot } from './snapshot';

export type SignalRef =
  | { kind: 'page'; path: string }
  | { kind: 'search'; searchQuery: string }
  /** The inbox's searches that found no click, the most searched first (at most MAX_ITEMS). */
  | { kind: 'searches'; searchQueries: string[] }
  | { kind: 'questions'; group: 'page' | 'category' | 'none'; key: string | undefined };

export function parseSignalRef(value: unknown): SignalRef | undefined {
  const v = value as Record<string, unknown> | null | undefined;
  if (typeof v !== 'object' || v === null) return undefined;
  const ref = 'ref' in v ? (v.ref as Record<string, unknown> | undefined) : v; // a tree node carries its ref
  if (!ref) return undefined;
  if (ref.kind === 'page' && typeof ref.path === 'string' && ref.path.startsWith('/')) return { kind: 'page', path: ref.path };
  if (ref.kind === 'search' && typeof ref.searchQuery === 'string') return { kind: 'search', searchQuery: ref.searchQuery };
  if (ref.kind === 'searches' && Array.isArray(ref.searchQueries) && ref.searchQueries.length && ref.searchQueries.every((q) => typeof q === 'string'))
    return { kind: 'searches', searchQueries: ref.searchQueries.slice(0, MAX_ITEMS) };
  if (
    ref.kind === 'questions' &&
    (ref.group === 'page' || ref.group === 'category' || ref.group === 'none') &&
    (ref.key === undefined || typeof ref.key === 'string')
  ) {
    return { kind: 'questions', group: ref.group, key: ref.key };
  }
  return undefined;
}

/** The ids of the inbox signals a job started from this ref addresses. */
export function signalIdsOf(ref: SignalRef): string[] {
  if (ref.kind === 'page') return [signalId.page(ref.path), signalId.questions('page', ref.path)];
  if (ref.kind === 'search') return [signalId.search(ref.searchQuery)];
  if (ref.kind === 'searches') return ref.searchQueries.map(signalId.search);
  return ref.group === 'page' && ref.key ? [signalId.page(ref.key), signalId.questions('page', ref.key)] : [signalId.questions(ref.group, ref.key)];
}

/** The page a ref is about, if any. */
export function pathOf(ref: SignalRef): string | undefined {
  if (ref.kind === 'page') return ref.path;
  return ref.kind === 'questions' && ref.group === 'page' ? ref.key : undefined;
}

export function evidenceFor(snapshot: SignalsSnapshot, ref: SignalRef, files: string[]): Evidence {
  const path = pathOf(ref);
  if (path) return pageEvidence(snapshot, path, files);
  if (ref.kind === 'search') return searchEvidence(snapshot, ref.searchQuery);
  if (ref.kind === 'searches') return searchesEvidence(snapshot, ref.searchQueries);
  return categoryEvidence(snapshot, ref.kind === 'questions' ? ref.key : undefined);
}

/** The searches readers gave up on that a ref is about: its term, the group's terms, or none. */
export function searchTermsOf(ref: SignalRef): string[] {
  return ref.kind === 'search' ? [ref.searchQuery] : ref.kind === 'searches' ? [...ref.searchQueries] : [];
}
