export * from './baseUrl';
export * from './client';
export * from './endpoints';
export * from './errors';
export * from './inputs';
export * from './schemas';
export * from './signalsSchemas';
export * from './previewSchemas';
