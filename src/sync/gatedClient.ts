// A 429 is shared: once the server has asked one window to wait, no window sends to that endpoint
// family (agent or analytics) before Retry-After has passed; the call fails at once, unsent, with
// the time left. This wraps the API client rather than changing it, so the client stays one
// transport and the ledger stays here.
import * as vscode from 'vscode';
import { ApiError, type ApiClient } from '../api';
import { sharedWaitMessage } from '../errorMessages';
import type { Family } from './ledger';

export function gateClient(api: ApiClient, waitMs: (family: Family) => number): ApiClient {
  const gate = (family: Family) => {
    const wait = waitMs(family);
    if (wait <= 0) return;
    throw new ApiError('rateLimited', sharedWaitMessage(wait, vscode.l10n), { retryAfterMs: wait });
  };
  return {
    getJob: async (...args) => (gate('agent'), api.getJob(...args)),
    createJob: async (...args) => (gate('agent'), api.createJob(...args)),
    sendMessage: async (...args) => (gate('agent'), api.sendMessage(...args)),
    getVisitors: async (...args) => (gate('analytics'), api.getVisitors(...args)),
    getFeedbackByPage: async (...args) => (gate('analytics'), api.getFeedbackByPage(...args)),
    getFeedback: async (...args) => (gate('analytics'), api.getFeedback(...args)),
    getAssistant: async (...args) => (gate('analytics'), api.getAssistant(...args)),
    getAssistantThread: async (...args) => (gate('analytics'), api.getAssistantThread(...args)),
    getSearches: async (...args) => (gate('analytics'), api.getSearches(...args)),
    getViews: async (...args) => (gate('analytics'), api.getViews(...args)),
  };
}
