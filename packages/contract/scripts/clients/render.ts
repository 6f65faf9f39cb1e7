// Every generated file of the four clients, by path from the repository's root.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { JAVA_EVENT_TYPES_FILE, javaFile, renderJava, renderJavaEventTypes } from './java.ts';
import { clientClasses, clientEvents } from './model.ts';
import { PHP_EVENT_TYPES_FILE, phpFile, renderPhp, renderPhpEventTypes } from './php.ts';
import { PYTHON_FILE, renderPython } from './python.ts';
import { renderTypeScript, TYPESCRIPT_FILE } from './typescript.ts';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The TypeScript as the repository's formatter writes it, so that `npm run lint` accepts it as generated. */
function formatted(path: string, source: string): string {
  const biome = spawnSync('npx', ['biome', 'format', `--stdin-file-path=${path}`], {
    cwd: REPOSITORY_ROOT,
    input: source,
    encoding: 'utf8',
  });
  if (biome.status !== 0) throw new Error(`biome format ${path}: ${biome.stderr}`);
  return biome.stdout;
}

export function renderClients(): Map<string, string> {
  const classes = clientClasses();
  const events = clientEvents();
  const files = new Map<string, string>();
  files.set(TYPESCRIPT_FILE, formatted(TYPESCRIPT_FILE, renderTypeScript(classes, events)));
  files.set(PYTHON_FILE, renderPython(classes, events));
  files.set(JAVA_EVENT_TYPES_FILE, renderJavaEventTypes(events));
  files.set(PHP_EVENT_TYPES_FILE, renderPhpEventTypes(events));
  for (const model of classes) {
    files.set(phpFile(model), renderPhp(model));
    files.set(javaFile(model), renderJava(model));
  }
  return files;
}
