// Builds the production service into packages/server/dist/ (about a second; `npm start` runs it
// first, so dist/ is never stale):
//   main.js (+ .map)         the service and the workspace packages it imports, as plain JavaScript
//                            (ES modules; a chunk per lazily loaded part); npm dependencies stay
//                            imports from node_modules
//   migrations/*.sql         read at run time by storage/migrate.ts, next to main.js
// Running compiled JavaScript instead of `node --import tsx` is what keeps the idle service small
// (see docs/operations.md).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = join(serverRoot, 'dist');

/** Writes through a temporary file and a rename, so a process starting meanwhile never reads half a file. */
function writeAtomically(path: string, contents: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/**
 * npm packages stay imports resolved from node_modules at run time (PGlite finds its .wasm next to
 * its own module, pino its worker files); our workspace packages (`@paygate/*`, TypeScript
 * sources) are compiled into the bundle.
 */
const dependenciesStayExternal: Plugin = {
  name: 'dependencies-stay-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@paygate/') ? undefined : { path: args.path, external: true },
    );
  },
};

const startedAt = performance.now();
const service = await build({
  entryPoints: [join(serverRoot, 'src/main.ts')],
  outdir: dist,
  bundle: true,
  // Modules behind a dynamic import() (the database driver not chosen) become chunks of their
  // own, loaded only when used. They sit beside main.js, so `import.meta.url` means the same
  // directory in every chunk (migrate.ts finds migrations/ through it).
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Not minified: names and layout stay readable in stack traces even without source maps.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  plugins: [dependenciesStayExternal],
  write: false,
  logLevel: 'warning',
});

const migrationsSource = join(serverRoot, 'src/storage/migrations');
const migrations = readdirSync(migrationsSource).filter((name) => name.endsWith('.sql'));
for (const name of migrations) {
  writeAtomically(join(dist, 'migrations', name), readFileSync(join(migrationsSource, name)));
}
// A migration of an older build that is gone from the sources must not be applied.
for (const name of readdirSync(join(dist, 'migrations'))) {
  if (!migrations.includes(name)) rmSync(join(dist, 'migrations', name), { force: true });
}
// The checkout's browser files are served from its own build output (packages/checkout/dist),
// which `npm run build` writes before this script runs; an older copy here is removed.
rmSync(join(dist, 'checkout'), { recursive: true, force: true });
for (const file of service.outputFiles) writeAtomically(file.path, file.contents);
// Chunks are named by content hash; those of older builds are removed.
const current = new Set(service.outputFiles.map((file) => file.path));
for (const name of readdirSync(dist)) {
  if (/\.js(\.map)?$/.test(name) && !current.has(join(dist, name))) rmSync(join(dist, name));
}

process.stderr.write(
  `built packages/server/dist/main.js in ${Math.round(performance.now() - startedAt)} ms\n`,
);
