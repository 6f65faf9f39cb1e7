export { type WaitForOptions, waitFor } from './wait-for.ts';
