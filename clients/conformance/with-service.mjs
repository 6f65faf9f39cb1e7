#!/usr/bin/env node
// Runs a command against the real Paygate service of this repository:
//
//   node clients/conformance/with-service.mjs -- <command> [args...]
//
// Starts the service from source on the embedded database in a fresh temporary data dir, on free
// loopback ports (API and simulated gateway), waits until /readyz answers, creates a merchant
// through the operator API, then runs the command (in the caller's working directory) with
//   PAYGATE_BASE_URL, PAYGATE_API_KEY (sk_test_), PAYGATE_PUBLISHABLE_KEY (pk_test_),
//   PAYGATE_ADMIN_TOKEN, PAYGATE_MERCHANT_ID
// set, stops the service, removes the data dir and exits with the command's exit status.
// The service's log is printed to stderr when it fails to start, or always with
// PAYGATE_WITH_SERVICE_LOG=1. Used by every reference client's integration tests
// (clients/<lang>/run-tests); it needs nothing but Node and this repository's node_modules.
import { spawn } from 'node:child_process';
import { startRealService } from './real-service.mjs';

const separator = process.argv.indexOf('--');
const commandLine = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
if (commandLine.length === 0) {
  process.stderr.write('usage: node clients/conformance/with-service.mjs -- <command> [args...]\n');
  process.exit(2);
}

let stopService = async () => {};
let command = null;
let finishing = false;
let finished = null;

/** Stops the service once, however many paths (command exit, signal, error) arrive here. */
function finish(status) {
  finishing = true;
  finished ??= stopService().then(() => process.exit(status));
  return finished;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Let the command end first (it may be mid-request), then stop the service; a second signal
    // while stopping is ignored so the data dir is still removed.
    if (finishing) return;
    finishing = true;
    if (command && command.exitCode === null) command.kill(signal);
    else finish(signal === 'SIGINT' ? 130 : 143);
  });
}

function runCommand(env) {
  return new Promise((resolveStatus) => {
    command = spawn(commandLine[0], commandLine.slice(1), { stdio: 'inherit', env });
    command.once('error', (error) => {
      process.stderr.write(`with-service: cannot run ${commandLine[0]}: ${error.message}\n`);
      resolveStatus(127);
    });
    command.once('exit', (code, signal) => {
      resolveStatus(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15));
    });
  });
}

try {
  const service = await startRealService({
    shouldGiveUp: () => finishing,
    onLaunch: (stop) => {
      stopService = stop;
    },
  });
  if (finishing) await finish(130);
  await finish(await runCommand({ ...process.env, ...service.env }));
} catch (error) {
  process.stderr.write(`with-service: ${error instanceof Error ? error.message : String(error)}\n`);
  await finish(1);
}
