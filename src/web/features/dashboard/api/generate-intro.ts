import { API } from '../../../../contract/api/paths.js';
import { useResponseRenderMutation } from './start-render';

/** POST /api/testimonials/response/{id}/generate-modified/intro { language }: the question card, in the company style, before the answer. */
export const useGenerateIntroMutation = () => useResponseRenderMutation(API.studio.generateIntro);
