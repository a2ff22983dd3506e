import { API } from '../../../../contract/api/paths.js';
import { useTestimonialRenderMutation } from './start-render';

/** POST /api/testimonials/{id}/regenerate-merged { language }: the merged video again, with the current settings. */
export const useRegenerateMergedMutation = () => useTestimonialRenderMutation(API.studio.regenerateMerged);
