import { API } from '../../../../contract/api/paths.js';
import { useTestimonialRenderMutation } from './start-render';

/** POST /api/testimonials/{id}/merge { language }: every answer in order, each after its question card, as one video. */
export const useMergeMutation = () => useTestimonialRenderMutation(API.studio.merge);
