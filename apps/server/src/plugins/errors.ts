import { CODE, messageFor } from '@kaipiao/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';

/**
 * One place turns failures into the envelope: handled ones are HTTP 200 with a non-zero code;
 * unknown paths and crashes stay HTTP errors with nothing internal leaked (spec §8, architecture §3).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, rawReply) => {
    // error envelopes bypass the route's success schema
    const reply = rawReply.type('application/json; charset=utf-8').serializer(JSON.stringify);
    if (err instanceof AppError) {
      return reply.status(200).send({ code: err.code, message: err.message, data: err.data });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => ({
        field: String(v.instancePath || '')
          .replace(/^\//, '')
          .replace(/\//g, '.'),
        message: v.message ?? messageFor(CODE.VALIDATION),
      }));
      return reply.status(200).send({
        code: CODE.VALIDATION,
        message: errors[0]?.message ?? messageFor(CODE.VALIDATION),
        data: { errors },
      });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    if (status === 429) {
      return reply
        .status(200)
        .send({ code: CODE.RATE_LIMITED, message: messageFor(CODE.RATE_LIMITED), data: null });
    }
    if (status < 500 && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply
        .status(200)
        .send({ code: CODE.VALIDATION, message: messageFor(CODE.VALIDATION), data: null });
    }
    return reply
      .status(status)
      .send({ code: status, message: status >= 500 ? messageFor(CODE.INTERNAL) : err.message, data: null });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 404, message: `${req.method} ${req.url} 不存在`, data: null });
  });
});
