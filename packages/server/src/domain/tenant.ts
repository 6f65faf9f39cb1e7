/** Every merchant resource lives in one merchant's test or live data; nothing crosses the pair. */
export interface TenantScope {
  merchantId: string;
  livemode: boolean;
}
