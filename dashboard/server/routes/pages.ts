/**
 * The page and its bundled assets. One HTML page for every view (the browser routes by `#/…`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Assets, CompressedFile } from '../assets.ts';
import { pickEncoding } from '../encoding.ts';
import { DashboardError } from '../errors.ts';

/** The body in the best encoding the request accepts (precompressed at start-up: nothing is compressed here). */
function sendEncoded(req: FastifyRequest, reply: FastifyReply, file: CompressedFile): FastifyReply {
  const encoding = pickEncoding(req.headers['accept-encoding']);
  // Caches must keep one copy per encoding.
  reply.header('vary', 'accept-encoding').type(file.contentType);
  if (encoding === 'identity') return reply.send(file.body);
  return reply.header('content-encoding', encoding).send(encoding === 'br' ? file.br : file.gzip);
}

export const pageRoutes: FastifyPluginAsync<{ readonly assets: Assets }> = async (fastify, { assets }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/', (req, reply) => sendEncoded(req, reply.header('cache-control', 'no-cache'), assets.page));
  app.get('/assets/:name', { schema: { params: Type.Object({ name: Type.String({ maxLength: 100 }) }) } }, (req, reply) => {
    const asset = assets.files.get(req.params.name);
    if (asset === undefined) throw new DashboardError('NOT_FOUND', req.url);
    // The name carries a content hash: a new build has a new name.
    return sendEncoded(req, reply.header('cache-control', 'public, max-age=31536000, immutable'), asset);
  });
  await Promise.resolve();
};
