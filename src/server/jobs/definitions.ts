import { z } from 'zod';
import { defineJob } from './queue.js';

/** Every job of the product: name, payload (checked when sent and when run) and retry policy. */

export const sendMailJob = defineJob({
  name: 'send-mail',
  schema: z.object({
    to: z.string().min(3),
    subject: z.string().min(1),
    html: z.string(),
    text: z.string(),
    replyTo: z.string().optional(),
  }),
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  concurrency: 2,
});

export const ALL_JOB_DEFINITIONS = [sendMailJob];
