export * from './baseUrl';
export * from './client';
export * from './errors';
export * from './inputs';
export * from './schemas';
export * from './signalsApi';
export * from './signalsSchemas';
