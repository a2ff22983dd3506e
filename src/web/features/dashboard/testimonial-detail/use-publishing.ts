import { useState } from 'react';
import type { TCreatePublicationBody } from '../../../../contract/api/publications.schema.js';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import type { TRequestApprovalBody } from '../../../../contract/api/consent.schema.js';
import { useAuth } from '../../../lib/auth-context';
import { useCreatePublicationMutation } from '../api/create-publication';
import { useDeletePublicationMutation } from '../api/delete-publication';
import { useTestimonialJobs } from '../api/list-jobs';
import { usePublications } from '../api/list-publications';
import { useRequestApprovalMutation } from '../api/request-approval';
import { approvalGate, approvalOf } from './customer-control';
import { publicationOf, renderJobOf } from './publishing';
import type { PublishItem, TPublishTarget } from './publishing';

/** The render behind a video could not be found (its job is not in the list): it cannot be named to publish. */
export class UnknownRenderError extends Error {
  constructor() {
    super('The render of this video is not known.');
  }
}

/**
 * Publishing on the detail screen (issue 19): which of its videos are published (the publications
 * of the testimonial, matched to the videos through their jobs), the dialog open on one of them, and
 * the calls. Opening an unpublished video publishes it at once (one click gives the page, the embed
 * and the link); opening a published one shows them.
 */
export function usePublishing(testimonial: TTestimonialRequest | null) {
  const testimonialId = testimonial?.id ?? '';
  // An unpaid testimonial shows no video, so has nothing to publish.
  const enabled = Boolean(testimonial?.paid && testimonial.testimonial_responses.length > 0);
  const publications = usePublications(testimonialId, enabled);
  const jobs = useTestimonialJobs(testimonialId, enabled);
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const create = useCreatePublicationMutation();
  const ask = useRequestApprovalMutation();
  const [asking, setAsking] = useState<PublishItem | null>(null);
  const [askFailure, setAskFailure] = useState<unknown>(null);
  const [askResolving, setAskResolving] = useState(false);
  const control = testimonial?.customer_control;
  const remove = useDeletePublicationMutation();
  const [open, setOpen] = useState<{ item: PublishItem; publicationId: string | null } | null>(null);
  const [resolving, setResolving] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  const list = publications.data?.publications ?? [];
  const jobList = jobs.data?.jobs ?? [];
  const find = (target: TPublishTarget) => publicationOf(list, jobList, target);

  const bodyOf = async (target: TPublishTarget): Promise<TCreatePublicationBody> => {
    if (target.kind === 'response') return { testimonialId, responseId: target.responseId };
    // The list may not know a render that just ended: read it again before giving up.
    const job = renderJobOf(jobList, target.url) ?? renderJobOf((await jobs.refetch()).data?.jobs ?? [], target.url);
    if (!job) throw new UnknownRenderError();
    return { testimonialId, jobId: job.id };
  };

  const publish = async (item: PublishItem) => {
    setFailure(null);
    setResolving(true);
    try {
      const body = await bodyOf(item.target);
      setResolving(false);
      const created = await create.mutateAsync(body);
      setOpen((current) => (current?.item === item ? { item, publicationId: created.id } : current));
    } catch (error) {
      console.warn('POST /api/publications failed.', error);
      setFailure(error);
    } finally {
      setResolving(false);
    }
  };

  /** Asks the customer to approve the video of `asking` (by its answer or the job that made it). */
  const confirmAsk = async (onDone: () => void) => {
    if (!asking) return;
    setAskFailure(null);
    setAskResolving(true);
    try {
      const named = await bodyOf(asking.target);
      const body: TRequestApprovalBody = named.jobId ? { jobId: named.jobId } : { responseId: named.responseId };
      setAskResolving(false);
      await ask.mutateAsync({ companyId, testimonialId, body });
      setAsking(null);
      onDone();
    } catch (error) {
      console.warn('POST /api/testimonials/{id}/approvals failed.', error);
      setAskFailure(error);
    } finally {
      setAskResolving(false);
    }
  };

  const current = open ? (open.publicationId ? (list.find((p) => p.id === open.publicationId) ?? null) : find(open.item.target)) : null;

  return {
    /** Whether publishing is offered at all (a paid testimonial with answers). */
    enabled,
    /** Both lists have been read (or failed): until then a video's state is unknown, and Publish waits. */
    ready: !publications.isPending && !jobs.isPending,
    isPublished: (target: TPublishTarget) => find(target) !== null,
    /** Opens the dialog of a video, publishing it first when it is not published yet. */
    open: (item: PublishItem) => {
      const existing = find(item.target);
      remove.reset();
      setOpen({ item, publicationId: existing?.id ?? null });
      if (!existing) void publish(item);
    },
    close: () => {
      setOpen(null);
      setFailure(null);
    },
    /** The dialog's video, its publication once there, and the state of the calls. */
    item: open?.item ?? null,
    publication: current,
    publishing: resolving || create.isPending,
    failure,
    retry: () => open && void publish(open.item),
    unpublish: (onDone: () => void) => {
      if (!current) return;
      remove.mutate(current.id, {
        onSuccess: () => {
          setOpen(null);
          onDone();
        },
        onError: (error) => console.warn('DELETE /api/publications/{id} failed.', error),
      });
    },
    unpublishing: remove.isPending,
    unpublishError: remove.error,
    /** What stands before Publish when the customer must approve the video first (issue 29); null: nothing. */
    gate: (target: TPublishTarget) => approvalGate(control, approvalOf(control?.approvals ?? [], jobList, target)),
    /** Opens the "ask for approval" dialog for a video (from its card, or from a refused Publish). */
    askApproval: (item: PublishItem) => {
      ask.reset();
      setAskFailure(null);
      setOpen(null);
      setFailure(null);
      setAsking(item);
    },
    asking,
    closeAsk: () => setAsking(null),
    confirmAsk: (onDone: () => void) => void confirmAsk(onDone),
    askPending: askResolving || ask.isPending,
    askFailure,
  };
}

export type TPublishing = ReturnType<typeof usePublishing>;
