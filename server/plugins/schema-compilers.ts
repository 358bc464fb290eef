// Route schemas compile when a route first needs them, not when the platform starts. Fastify
// compiles every route's request validators and response serializers while it boots: some 300
// calls, each with a body or query schema and three response envelopes, took most of a second of
// start-up before /api/health could answer, for routes a session may never call. Compiled on first
// use and kept, each schema still compiles once; a response schema shared by many routes (the
// failure envelope) compiles once for all of them.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { boundedValidatorCompiler } from './input-bounds.ts';

type Validate = ReturnType<FastifySchemaCompiler<TSchema>>;

/** The bounded TypeBox validator (plugins/input-bounds.ts), compiled on a route part's first request. */
export const lazyValidatorCompiler: FastifySchemaCompiler<TSchema> = (route) => {
  let validate: Validate | undefined;
  return (data) => (validate ??= boundedValidatorCompiler(route))(data);
};

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serialize = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify's own response serializer (fast-json-stringify: the schema decides which fields leave
 * the server), each schema compiled at its first response and shared by the routes that use it.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  const compiled = new WeakMap<object, Serialize>();
  return (route) => {
    let serialize: Serialize | undefined;
    return (payload) => {
      if (!serialize) {
        const key = route.schema;
        serialize = (typeof key === 'object' && key !== null && compiled.get(key)) || compile(route);
        if (typeof key === 'object' && key !== null) compiled.set(key, serialize);
      }
      return serialize(payload);
    };
  };
};
