import { CODE, hiddenCharMessage, messageFor, withFieldName } from '@kaipiao/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { loggableError, PG_BAD_TEXT_CODES, pgErrorOf } from '../lib/db-error.ts';
import { recordTextGaps } from '../lib/text-coverage.ts';

/** The Chinese of Fastify's refusals of a request body (its content-type parser's errors). */
const BODY_REFUSALS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: messageFor(CODE.VALIDATION),
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '提交的内容过大',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容格式',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容的长度不正确',
};

/**
 * One place turns failures into the envelope: handled ones are HTTP 200 with a non-zero code;
 * unknown paths and crashes stay HTTP errors with nothing internal leaked (spec §8, architecture §3).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // request strings that bypass the shared text() type, for the route-table test
  app.addHook('onRoute', (route) => recordTextGaps(app, route));

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
      // the answer's message names its field in Chinese (门店名称：…) where the schema's own words
      // do not; each error keeps its words, the form shows it at its field
      const first = errors[0];
      const part = err.validationContext ?? 'body';
      const schema = (req.routeOptions.schema as Record<string, unknown> | undefined)?.[part];
      const path = first?.field ? first.field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)) : [];
      return reply.status(200).send({
        code: CODE.VALIDATION,
        message: first ? withFieldName(first.message, path, schema) : messageFor(CODE.VALIDATION),
        data: { errors },
      });
    }
    // should a path bypass the schemas (an import, a header), text PostgreSQL cannot store is
    // still a bad request, never a 500
    const pg = pgErrorOf(err);
    if (pg && PG_BAD_TEXT_CODES.has(pg.code)) {
      req.log.warn({ err: loggableError(err) }, 'text refused by PostgreSQL');
      return reply.status(200).send({
        code: CODE.VALIDATION,
        message: hiddenCharMessage('输入内容'),
        data: null,
      });
    }
    const status = err.statusCode ?? 500;
    // never the SQL, its parameters or row values (drizzle puts them in the message)
    if (status >= 500) req.log.error({ err: loggableError(err) }, 'request failed');
    if (status === 429) {
      return reply
        .status(200)
        .send({ code: CODE.RATE_LIMITED, message: messageFor(CODE.RATE_LIMITED), data: null });
    }
    // Fastify's own refusals of a body (truncated JSON, an empty one, too large, an unknown type)
    // are bad input like any other: 10001 in Chinese, not its English 400/413/415
    const refusal = status < 500 ? BODY_REFUSALS[err.code] : undefined;
    if (refusal) return reply.status(200).send({ code: CODE.VALIDATION, message: refusal, data: null });
    return reply
      .status(status)
      .send({ code: status, message: status >= 500 ? messageFor(CODE.INTERNAL) : err.message, data: null });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 404, message: `${req.method} ${req.url} 不存在`, data: null });
  });
});
