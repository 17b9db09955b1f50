/**
 * The page and its bundled assets. One HTML page for every view (the browser routes by `#/…`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Assets } from '../assets.ts';
import { DashboardError } from '../errors.ts';

export const pageRoutes: FastifyPluginAsync<{ readonly assets: Assets }> = async (fastify, { assets }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(assets.html));
  app.get('/assets/:name', { schema: { params: Type.Object({ name: Type.String({ maxLength: 100 }) }) } }, (req, reply) => {
    const asset = assets.files.get(req.params.name);
    if (asset === undefined) throw new DashboardError('NOT_FOUND', req.url);
    // The name carries a content hash: a new build has a new name.
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.contentType).send(asset.body);
  });
  await Promise.resolve();
};
