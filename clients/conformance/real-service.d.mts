// Types of real-service.mjs (a plain ES module so that with-service.mjs runs without a loader).
export interface RealServiceEnv {
  PAYGATE_BASE_URL: string;
  PAYGATE_API_KEY: string;
  PAYGATE_PUBLISHABLE_KEY: string;
  PAYGATE_ADMIN_TOKEN: string;
  PAYGATE_MERCHANT_ID: string;
}

export function freePort(): Promise<number>;

export function startRealService(options?: {
  shouldGiveUp?: () => boolean;
  onLaunch?: (stop: () => Promise<void>) => void;
}): Promise<{ env: RealServiceEnv; stop: () => Promise<void> }>;
