import serverPackage from '../../package.json' with { type: 'json' };

/** The version of the service, as `paygate --version` prints it. */
export const PAYGATE_VERSION: string = serverPackage.version;

export interface CommandHelp {
  /** How the command is written, after `paygate`. */
  synopsis: string;
  summary: string;
  /** What `paygate <command> --help` adds to the summary. */
  details: string;
  /** The options the command takes (anything else starting with `-` is refused). */
  options?: readonly string[];
}

const CONFIGURATION =
  'Configuration comes from the environment (docs/operations.md, .env.example); `paygate config check` prints and checks it.';

/** One entry per command: the overview and each command's own --help are printed from here. */
export const COMMANDS: Record<string, CommandHelp> = {
  start: {
    synopsis: 'start [--processes <n>]',
    summary: 'start the service (API, operator API, checkout frame, workers, simulated gateway)',
    details: `Listens on PORT (default 8080); the simulated gateway listens on PAYGATE_SIM_PORT (default 8081).
To use other ports: PORT=9080 PAYGATE_SIM_PORT=9081 npm start
--processes <n>: n API processes on the one port, the webhook worker, the scheduled jobs and the
simulated gateway each in a process of their own (PostgreSQL only; Redis when n > 1 to share the
rate limits). See docs/operations.md.
Stops cleanly on SIGTERM or SIGINT (Ctrl-C).`,
    options: ['--processes', '--role'],
  },
  migrate: {
    synopsis: 'migrate',
    summary: 'apply pending database migrations and exit',
    details: 'Applies the SQL migrations not yet applied, each in its own transaction, and exits.',
  },
  worker: {
    synopsis: 'worker',
    summary: 'run only the webhook delivery worker (no HTTP); run several beside the API',
    details: `For PostgreSQL (PAYGATE_DATABASE_URL): the embedded database belongs to one process.
Tuning: PAYGATE_WEBHOOK_CONCURRENCY, PAYGATE_WEBHOOK_BATCH_SIZE, PAYGATE_WEBHOOK_POLL_MS,
PAYGATE_WEBHOOK_LEASE_SECONDS, PAYGATE_WEBHOOK_TIMEOUT_MS.`,
  },
  sim: {
    synopsis: 'sim',
    summary: 'run only the simulated gateway, shared by every process of a deployment',
    details: `Listens on PAYGATE_SIM_PORT and notifies PAYGATE_PUBLIC_URL; start the service processes
with PAYGATE_SIM_URL=<its address>, the same PAYGATE_MASTER_KEY, PAYGATE_ADMIN_TOKEN and
PAYGATE_DATABASE_URL. See docs/operations.md.`,
  },
  reconcile: {
    synopsis: 'reconcile [--from <instant>] [--to <instant>] [--dry-run] [--json]',
    summary: "compare charges and refunds with the gateway's books and repair what can be",
    details: `Default window: the last 24 hours. Exits 0 when both sides agree, 3 while differences remain.
--dry-run reports without repairing; --json prints the report as JSON.`,
    options: ['--from', '--to', '--dry-run', '--json'],
  },
  merchant: {
    synopsis: 'merchant create <name>',
    summary: 'create a merchant and print its four API keys (shown once)',
    details: `Prints {id, name, api_keys: {secret_test, publishable_test, secret_live, publishable_live}}.
With the embedded database, stop \`paygate start\` first, or create the merchant through the
operator API (POST /admin/v1/merchants) of the running service.`,
  },
  listen: {
    synopsis: 'listen --forward-to <url> [--api-key sk_test_...] [--base-url <url>]',
    summary: "forward the merchant's test-mode events, signed, to a local URL",
    details: `Prints a whsec_ secret made for this session; verify the forwarded deliveries with it.
The key (a secret TEST key) may come from PAYGATE_API_KEY, the service address from
PAYGATE_BASE_URL (default http://localhost:8080). See docs/webhooks.md.`,
    options: ['--forward-to', '--api-key', '--base-url'],
  },
  trigger: {
    synopsis: 'trigger <event type> [--api-key sk_test_...] [--base-url <url>]',
    summary: 'create test-mode objects through the API so that the event happens',
    details: `Types: payment_intent.succeeded, payment_intent.failed, payment_intent.requires_action,
payment_intent.canceled, refund.succeeded. Key and address as for listen.`,
    options: ['--api-key', '--base-url'],
  },
  dashboard: {
    synopsis: 'dashboard invite-owner <merchant id> <e-mail>',
    summary: "invite a merchant's first dashboard owner (prints the token once)",
    details: `Prints {email, role, expires_at, token, accept_url}. The owner opens accept_url, chooses a
password and signs in at /dashboard; owners invite everyone else (docs/dashboard.md). The operator
API does the same: POST /admin/v1/merchants/{id}/dashboard-invitations.`,
  },
  operator: {
    synopsis: 'operator create <e-mail>',
    summary: "add an operator who signs in to the operator's console at /operator",
    details: `The password is read from PAYGATE_OPERATOR_PASSWORD (12 to 256 characters), never from the
command line, where other users of the machine could read it. Prints {id, email}. See
docs/operations.md.`,
  },
  'rotate-master-key': {
    synopsis: 'rotate-master-key',
    summary: 're-seal every stored secret under the master key in PAYGATE_NEW_MASTER_KEY',
    details: `Webhook endpoint secrets, dashboard TOTP secrets and gateway credentials are re-sealed from
PAYGATE_MASTER_KEY (or the data dir's key) to PAYGATE_NEW_MASTER_KEY in one transaction; the new
key is read only from the environment. Stop the service first; then start every process with the
new key. API keys and the admin token are unaffected. See docs/operations.md.`,
  },
  config: {
    synopsis: 'config check [--json]',
    summary: 'print the effective configuration (secrets masked) and check it',
    details: `Prints every variable with its value and where it comes from (env, default, data dir), secrets
masked as ****<last 4 characters>. Exits 0 when the configuration is valid, 2 with every error
(the exit code of a start refused for its configuration). See docs/operations.md.`,
    options: ['--json'],
  },
  help: {
    synopsis: 'help [command]',
    summary: "show this text, or one command's help",
    details: 'Also: paygate --help, paygate <command> --help.',
  },
};

export function overview(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.synopsis.length)) + 2;
  const lines = Object.values(COMMANDS).map((c) => `  ${c.synopsis.padEnd(width)} ${c.summary}`);
  return `Usage: paygate <command> [--help]

Commands:
${lines.join('\n')}

Options:
  --help, -h   show help (of a command: paygate <command> --help)
  --version    print the version

${CONFIGURATION}
`;
}

export function commandHelp(name: string): string | null {
  const command = COMMANDS[name];
  if (!command) return null;
  return `Usage: paygate ${command.synopsis}

${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.
${command.details}

${CONFIGURATION}
`;
}
