import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * The JSON text of an answer, encoded through its response schema exactly as the routes' serializer
 * does (fastify-type-provider-zod): for answers built from cached rows, whose text is kept with them
 * and sent as it is while it stays true.
 */
export function jsonText<S extends z.ZodType>(schema: S, value: z.input<S>): string {
  return JSON.stringify(z.encode(schema, value as z.output<S>));
}

/** Sends JSON text made by `jsonText`; Fastify sends a string with a JSON type without serializing it again. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
