export {
  decodeStripeForm,
  type SpecName,
  SpecValidator,
  type SpecViolation,
  stripeFixture,
} from './spec-validator.ts';
