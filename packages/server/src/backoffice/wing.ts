// The back office in one wing: the merchant dashboard (dashboard/, one folder per screen: its page,
// its routes, its forms and confirmations) and the operator console (operator/), on the use cases
// of app/ and the shared kit (kit/: layout, forms, styles, the session plugins). The composition
// root (service.ts) hands it to http/app.ts, which keeps the API and never imports this folder.
import type { AppContext } from '../app/context.ts';
import type { BackOfficeWing } from '../http/app.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { dashboardAuth } from './kit/dashboard-auth.ts';
import { operatorAuth } from './kit/operator-auth.ts';
import { operatorConsoleRoutes } from './operator/console.ts';

export function backOfficeWing(ctx: AppContext): BackOfficeWing {
  return {
    async authentication(app) {
      await app.register(dashboardAuth, { ctx });
      await app.register(operatorAuth, { ctx });
    },
    async routes(app, { retrySender }) {
      await app.register(operatorConsoleRoutes, { ctx });
      await app.register(dashboardRoutes, { ctx, retrySender });
    },
  };
}
