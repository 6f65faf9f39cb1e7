// Every client installs as its README says, until the packages are published (issue 34): the README's
// three commands run exactly as written, the build in this checkout (the artifact lands in
// dist/clients/), the install in a new empty folder with PAYGATE set to the checkout, and the run of
// the README's quick start (which is examples/quickstart.*, byte for byte) against a live service.
// The commands are the README's ```sh blocks marked `<!-- doc-test: skip, covered by
// clients/conformance/installable.test.ts -->`, in order: build, install, run.
//
// A missing toolchain (the client's conformance/build exits 127) fails the run with CI set and is
// reported as skipped without.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildDriver } from './driver-process.ts';
import {
  readmeBlockEqualToFile,
  repoFile,
  repositoryRoot,
  runProcess,
  type Service,
  startService,
} from './example-support.ts';

const MARKER = '<!-- doc-test: skip, covered by clients/conformance/installable.test.ts -->';

interface InstallCase {
  client: string;
  readme: string;
  language: string;
  quickstart: string;
  /** The quick start's file name in the merchant's project (as the README's run command names it). */
  saveAs: string;
  /** What the build must have produced, relative to the checkout. */
  artifacts: string[];
  /** Checks of the installed project beyond the quick start running. */
  installed?: (project: string) => Promise<void>;
}

const cases: InstallCase[] = [
  {
    client: 'packages/client-node',
    readme: 'packages/client-node/README.md',
    language: 'js',
    quickstart: 'packages/client-node/examples/quickstart.mjs',
    saveAs: 'quickstart.mjs',
    artifacts: ['dist/clients/paygate-node-1.0.0.tgz'],
    installed: async (project) => {
      assert.ok(
        existsSync(join(project, 'node_modules/@paygate/node/dist/index.d.ts')),
        'the types are installed',
      );
    },
  },
  {
    client: 'clients/python',
    readme: 'clients/python/README.md',
    language: 'python',
    quickstart: 'clients/python/examples/quickstart.py',
    saveAs: 'quickstart.py',
    artifacts: ['dist/clients/paygate-1.0.0-py3-none-any.whl', 'dist/clients/paygate-1.0.0.tar.gz'],
    installed: async (project) => {
      // The venv's own copy, not the checkout's sources: the wheel really was installed.
      const where = await runProcess(
        join(project, '.venv/bin/python'),
        ['-c', 'import paygate; print(paygate.__file__)'],
        {
          cwd: project,
        },
      );
      assert.equal(where.status, 0, where.output);
      assert.ok(where.output.startsWith(join(project, '.venv')), where.output);
    },
  },
  {
    client: 'clients/php',
    readme: 'clients/php/README.md',
    language: 'php',
    quickstart: 'clients/php/examples/quickstart.php',
    saveAs: 'quickstart.php',
    artifacts: ['dist/clients/php/paygate-paygate-php-1.0.0.zip'],
    installed: async (project) => {
      assert.ok(
        existsSync(join(project, 'vendor/paygate/paygate-php/src/PaygateClient.php')),
        'extracted from the zip',
      );
      assert.ok(!existsSync(join(project, 'vendor/paygate/paygate-php/tests')), 'the tests are not packaged');
    },
  },
  {
    client: 'clients/java',
    readme: 'clients/java/README.md',
    language: 'java',
    quickstart: 'clients/java/examples/Quickstart.java',
    saveAs: 'Quickstart.java',
    artifacts: ['dist/clients/paygate-java-1.0.0.jar'],
    installed: async (project) => {
      const listing = await runProcess('jar', ['tf', 'lib/paygate-java-1.0.0.jar'], { cwd: project });
      assert.equal(listing.status, 0, listing.output);
      assert.match(
        listing.output,
        /^META-INF\/maven\/dev\.paygate\/paygate-java\/pom\.xml$/m,
        'the pom is in the jar',
      );
    },
  },
];

/** The README's marked ```sh blocks, in order. */
function markedCommands(readme: string): string[] {
  const text = repoFile(readme);
  const blocks: string[] = [];
  let at = text.indexOf(MARKER);
  while (at !== -1) {
    const match = /^\n```sh\n([\s\S]*?)^```$/m.exec(text.slice(at + MARKER.length));
    assert.ok(match && match.index === 0, `${readme}: the marker is followed by a \`\`\`sh block`);
    blocks.push(match[1] ?? '');
    at = text.indexOf(MARKER, at + MARKER.length);
  }
  return blocks;
}

async function sh(script: string, cwd: string, env: Record<string, string>): Promise<string> {
  const result = await runProcess('bash', ['-euo', 'pipefail', '-c', script], { cwd, env });
  assert.equal(result.status, 0, `in ${cwd}:\n${script}\nexited ${result.status}:\n${result.output}`);
  return result.output;
}

let service: Service | null = null;
after(async () => {
  await service?.stop();
});

for (const c of cases) {
  describe(`${c.client} installs from its README`, () => {
    const project = mkdtempSync(join(tmpdir(), 'paygate-install-'));
    let unavailable: string | null = null;

    before(() => {
      const build = buildDriver(join(repositoryRoot, c.client, 'conformance/driver'));
      if (!build.ok) {
        if (!build.toolchainMissing || process.env.CI)
          throw new Error(`${c.client}: conformance/build failed:\n${build.output}`);
        unavailable = `toolchain missing for ${c.client} (set CI to make this fatal):\n${build.output}`;
      }
    });
    after(() => rmSync(project, { recursive: true, force: true }));

    it('builds the artifact, installs it into a new project and runs the quick start against a live service', async (t) => {
      const commands = markedCommands(c.readme);
      assert.equal(commands.length, 3, `${c.readme} marks three commands (build, install, run)`);
      const [build, install, run] = commands as [string, string, string];
      const quickstart = readmeBlockEqualToFile(c.readme, c.language, c.quickstart);
      if (unavailable !== null) return t.skip(unavailable);

      for (const artifact of c.artifacts) rmSync(join(repositoryRoot, artifact), { force: true });
      await sh(build, repositoryRoot, {});
      for (const artifact of c.artifacts)
        assert.ok(existsSync(join(repositoryRoot, artifact)), `the build wrote ${artifact}`);

      await sh(install, project, { PAYGATE: repositoryRoot });
      await c.installed?.(project);

      writeFileSync(join(project, c.saveAs), quickstart);
      service ??= await startService();
      const output = await sh(run, project, {
        PAYGATE_URL: service.env.PAYGATE_BASE_URL,
        PAYGATE_SECRET_KEY: service.env.PAYGATE_API_KEY,
      });
      const paid = /^payment (pi_\w+) SUCCEEDED 1999 USD$/m.exec(output);
      assert.ok(paid, `the payment succeeded:\n${output}`);
      assert.match(output, /^refund re_\w+ (SUCCEEDED|PENDING) 500$/m, 'the refund was accepted');
      // The charge and the refund, both recorded.
      assert.match(output, new RegExp(`^transactions of ${paid[1]}: 2$`, 'm'), 'two transactions');
    });
  });
}
