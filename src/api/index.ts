// The API layer's face: what the features use. Everything else in api/ is its own business (an
// unused-export check in `npm run lint` keeps this list and the modules honest).
export { checkBaseUrl, DEFAULT_BASE_URL } from './baseUrl';
export { createApiClient } from './client';
export type { ApiClient, Grant, RequestLogEntry } from './client';
export { endpointOf, ENDPOINTS, FAMILIES } from './endpoints';
export type { EndpointName } from './endpoints';
export { API_ERROR_KINDS, ApiError, formatWait, isApiError, parseRetryAfter, sendOutcome, splitWait } from './errors';
export type { ApiErrorKind, Reached } from './errors';
export { checkId, checkQuery, MAX_PAGE_SIZE, MAX_SEARCH_QUERY, parseApiDate } from './inputs';
export { AgentJob } from './schemas';
export { PreviewDeployment } from './previewSchemas';
export { SEARCH_MAX_PAGE_SIZE } from './searchSchemas';
export type { UpdateStatus } from './previewSchemas';
