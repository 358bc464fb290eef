// Route schemas compiled on first use (server/plugins/schema-compilers.ts) still validate and still
// decide which fields a response carries, exactly as compiled at start-up.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { lazySerializerFactory, lazyValidatorCompiler } from '../../../server/plugins/schema-compilers.ts';

function app() {
  const fastify = Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } });
  fastify.setValidatorCompiler(lazyValidatorCompiler);
  const Shared = Type.Object({ name: Type.String() });
  for (const url of ['/a', '/b']) {
    fastify.get(url, {
      schema: { querystring: Type.Object({ page: Type.Optional(Type.Integer()) }), response: { 200: Shared } },
      handler: async () => ({ name: url, secret: 'not in the schema' }),
    });
  }
  return fastify;
}

describe('schemas compiled on first use', () => {
  it('serialise only the fields of the response schema, for every route sharing it', async () => {
    const fastify = app();
    for (const url of ['/a', '/b', '/a']) {
      const reply = await fastify.inject({ method: 'GET', url });
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toEqual({ name: url });
    }
    await fastify.close();
  });

  it('validate requests, coercing the query as TypeBox does', async () => {
    const fastify = app();
    expect((await fastify.inject({ method: 'GET', url: '/a?page=2' })).statusCode).toBe(200);
    expect((await fastify.inject({ method: 'GET', url: '/a?page=two' })).statusCode).toBe(400);
    // Beyond the database integer (plugins/input-bounds.ts), still refused.
    expect((await fastify.inject({ method: 'GET', url: '/a?page=99999999999999999999' })).statusCode).toBe(400);
    await fastify.close();
  });
});
