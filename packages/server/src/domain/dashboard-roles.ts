/** A back-office user's role within their merchant. */
export const dashboardRoles = ['owner', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof dashboardRoles)[number];

/**
 * What a dashboard route needs. `read` is anything that changes nothing; `operate` changes the
 * merchant's payments or integration (refunds, webhook endpoints); `administer` changes the team
 * or reads the audit log.
 */
export type DashboardAction = 'read' | 'operate' | 'administer';

const allowed: Record<DashboardRole, readonly DashboardAction[]> = {
  owner: ['read', 'operate', 'administer'],
  developer: ['read', 'operate'],
  viewer: ['read'],
};

export function roleAllows(role: DashboardRole, action: DashboardAction): boolean {
  return allowed[role].includes(action);
}

export function isDashboardRole(value: string): value is DashboardRole {
  return (dashboardRoles as readonly string[]).includes(value);
}
