export { decodeStripeForm, type SpecName, SpecValidator, type SpecViolation } from './spec-validator.ts';
