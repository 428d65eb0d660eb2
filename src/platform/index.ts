export * from './access-token.js';
export * from './client.js';
export * from './errors.js';
export * from './pagination.js';
export * from './question-pacing.js';
export * from './retry.js';
export * from './schemas.js';
export * from './transport.js';
