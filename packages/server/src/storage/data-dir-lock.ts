import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded database (PGlite) belongs to one process: a second process opening the same
 * directory would read and write the same files without any coordination, and what it writes is
 * lost or corrupts the first one's view (keys printed by `paygate merchant create` beside a running
 * `paygate start` never worked). A lock file in the data dir, created atomically, names the
 * process that holds it; a lock left by a process that died is taken over.
 */
export const LOCK_FILE = 'paygate.lock';

export interface LockOwner {
  pid: number;
  hostname: string;
  command: string;
  started_at: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another process: pid ${owner.pid} ` +
        `on ${owner.hostname} ("${owner.command}", started ${owner.started_at}). ` +
        'Stop that process first, use its operator API (X-Admin-Token, e.g. POST /admin/v1/merchants), ' +
        'or give this process another PAYGATE_DATA_DIR.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/** Locks held by this process: a second open in the same process is refused like another process's. */
const heldHere = new Set<string>();

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number') return null;
    return {
      pid: owner.pid,
      hostname: String(owner.hostname ?? 'unknown host'),
      command: String(owner.command ?? 'unknown command'),
      started_at: String(owner.started_at ?? 'unknown'),
    };
  } catch {
    // Unreadable (a damaged file; locks are never half-written): nobody can be named as owner.
    return null;
  }
}

/** Whether the process that wrote `owner` still runs. Another host's process cannot be checked: assumed alive. */
function isAlive(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return true;
  // Our own pid in a lock we do not hold is a leftover of an earlier life (a container restarts as pid 1).
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * Creates `path` with `contents` only if it does not exist. The contents are written to a private
 * file first and linked into place (link fails atomically when the name exists), so a reader
 * never sees a half-written lock.
 */
function createExclusive(path: string, contents: string): boolean {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents, { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return false;
    throw error;
  } finally {
    removeIfPresent(temporary);
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
}

/**
 * Removes a lock whose owner died. Two processes may find the same stale lock at once: the
 * removal happens under a second, short-lived lock file, and only after reading the lock again,
 * so one of them removes it and the other then meets the winner's fresh lock.
 */
function takeOverStale(path: string, stale: LockOwner | null, me: string): void {
  const guard = `${path}.takeover`;
  if (!createExclusive(guard, me)) {
    const guardOwner = readOwner(guard);
    if (guardOwner === null || isAlive(guardOwner)) return;
    removeIfPresent(guard);
    return;
  }
  try {
    const now = readOwner(path);
    const unchanged = now === null ? stale === null : stale !== null && now.pid === stale.pid;
    if (unchanged) removeIfPresent(path);
  } finally {
    removeIfPresent(guard);
  }
}

/** Takes the data dir's lock or throws DataDirInUseError naming the process that holds it. */
export function lockDataDir(dataDir: string, command = process.argv.slice(1).join(' ')): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    command: command || 'node',
    // When this process started (not a business time: no clock involved).
    started_at: new Date(performance.timeOrigin).toISOString(),
  };
  const contents = `${JSON.stringify(owner)}\n`;
  if (heldHere.has(path)) throw new DataDirInUseError(dataDir, owner);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(path, contents)) {
      heldHere.add(path);
      return {
        release() {
          if (!heldHere.delete(path)) return;
          // Remove only our own lock: after a takeover by mistake it may be another's.
          if (readOwner(path)?.pid === process.pid) removeIfPresent(path);
        },
      };
    }
    const current = readOwner(path);
    if (current !== null && isAlive(current)) throw new DataDirInUseError(dataDir, current);
    takeOverStale(path, current, contents);
  }
  throw new Error(`could not take the lock ${path}: it keeps changing hands; is another process starting?`);
}
