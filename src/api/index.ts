export * from './baseUrl';
export * from './client';
export * from './errors';
export * from './inputs';
export * from './schemas';
