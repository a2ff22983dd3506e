/**
 * Why the API refused a call (issue 16, translatable reasons): a stable `reason` key with its
 * parameters, beside the English message ({{name}} are the parameters). An error answer carries
 * `reason` and `params` next to its English `error`; the web shows its own translation
 * (`errors.reasons.<reason>`), so the customer's page speaks the request's language whatever the
 * server's text. A reason is more precise than the error `code`, which stays the spec's catalogue.
 *
 * Job failures have their own reasons (api/jobs.schema.ts, JOB_REASON_MESSAGES): those describe
 * work that failed later, these a call refused now.
 *
 * Add a key here, then its translation to en.json and fr.json (the web's typecheck and the
 * api-error-message test check both). No zod here: the customer's page imports this module.
 */

export const ERROR_REASON_MESSAGES = {
  /* ------------------------------------------------ the customer's link (public calls) */
  link_invalid: 'This testimonial link is not valid. Please check the link in your e-mail.',
  /** params: company; language ('en' | 'fr', the request's) */
  link_expired: 'This link has expired. Please ask {{company}} for a new one.',
  /** params: language ('en' | 'fr', the request's) */
  already_sent: 'This testimonial has already been recorded and sent. Thank you!',

  /* ------------------------------------------------ the customer's upload */
  multipart_expected: 'This call expects a multipart/form-data upload.',
  /** params: field */
  unexpected_file_field: "Unexpected file field '{{field}}'.",
  token_before_videos: "The link's token must come before the videos: send the 'token' field first, or the x-request-token header.",
  too_many_recordings: 'There are more recordings than questions in this request.',
  recording_unmatched: 'Each recording must belong to one question.',
  /** params: answer (1-based) */
  answer_missing: 'The recording of answer {{answer}} is missing. Please try again.',
  question_not_asked: 'One of the answers is for a question this request does not ask.',
  consent_required: 'The image-rights authorisation must be accepted.',
  /** params: answer, megabytes */
  answer_too_large: 'Answer {{answer}} is larger than {{megabytes}} MB.',
  /** params: answer */
  answer_unreadable: 'Answer {{answer}} is not a video we can read. Please record it again.',
  /** params: answer */
  answer_no_sound: 'Answer {{answer}} has no sound. Check that your microphone is allowed and record it again.',
  /** params: answer */
  answer_empty: 'Answer {{answer}} is empty. Please record it again.',
  /** params: answer, seconds */
  answer_too_long:
    'Answer {{answer}} lasts more than {{seconds}} seconds; answers are limited to {{seconds}} seconds. Please record it again.',
  /** params: answer, width, height, maxSide */
  answer_frame_too_large:
    "Answer {{answer}} has a picture of {{width}}×{{height}} pixels, larger than we accept (at most {{maxSide}} pixels on a side, 3840×2160 in all). Please record it again with your camera's usual settings.",
  /** params: answer */
  answer_incomplete: 'Answer {{answer}} did not arrive complete. Please send it again.',
  upload_budget_exhausted:
    'Too many videos have been sent from your connection in the last hour. Please wait a little and try again.',

  /* ------------------------------------------------ any call (the error handler, the rate limiter) */
  rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  file_too_large: 'A file is larger than this installation accepts.',
  too_many_files: 'The request carries too many files.',
  too_many_parts: 'The request carries too many fields.',

  /* ------------------------------------------------ the company's calls: invalid input (400) */
  question_text_required: 'Write the question in English, in French, or in both.',
  question_text_ambiguous: "Send the question's text either as 'text' or as 'text_en' and 'text_fr', not both ways.",

  /* ------------------------------------------------ the company's calls: wrong state (409 conflict) */
  question_in_use:
    'This question cannot be deleted because it is being used in existing testimonial requests or testimonial responses.',
  nothing_to_unlock: 'This testimonial has not been recorded yet: there is nothing to unlock.',
  reminder_not_needed: 'This customer has already recorded their testimonial: no reminder needed.',
  reminder_request_expired: 'This request has expired. Send a new request instead of a reminder.',
  reminder_no_email: 'This request has no e-mail address: copy its link and send it to the customer yourself.',
  quote_not_in_transcript: 'A quote must be words the customer said: select it in the transcript.',
  /** params: duration (m:ss) */
  poster_outside_video: 'Choose a moment within the video, between 0:00 and {{duration}}.',
  wall_item_unavailable: 'One of these videos is no longer published. Reload the page and try again.',
  /* ------------------------------------------------ the customer's control (issue 29) */
  /** params: date (DD/MM/YYYY) */
  consent_withdrawn:
    'The customer withdrew their consent on {{date}}: this testimonial can no longer be published, edited, exported, downloaded or transcribed.',
  answer_removed: 'The customer asked for this answer to be removed: it can no longer be used in any video or publication.',
  all_answers_removed: 'The customer asked for every answer of this testimonial to be removed: there is nothing left to use.',
  approval_required: 'The customer must approve this video before it is published. Ask for their approval first.',
  approval_pending: 'The customer has not approved this video yet. You will be told as soon as they answer.',
  approval_changes_requested: 'The customer asked for changes to this video. Make a new version and ask for their approval again.',
  /** params: hours */
  approval_reminder_too_soon: 'The customer was sent this approval less than 24 hours ago. You can remind them again in {{hours}} h.',
  approval_already_decided: 'The customer has already answered this approval request.',
  approval_no_email: 'This customer gave no e-mail address, so they cannot be asked for their approval.',
  media_delete_not_withdrawn: "The media can only be deleted here once the customer has withdrawn their consent.",
  media_deleted: 'The videos of this testimonial have been deleted.',
  checkout_closed: 'This test payment was cancelled or has expired: it can no longer be paid. Start a new purchase.',

  /* ------------------------------------------------ subtitles (decision 167) */
  /** No engine of this installation knows the answer's language: retrying cannot help, typing can. */
  transcription_language_not_set_up:
    'Automatic transcription is not set up for this language on this installation. You can type the subtitles yourself.',
  /** params: line (1-based) */
  subtitle_line_empty: 'Line {{line}} has no text. Type its words or remove the line.',
  /** params: line */
  subtitle_line_timing: 'Line {{line}} must end after it starts.',
  /** params: line */
  subtitle_line_overlap: 'Line {{line}} starts before the previous line ends. Put the lines in order without overlap.',
  /** params: line, seconds (the answer's length) */
  subtitle_line_after_end: 'Line {{line}} goes past the end of the answer ({{seconds}} s).',
  /** params: max */
  subtitle_too_many_lines: 'There can be at most {{max}} subtitle lines.',

  /* ------------------------------------------------ open collection links (issue 30) */
  collection_link_unknown: 'This collection link does not exist. Please check the address.',
  /** params: company; language */
  collection_link_disabled: '{{company}} is not collecting testimonials through this link at the moment.',
  /** params: company; language */
  collection_link_expired: 'This collection link has expired. Thank you for your interest in {{company}}.',
  /** params: company; language */
  collection_link_full: 'This collection link has received all the testimonials it was meant to. Thank you for your interest in {{company}}.',
  /** params: company; language */
  collection_link_daily_cap: 'This link has received as many testimonials as it can today. Please come back tomorrow.',
  /** params: language */
  collection_details_refused: 'We could not accept these details. Please check them and try again.',
  /** params: language */
  email_code_required: 'Confirm your e-mail address with the code we sent you before sending your answers.',
  /** params: language; left */
  email_code_wrong: 'This code is not the one we sent. {{left}} tries left.',
  /** params: language */
  email_code_expired: 'This code has expired or was used up. Ask for a new code.',
  /* ------------------------------------------------ the request funnel (issue 30) */
  funnel_link_not_found: 'This collection link does not exist or was deleted.',
  timeline_request_not_found: 'This request does not exist or was deleted.',
  progress_foreign_origin: 'Progress is accepted only from the recording pages of this site.',
  /* ------------------------------------------------ automatic reminders and unsubscribing (issue 30) */
  reminder_unsubscribed: 'This customer unsubscribed from your e-mails: no reminder can be sent to this address.',
  reminder_days_invalid: 'Give at most 3 different days, in ascending order, each between 1 and 60.',
  time_zone_invalid: 'Choose a time zone from the list.',
  /* ------------------------------------------------ trims of an answer (issue 31, decision 201) */
  trim_not_ready: 'This answer is still being prepared: it can be trimmed once it is ready.',
  /** params: duration (m:ss.t, the answer's length) */
  trim_start_outside: 'The start must be within the answer, between 0:00.0 and {{duration}}.',
  /** params: duration */
  trim_end_outside: 'The end must be within the answer, between 0:00.0 and {{duration}}.',
  /** params: seconds */
  trim_too_short: 'Keep at least {{seconds}} s: the end must come at least {{seconds}} s after the start.',
  /* ------------------------------------------------ members and roles (issue 32, decision 215) */
  role_required: "Your role in this company does not allow this: ask an owner.",
  role_required_editor: "Viewers can watch, download and read transcripts. Ask an owner or editor to do this.",
  not_a_member: "You are not a member of this company.",
  last_owner: "A company always keeps at least one owner: make someone else an owner first.",
  member_not_found: "This person is not a member of this company.",
  already_member: "This person is already a member of this company.",
  invitation_pending: "An invitation to this e-mail address is already waiting: send it again instead.",
  invitation_not_found: "This invitation does not exist or was deleted.",
  invitation_invalid: "This invitation link is not valid. Please check the link in your e-mail.",
  invitation_expired: "This invitation has expired. Ask the company's owner to send it again.",
  invitation_cancelled: "This invitation was cancelled by the company's owner.",
  invitation_used: "This invitation has already been accepted.",
  /** params: email (the invited address) */
  invitation_email_mismatch: "This invitation was sent to {{email}}: sign in with that address to accept it.",
  /* ------------------------------------------------ the activity log (issue 32, decision 220) */
  /** params: field */
  activity_filter_invalid: "This filter of the activity log is not valid ({{field}}).",
  activity_cursor_invalid: "This page of the activity log is not valid: start again from the first page.",
} as const;

export type TErrorReason = keyof typeof ERROR_REASON_MESSAGES;
export const ERROR_REASONS = Object.keys(ERROR_REASON_MESSAGES) as [TErrorReason, ...TErrorReason[]];

/** A reason's parameters ({{name}} in its message). */
export type TErrorParams = Record<string, string | number>;

export function isErrorReason(value: unknown): value is TErrorReason {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_REASON_MESSAGES, value);
}

/** The English message of a reason with its parameters filled in. */
export function errorReasonMessage(reason: TErrorReason, params: TErrorParams = {}): string {
  return ERROR_REASON_MESSAGES[reason].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
