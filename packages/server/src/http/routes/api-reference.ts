import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A file served as is, read on first use (most processes never serve the reference). */
interface StaticFile {
  body: Buffer;
  etag: string;
  contentType: string;
}

function staticFile(specifier: string, contentType: string): () => StaticFile {
  let file: StaticFile | null = null;
  return () => {
    if (!file) {
      const body = readFileSync(new URL(import.meta.resolve(specifier)));
      file = {
        body,
        contentType,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      };
    }
    return file;
  };
}

const files = {
  openapi: staticFile('@paygate/contract/openapi.json', 'application/json; charset=utf-8'),
  // Swagger UI's own prebuilt bundle from npm, served from this origin: the page works offline
  // and behind a firewall, and loads nothing from a CDN.
  script: staticFile('swagger-ui-dist/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
  styles: staticFile('swagger-ui-dist/swagger-ui.css', 'text/css; charset=utf-8'),
  icon: staticFile('swagger-ui-dist/favicon-32x32.png', 'image/png'),
};

const REFERENCE_PATH = '/docs/api';

// No inline script, so the page's CSP can forbid them. The validator badge would call
// validator.swagger.io: off. "Try it out" is off too: the page is a reference, not a key holder.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  validatorUrl: null,
  supportedSubmitMethods: [],
  deepLinking: true,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paygate API reference</title>
<link rel="icon" type="image/png" href="${REFERENCE_PATH}/favicon.png">
<link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

// Swagger UI sets inline styles and draws icons from data: URLs; nothing leaves this origin.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  reply
    .header('content-type', file.contentType)
    .header('cache-control', 'public, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .header('etag', file.etag);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  return reply.send(file.body);
}

/**
 * The API description the contract package generates (the same file the clients are checked
 * against), at `GET /v1/openapi.json`, and a readable reference page over it at `/docs/api`.
 * Public, like the contract itself: no key needed.
 */
export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/openapi.json', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    return send(request, reply, files.openapi());
  });
  app.get(REFERENCE_PATH, async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .send(PAGE),
  );
  app.get(`${REFERENCE_PATH}/init.js`, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').send(INIT_SCRIPT),
  );
  app.get(`${REFERENCE_PATH}/swagger-ui-bundle.js`, async (request, reply) =>
    send(request, reply, files.script()),
  );
  app.get(`${REFERENCE_PATH}/swagger-ui.css`, async (request, reply) => send(request, reply, files.styles()));
  app.get(`${REFERENCE_PATH}/favicon.png`, async (request, reply) => send(request, reply, files.icon()));
}
