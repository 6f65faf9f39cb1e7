export * from './admin.ts';
export * from './common.ts';
export * from './errors.ts';
export * from './openapi.ts';
export * from './operations.ts';
export * from './payment-intent.ts';
export * from './problem.ts';
