import { API } from '../../../../contract/api/paths.js';
import { useResponseRenderMutation } from './start-render';

/** POST /api/testimonials/response/{id}/regenerate { language }: the answer's enhanced version again, with the current settings. */
export const useRegenerateMutation = () => useResponseRenderMutation(API.studio.regenerate);
