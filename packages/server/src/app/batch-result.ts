/** What one run of a batch job did: how many items it claimed, and what an operator should see. */
export interface BatchResult {
  /** How many items were claimed and looked at. */
  handled: number;
  /** Things an operator should see (the worker logs them). */
  warnings: string[];
}
