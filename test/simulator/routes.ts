// The routes of the simulated API, matched on decoded path segments.

export type Route =
  | { name: 'createJob'; method: 'POST'; projectId: string }
  | { name: 'getJob'; method: 'GET'; projectId: string; jobId: string }
  | { name: 'sendMessage'; method: 'POST'; projectId: string; jobId: string }
  | { name: 'visitors'; method: 'GET'; projectId: string }
  | { name: SignalsRouteName; method: 'GET'; projectId: string }
  | { name: 'assistantThread'; method: 'GET'; projectId: string; threadId: string }
  | { name: 'createPreview'; method: 'POST'; projectId: string }
  | { name: 'updateStatus'; method: 'GET'; statusId: string }
  | { name: 'search'; method: 'POST'; domain: string };

/** The reader-signals list endpoints. */
export type SignalsRouteName = 'views' | 'feedback' | 'feedbackByPage' | 'assistant' | 'searches';
const LISTS: Record<string, SignalsRouteName> = { views: 'views', feedback: 'feedback', assistant: 'assistant', searches: 'searches' };

/**
 * The route a path names, or undefined: every segment must be there, none extra, and the parameters
 * must not be empty ('/v2/agent/p/job/' is not the job '' but no route at all).
 */
export function matchRoute(segments: readonly string[]): Route | undefined {
  const [root, version, area, projectId, resource, jobId, action, ...rest] = segments;
  // The discovery API: /discovery/v1/search/{domain}.
  if (root === '' && version === 'discovery' && area === 'v1' && projectId === 'search' && resource && jobId === undefined) {
    return { name: 'search', method: 'POST', domain: resource };
  }
  // The External API: /v1/project/preview/{projectId}, /v1/project/update-status/{statusId}.
  if (root === '' && version === 'v1' && area === 'project' && resource && jobId === undefined) {
    if (projectId === 'preview') return { name: 'createPreview', method: 'POST', projectId: resource };
    if (projectId === 'update-status') return { name: 'updateStatus', method: 'GET', statusId: resource };
  }
  if (root !== '' || !projectId || rest.length) return undefined;
  if (version === 'v2' && area === 'agent' && resource === 'job') {
    if (jobId === undefined) return { name: 'createJob', method: 'POST', projectId };
    if (jobId === '') return undefined;
    if (action === undefined) return { name: 'getJob', method: 'GET', projectId, jobId };
    if (action === 'message') return { name: 'sendMessage', method: 'POST', projectId, jobId };
    return undefined;
  }
  if (version === 'v1' && area === 'analytics' && resource === 'visitors' && jobId === undefined) {
    return { name: 'visitors', method: 'GET', projectId };
  }
  if (version === 'v1' && area === 'analytics' && resource !== undefined) {
    const list = Object.hasOwn(LISTS, resource) ? LISTS[resource] : undefined;
    if (list && jobId === undefined) return { name: list, method: 'GET', projectId };
    if (resource === 'feedback' && jobId === 'by-page' && action === undefined) return { name: 'feedbackByPage', method: 'GET', projectId };
    if (resource === 'assistant' && jobId === 'threads' && action) return { name: 'assistantThread', method: 'GET', projectId, threadId: action };
  }
  return undefined;
}
