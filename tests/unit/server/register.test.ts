// The registrar answers a handler's thrown UserError as the spec's failure envelope: its message
// as the user reads it, the field it names, HTTP 403 for a refused data scope; any other error
// stays a defect (HTTP 500 by Fastify's default handler, never its text as a message).
import Fastify from 'fastify';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defineCall } from '../../../contract/api/define.ts';
import { UserError } from '../../../server/errors.ts';
import { indexHandlers, registerCalls } from '../../../server/routes/register.ts';

const calls = {
  refused: defineCall({ name: 'test.refused', method: 'POST', path: '/api/test/refused', summary: 'refused', response: Type.Null(), loginExempt: true }),
  denied: defineCall({ name: 'test.denied', method: 'GET', path: '/api/test/denied', summary: 'denied', response: Type.Null(), loginExempt: true }),
  broken: defineCall({ name: 'test.broken', method: 'GET', path: '/api/test/broken', summary: 'broken', response: Type.Null(), loginExempt: true }),
};

async function app() {
  const fastify = Fastify({ logger: false });
  fastify.setValidatorCompiler(TypeBoxValidatorCompiler);
  registerCalls(fastify, calls, indexHandlers(calls, {
    refused: async () => { throw new UserError('名称已存在', 'conflict', { field: 'subjectTypeName' }); },
    denied: async () => { throw UserError.denied(); },
    broken: async () => { throw new Error('数据库连接断开'); },
  }));
  await fastify.ready();
  return fastify;
}

describe('registerCalls and UserError', () => {
  it('answers a UserError as a failure envelope with its message and field', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/api/test/refused' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, message: '名称已存在', data: null, field: 'subjectTypeName' });
  });

  it('answers a refused data scope with HTTP 403 and the spec message', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/test/denied' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 0, message: 'Permission denied', data: null });
  });

  it('leaves any other error to the error handler, so its text never reaches the user as a message', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/test/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('{"code":0,"message":"数据库连接断开"');
  });
});
